#!/bin/sh
# How many runs rank needs to find a bug in bc at sparsities 1, 10, 100 and
# 1000: the case study's more_arrays bug (bc-more-arrays.patch: heap damage,
# the failing runs crash) and an injected wrong-output bug in out_char
# (bc-line-wrap.patch: long numbers broken in the wrong places), with Increase's
# bound from Wilson score intervals and a minimum support of 3 failing
# runs (rank's defaults, "new") and with the normal approximation and no
# minimum support (--interval=normal --min-failing=1, "old").  For each
# sparsity, the runs are read in prefixes of 25, 50, 100, ... runs; at each
# prefix both rankings are made, and the bug counts as found when one of
# the first two elimination steps lies in more_arrays (as in the case
# study; for the line-wrap bug, a step in out_char or in bc_out_num, which
# prints the long numbers that out_char breaks: the bug's own predicate, a
# line break, is true in every run that prints a number longer than a line,
# and only numbers of three lines or more come out wrong).  Prints a
# Markdown table (docs/ranking.md explains it):
#   runs needed   the smallest prefix from which on, up to the largest one
#                 run, the bug is among the first two steps
#   step, rank    at RANK_AT runs (default 400): the first elimination step
#                 in more_arrays, and the position of its first predicate
#                 in the ranking before elimination ("-": none kept)
# A sparsity stops after two consecutive prefixes where both rankings find
# the bug, or at MAX_RUNS runs (default 25600).
# Usage: evaluate-ranking.sh BUILD_DIR   (make evaluate-ranking)
# WORK=DIR keeps the builds, inputs and reports there (default
# BUILD_DIR/evaluate-ranking; reused when run again); SPARSITIES="1 10"
# and BUGS="more-arrays" (or line-wrap) run fewer.
build=$(cd "${1:?usage: evaluate-ranking.sh BUILD_DIR}" && pwd) || exit 2
here=$(cd "$(dirname "$0")" && pwd)
work=${WORK:-$build/evaluate-ranking}
max_runs=${MAX_RUNS:-25600}
rank_at=${RANK_AT:-400}
sparsities=${SPARSITIES:-1 10 100 1000}
bugs=${BUGS:-more-arrays line-wrap}
. "$here/evaluate-lib.sh"

build_bc plain gcc "-O2" "" || { echo "cannot build bc: see $work/plain.log" >&2; exit 1; }
reference=$work/plain/bc/bc

echo "| bug | sparsity | runs | failing | runs needed (old) | runs needed (new) | step, rank at $rank_at runs (old) | step, rank at $rank_at runs (new) |"
echo "|---|---|---|---|---|---|---|---|"
for bug in $bugs; do
function=$(bug_function "$bug") || exit 2
build_bc "sampled-$bug" "$build/bin/sampler-gcc" "-O2 -fplugin-arg-sampler-schemes=$schemes" \
    "$here/bc-$bug.patch" || { echo "cannot build bc: see $work/sampled-$bug.log" >&2; exit 1; }
for s in $sparsities; do
    first=1 last=25 inputs_list= labels=$work/$bug/s$s/prefix.labels
    need_old=- need_new=- both_in_row=0 at_old="-, -" at_new="-, -"
    mkdir -p "$work/$bug/s$s"
    : >"$labels"
    while [ $last -le "$max_runs" ]; do
        inputs "$last"
        run_chunk "$work/$bug/s$s/runs-$first-$last" "$work/sampled-$bug/bc/bc" "$s" "$first" "$last"
        inputs_list="$inputs_list $work/$bug/s$s/runs-$first-$last"
        cat "$work/$bug/s$s/runs-$first-$last.labels" >>"$labels"
        result=
        for variant in old new; do
            if [ $variant = old ]; then options="--interval=normal --min-failing=1"; else options=; fi
            # shellcheck disable=SC2086
            "$tool" rank $inputs_list --binary "$work/sampled-$bug/bc/bc" --labels "$labels" \
                --top=0 --format=csv $options \
                >"$work/$bug/s$s/$variant.csv" 2>"$work/$bug/s$s/$variant.err" || { cat "$work/$bug/s$s/$variant.err" >&2; exit 1; }
            set -- $(found "$work/$bug/s$s/$variant.csv" "$function")
            step=$1 position=$2
            if [ "$step" = 1 ] || [ "$step" = 2 ]; then
                eval "[ \"\$need_$variant\" = - ] && need_$variant=$last"
                result="$result+"
            else
                eval "need_$variant=-"
            fi
            [ "$last" = "$rank_at" ] && eval "at_$variant=\"$step, $position\""
        done
        if [ "$result" = "++" ]; then both_in_row=$((both_in_row + 1)); else both_in_row=0; fi
        n_runs=$last
        n_failing=$(grep -c '^failure' "$labels")
        [ $both_in_row -ge 2 ] && [ "$last" -ge "$rank_at" ] && break
        first=$((last + 1)) last=$((last * 2))
    done
    echo "| $(echo $function | sed 's/ /, /g') | $s | $n_runs | $n_failing | $need_old | $need_new | $at_old | $at_new |"
done
done
