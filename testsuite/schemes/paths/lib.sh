# lib.sh, sourced by the cases of this folder (bash): the paths scheme
# counts the paths the program took, read back with `sampler-report paths'
# as rows
#     FUNCTION  TRAVERSALS  REGION'S LINE  PATH SPELLED AS LINES AND BRANCHES
#   rows INPUT...      those rows, sorted (sampler-report paths arguments)
#   totals INPUT...    "FUNCTION SAMPLED LOST PAIRS-SUM" per function
#   compile OUT OPT ARGS...   shapes.c built from its folder
#   run PROG SPARSITY ROUNDS REPORT   a run, its output and status in REPORT.out
#   plain_run          shapes.c built plainly and run: $scratch/plain.out
#   shapes OPT         shapes.c with paths and branches at OPT, run at
#                      sparsity 1, 2 rounds: $scratch/shapesOPT/
#   binom_check NAME PAIRS LEAST   a check: each count of PAIRS ("KEY EXACT
#                      SPARSE" lines, at least LEAST) within the two-sided
#                      bounds of Binomial(EXACT, 1/100) (confidence 0.999,
#                      Bonferroni over the counts)
set -u
. "$TOOLS/tally.sh"
here=$SRCDIR
scratch=$T
report=$REPORT
statcheck=$STAT_CHECK
ROUNDS=${ROUNDS:-2000}
SEED=${SEED:-4242}
paths=$TESTSUITE/schemes/paths

rows() {   # INPUT... (sampler-report paths arguments)
    "$report" paths "$@" --top=1000000 --format=csv |
    python3 "$TOOLS/csv-fields.py" function count region_line spelled | sort
}
totals() {   # INPUT...
    "$report" paths "$@" --top=1000000 --format=csv | python3 "$paths/totals.py"
}

compile() {   # OUT OPT ARGS...
    local out=$1 opt=$2; shift 2
    (cd "$paths" && "$WRAPPER" $opt -fchecking "$@" shapes.c -o "$out") \
        2>"$out.build"
}
run() {   # PROG SPARSITY ROUNDS REPORT
    SAMPLER_SPARSITY=$2 SAMPLER_SEED=$SEED SAMPLER_FILE=$4 "$1" "$3" >"$4.out"
    echo $? >>"$4.out"
}
plain_run () {
    if gcc -O2 -o "$scratch/plain" "$paths/shapes.c" 2>"$scratch/err"; then
        "$scratch/plain" 2 >"$scratch/plain.out"; echo $? >>"$scratch/plain.out"
    else
        fail_with "plain build" "$(cat "$scratch/err")"
    fi
}
shapes () {   # OPT
    local dir=$scratch/shapes$1
    mkdir -p "$dir"
    compile "$dir/shapes" "$1" -fplugin-arg-sampler-schemes=paths,branches &&
    run "$dir/shapes" 1 2 "$dir/small.report" &&
    rows "$dir/small.report" --binary "$dir/shapes" >"$dir/small.rows"
}

binom_check () {   # NAME PAIRS LEAST
    local name=$1 pairs=$2 least=$3 m conf key exact sparse bad=()
    m=$(wc -l <"$pairs")
    conf=$(awk -v m="$m" 'BEGIN { printf "%.10f", 1 - 0.001 / m }')
    while IFS=$'\t' read -r key exact sparse; do
        "$statcheck" binom "$exact" "$sparse" 1/100 "$conf" >/dev/null ||
            bad+=("$key: $sparse of $exact")
    done <"$pairs"
    if [ "$m" -lt "$least" ]; then
        fail_with "binom($name)" "only $m paths and functions"
    elif [ ${#bad[@]} -eq 0 ]; then
        pass "binom($name): $m path counts and function totals within bounds"
    else
        fail_with "binom($name)" "${bad[@]}"
    fi
}
