#!/bin/bash
# Estimates in values, paths and subpaths divide by each site's rate:
# estimates.c built with values, paths or subpaths, every site weighing 12
# on odd lines and 2 on even ones in unit 4 (rates 0.058 and 0.010 at
# sparsity 50; the default weight's is 0.02), 40 runs combined.  Each
# estimate's scale (estimate over count) is 2^j over its site's rate (the
# paths site's; a subpath's first block's), and every shown estimate is
# within 4 standard deviations of the exact count (the default build at
# sparsity 1, times 40), the hottest inside its 95% bounds.  (values:
# step's site "kind", four values a quarter each.)  A report whose subpaths
# start at blocks its site table says weigh 0 (not instrumented, so never
# sampled) is refused, not divided by a rate of 0.
# CHECKS: bash $SRC
. "$SRCDIR/lib.sh"
d=$out/estimates
mkdir -p "$d"
src=$here/estimates.c
est_runs=40
est_sparsity=50
for scheme in values paths subpaths; do
    if ! "$sgcc" -O2 -fplugin-arg-sampler-schemes=$scheme \
            -fplugin-arg-sampler-site-table="$d/$scheme-exact.sites" "$src" \
            -o "$d/$scheme-exact" 2>"$d/$scheme.err"; then
        fail_with "estimates: $scheme builds" "$(cat "$d/$scheme.err")"
        continue
    fi
    awk -F'\t' -v OFS='\t' '
        BEGIN { print "sampler-rates", 1; print "unit", 4 }
        $1 == "unit" { source = $3 }
        $1 == "site" { print "site", $5 % 2 ? 12 : 2, source, $4, $5, $7, $3, $9 }' \
        "$d/$scheme-exact.sites" >"$d/$scheme.rates"
    if ! "$sgcc" -O2 -fplugin-arg-sampler-schemes=$scheme \
            -fplugin-arg-sampler-rates="$d/$scheme.rates" \
            -fplugin-arg-sampler-site-table="$d/$scheme.sites" "$src" \
            -o "$d/$scheme" 2>"$d/$scheme.err"; then
        fail_with "estimates: $scheme builds with rates" "$(cat "$d/$scheme.err")"
        continue
    fi
    mkdir -p "$d/$scheme-runs"
    export SAMPLER_SUBPATH_LENGTHS=all SAMPLER_SUBPATH_MAX=4 SAMPLER_SUBPATH_MEMORY=16000000
    SAMPLER_SPARSITY=1 SAMPLER_FILE="$d/$scheme-exact.report" "$d/$scheme-exact" >/dev/null
    for seed in $(seq 1 $est_runs); do
        SAMPLER_SPARSITY=$est_sparsity SAMPLER_SEED=$seed \
            SAMPLER_FILE="$d/$scheme-runs/$seed.report" "$d/$scheme" >/dev/null
    done
    unset SAMPLER_SUBPATH_LENGTHS SAMPLER_SUBPATH_MAX SAMPLER_SUBPATH_MEMORY
    # Rows "KEY<TAB>LINE<TAB>ESTIMATE<TAB>LOW<TAB>HIGH<TAB>SCALE", hottest
    # first; LINE is the line of the site whose rate applies.
    case $scheme in
    values) top="--top=4"
        rows() { awk -F, 'NR > 1 && $4 == "step" && $5 ~ /^kind / {
                     printf "%s %s=%s\t%s\t%s\t%s\t%s\t%s\n", $2, $5, $13, $2, $14, $15, $16, $9 }' "$1"; } ;;
    paths) top="--top=10"
        rows() { awk -F, 'NR > 1 && $3 == "step" {
                     printf "%s\t%s\t%s\t%s\t%s\t%s\n", $16, $2, $13, $14, $15, $12 ? $13 / $12 : 0 }' "$1"; } ;;
    subpaths) top="--top=12"
        rows() { awk -F, 'NR > 1 { split($10, first, /[: ]/)
                     printf "%s\t%s\t%s\t%s\t%s\t%s\n", $10, first[2], $2, $3, $4, $8 }' "$1"; } ;;
    esac
    "$report" $scheme "$d/$scheme-exact.report" --sites "$d/$scheme-exact.sites" --top=100 \
        --format=csv >"$d/$scheme-exact.csv" 2>"$d/$scheme-report.err"
    "$report" $scheme "$d/$scheme-runs" --sites "$d/$scheme.sites" $top \
        --format=csv >"$d/$scheme.csv" 2>>"$d/$scheme-report.err"
    rows "$d/$scheme-exact.csv" >"$d/$scheme-exact.rows"
    rows "$d/$scheme.csv" >"$d/$scheme.rows"
    verdict=$(awk -F'\t' -v runs=$est_runs -v m=$((est_sparsity * 4)) '
        FNR == NR { exact[$1] = $3; next }
        {
            w = $2 % 2 ? 12 : 2
            rate = 1 - exp(w * log(1 - 1 / m))
            # The scale over 1/rate is a power of two (tau 2^j; 1 for paths).
            k = $6 * rate; j = log(k) / log(2)
            if (k < 0.999999 || (j - int(j + 0.5))^2 > 1e-10) {
                print "bad scale", $1, "line", $2, "weight", w, "scale", $6, "rate", rate; bad++
            }
            if (!($1 in exact)) { print "not in the exact run:", $1; bad++; next }
            truth = exact[$1] * runs
            z = ($3 - truth) / sqrt(truth * ($6 > 1 ? $6 : 1))
            if (z > 4 || z < -4) { print "off:", $1, "estimate", $3, "exact", truth, "z", z; bad++ }
            if (FNR == 1 && (truth < $4 || truth > $5)) {
                print "hottest outside its bounds:", $1, truth, "not in [" $4 ", " $5 "]"; bad++
            }
            n++; if (z * z > zmax * zmax) zmax = z
            if (FNR == 1) hottest = sprintf("hottest %s: %.0f [%.0f, %.0f], exact %d",
                                            $1, $3, $4, $5, truth)
        }
        END { printf "%s %d estimates, largest |z| %.2f; %s\n", bad ? "bad" : "ok", n, zmax, hottest }' \
        "$d/$scheme-exact.rows" "$d/$scheme.rows")
    case $verdict in
    ok*) [ "$(wc -l <"$d/$scheme.rows")" -ge 3 ] && pass "estimates: $scheme through each site's rate" "${verdict#ok }" \
         || fail_with "estimates: $scheme through each site's rate" "too few rows" "$verdict" ;;
    *) fail_with "estimates: $scheme through each site's rate" "$verdict" "$(cat "$d/$scheme-report.err")" ;;
    esac
done

# A report whose subpaths start at blocks its site table says weigh 0 (not
# instrumented, so never sampled) is refused, not divided by a rate of 0.
if [ -s "$d/subpaths.sites" ] && [ -s "$d/subpaths-runs/1.report" ]; then
    awk -F'\t' -v OFS='\t' '$1 == "site" { $11 = 0 } 1' "$d/subpaths.sites" >"$d/zero.sites"
    if "$report" subpaths "$d/subpaths-runs/1.report" --sites "$d/zero.sites" >/dev/null 2>"$d/zero.err"; then
        fail_with "estimates: a subpath from a block of weight 0 is refused" "accepted"
    elif grep -q "which has weight 0" "$d/zero.err"; then
        pass "estimates: a subpath from a block of weight 0 is refused" "$(cat "$d/zero.err")"
    else
        fail_with "estimates: a subpath from a block of weight 0 is refused" "$(cat "$d/zero.err")"
    fi
fi
finish
