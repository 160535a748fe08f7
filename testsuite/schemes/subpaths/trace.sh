#!/bin/bash
# SAMPLER_SUBPATH_TRACE on loop.c: the trace's counts of every subpath of 2
# to 8 blocks (bench/subpath-count.c) are exact mode's; at sparsity 100 the
# trace is the end of sparsity 1's, and the run's subpath list is the one
# it has untraced; subpath-count refuses bad subpaths and traces.
# CHECKS: bash $SRC
. "$SRCDIR/lib.sh"
build_loop
# The trace against exact mode (loop-O2's exact report, every subpath of
# 2, 4 and 8 blocks).
if gcc -std=c11 -O2 -Wall -Wextra -D_GNU_SOURCE "$TOP/bench/subpath-count.c" \
        -o "$scratch/subpath-count" 2>"$scratch/err"; then
    env $exact_env SAMPLER_SUBPATH_MAX=8 SAMPLER_FILE="$scratch/exact8.report" \
        "$scratch/loop-O2" 3000 >/dev/null
    SAMPLER_SPARSITY=1 SAMPLER_SUBPATH_TRACE="$scratch/trace1" \
        SAMPLER_FILE="$scratch/report-trace1" "$scratch/loop-O2" 3000 >/dev/null
    SAMPLER_SPARSITY=100 SAMPLER_SEED=5 SAMPLER_SUBPATH_TRACE="$scratch/trace100" \
        SAMPLER_FILE="$scratch/report-trace100" "$scratch/loop-O2" 3000 >/dev/null
    for length in 2 4 8; do
        "$report" subpaths "$scratch/exact8.report" --binary "$scratch/loop-O2" \
            --length $length --top 100000 --format=csv | tail -n +2
    done | python3 "$here/trace-rows.py" >"$scratch/exact8.rows"
    cut -d' ' -f2- "$scratch/exact8.rows" |
        "$scratch/subpath-count" "$scratch"/trace1.* >"$scratch/traced8" 2>&1
    if [ "$(ls "$scratch"/trace1.* | wc -l)" = 1 ] && [ "$(wc -l <"$scratch/exact8.rows")" -ge 20 ] &&
       paste -d' ' "$scratch/exact8.rows" <(head -n -1 "$scratch/traced8") |
           awk '$1 != $NF { bad = 1 } END { exit bad }'; then
        pass "trace: $(wc -l <"$scratch/exact8.rows") subpaths of 2 to 8 blocks, exact mode's counts"
    else
        fail_with "trace" "$(paste -d' ' "$scratch/exact8.rows" "$scratch/traced8" | head -n 20)"
    fi
    if python3 "$here/trace-suffix.py" "$scratch"/trace1.* "$scratch"/trace100.*
    then
        pass "trace at sparsity 100: the end of sparsity 1's"
    else
        fail_with "trace at sparsity 100" "$(ls -l "$scratch"/trace1.* "$scratch"/trace100.*)"
    fi
    # The traced run keeps the list it has without the trace (the same
    # seed): one run gives both.  A list is a set: its entries' order
    # follows their hashes, which follow the blocks' addresses (ASLR).
    SAMPLER_SPARSITY=100 SAMPLER_SEED=5 SAMPLER_FILE="$scratch/report-untraced100" \
        "$scratch/loop-O2" 3000 >/dev/null
    if grep -q '^subpath	' "$scratch/report-trace100" &&
       cmp -s <(grep '^subpath' "$scratch/report-trace100" | sort) \
              <(grep '^subpath' "$scratch/report-untraced100" | sort); then
        pass "trace at sparsity 100: the run's subpath list as without the trace"
    else
        fail_with "trace at sparsity 100: list" \
            "$(diff <(grep '^subpath' "$scratch/report-trace100" | sort) \
                    <(grep '^subpath' "$scratch/report-untraced100" | sort) | head -n 10)"
    fi
    # subpath-count refuses what it cannot read.
    printf 'abc\n' >"$scratch/odd.trace"
    for bad in "0:1 x:2|$scratch/trace1.*|line 1" "0:1 0:|$scratch/trace1.*|line 1" \
               "0:1|$scratch/odd.trace|not a trace" "0:1|$scratch/missing|cannot read"; do
        IFS='|' read -r line trace message <<<"$bad"
        if ! echo "$line" | "$scratch/subpath-count" $trace >/dev/null 2>"$scratch/err" &&
           grep -q "subpath-count: .*$message" "$scratch/err"; then
            pass "subpath-count refuses ($message: $line)"
        else
            fail "subpath-count refuses ($message: $line)" "$scratch/err"
        fi
    done
else
    fail "build(subpath-count)" "$scratch/err"
fi
finish
