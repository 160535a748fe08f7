#!/bin/bash
# Default weights change nothing: programs of the sampling tests
# (runtime/sampling/: pair, uneven, switch, recursion) built with a rates
# file that gives every site weight 1 in unit 1 have the same sites,
# weighing 1, and at the same seeds write the same reports as the default
# build.
# CHECKS: bash $SRC
. "$SRCDIR/lib.sh"
programs=$TESTSUITE/runtime/sampling
schemes=checks,branches,returns,scalar-pairs,function-entries,bounds
for program in pair uneven switch recursion; do
    src=$programs/$program.c
    d=$out/same-$program
    mkdir -p "$d"
    name="default weights: $program"
    if ! "$sgcc" -O2 -I"$programs" -fplugin-arg-sampler-schemes=$schemes \
        -fplugin-arg-sampler-site-table="$d/default.sites" "$src" -o "$d/default" \
        2>"$d/default.err"; then
        fail_with "$name: default build" "$(cat "$d/default.err")"
        continue
    fi
    rates_from_table "$d/default.sites" 1 1 >"$d/ones.rates"
    if ! "$sgcc" -O2 -I"$programs" -fplugin-arg-sampler-schemes=$schemes \
        -fplugin-arg-sampler-rates="$d/ones.rates" \
        -fplugin-arg-sampler-site-table="$d/ones.sites" "$src" -o "$d/ones" \
        2>"$d/ones.err"; then
        fail_with "$name: build with rates of weight 1" "$(cat "$d/ones.err")"
        continue
    fi
    # The weighted table is the default one with unit 1 and weights 1 (and
    # a signature of its own, as the weights are part of the unit).
    if cmp -s <(table_body "$d/default.sites") <(table_body "$d/ones.sites") \
        && [ "$(awk -F'\t' '$1 == "unit" { print $6 } $1 == "site" { print $11 }' \
                "$d/ones.sites" | sort -u)" = 1 ]; then
        pass "$name: same sites, weight 1" "$(grep -c '^site' "$d/ones.sites") sites"
    else
        fail_with "$name: same sites, weight 1" "$(diff "$d/default.sites" "$d/ones.sites" | head -5)"
    fi
    same=yes
    for seed in 1 2 3; do
        for build_kind in default ones; do
            SAMPLER_SPARSITY=7 SAMPLER_SEED=$seed SAMPLER_FILE="$d/$build_kind-$seed.report" \
                SAMPLER_TEST_OUT=/dev/null "$d/$build_kind" >/dev/null 2>&1
        done
        if ! cmp -s <(report_body "$d/default-$seed.report") <(report_body "$d/ones-$seed.report"); then
            same=no
            detail=$(diff <(report_body "$d/default-$seed.report") \
                          <(report_body "$d/ones-$seed.report") | head -6)
        fi
    done
    if [ $same = yes ] && [ -s "$d/default-1.report" ]; then
        pass "$name: same reports at seeds 1 2 3" \
             "$(grep -c '^[0-9]' "$d/default-1.report") sites observed"
    else
        fail_with "$name: same reports at seeds 1 2 3" "${detail:-no report}"
    fi
done

finish
