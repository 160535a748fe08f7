#!/bin/bash
# run-rates-tests.sh: weighted sites and trained rates (docs/rates.md).
#
# Usage: testsuite/rates/run-rates-tests.sh BUILD_DIR
#
# 1. Default weights change nothing: programs built with a rates file that
#    gives every site weight 1 in unit 1 have the same sites, weighing 1,
#    and at the same seeds write the same reports as the default build.
# 2. Statistics (weighted.c, harness.h of the run tests, fixed seeds): each
#    site of weight W is sampled within the binomial bounds of
#    1 - (1 - 1/(sparsity * unit))^W; its gaps pass the chi-square test
#    against the geometric law of that rate; two sites of different
#    weights visited in lockstep are sampled together as often as
#    independence says; a site of weight 0 is never sampled; estimates
#    (samples / rate) averaged over many seeds are unbiased; values',
#    paths' and subpaths' estimates use each site's rate (estimates.c).
# 3. Training: sampler-report rates on reports of earlier runs, applied
#    with -fplugin-arg-sampler-rates; sites matched across moved lines,
#    and by line where the plugin numbers them in another order
#    (order.c); trained at one sparsity for another, the default budget
#    follows the one named; `plan` writes a rates file that settles,
#    raises and keeps sites (plan.c).
# 4. Bad rates files and arguments: a clear error naming FILE:LINE.
#
# Every assertion prints "PASS: ..." or "FAIL: ..." (with "    | " detail
# lines); the last line is "N passed, N failed"; exit status 1 on failure.
set -u

build=$(cd "$1" && pwd) || exit 2
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
sgcc=$build/bin/sampler-gcc
report=$build/bin/sampler-report
out=$(mktemp -d "${TMPDIR:-/tmp}/sampler-rates-tests.XXXXXX") || exit 2
trap 'rm -rf "$out"' EXIT

passed=0
failed=0
pass() { passed=$((passed + 1)); echo "PASS: $1${2:+ -- $2}"; }
fail() {
    failed=$((failed + 1))
    echo "FAIL: $1"
    shift
    for line in "$@"; do printf '%s\n' "$line" | sed 's/^/    | /'; done
}

statcheck=$out/stat-check
if ! gcc -std=c11 -O2 -Wall -Wextra -o "$statcheck" "$top/testsuite/tools/stat-check.c" \
    -lgsl -lgslcblas -lm 2>"$out/stat-check.err"; then
    fail "stat-check build" "$(cat "$out/stat-check.err")"
    echo "$passed passed, $failed failed"
    exit 1
fi

# A rates file giving every site of the site table TABLE weight WEIGHT in
# unit UNIT.
rates_from_table() {   # TABLE UNIT WEIGHT
    awk -F'\t' -v OFS='\t' -v unit="$2" -v weight="$3" '
        BEGIN { print "sampler-rates", 1; print "unit", unit }
        $1 == "unit" { source = $3 }
        $1 == "site" { print "site", weight, source, $4, $5, $7, $3, $9 }' "$1"
}

# A report without what differs between two binaries or two runs of one program (and
# the unit's signature).
report_body() {
    grep -v -e '^program' -e '^pid' -e '^run-id' -e '^object' "$1" | awk -F'\t' -v OFS='\t' '$1 == "unit" { $2 = "" } 1'
}

# A site table without signatures, countdown unit and weights.
table_body() {
    awk -F'\t' -v OFS='\t' '$1 == "unit" { $2 = ""; NF = 5 } $1 == "site" { NF = 10 } 1' "$1"
}

# ---------------------------------------------------------------------------
# 1. Default weights give today's samples.

schemes=checks,branches,returns,scalar-pairs,function-entries,bounds
for program in pair uneven switch recursion; do
    src=$top/testsuite/run/$program.c
    d=$out/same-$program
    mkdir -p "$d"
    name="default weights: $program"
    if ! "$sgcc" -O2 -I"$top/testsuite/run" -fplugin-arg-sampler-schemes=$schemes \
        -fplugin-arg-sampler-site-table="$d/default.sites" "$src" -o "$d/default" \
        2>"$d/default.err"; then
        fail "$name: default build" "$(cat "$d/default.err")"
        continue
    fi
    rates_from_table "$d/default.sites" 1 1 >"$d/ones.rates"
    if ! "$sgcc" -O2 -I"$top/testsuite/run" -fplugin-arg-sampler-schemes=$schemes \
        -fplugin-arg-sampler-rates="$d/ones.rates" \
        -fplugin-arg-sampler-site-table="$d/ones.sites" "$src" -o "$d/ones" \
        2>"$d/ones.err"; then
        fail "$name: build with rates of weight 1" "$(cat "$d/ones.err")"
        continue
    fi
    # The weighted table is the default one with unit 1 and weights 1 (and
    # a signature of its own, as the weights are part of the unit).
    if cmp -s <(table_body "$d/default.sites") <(table_body "$d/ones.sites") \
        && [ "$(awk -F'\t' '$1 == "unit" { print $6 } $1 == "site" { print $11 }' \
                "$d/ones.sites" | sort -u)" = 1 ]; then
        pass "$name: same sites, weight 1" "$(grep -c '^site' "$d/ones.sites") sites"
    else
        fail "$name: same sites, weight 1" "$(diff "$d/default.sites" "$d/ones.sites" | head -5)"
    fi
    args=$(cat "$top/testsuite/run/$program.args" 2>/dev/null)
    same=yes
    for seed in 1 2 3; do
        for build_kind in default ones; do
            SAMPLER_SPARSITY=7 SAMPLER_SEED=$seed SAMPLER_FILE="$d/$build_kind-$seed.report" \
                SAMPLER_TEST_OUT=/dev/null "$d/$build_kind" $args >/dev/null 2>&1
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
        fail "$name: same reports at seeds 1 2 3" "${detail:-no report}"
    fi
done

# ---------------------------------------------------------------------------
# 2. Statistics of weighted sites.

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
rate() {   # WEIGHT: 1 - (1 - 1/(sparsity * unit))^WEIGHT
    awk -v w="$1" -v m=$((sparsity * unit)) 'BEGIN { printf "%.12g\n", 1 - exp(w * log(1 - 1 / m)) }'
}
if "$sgcc" -O2 -I"$top/testsuite/run" -fplugin-arg-sampler-rates="$d/weighted.rates" \
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
        fail "weighted: no failed check, no sample without a visit" "${bad:-no output}"
    fi
    for site in light heavy rare; do
        visits=$(awk -v s=$site '$1 == "site" && $2 == s { v += $4 } END { print v + 0 }' "$d/all.out")
        samples=$(awk -v s=$site '$1 == "site" && $2 == s { n += $6 } END { print n + 0 }' "$d/all.out")
        r=$(rate "${weight[$site]}")
        if detail=$("$statcheck" binom "$visits" "$samples" "$r" 0.9999 2>&1); then
            pass "weighted: binom($site, weight ${weight[$site]})" "$detail"
        else
            fail "weighted: binom($site, weight ${weight[$site]})" "$detail"
        fi
        if detail=$(awk -v s=$site '$1 == "gaps" && $2 == s { for (i = 3; i <= NF; i++) print $i }' \
                    "$d/all.out" | "$statcheck" gaps "$r" 0.0001 2>&1); then
            pass "weighted: gaps($site)" "$detail"
        else
            fail "weighted: gaps($site)" "$detail"
        fi
    done
    never=$(awk '$1 == "site" && $2 == "never" { v += $4; n += $6 } END { print v + 0, n + 0 }' "$d/all.out")
    if [ "${never#* }" = 0 ] && [ "${never% *}" -gt 0 ]; then
        pass "weighted: weight 0 is never sampled" "visits and samples: $never"
    else
        fail "weighted: weight 0 is never sampled" "visits and samples: $never"
    fi
    iterations=$(awk '$1 == "pair" { v += $5 } END { print v + 0 }' "$d/all.out")
    both=$(awk '$1 == "pair" { k += $8 } END { print k + 0 }' "$d/all.out")
    joint=$(awk -v a="$(rate ${weight[light]})" -v b="$(rate ${weight[heavy]})" \
            'BEGIN { printf "%.12g\n", a * b }')
    if detail=$("$statcheck" binom "$iterations" "$both" "$joint" 0.9999 2>&1); then
        pass "weighted: joint(light, heavy) independent" "$detail"
    else
        fail "weighted: joint(light, heavy) independent" "$detail"
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
        *) fail "weighted: unbiased estimate($site)" "$verdict" ;;
        esac
    done
else
    fail "weighted.c builds with rates" "$(cat "$d/build.err")"
fi

# ---------------------------------------------------------------------------
# 2b. Estimates in values, paths and subpaths divide by each site's rate:
#    estimates.c built with values, paths or subpaths, every site weighing
#    12 on odd lines and 2 on even ones in unit 4 (rates 0.058 and 0.010 at
#    sparsity 50; the default weight's is 0.02), 40 runs combined.  Each
#    estimate's scale (estimate over count) is 2^j over its site's rate
#    (the paths site's; a subpath's first block's), and every shown
#    estimate is within 4 standard deviations of the exact count (the
#    default build at sparsity 1, times 40), the hottest inside its 95%
#    bounds.  (values: step's site "kind", four values a quarter each.)

d=$out/estimates
mkdir -p "$d"
src=$here/estimates.c
est_runs=40
est_sparsity=50
for scheme in values paths subpaths; do
    if ! "$sgcc" -O2 -fplugin-arg-sampler-schemes=$scheme \
            -fplugin-arg-sampler-site-table="$d/$scheme-exact.sites" "$src" \
            -o "$d/$scheme-exact" 2>"$d/$scheme.err"; then
        fail "estimates: $scheme builds" "$(cat "$d/$scheme.err")"
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
        fail "estimates: $scheme builds with rates" "$(cat "$d/$scheme.err")"
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
         || fail "estimates: $scheme through each site's rate" "too few rows" "$verdict" ;;
    *) fail "estimates: $scheme through each site's rate" "$verdict" "$(cat "$d/$scheme-report.err")" ;;
    esac
done

# A report whose subpaths start at blocks its site table says weigh 0 (not
# instrumented, so never sampled) is refused, not divided by a rate of 0.
if [ -s "$d/subpaths.sites" ] && [ -s "$d/subpaths-runs/1.report" ]; then
    awk -F'\t' -v OFS='\t' '$1 == "site" { $11 = 0 } 1' "$d/subpaths.sites" >"$d/zero.sites"
    if "$report" subpaths "$d/subpaths-runs/1.report" --sites "$d/zero.sites" >/dev/null 2>"$d/zero.err"; then
        fail "estimates: a subpath from a block of weight 0 is refused" "accepted"
    elif grep -q "which has weight 0" "$d/zero.err"; then
        pass "estimates: a subpath from a block of weight 0 is refused" "$(cat "$d/zero.err")"
    else
        fail "estimates: a subpath from a block of weight 0 is refused" "$(cat "$d/zero.err")"
    fi
fi

# ---------------------------------------------------------------------------
# 3. Training: rates from 20 runs of train.c, the same runs again with them.

d=$out/train
mkdir -p "$d/runs" "$d/again"
cp "$here/train.c" "$d/train.c"
# Samples per site per run, from one report: "LINE SAMPLES" for each site.
site_samples() {   # SITES REPORT
    awk -F'\t' 'FNR == NR { if ($1 == "site") line[$2] = $5; next }
                $1 ~ /^[0-9]+$/ { n = 0; for (i = 2; i <= NF; i++) n += $i; print line[$1], n }' "$1" "$2"
}
if "$sgcc" -O2 -fplugin-arg-sampler-schemes=branches -fplugin-arg-sampler-site-table="$d/plain.sites" \
    "$d/train.c" -o "$d/plain" 2>"$d/plain.err"; then
    for seed in $(seq 1 20); do
        SAMPLER_SPARSITY=100 SAMPLER_SEED=$seed SAMPLER_FILE="$d/runs/$seed.report" "$d/plain" >/dev/null
    done
    if "$report" rates "$d/runs" --output "$d/train.rates" 2>"$d/rates.err"; then
        pass "rates: trained on 20 runs" "$(grep -c '^site' "$d/train.rates") sites, $(grep '^unit' "$d/train.rates")"
    else
        fail "rates: trained on 20 runs" "$(cat "$d/rates.err")"
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
        fail "rates: rare sites at every visit" "rare branch $rare_before a run before, $rare after (visits 100); once-a-run $once (visits 1)"
    fi
    total=$(awk '{ n += $2 } END { print n / 20 }' "$d/again.samples")
    if awk -v t="$total" -v b="$budget" 'BEGIN { exit !(t <= b * 1.02) }'; then
        pass "rates: within the budget" "$total samples a run, budget $budget"
    else
        fail "rates: within the budget" "$total samples a run, budget $budget"
    fi
    # The hot branch i % 3 (line 12): its trained rate, binomially.
    w=$(awk -F'\t' '$1 == "site" && $5 == 12 { print $11 }' "$d/trained.sites")
    u=$(awk -F'\t' '$1 == "unit" { print $6 }' "$d/trained.sites")
    r=$(awk -v w="$w" -v m=$((100 * u)) 'BEGIN { printf "%.12g\n", 1 - exp(w * log(1 - 1 / m)) }')
    hot=$(awk '$1 == 12 { n += $2 } END { print n }' "$d/again.samples")
    if detail=$("$statcheck" binom 2000000 "$hot" "$r" 0.9999 2>&1); then
        pass "rates: hot site at its trained rate (weight $w, unit $u)" "$detail"
    else
        fail "rates: hot site at its trained rate (weight $w, unit $u)" "$detail"
    fi

    # show: each site's rate, and counts estimated through it.
    "$report" show "$d/again/21.report" --sites "$d/trained.sites" --format=csv >"$d/show.csv" 2>"$d/show.err"
    est=$(awk -F, '$4 == 12 { n += $12 } END { printf "%.0f", n }' "$d/show.csv")
    rare_rate=$(awk -F, '$4 == 15 { print $11; exit }' "$d/show.csv")
    if awk -v e="$est" 'BEGIN { exit !(e > 90000 && e < 110000) }' \
        && awk -v r="$rare_rate" 'BEGIN { exit !(r > 0.999999 * 0.999999 && r <= 1) }'; then
        pass "rates: show estimates through each site's rate" "hot branch: $est visits estimated of 100000; rare branch rate $rare_rate"
    else
        fail "rates: show estimates through each site's rate" "hot branch: '$est' visits estimated of 100000; rare branch rate '$rare_rate'" "$(cat "$d/show.err")"
    fi
    "$report" show "$d/again/21.report" --sites "$d/trained.sites" >"$d/show.txt" 2>&1
    if grep -q '^unit      17 countdown units' "$d/show.txt" && grep -q 'i % 3 == 0 *0.00937' "$d/show.txt"; then
        pass "rates: show's text gives the unit and the rates"
    else
        fail "rates: show's text gives the unit and the rates" "$(head -12 "$d/show.txt")"
    fi

    # The source moves on: two lines on top, and a new branch.
    { printf '/* moved */\n\n'; sed 's|^    if (hot > 5)|    if (n < 0)\n        return 1;\n&|' "$here/train.c"; } >"$d/train.c"
    if "$sgcc" -O2 -fplugin-arg-sampler-schemes=branches -fplugin-arg-sampler-rates="$d/train.rates" \
        -fplugin-arg-sampler-verbose -fplugin-arg-sampler-site-table="$d/moved.sites" "$d/train.c" \
        -o "$d/moved" 2>"$d/moved.err" \
        && grep -q "0 sites on their line, 6 moved, 1 not in the rates file" "$d/moved.err"; then
        pass "rates: moved sites keep their rates" "$(grep -o 'rates for.*' "$d/moved.err")"
    else
        fail "rates: moved sites keep their rates" "$(cat "$d/moved.err")"
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
        fail "rates: moved sites' weights as trained, the new site's the default" "$moved"
    fi
else
    fail "rates: train.c builds" "$(cat "$d/plain.err")"
fi

# Sites of one key on several lines, numbered by the plugin in another
# order than their lines' (order.c: an assignment in a loop's condition
# after the one in its body), each take their own line's weight (here:
# the line's number).
o=$out/order
mkdir -p "$o"
if "$sgcc" -O2 -fplugin-arg-sampler-schemes=branches,returns,scalar-pairs \
        -fplugin-arg-sampler-site-table="$o/default.sites" "$here/order.c" -o "$o/default" \
        2>"$o/build.err" \
    && awk -F'\t' -v OFS='\t' 'BEGIN { print "sampler-rates", 1; print "unit", 1 }
            $1 == "unit" { source = $3 }
            $1 == "site" { print "site", $5, source, $4, $5, $7, $3, $9 }' \
        "$o/default.sites" >"$o/lines.rates" \
    && "$sgcc" -O2 -fplugin-arg-sampler-schemes=branches,returns,scalar-pairs \
        -fplugin-arg-sampler-rates="$o/lines.rates" \
        -fplugin-arg-sampler-site-table="$o/lines.sites" "$here/order.c" -o "$o/lines" \
        2>>"$o/build.err"; then
    wrong=$(awk -F'\t' '$1 == "site" && $11 != $5 { print $9 " at line " $5 ": weight " $11 }' \
                "$o/lines.sites")
    # The case itself: the table lists line 18's sites of a key before
    # line 17's.
    out_of_order=$(awk -F'\t' '$1 == "site" && $9 == "at ? haystack" { print $5 }' \
                       "$o/lines.sites" | paste -sd' ')
    if [ -z "$wrong" ] && [ "$out_of_order" = "18 17" ]; then
        pass "rates: sites of one key out of line order each take their line's weight" \
            "at ? haystack at lines $out_of_order"
    else
        fail "rates: sites of one key out of line order each take their line's weight" \
            "$wrong" "at ? haystack at lines '$out_of_order' (expected 18 17)"
    fi
else
    fail "rates: order.c builds" "$(cat "$o/build.err")"
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
        fail "rates: --min-rate leaves hot sites uninstrumented" "weight 0 at lines '$zero' (expected 11 12 14); sampled lines '$sampled' (expected 8 15 19)"
    fi
else
    fail "rates: --min-rate leaves hot sites uninstrumented" "$(cat "$d/adaptive.err")"
fi

# Heavy sites: 600 rare branches of the largest weight in one function
# (more than an int of units together) build, get regions of their own
# (the default region limit with rates) and are sampled at nearly every
# visit, while the hot loop around them keeps the uniform rate.
{
    echo '#include <stdio.h>'
    echo '#include <stdlib.h>'
    echo 'int main(int argc, char **argv) {'
    echo '    long n = argc > 1 ? atol(argv[1]) : 100000, rare = 0, hot = 0;'
    echo '    for (long i = 0; i < n; i++) {'
    echo '        if (i % 7 == 0) hot++;'
    echo '        if (i == n / 2) {'
    for k in $(seq 1 600); do echo "            if (hot % 601 == $k) rare += $k;"; done
    echo '        }'
    echo '    }'
    echo '    printf("%ld %ld\n", hot, rare);'
    echo '    return 0;'
    echo '}'
} >"$d/heavy.c"
{
    printf 'sampler-rates\t1\nunit\t4096\n'
    for k in $(seq 1 600); do
        printf 'site\t1048576\theavy.c\theavy.c\t%s\tmain\tbranches\thot %% 601 == %s\n' $((k + 7)) "$k"
    done
    printf 'site\t4096\theavy.c\theavy.c\t6\tmain\tbranches\ti %% 7 == 0\n'
} >"$d/heavy.rates"
if "$sgcc" -O2 -fplugin-arg-sampler-schemes=branches -fplugin-arg-sampler-rates="$d/heavy.rates" \
    -fplugin-arg-sampler-site-table="$d/heavy.sites" -fplugin-arg-sampler-dump="$d/heavy.dump" \
    "$d/heavy.c" -o "$d/heavy" 2>"$d/heavy.err" \
    && SAMPLER_SPARSITY=100 SAMPLER_SEED=3 SAMPLER_FILE="$d/heavy.report" "$d/heavy" >"$d/heavy.out"
then
    # Each rare branch is visited once: sampled with probability
    # 1 - (1 - 1/409600)^1048576 = 0.923.
    rare=$(site_samples "$d/heavy.sites" "$d/heavy.report" | awk '$1 > 7 { n += $2 } END { print n + 0 }')
    hot=$(site_samples "$d/heavy.sites" "$d/heavy.report" | awk '$1 == 6 { print $2 }')
    long_paths=$(grep -c 'long-path' "$d/heavy.dump")
    if detail=$("$statcheck" binom 600 "$rare" 0.9226 0.9999 2>&1) \
        && detail2=$("$statcheck" binom 100000 "${hot:-0}" "$(awk 'BEGIN { printf "%.12g", 1 - exp(4096 * log(1 - 1 / 409600)) }')" 0.9999 2>&1) \
        && [ "$long_paths" -gt 0 ]; then
        pass "rates: heavy sites build, in regions of their own, each at its rate" "$long_paths long-path checks; rare: $detail; hot: $detail2"
    else
        fail "rates: heavy sites build, in regions of their own, each at its rate" "long-path checks: $long_paths" "${detail:-}" "${detail2:-}"
    fi
else
    fail "rates: heavy sites build, in regions of their own, each at its rate" "$(tail -5 "$d/heavy.err")"
fi

# One straight-line block whose 301 sites weigh 2^20 units each, more than
# a block may weigh at once (2^28 - 1, an int's eighth; as -O3's unrolled
# loops give when trained at every visit): the block is split into pieces
# with checks between them, the program computes what the plain build does,
# and each site is sampled at its rate.
{
    echo '#include <stdio.h>'
    echo '#include <stdlib.h>'
    echo 'int main(int argc, char **argv) {'
    echo '    unsigned long x = argc > 1 ? strtoul(argv[1], 0, 10) : 1;'
    for k in $(seq 1 300); do echo "    x = x * 33 + $k;"; done
    echo '    printf("%lu\n", x);'
    echo '    return 0;'
    echo '}'
} >"$d/block.c"
name="rates: a block of heavy sites weighing more than 2^28 units builds and is sampled at its rates"
if "$sgcc" -O2 -fplugin-arg-sampler-schemes=bounds -fplugin-arg-sampler-site-table="$d/block0.sites" \
        "$d/block.c" -o "$d/block0" 2>"$d/block.err" \
    && rates_from_table "$d/block0.sites" 4096 1048576 >"$d/block.rates" \
    && "$sgcc" -O2 -fplugin-arg-sampler-schemes=bounds -fplugin-arg-sampler-rates="$d/block.rates" \
        -fplugin-arg-sampler-site-table="$d/block.sites" -fplugin-arg-sampler-dump="$d/block.dump" \
        "$d/block.c" -o "$d/block" 2>>"$d/block.err"
then
    gcc -O2 "$d/block.c" -o "$d/block-plain"
    expected=$("$d/block-plain" 5)
    sampled=0 runs=0 wrong=""
    for seed in 1 2 3 4 5; do
        got=$(SAMPLER_SPARSITY=100 SAMPLER_SEED=$seed SAMPLER_FILE="$d/block.$seed.report" "$d/block" 5)
        [ "$got" = "$expected" ] || wrong+=" seed $seed: $got"
        # A bounds site's first counter counts its samples.
        n=$(awk -F'\t' '$1 ~ /^[0-9]+$/ { n += $2 } END { print n + 0 }' "$d/block.$seed.report")
        sampled=$((sampled + n)); runs=$((runs + 1))
    done
    sites=$(grep -c '^site' "$d/block.sites")
    long_paths=$(grep -c 'long-path' "$d/block.dump")
    if [ -z "$wrong" ] && [ "$long_paths" -gt 0 ] \
        && detail=$("$statcheck" binom $((sites * runs)) "$sampled" 0.9226 0.9999 2>&1); then
        pass "$name" "$long_paths long-path checks; $detail"
    else
        fail "$name" "output (expected $expected):${wrong:- right}" "long-path checks: $long_paths" "${detail:-}"
    fi
else
    fail "$name" "$(tail -5 "$d/block.err")"
fi
# Without a region limit the block cannot be split: a clear error.
name="rates: such a block without a region limit is refused"
if "$sgcc" -O2 -fplugin-arg-sampler-schemes=bounds -fplugin-arg-sampler-rates="$d/block.rates" \
        -fplugin-arg-sampler-region-limit=0 "$d/block.c" -o "$d/block-unlimited" 2>"$d/unlimited.err"; then
    fail "$name" "accepted"
elif grep -q 'weigh more than 268435455 countdown units' "$d/unlimited.err"; then
    pass "$name" "$(grep -m1 error "$d/unlimited.err")"
else
    fail "$name" "$(cat "$d/unlimited.err")"
fi

name="rates: bad options"
for args in "--budget=0" "--budget=x" "--sparsity=0" "--unit=4097" "--min-rate=2" "--fail-if=signal"; do
    if "$report" rates "$d/runs" --output "$d/x.rates" $args 2>"$d/opt.err"; then
        fail "$name: $args" "accepted"
    elif [ -e "$d/x.rates" ]; then
        fail "$name: $args" "wrote $d/x.rates"
    else
        pass "$name: $args" "$(head -1 "$d/opt.err")"
    fi
done
if "$report" rates "$d/runs" 2>"$d/opt.err"; then
    fail "$name: no --output" "accepted"
else
    pass "$name: no --output" "$(head -1 "$d/opt.err")"
fi

# ---------------------------------------------------------------------------
# 3b. Sites never sampled in training: 200 cold branches of 50 visits a run
# and one hot loop, trained on 3 runs at sparsity 1000, where most cold
# branches get no sample.  Taken as never visited they would be sampled at
# every visit (about 8,600 samples a run against a budget near 200); given
# the samples of the sites sampled once (Good-Turing), the retrained runs
# keep the budget.

d=$out/unseen
mkdir -p "$d/runs" "$d/again"
{
    echo '#include <stdlib.h>'
    echo 'volatile int sink;'
    echo 'static void cold (int k) {'
    for i in $(seq 0 199); do echo "    if (k == $i) sink++;"; done
    echo '}'
    echo 'int main (int argc, char **argv) {'
    echo '    int n = argc > 1 ? atoi (argv[1]) : 50;'
    echo '    for (int r = 0; r < n; r++) cold (r % 2);'
    echo '    for (long i = 0; i < 100000; i++) if (i % 7 == 0) sink++;'
    echo '    return 0;'
    echo '}'
} >"$d/unseen.c"
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
        fail "rates: sites never sampled keep the budget" "${unseen:-?} never sampled; $total samples a run, budget $budget" "$(cat "$d/rates.err" "$d/trained.err")"
    fi
else
    fail "build(unseen)" "$(cat "$d/plain.err")"
fi

# ---------------------------------------------------------------------------
# 3c. Trained at sparsity 1 for sparsity 1000 (a new user's first try): the
# default budget is what a uniform build at 1000 takes, the training runs'
# visits over 1000, not what the training runs took (every visit, which
# wrote a file sampling every site at every visit); the rebuilt program's
# runs at 1000 keep it.  A --budget above it is a warning naming both.

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
        fail "$name" "$visits visits a run; budget '$budget' (expected visits / 1000); '$every' of $sites sites at every visit; $total samples a run at 1000" "$(cat "$d/rates.err" "$d/trained.err")"
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
        fail "$name" "$(cat "$d/above.err" "$d/at.err" 2>/dev/null)"
    fi
else
    fail "build(sparsity)" "$(cat "$d/plain.err")"
fi

# ---------------------------------------------------------------------------
# 3d. plan (docs/adaptive.md): plan.c fails when x > 90 and x is even.
# 640 runs at sparsity 1 (x = 1 .. 100 in turn: x = 92, 94, .., 100 fail,
# 30 runs); the plan for sparsity 100 leaves scale's x % 3 == 0 and the
# loop's branch (observed in every run, their Increase's upper bound under
# 0.05) uninstrumented, raises risky's x > 90 (true in 30 failing and 30
# successful runs: Increase 30/60 - 30/640 = 0.453) ten times (weight 10 in
# unit 1), keeps printf's return (observed in no failing run) at the base
# rate; the plugin builds with it.

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
        fail "$name" "$got" "$(cat "$d/plan.err" "$d/plan.rates")"
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
            fail "$name" "$wrong"
        fi
    else
        fail "$name" "$(cat "$d/planned.err")"
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
        fail "$name" "$(cat "$d/nosparsity.err" "$d/two.err")"
    fi
else
    fail "build(plan)" "$(cat "$d/plain.err")"
fi

# ---------------------------------------------------------------------------
# 4. Bad rates files: the compile fails with an error naming FILE:LINE.

d=$out/bad
mkdir -p "$d"
src=$here/weighted.c
good_site=$(printf 'site\t8\t%s\t%s\t15\tmain\tchecks\tcheck (...)' "$src" "$src")
bad_rates() {   # NAME EXPECTED-TEXT CONTENTS (printf format, no arguments)
    printf "$3" >"$d/$1.rates"
    if "$sgcc" -O2 -c -I"$top/testsuite/run" -fplugin-arg-sampler-rates="$d/$1.rates" "$src" \
        -o "$d/$1.o" 2>"$d/$1.err"; then
        fail "bad rates: $1" "the compile succeeded"
    elif grep -q -- "$2" "$d/$1.err"; then
        pass "bad rates: $1" "$(grep -m1 -- "$2" "$d/$1.err" | sed "s|$d/||")"
    else
        fail "bad rates: $1" "expected '$2' in:" "$(cat "$d/$1.err")"
    fi
}
bad_rates empty "empty, not a rates file" ''
bad_rates not-rates "1: not a rates file" 'unit\t5\n'
bad_rates version "1: unknown rates file version" 'sampler-rates\t2\nunit\t1\n'
bad_rates no-unit "no .unit. record" 'sampler-rates\t1\n'
bad_rates unit-zero "2: .unit. takes one whole number from 1 to 4096" 'sampler-rates\t1\nunit\t0\n'
bad_rates unit-big "2: .unit. takes one whole number" 'sampler-rates\t1\nunit\t4097\n'
bad_rates unit-text "2: .unit. takes one whole number" 'sampler-rates\t1\nunit\tten\n'
bad_rates unit-twice "3: a second .unit. record" 'sampler-rates\t1\nunit\t2\nunit\t2\n'
bad_rates site-first "2: a .site. before the .unit. record" "sampler-rates\t1\n$good_site\n"
bad_rates fields "3: a .site. record has 8 fields, not 7" \
    'sampler-rates\t1\nunit\t2\nsite\t1\ta.c\ta.c\t3\tmain\tchecks\n'
bad_rates weight-negative "3: the weight .-1. is not a whole number from 0 to 1048576" \
    'sampler-rates\t1\nunit\t2\nsite\t-1\ta.c\ta.c\t3\tmain\tchecks\tp\n'
bad_rates weight-big "3: the weight .1048577. is not" \
    'sampler-rates\t1\nunit\t2\nsite\t1048577\ta.c\ta.c\t3\tmain\tchecks\tp\n'
bad_rates weight-zeros "3: the weight .007. is not" \
    'sampler-rates\t1\nunit\t2\nsite\t007\ta.c\ta.c\t3\tmain\tchecks\tp\n'
bad_rates line "3: the line .x3. is not a whole number" \
    'sampler-rates\t1\nunit\t2\nsite\t1\ta.c\ta.c\tx3\tmain\tchecks\tp\n'
bad_rates scheme "3: unknown scheme .no-such." \
    'sampler-rates\t1\nunit\t2\nsite\t1\ta.c\ta.c\t3\tmain\tno-such\tp\n'
bad_rates escape "3: a bad escape" \
    'sampler-rates\t1\nunit\t2\nsite\t1\ta.c\ta.c\t3\tmain\tchecks\tp\\q\n'
bad_rates empty-function "3: an empty source, file or function" \
    'sampler-rates\t1\nunit\t2\nsite\t1\ta.c\ta.c\t3\t\tchecks\tp\n'
bad_rates record "3: unknown record .rate." 'sampler-rates\t1\nunit\t2\nrate\t1\n'
bad_rates truncated "3: the last line has no newline" \
    'sampler-rates\t1\nunit\t2\nsite\t1\ta.c\ta.c\t3\tmain\tchecks\tp'
name="bad rates: missing file"
if "$sgcc" -c -fplugin-arg-sampler-rates="$d/none.rates" "$src" -I"$top/testsuite/run" \
    -o "$d/x.o" 2>"$d/none.err"; then
    fail "$name" "the compile succeeded"
elif grep -q "cannot read the rates file .*none.rates" "$d/none.err"; then
    pass "$name" "$(grep -m1 'cannot read' "$d/none.err" | sed "s|$d/||")"
else
    fail "$name" "$(cat "$d/none.err")"
fi
printf 'sampler-rates\t1\nunit\t2\n' >"$d/ok.rates"
name="bad rates: pairs-sites=pair refused"
if "$sgcc" -c -fplugin-arg-sampler-rates="$d/ok.rates" -fplugin-arg-sampler-pairs-sites=pair \
    "$src" -I"$top/testsuite/run" -o "$d/x.o" 2>"$d/pair.err"; then
    fail "$name" "the compile succeeded"
elif grep -q "needs .pairs-sites=assignment." "$d/pair.err"; then
    pass "$name" "$(grep -m1 'pairs-sites' "$d/pair.err")"
else
    fail "$name" "$(cat "$d/pair.err")"
fi

echo "$passed passed, $failed failed"
[ $failed = 0 ]
