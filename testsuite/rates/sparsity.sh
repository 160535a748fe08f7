#!/bin/bash
# Trained at sparsity 1 for sparsity 1000 (a new user's first try): the
# default budget is what a uniform build at 1000 takes, the training runs'
# visits over 1000, not what the training runs took (every visit, which
# wrote a file sampling every site at every visit); the rebuilt program's
# runs at 1000 keep it.  A --budget above it is a warning naming both.
# CHECKS: bash $SRC
. "$SRCDIR/lib.sh"
d=$out/sparsity
mkdir -p "$d/runs" "$d/again"
if "$sgcc" -O2 -fplugin-arg-sampler-schemes=branches -fplugin-arg-sampler-site-table="$d/plain.sites" \
        "$here/train.c" -o "$d/plain" 2>"$d/plain.err"; then
    for seed in 1 2 3; do
        SAMPLER_SPARSITY=1 SAMPLER_SEED=$seed SAMPLER_FILE="$d/runs/$seed.report" "$d/plain" >/dev/null
    done
    visits=$(for seed in 1 2 3; do site_samples "$d/plain.sites" "$d/runs/$seed.report"; done |
             awk '{ n += $2 } END { print n / 3 }')
    "$report" rates "$d/runs" --sparsity=1000 --output "$d/s1000.rates" 2>"$d/rates.err"
    budget=$(awk '/^# budget/ { print $3 }' "$d/s1000.rates")
    every=$(awk '/ at every visit/ { print $4 }' "$d/s1000.rates")
    sites=$(grep -c '^site' "$d/s1000.rates")
    "$sgcc" -O2 -fplugin-arg-sampler-schemes=branches -fplugin-arg-sampler-rates="$d/s1000.rates" \
        -fplugin-arg-sampler-site-table="$d/trained.sites" "$here/train.c" -o "$d/trained" \
        2>"$d/trained.err"
    for seed in $(seq 11 20); do
        SAMPLER_SPARSITY=1000 SAMPLER_SEED=$seed SAMPLER_FILE="$d/again/$seed.report" "$d/trained" >/dev/null
    done
    total=$(for seed in $(seq 11 20); do site_samples "$d/trained.sites" "$d/again/$seed.report"; done |
            awk '{ n += $2 } END { print n / 10 }')
    name="rates: trained at sparsity 1 for 1000, the budget follows 1000"
    # The budget is the visits over 1000 (exact: every visit was sampled);
    # Poisson slack on ten runs for the retrained runs' samples.
    if awk -v b="${budget:-0}" -v v="$visits" 'BEGIN { exit !(b > 0 && b < v / 1000 * 1.000001 && b > v / 1000 * 0.999999) }' \
       && [ "${every:-x}" != "$sites" ] \
       && awk -v t="$total" -v b="$budget" 'BEGIN { exit !(t <= b + 4 * sqrt(b / 10) + 1) }'; then
        pass "$name" "$visits visits a run; budget $budget; $every of $sites sites at every visit; $total samples a run at 1000"
    else
        fail_with "$name" "$visits visits a run; budget '$budget' (expected visits / 1000); '$every' of $sites sites at every visit; $total samples a run at 1000" "$(cat "$d/rates.err" "$d/trained.err")"
    fi
    name="rates: a budget above the sparsity's is a warning naming both"
    above=$(awk -v b="$budget" 'BEGIN { printf "%.0f", b * 10 }')
    if "$report" rates "$d/runs" --sparsity=1000 --budget="$above" --output "$d/above.rates" \
            2>"$d/above.err" \
       && grep -q "warning: --budget=$above is above the $budget samples per run a uniform build at sparsity 1000" "$d/above.err" \
       && grep -q "^# budget $above " "$d/above.rates" \
       && "$report" rates "$d/runs" --sparsity=1000 --budget="$budget" --output "$d/at.rates" \
            2>"$d/at.err" && ! [ -s "$d/at.err" ]; then
        pass "$name" "$(cat "$d/above.err")"
    else
        fail_with "$name" "$(cat "$d/above.err" "$d/at.err" 2>/dev/null)"
    fi
else
    fail_with "build(sparsity)" "$(cat "$d/plain.err")"
fi
finish
