#!/bin/bash
# threads.c: four threads at sparsity 1, no update lost; the same, then
# abort: the report at the signal has every value.
# CHECKS: bash $SRC
. "$TESTSUITE/schemes/values/lib.sh"
if build_program threads -O2; then
    printf '%s\n' 0 1 2 3 4 5 6 7 | awk '{ print "14:9\tv (signed)\t" $1 "\t5000\t-" }' \
        >"$scratch/threads.expected"
    for mode in threads crash; do
        # In a subshell of its own, whose "Aborted" goes to /dev/null.
        status=$( (SAMPLER_SPARSITY=1 SAMPLER_FILE=$scratch/$mode.report \
                   "$scratch/threads-O2" $mode; echo $?) 2>/dev/null)
        if { [ $mode = threads ] && [ $status = 0 ]; } ||
           { [ $mode = crash ] && [ $status -gt 128 ] &&
             grep -qx "exit.signal.6" "$scratch/$mode.report"; }; then
            value_rows "$scratch/threads-O2" "$scratch/$mode.report" >"$scratch/$mode.rows"
            if diff -u "$scratch/threads.expected" "$scratch/$mode.rows" >"$scratch/diff"; then
                pass "$mode: 4 x 10000 visits, 8 values of 5000 each"
            else
                fail "$mode" "$scratch/diff"
            fi
        else
            fail_with "$mode: exit status $status"
        fi
    done
else
    fail "build(threads)" "$scratch/build.err"
fi

finish
