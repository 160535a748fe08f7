#!/bin/bash
# fork.c: the child's report starts from zero, the parent's holds its own
# values only.
# CHECKS: bash $SRC
. "$TESTSUITE/schemes/values/lib.sh"
if build_program fork -O2; then
    mkdir -p "$scratch/fork"
    if SAMPLER_SPARSITY=1 SAMPLER_FILE=$scratch/fork/%p.report "$scratch/fork-O2"; then
        child=$(grep -l '^parent' "$scratch"/fork/*.report)
        parent=$(grep -L '^parent' "$scratch"/fork/*.report)
        if [ -n "$child" ] && [ -n "$parent" ] &&
           [ "$(value_rows "$scratch/fork-O2" "$child" | cut -f3,4 | tr '\t\n' ' ')" = "7 4 " ] &&
           [ "$(value_rows "$scratch/fork-O2" "$parent" | cut -f3,4 | sort -n | tr '\t\n' ' ')" \
             = "5 3 9 2 " ]; then
            pass "fork: the child's values from zero, the parent's its own"
        else
            fail_with "fork" "child: $(value_rows "$scratch/fork-O2" "$child" 2>&1)" \
                "parent: $(value_rows "$scratch/fork-O2" "$parent" 2>&1)"
        fi
    else
        fail_with "fork: run failed"
    fi
else
    fail "build(fork)" "$scratch/build.err"
fi

finish
