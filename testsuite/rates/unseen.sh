#!/bin/bash
# Sites never sampled in training: 200 cold branches of 50 visits a run
# and one hot loop, trained on 3 runs at sparsity 1000, where most cold
# branches get no sample.  Taken as never visited they would be sampled at
# every visit (about 8,600 samples a run against a budget near 200); given
# the samples of the sites sampled once (Good-Turing), the retrained runs
# keep the budget.
# CHECKS: bash $SRC
. "$SRCDIR/lib.sh"
d=$out/unseen
mkdir -p "$d/runs" "$d/again"
python3 "$here/gen-unseen.py" >"$d/unseen.c"
if "$sgcc" -O2 -fplugin-arg-sampler-schemes=branches "$d/unseen.c" -o "$d/plain" 2>"$d/plain.err"; then
    for seed in 1 2 3; do
        SAMPLER_SPARSITY=1000 SAMPLER_SEED=$seed SAMPLER_FILE="$d/runs/$seed.report" "$d/plain" 50
    done
    "$report" rates "$d/runs" --output "$d/unseen.rates" 2>"$d/rates.err"
    "$sgcc" -O2 -fplugin-arg-sampler-schemes=branches -fplugin-arg-sampler-rates="$d/unseen.rates" \
        -fplugin-arg-sampler-site-table="$d/trained.sites" "$d/unseen.c" -o "$d/trained" 2>"$d/trained.err"
    for seed in $(seq 11 20); do
        SAMPLER_SPARSITY=1000 SAMPLER_SEED=$seed SAMPLER_FILE="$d/again/$seed.report" "$d/trained" 50
    done
    budget=$(awk '/^# budget/ { print $3 }' "$d/unseen.rates")
    unseen=$(awk '/never sampled/ { print $2 }' "$d/unseen.rates")
    total=$(for seed in $(seq 11 20); do site_samples "$d/trained.sites" "$d/again/$seed.report"; done |
            awk '{ n += $2 } END { print n / 10 }')
    # Poisson slack on ten runs: the budget plus four standard deviations.
    if [ "${unseen:-0}" -gt 100 ] &&
       awk -v t="$total" -v b="$budget" 'BEGIN { exit !(t <= b + 4 * sqrt(b / 10) + 1) }'; then
        pass "rates: sites never sampled keep the budget" "$unseen never sampled; $total samples a run, budget $budget"
    else
        fail_with "rates: sites never sampled keep the budget" "${unseen:-?} never sampled; $total samples a run, budget $budget" "$(cat "$d/rates.err" "$d/trained.err")"
    fi
else
    fail_with "build(unseen)" "$(cat "$d/plain.err")"
fi
finish
