#!/bin/bash
# Training: sampler-report rates on 20 runs of train.c, applied with
# -fplugin-arg-sampler-rates to the same runs again: rare sites at every
# visit, within the budget, the hot site at its trained rate; show's
# estimates through each site's rate; sites matched across moved lines;
# --min-rate leaves hot sites uninstrumented; rates' bad options.
# CHECKS: bash $SRC
. "$SRCDIR/lib.sh"
d=$out/train
mkdir -p "$d/runs" "$d/again"
cp "$here/train.c" "$d/train.c"
if "$sgcc" -O2 -fplugin-arg-sampler-schemes=branches -fplugin-arg-sampler-site-table="$d/plain.sites" \
    "$d/train.c" -o "$d/plain" 2>"$d/plain.err"; then
    for seed in $(seq 1 20); do
        SAMPLER_SPARSITY=100 SAMPLER_SEED=$seed SAMPLER_FILE="$d/runs/$seed.report" "$d/plain" >/dev/null
    done
    if "$report" rates "$d/runs" --output "$d/train.rates" 2>"$d/rates.err"; then
        pass "rates: trained on 20 runs" "$(grep -c '^site' "$d/train.rates") sites, $(grep '^unit' "$d/train.rates")"
    else
        fail_with "rates: trained on 20 runs" "$(cat "$d/rates.err")"
    fi
    budget=$(awk '/^# budget/ { print $3 }' "$d/train.rates")
    "$sgcc" -O2 -fplugin-arg-sampler-schemes=branches -fplugin-arg-sampler-rates="$d/train.rates" \
        -fplugin-arg-sampler-site-table="$d/trained.sites" "$d/train.c" -o "$d/trained" 2>"$d/trained.err"
    for seed in $(seq 21 40); do
        SAMPLER_SPARSITY=100 SAMPLER_SEED=$seed SAMPLER_FILE="$d/again/$seed.report" "$d/trained" >/dev/null
    done
    for seed in $(seq 21 40); do site_samples "$d/trained.sites" "$d/again/$seed.report"; done >"$d/again.samples"
    for seed in $(seq 1 20); do site_samples "$d/plain.sites" "$d/runs/$seed.report"; done >"$d/before.samples"
    # The rare branch (line 15) has 100 visits a run, the once-a-run one
    # (line 19) one: at every visit now.
    per_run() { awk -v l="$1" '$1 == l { n += $2 } END { print n / 20 }' "$2"; }
    rare_before=$(per_run 15 "$d/before.samples")
    rare=$(per_run 15 "$d/again.samples")
    once=$(per_run 19 "$d/again.samples")
    if [ "$rare" = 100 ] && [ "$once" = 1 ]; then
        pass "rates: rare sites at every visit" "rare branch $rare_before samples a run before, $rare after; once-a-run branch $once"
    else
        fail_with "rates: rare sites at every visit" "rare branch $rare_before a run before, $rare after (visits 100); once-a-run $once (visits 1)"
    fi
    total=$(awk '{ n += $2 } END { print n / 20 }' "$d/again.samples")
    if awk -v t="$total" -v b="$budget" 'BEGIN { exit !(t <= b * 1.02) }'; then
        pass "rates: within the budget" "$total samples a run, budget $budget"
    else
        fail_with "rates: within the budget" "$total samples a run, budget $budget"
    fi
    # The hot branch i % 3 (line 12): its trained rate, binomially.
    w=$(awk -F'\t' '$1 == "site" && $5 == 12 { print $11 }' "$d/trained.sites")
    u=$(awk -F'\t' '$1 == "unit" { print $6 }' "$d/trained.sites")
    r=$(awk -v w="$w" -v m=$((100 * u)) 'BEGIN { printf "%.12g\n", 1 - exp(w * log(1 - 1 / m)) }')
    hot=$(awk '$1 == 12 { n += $2 } END { print n }' "$d/again.samples")
    if detail=$("$statcheck" binom 2000000 "$hot" "$r" 0.9999 2>&1); then
        pass "rates: hot site at its trained rate (weight $w, unit $u)" "$detail"
    else
        fail_with "rates: hot site at its trained rate (weight $w, unit $u)" "$detail"
    fi

    # show: each site's rate, and counts estimated through it.
    "$report" show "$d/again/21.report" --sites "$d/trained.sites" --format=csv >"$d/show.csv" 2>"$d/show.err"
    est=$(awk -F, '$4 == 12 { n += $12 } END { printf "%.0f", n }' "$d/show.csv")
    rare_rate=$(awk -F, '$4 == 15 { print $11; exit }' "$d/show.csv")
    if awk -v e="$est" 'BEGIN { exit !(e > 90000 && e < 110000) }' \
        && awk -v r="$rare_rate" 'BEGIN { exit !(r > 0.999999 * 0.999999 && r <= 1) }'; then
        pass "rates: show estimates through each site's rate" "hot branch: $est visits estimated of 100000; rare branch rate $rare_rate"
    else
        fail_with "rates: show estimates through each site's rate" "hot branch: '$est' visits estimated of 100000; rare branch rate '$rare_rate'" "$(cat "$d/show.err")"
    fi
    "$report" show "$d/again/21.report" --sites "$d/trained.sites" >"$d/show.txt" 2>&1
    if grep -q '^unit      17 countdown units' "$d/show.txt" && grep -q 'i % 3 == 0 *0.00937' "$d/show.txt"; then
        pass "rates: show's text gives the unit and the rates"
    else
        fail_with "rates: show's text gives the unit and the rates" "$(head -12 "$d/show.txt")"
    fi

    # The source moves on: two lines on top, and a new branch.
    { printf '/* moved */\n\n'; sed 's|^    if (hot > 5)|    if (n < 0)\n        return 1;\n&|' "$here/train.c"; } >"$d/train.c"
    if "$sgcc" -O2 -fplugin-arg-sampler-schemes=branches -fplugin-arg-sampler-rates="$d/train.rates" \
        -fplugin-arg-sampler-verbose -fplugin-arg-sampler-site-table="$d/moved.sites" "$d/train.c" \
        -o "$d/moved" 2>"$d/moved.err" \
        && grep -q "0 sites on their line, 6 moved, 1 not in the rates file" "$d/moved.err"; then
        pass "rates: moved sites keep their rates" "$(grep -o 'rates for.*' "$d/moved.err")"
    else
        fail_with "rates: moved sites keep their rates" "$(cat "$d/moved.err")"
    fi
    # Each old site's weight, by predicate, as trained; the new one's the unit.
    moved=$(awk -F'\t' 'FNR == NR { if ($1 == "site") w[$8] = $2; next }
                        $1 == "unit" { unit = $6 }
                        $1 == "site" { want = ($9 in w) ? w[$9] : unit
                                       if ($11 != want) print $9 ": weight " $11 ", expected " want }' \
            "$d/train.rates" "$d/moved.sites")
    if [ -z "$moved" ] && grep -q 'n < 0' "$d/moved.sites"; then
        pass "rates: moved sites' weights as trained, the new site's the default"
    else
        fail_with "rates: moved sites' weights as trained, the new site's the default" "$moved"
    fi
else
    fail_with "rates: train.c builds" "$(cat "$d/plain.err")"
fi


# Adaptive: sites whose rate would fall below 0.5 left uninstrumented.
cp "$here/train.c" "$d/train.c"
if "$report" rates "$d/runs" --output "$d/adaptive.rates" --min-rate=0.5 2>"$d/adaptive.err" \
    && "$sgcc" -O2 -fplugin-arg-sampler-schemes=branches -fplugin-arg-sampler-rates="$d/adaptive.rates" \
        -fplugin-arg-sampler-site-table="$d/adaptive.sites" "$d/train.c" -o "$d/adaptive" 2>>"$d/adaptive.err"
then
    SAMPLER_SPARSITY=100 SAMPLER_SEED=5 SAMPLER_FILE="$d/adaptive.report" "$d/adaptive" >/dev/null
    zero=$(awk -F'\t' '$1 == "site" && $11 == 0 { print $5 }' "$d/adaptive.sites" | sort -n | paste -sd' ')
    sampled=$(site_samples "$d/adaptive.sites" "$d/adaptive.report" | awk '$2 > 0 { print $1 }' | sort -n | paste -sd' ')
    if [ "$zero" = "11 12 14" ] && [ "$sampled" = "8 15 19" ]; then
        pass "rates: --min-rate leaves hot sites uninstrumented" "weight 0 at lines $zero; sampled: lines $sampled"
    else
        fail_with "rates: --min-rate leaves hot sites uninstrumented" "weight 0 at lines '$zero' (expected 11 12 14); sampled lines '$sampled' (expected 8 15 19)"
    fi
else
    fail_with "rates: --min-rate leaves hot sites uninstrumented" "$(cat "$d/adaptive.err")"
fi


name="rates: bad options"
for args in "--budget=0" "--budget=x" "--sparsity=0" "--unit=4097" "--min-rate=2" "--fail-if=signal"; do
    if "$report" rates "$d/runs" --output "$d/x.rates" $args 2>"$d/opt.err"; then
        fail_with "$name: $args" "accepted"
    elif [ -e "$d/x.rates" ]; then
        fail_with "$name: $args" "wrote $d/x.rates"
    else
        pass "$name: $args" "$(head -1 "$d/opt.err")"
    fi
done
if "$report" rates "$d/runs" 2>"$d/opt.err"; then
    fail_with "$name: no --output" "accepted"
else
    pass "$name: no --output" "$(head -1 "$d/opt.err")"
fi

finish
