#!/bin/sh
# check-program.sh OPT: the C++ program $SRC, with exception handling,
# built at OPT plainly with g++ and with the plugin (every scheme, or
# $CXX_SCHEMES), run at sparsities 0, 1 and 100: each instrumented run must
# print what the plain build prints and exit as it does.  Every function
# with sites must be cloned into fast and slow copies (verbose says so); at
# sparsity 1 the report must hold samples from each function (the exact
# counts, every visit sampled), and at sparsity 100 each count of at least
# 2000 at sparsity 1 must lie within its binomial bounds (99.9%,
# Bonferroni over the counts; fixed seed): exceptions that leave a region
# halfway must give back what its check took, or the counts after them
# fall short.  $NAME-*.cc are more units of the program, compiled with the
# flags of their "// unit-flags:" line (files without directives: helpers
# of the folder, not cases).
. "$TOOLS/tally.sh"
opt=$1
export SAMPLER_GCC=g++
schemes=${CXX_SCHEMES:-all}
scratch=$T

# build_case OUT CC ARGS...: compiles the program's units with CC at OPT
# and links OUT.
build_case () {
    out=$1 cc=$2
    shift 2
    objs=
    for unit in "$SRC" "$SRCDIR/$NAME"-*.cc; do
        [ -f "$unit" ] || continue
        flags=$(sed -n 's|^// unit-flags: ||p' "$unit")
        obj=$out.$(basename "$unit" .cc).o
        # $opt and $flags are split into words on purpose.
        # shellcheck disable=SC2086
        $cc $opt $flags "$@" -c "$unit" -o "$obj" || return 1
        objs="$objs $obj"
    done
    # shellcheck disable=SC2086
    $cc $opt $objs -o "$out"
}

# run_matches LABEL ENV...: the instrumented program prints what the plain
# one printed and exits with its status.
run_matches () {
    what=$1
    shift
    env "$@" SAMPLER_FILE="$scratch/report" "$scratch/inst" >"$scratch/out" 2>"$scratch/err"
    echo "exit $?" >>"$scratch/out"
    if cmp -s "$scratch/plain.out" "$scratch/out"; then
        pass "$what"
    else
        diff "$scratch/plain.out" "$scratch/out" >"$scratch/diff"
        cat "$scratch/err" >>"$scratch/diff"
        fail "$what: output differs from the plain build's" "$scratch/diff"
    fi
}

label="$NAME $opt"
if ! build_case "$scratch/plain" g++ 2>"$scratch/err"; then
    fail "$label: plain build" "$scratch/err"
    finish
fi
"$scratch/plain" >"$scratch/plain.out" 2>/dev/null
echo "exit $?" >>"$scratch/plain.out"
if ! build_case "$scratch/inst" "$WRAPPER" -fplugin-arg-sampler-schemes="$schemes" \
        -fplugin-arg-sampler-verbose 2>"$scratch/verbose"; then
    fail "$label: instrumented build" "$scratch/verbose"
    finish
fi
if grep -q "not cloned" "$scratch/verbose"; then
    fail "$label: every function cloned" "$scratch/verbose"
elif grep -q "cloned into fast and slow copies" "$scratch/verbose"; then
    pass "$label: every function cloned"
else
    fail "$label: verbose names no cloned function" "$scratch/verbose"
fi
run_matches "$label sparsity 0"
rm -f "$scratch/report"
run_matches "$label sparsity 100" SAMPLER_SPARSITY=100 SAMPLER_SEED=5
"$REPORT" show "$scratch/report" --format=csv >"$scratch/sparse.csv" 2>/dev/null
rm -f "$scratch/report"
run_matches "$label sparsity 1" SAMPLER_SPARSITY=1 SAMPLER_SEED=5
# Every function that was cloned (verbose names it) sampled.
if "$REPORT" show "$scratch/report" --format=csv >"$scratch/csv" 2>"$scratch/err"; then
    missing=
    for fn in $(sed -n "s/.*sampler: '\([^']*\)'.*cloned into fast.*/\1/p" "$scratch/verbose" \
                | grep -v '\.unsampled\.' | sed 's/(.*//; s/.* //; s/.*:://' | sort -u); do
        grep -q "$fn" "$scratch/csv" || missing="$missing $fn"
    done
    if [ -z "$missing" ]; then
        pass "$label sparsity 1: every cloned function sampled"
    else
        echo "not in the report:$missing" >"$scratch/diff"
        fail "$label sparsity 1: every cloned function sampled" "$scratch/diff"
    fi
else
    fail "$label sparsity 1: report readable" "$scratch/err"
fi
check "$label sparsity 100: counts within binomial bounds" \
    python3 "$SRCDIR/binomial-bounds.py" "$scratch/csv" "$scratch/sparse.csv" 100
finish
