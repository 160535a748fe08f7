#!/bin/bash
# Fairness: loop.c's branch at line 24 with branches alone and with branches
# and subpaths, 20 seeds at sparsity 100: its sampled true outcomes within 4
# standard deviations of the binomial mean (the countdown held while
# recording still samples every other site at its rate; fairness.py).
# CHECKS: bash $SRC
. "$SRCDIR/lib.sh"
# Fairness: the branch at line 24 of loop.c, true in 50000 of 100000.
for schemes in branches branches,subpaths; do
    rm -f "$scratch/sites"
    if ! build_program loop -O2 "$scratch/fair" -fplugin-arg-sampler-schemes=$schemes \
            "-fplugin-arg-sampler-site-table=$scratch/sites"; then
        fail "fairness($schemes)" "$scratch/build.err"
        continue
    fi
    for seed in $(seq 1 20); do
        SAMPLER_SPARSITY=100 SAMPLER_SEED=$seed SAMPLER_FILE="$scratch/fair-$schemes-$seed.report" \
            "$scratch/fair" >/dev/null
    done
    if python3 "$here/fairness.py" "$scratch/sites" "$scratch"/fair-$schemes-*.report >"$scratch/fair.out"
    then
        pass "fairness($schemes): $(cat "$scratch/fair.out")"
    else
        fail "fairness($schemes)" "$scratch/fair.out"
    fi
done
finish
