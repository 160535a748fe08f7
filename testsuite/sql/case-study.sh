#!/bin/sh
# rank on the bc case study's runs: its bc with the more_arrays bug, runs 1
# to 200 at sparsity 100, as `make evaluate-ranking' keeps them in
# BUILD/evaluate-ranking (built and run here the first time), in the three
# engines as in sampler-report.
# TIMEOUT: 1800
# CHECKS: sh $SRC
. "$SRCDIR/lib.sh"
start_postgresql
# Its bc with the more_arrays bug, and runs 1 to 200 at sparsity 100, as
# evaluate-ranking.sh keeps them (built and run here the first time).
work=${WORK:-$build/evaluate-ranking}
(
    here=$top/testsuite/integration/case-study
    . "$here/evaluate-lib.sh"
    build_bc plain gcc "-O2" "" && reference=$work/plain/bc/bc &&
    build_bc sampled-more-arrays "$build/bin/sampler-gcc" \
        "-O2 -fplugin-arg-sampler-schemes=$schemes" "$top/testsuite/integration/case-study/bc-more-arrays.patch" &&
    first=1 && for last in 25 50 100 200; do
        inputs "$last"
        run_chunk "$work/more-arrays/s100/runs-$first-$last" "$work/sampled-more-arrays/bc/bc" 100 \
            "$first" "$last"
        first=$((last + 1))
    done
) >"$scratch/bc.log" 2>&1
bc_runs=
: >"$scratch/bc.labels"
for chunk in 1-25 26-50 51-100 101-200; do
    bc_runs="$bc_runs $work/more-arrays/s100/runs-$chunk"
    cat "$work/more-arrays/s100/runs-$chunk.labels" >>"$scratch/bc.labels" 2>/dev/null
done
if [ "$(wc -l <"$scratch/bc.labels")" -ge 190 ] && grep -q '^failure' "$scratch/bc.labels"; then
    bc="$bc_runs --binary $work/sampled-more-arrays/bc/bc --labels $scratch/bc.labels"
    # shellcheck disable=SC2086
    "$tool" rank $bc --top=0 --format=csv >"$scratch/bc.csv" 2>"$scratch/rank.log" &&
    "$tool" export $bc -o "$scratch/bc-export" 2>>"$scratch/rank.log" ||
        fail "bc: rank and export" "$scratch/rank.log"
    echo "bc: $(wc -l <"$scratch/bc.labels") runs, $(grep -c '^failure' "$scratch/bc.labels") failing, $(($(wc -l <"$scratch/bc-export/predicates.csv") - 1)) predicates"
    agree_rank bc "$scratch/bc-export" "$scratch/bc.csv"
else
    fail "bc: build and run the case study's bc" "$scratch/bc.log"
fi
finish
