# lib.sh, sourced by the cases of this folder (bash): the subpaths scheme end
# to end (plugin, runtime, sampler-report subpaths).
#   build_program NAME OPT OUTPUT [EXTRA ARGS...]   NAME.c of this folder
#   subpath_rows BINARY LENGTH REPORT...   "ESTIMATE LOW HIGH BLOCKS SITES"
#                     of every subpath of LENGTH blocks in the reports
#                     (SITES tells apart blocks on one line)
#   exact_env         the variables of exact mode (sparsity 1, every length,
#                     room for every subpath)
#   build_loop        loop.c at -O2 into $scratch/loop-O2 (a check when it fails)
#   exact_loop OPT    loop.c at OPT, and its exact-mode report with subpaths
#                     of 2 blocks, $scratch/exactOPT.report
set -u
. "$TOOLS/tally.sh"
here=$SRCDIR
scratch=$T
report=$REPORT
gcc=$WRAPPER

build_program() {   # NAME OPT OUTPUT [EXTRA ARGS...]
    local name=$1 opt=$2 output=$3
    shift 3
    (cd "$here" && "$gcc" $opt -fchecking "$@" "$name.c" -o "$output") 2>"$scratch/build.err"
}

subpath_rows() {   # BINARY LENGTH REPORT...
    local binary=$1 length=$2
    shift 2
    "$report" subpaths "$@" --binary "$binary" --length "$length" --top 100000 \
        --format=csv | python3 "$TOOLS/csv-fields.py" estimate low high blocks sites
}

exact_env="SAMPLER_SPARSITY=1 SAMPLER_SUBPATH_LENGTHS=all SAMPLER_SUBPATH_MEMORY=16000000"

build_loop () {
    if ! build_program loop -O2 "$scratch/loop-O2" -fplugin-arg-sampler-schemes=subpaths; then
        fail "build(loop)" "$scratch/build.err"
    fi
}

exact_loop () {   # OPT
    build_program loop $1 "$scratch/loop$1" -fplugin-arg-sampler-schemes=subpaths &&
    env $exact_env SAMPLER_SUBPATH_MAX=2 SAMPLER_FILE="$scratch/exact$1.report" \
        "$scratch/loop$1" >/dev/null
}

# formats INPUT BINARY REPORT...: --format=jsonl and --format=html agree
# with csv on the reports (formats-agree.py; the page well-formed,
# testsuite/tools/html-tables.py).
formats () {
    local input=$1 binary=$2 format
    shift 2
    for format in csv jsonl html; do
        "$report" subpaths "$@" --binary "$binary" --top 30 --format=$format \
            --source-dir "$here" >"$scratch/formats.$format" 2>"$scratch/formats.err"
    done
    if python3 "$TOOLS/html-tables.py" "$scratch/formats.html" >"$scratch/formats.json" \
            2>>"$scratch/formats.err" &&
       python3 "$here/formats-agree.py" "$scratch/formats.csv" "$scratch/formats.jsonl" \
            "$scratch/formats.json" >>"$scratch/formats.err" 2>&1
    then
        pass "formats($input): jsonl and html as csv"
    else
        fail "formats($input)" "$scratch/formats.err"
    fi
}
