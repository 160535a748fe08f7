#!/bin/bash
# Statistics of weighted sites (weighted.c, harness.h of the sampling
# tests, fixed seeds): each site of weight W is sampled within the binomial
# bounds of 1 - (1 - 1/(sparsity * unit))^W; its gaps pass the chi-square
# test against the geometric law of that rate; two sites of different
# weights visited in lockstep are sampled together as often as
# independence says; a site of weight 0 is never sampled; estimates
# (samples / rate) averaged over many seeds are unbiased.
# CHECKS: bash $SRC
. "$SRCDIR/lib.sh"
sparsity=50
unit=8
# weighted.c's sites by the line of their check call.
declare -A weight=([light]=8 [heavy]=40 [rare]=160 [never]=0)
d=$out/stats
mkdir -p "$d"
src=$here/weighted.c
{
    printf 'sampler-rates\t1\nunit\t%s\n' $unit
    for site in light heavy rare never; do
        line=$(grep -n "check(SITE_$site," "$src" | cut -d: -f1)
        printf 'site\t%s\t%s\t%s\t%s\tmain\tchecks\tcheck (...)\n' \
            "${weight[$site]}" "$src" "$src" "$line"
    done
} >"$d/weighted.rates"
if "$sgcc" -O2 -I"$TESTSUITE/runtime/sampling" -fplugin-arg-sampler-rates="$d/weighted.rates" \
    -fplugin-arg-sampler-site-table="$d/weighted.sites" "$src" -o "$d/weighted" 2>"$d/build.err"
then
    pass "weighted.c builds with rates" "$(cut -f11 "$d/weighted.sites" | grep -v '^$' | paste -sd' ')"
    for seed in 1 2 3; do
        SAMPLER_SPARSITY=$sparsity SAMPLER_SEED=$seed SAMPLER_TEST_RECORD=1 \
            SAMPLER_TEST_OUT="$d/seed-$seed.out" SAMPLER_FILE="$d/seed-$seed.report" \
            "$d/weighted" >/dev/null
    done
    cat "$d"/seed-*.out >"$d/all.out"
    bad=$(awk '$1 == "site" && ($8 != 0 || $10 != 0)' "$d/all.out")
    if [ -z "$bad" ] && [ -s "$d/all.out" ]; then
        pass "weighted: no failed check, no sample without a visit"
    else
        fail_with "weighted: no failed check, no sample without a visit" "${bad:-no output}"
    fi
    for site in light heavy rare; do
        visits=$(awk -v s=$site '$1 == "site" && $2 == s { v += $4 } END { print v + 0 }' "$d/all.out")
        samples=$(awk -v s=$site '$1 == "site" && $2 == s { n += $6 } END { print n + 0 }' "$d/all.out")
        r=$(rate "${weight[$site]}")
        if detail=$("$statcheck" binom "$visits" "$samples" "$r" 0.9999 2>&1); then
            pass "weighted: binom($site, weight ${weight[$site]})" "$detail"
        else
            fail_with "weighted: binom($site, weight ${weight[$site]})" "$detail"
        fi
        if detail=$(awk -v s=$site '$1 == "gaps" && $2 == s { for (i = 3; i <= NF; i++) print $i }' \
                    "$d/all.out" | "$statcheck" gaps "$r" 0.0001 2>&1); then
            pass "weighted: gaps($site)" "$detail"
        else
            fail_with "weighted: gaps($site)" "$detail"
        fi
    done
    never=$(awk '$1 == "site" && $2 == "never" { v += $4; n += $6 } END { print v + 0, n + 0 }' "$d/all.out")
    if [ "${never#* }" = 0 ] && [ "${never% *}" -gt 0 ]; then
        pass "weighted: weight 0 is never sampled" "visits and samples: $never"
    else
        fail_with "weighted: weight 0 is never sampled" "visits and samples: $never"
    fi
    iterations=$(awk '$1 == "pair" { v += $5 } END { print v + 0 }' "$d/all.out")
    both=$(awk '$1 == "pair" { k += $8 } END { print k + 0 }' "$d/all.out")
    joint=$(awk -v a="$(rate ${weight[light]})" -v b="$(rate ${weight[heavy]})" \
            'BEGIN { printf "%.12g\n", a * b }')
    if detail=$("$statcheck" binom "$iterations" "$both" "$joint" 0.9999 2>&1); then
        pass "weighted: joint(light, heavy) independent" "$detail"
    else
        fail_with "weighted: joint(light, heavy) independent" "$detail"
    fi

    # Unbiased estimates: samples / rate over many seeds, 20000 iterations.
    for seed in $(seq 101 300); do
        SAMPLER_SPARSITY=$sparsity SAMPLER_SEED=$seed SAMPLER_TEST_OUT="$d/many-$seed.out" \
            SAMPLER_FILE=/dev/null "$d/weighted" 20000 >/dev/null
    done
    for site in light heavy rare; do
        r=$(rate "${weight[$site]}")
        verdict=$(cat "$d"/many-*.out | awk -v s=$site -v r="$r" '
            $1 == "site" && $2 == s { n++; v = $4; e = $6 / r; sum += e; sq += e * e }
            END {
                mean = sum / n; sd = sqrt((sq - n * mean * mean) / (n - 1)); se = sd / sqrt(n)
                printf "%s runs %d visits %d mean estimate %.1f (se %.1f)\n",
                       (mean - v < 4 * se && v - mean < 4 * se) ? "ok" : "biased", n, v, mean, se
            }')
        case $verdict in
        ok*) pass "weighted: unbiased estimate($site)" "${verdict#ok }" ;;
        *) fail_with "weighted: unbiased estimate($site)" "$verdict" ;;
        esac
    done
else
    fail_with "weighted.c builds with rates" "$(cat "$d/build.err")"
fi

finish
