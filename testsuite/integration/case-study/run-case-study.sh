#!/bin/sh
# The case study of statistical bug isolation on a real program: bc 1.07.1
# from Debian with the bug of bc 1.06 put back (bc-more-arrays.patch),
# built with sampler (SCHEMES, default returns,branches,scalar-pairs), run on RUNS random
# programs (bc-inputs.py, default 300) at sparsity 100.  A run failed when
# its output or exit status differs from those of bc built plainly from the
# unpatched source (the oracle); sampler-report rank takes those labels
# (--labels), and the test passes when one of the first two steps of the
# elimination lies in more_arrays, the function with the bug.
# Usage: run-case-study.sh BUILD_DIR   (prints "N passed, N failed")
# RUNS=N runs more or fewer inputs; SCHEMES and EXTRA_CFLAGS change the
# build; KEEP_SCRATCH=1 keeps the runs, reports and rankings (rank.txt,
# rank.csv, rank.html).
build=$(cd "${1:?usage: run-case-study.sh BUILD_DIR}" && pwd) || exit 2
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../tools/tally.sh"
top=$(cd "$here/../../.." && pwd)
runs=${RUNS:-300}
schemes=${SCHEMES:-returns,branches,scalar-pairs}
extra=${EXTRA_CFLAGS-}
scratch=$(mktemp -d "${TMPDIR:-/tmp}/sampler-case-study.XXXXXX") || exit 2
trap '[ -n "${KEEP_SCRATCH-}" ] || rm -rf "$scratch"' EXIT

source=$("$top/testsuite/tools/fetch-debian-source.sh" bc) || { fail "fetch bc's source"; finish; }

# build NAME CC CFLAGS PATCH: bc from a copy of the source (timestamps kept,
# so that make does not want automake).
build_bc () {
    dir=$scratch/$1
    cp -a "$source" "$dir" &&
    { [ -z "$4" ] || patch -s -d "$dir" -p1 <"$4"; } &&
    (cd "$dir" && ./configure CC="$2" CFLAGS="$3" && \
     make -j2 ACLOCAL=true AUTOMAKE=true AUTOCONF=true MAKEINFO=true) \
        >"$scratch/$1.log" 2>&1 && [ -x "$dir/bc/bc" ]
}
if build_bc plain gcc "-O2" "" &&
   build_bc sampled "$build/bin/sampler-gcc" \
       "-O2 -fplugin-arg-sampler-schemes=$schemes $extra" "$here/bc-more-arrays.patch"; then
    pass "bc built plainly, and with the bug and sampler"
else
    fail "build bc" "$scratch/$(ls -t "$scratch" | grep '\.log$' | head -n 1)"
    finish
fi

# Failing runs may crash: their reports must still be written, with the
# signal (the runtime's fatal-signal handler).
printf 'int main (int argc, char **argv) { if (argc > 0) *(volatile int *) 0 = 0; return 0; }\n' \
    >"$scratch/crash.c"
"$build/bin/sampler-gcc" -fplugin-arg-sampler-schemes=branches "$scratch/crash.c" -o "$scratch/crash"
sh -c "cd '$scratch' && SAMPLER_SPARSITY=1 SAMPLER_FILE=crash.report ./crash; exit 0" >/dev/null 2>&1
if grep -q "^exit	signal	11$" "$scratch/crash.report" 2>/dev/null; then
    pass "a crashing run writes its report, with the signal"
else
    fail "a crashing run left no report with 'exit signal 11'" "$scratch/crash.report"
fi

mkdir -p "$scratch/inputs" "$scratch/reports"
: >"$scratch/labels"
n_failed=0
lost=0
seed=1
while [ $seed -le "$runs" ]; do
    input=$scratch/inputs/$seed.bc
    python3 "$here/bc-inputs.py" $seed >"$input"
    "$scratch/plain/bc/bc" -q "$input" >"$scratch/expected.out" 2>/dev/null </dev/null
    expected_status=$?
    report=$scratch/reports/run-$seed.report
    SAMPLER_SPARSITY=100 SAMPLER_SEED=$seed SAMPLER_FILE=$report \
        timeout 20 "$scratch/sampled/bc/bc" -q "$input" >"$scratch/got.out" 2>/dev/null </dev/null
    status=$?
    if [ ! -s "$report" ]; then
        lost=$((lost + 1))
    elif [ $status = $expected_status ] && cmp -s "$scratch/expected.out" "$scratch/got.out"; then
        printf 'success\t%s\n' "$report" >>"$scratch/labels"
    else
        printf 'failure\t%s\n' "$report" >>"$scratch/labels"
        n_failed=$((n_failed + 1))
    fi
    seed=$((seed + 1))
done
echo "runs: $runs, failing: $n_failed, without a report: $lost"
if [ $n_failed -gt 0 ] && [ $lost = 0 ]; then
    pass "$runs runs, $n_failed failing, each with its report"
else
    fail "$runs runs: $n_failed failing, $lost without a report"
fi

"$build/bin/sampler-report" rank "$scratch/reports" --labels "$scratch/labels" \
    >"$scratch/rank.txt" 2>"$scratch/rank.err" &&
"$build/bin/sampler-report" rank "$scratch/reports" --labels "$scratch/labels" --format=csv \
    >"$scratch/rank.csv" 2>>"$scratch/rank.err" &&
"$build/bin/sampler-report" rank "$scratch/reports" --labels "$scratch/labels" --format=html \
    --source-dir "$scratch/sampled/bc" >"$scratch/rank.html" 2>>"$scratch/rank.err"
sed -n '1,/^$/p; /^Elimination/,/^$/p' "$scratch/rank.txt"
# The bug shows in two predicates of nearly equal Importance: the loop
# with the wrong bound (`indx > a_count' in more_arrays) and its trigger
# in the caller (`next_array < next_var' in lookup: more variables than
# arrays, true in successful runs too, where the overrun did no harm).
# Which of the two comes first depends on which sites the sampled visits
# fell on, so a change in the set of sites can swap them; the bug's own
# line must be among the first two steps.
steps=$(python3 "$here/first-steps.py" "$scratch/rank.csv")
case " $steps " in
    *" more_arrays "*)
        pass "more_arrays is in the first two steps of the elimination ($steps)" ;;
    *)
        fail "the first two steps of the elimination are in '$steps', not more_arrays" "$scratch/rank.txt" ;;
esac
finish
