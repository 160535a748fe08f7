#!/bin/bash
# sampler-report plan (docs/adaptive.md): plan.c fails when x > 90 and x is even.
# 640 runs at sparsity 1 (x = 1 .. 100 in turn: x = 92, 94, .., 100 fail,
# 30 runs); the plan for sparsity 100 leaves scale's x % 3 == 0 and the
# loop's branch (observed in every run, their Increase's upper bound under
# 0.05) uninstrumented, raises risky's x > 90 (true in 30 failing and 30
# successful runs: Increase 30/60 - 30/640 = 0.453) ten times (weight 10 in
# unit 1), keeps printf's return (observed in no failing run) at the base
# rate; the plugin builds with it.
# CHECKS: bash $SRC
. "$SRCDIR/lib.sh"
d=$out/plan
mkdir -p "$d/runs"
if "$sgcc" -O2 -fplugin-arg-sampler-schemes=branches,returns \
        -fplugin-arg-sampler-site-table="$d/plain.sites" "$here/plan.c" -o "$d/plain" \
        2>"$d/plain.err"; then
    for r in $(seq 0 639); do
        SAMPLER_SPARSITY=1 SAMPLER_SEED=$r SAMPLER_FILE="$d/runs/$r.report" "$d/plain" $((r % 100 + 1)) >/dev/null
    done
    "$report" plan "$d/runs" --sparsity=100 --output "$d/plan.rates" 2>"$d/plan.err"
    weight() { awk -F'\t' -v p="$1" '$1 == "site" && $8 == p { print $2 }' "$d/plan.rates" | paste -sd' '; }
    got="x > 90: $(weight 'x > 90'); x % 3 == 0: $(weight 'x % 3 == 0'); i <= 99: $(weight 'i <= 99'); printf: $(weight 'printf (...)')"
    name="plan: settled sites at weight 0, the suspect raised, the rest at the base rate"
    if [ "$got" = "x > 90: 10; x % 3 == 0: 0; i <= 99: 0; printf: 1" ] \
       && grep -q '^# scale (.*): out: settled' "$d/plan.rates" \
       && grep -q '^# risky (.*): in, raised' "$d/plan.rates" \
       && grep -q '^#   suspect: line 21, x > 90: Increase 0.453, true in 30 failing and 30 successful' "$d/plan.rates"; then
        pass "$name" "$got"
    else
        fail_with "$name" "$got" "$(cat "$d/plan.err" "$d/plan.rates")"
    fi
    name="plan: the plugin builds with the plan, at its weights"
    if "$sgcc" -O2 -fplugin-arg-sampler-schemes=branches,returns -fplugin-arg-sampler-rates="$d/plan.rates" \
            -fplugin-arg-sampler-site-table="$d/planned.sites" "$here/plan.c" -o "$d/planned" \
            2>"$d/planned.err"; then
        wrong=$(awk -F'\t' 'FNR == NR { if ($1 == "site") w[$8] = $2; next }
                            $1 == "site" && w[$9] != $11 { print $9 ": weight " $11 ", planned " w[$9] }' \
                    "$d/plan.rates" "$d/planned.sites")
        if [ -z "$wrong" ]; then
            pass "$name"
        else
            fail_with "$name" "$wrong"
        fi
    else
        fail_with "$name" "$(cat "$d/planned.err")"
    fi
    name="plan: no --sparsity, and two builds of one source, are refused"
    SAMPLER_SPARSITY=100 SAMPLER_SEED=1 SAMPLER_FILE="$d/runs/planned.report" "$d/planned" 95 >/dev/null
    if ! "$report" plan "$d/runs" --output "$d/x.rates" --sites "$d/plain.sites" 2>"$d/nosparsity.err" \
       && grep -q 'with --sparsity=N' "$d/nosparsity.err" \
       && ! "$report" plan "$d/runs" --sparsity=100 --output "$d/x.rates" --sites "$d/plain.sites" \
            --sites "$d/planned.sites" 2>"$d/two.err" \
       && grep -q 'two builds of .*plan.c: plan reads the runs of one build' "$d/two.err" \
       && ! [ -e "$d/x.rates" ]; then
        pass "$name" "$(cat "$d/nosparsity.err" "$d/two.err")"
    else
        fail_with "$name" "$(cat "$d/nosparsity.err" "$d/two.err")"
    fi
    for args in "--sparsity=0" "--boost=0" "--settled-runs=x" "--settled-increase=1" \
                "--settled-increase=0" "--confidence=100"; do
        refused "plan: bad option $args" "$d/x.rates" "$report" plan "$d/runs" \
            --sites "$d/plain.sites" --sparsity=100 --output "$d/x.rates" $args
    done
else
    fail_with "build(plan)" "$(cat "$d/plain.err")"
fi
finish
