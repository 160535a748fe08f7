# lib.sh, sourced by the cases of this folder (bash): preferential
# numbering of interesting paths (paths-interesting=FILE; docs/paths.md,
# "Preferential numbering").  Each case builds a program with the paths
# scheme as it is (the exact run, sparsity 1) and again with an
# interesting-paths file, and compares the two with check-ppp.py (exact
# counts, distinct numbers below the range, interesting paths counted in
# the array).
#   compile SOURCE OUT ARGS...   builds from SOURCE's directory
#   exact_run PROG DIR NAME ARGS...   an exact run and its paths csv
#   compare NAME DIR CHECK-ARGS...    check-ppp.py on DIR's exact and
#                     preferred runs (a check)
set -u
. "$TOOLS/tally.sh"
here=$SRCDIR
scratch=$T
report=$REPORT
shapes=$TESTSUITE/schemes/paths/shapes.c

# SOURCE OUT ARGS...: builds from SOURCE's directory.
compile() {
    local source=$1 out=$2; shift 2
    (cd "$(dirname "$source")" && "$WRAPPER" -fchecking \
        -fplugin-arg-sampler-schemes=paths "$@" "$(basename "$source")" -o "$out") \
        2>"$out.build"
}
# PROG DIR NAME ARGS...: an exact run and its paths csv.
exact_run() {
    local prog=$1 dir=$2 name=$3; shift 3
    rm -f "$dir/$name.report"
    SAMPLER_SPARSITY=1 SAMPLER_FILE="$dir/$name.report" "$prog" "$@" >/dev/null
    "$report" paths "$dir/$name.report" --binary "$prog" --top=1000000 --format=csv \
        >"$dir/$name.csv" 2>"$dir/$name.err"
}
# NAME DIR CHECK-ARGS...: check-ppp.py on DIR's exact and preferred runs.
compare() {
    local name=$1 dir=$2; shift 2
    if python3 "$here/check-ppp.py" "$dir/exact.csv" "$dir/preferred.csv" \
            "$dir/dump" "$@" >"$dir/check" 2>&1; then
        pass "$name: $(tail -n 1 "$dir/check")"
    else
        fail "$name" "$dir/check"
    fi
}

