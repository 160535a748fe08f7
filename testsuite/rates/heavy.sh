#!/bin/bash
# Heavy sites: 600 rare branches of the largest weight in one function
# (gen-heavy.py) build, get regions of their own and are sampled at nearly
# every visit, while the hot loop around them keeps the uniform rate; a
# straight-line block of sites weighing more than a block may weigh at
# once (gen-block.py) is split into pieces, computes what the plain build
# does and is sampled at its rates, and without a region limit is refused.
# CHECKS: bash $SRC
. "$SRCDIR/lib.sh"
d=$out/heavy
mkdir -p "$d"
# Heavy sites: 600 rare branches of the largest weight in one function
# (more than an int of units together) build, get regions of their own
# (the default region limit with rates) and are sampled at nearly every
# visit, while the hot loop around them keeps the uniform rate.
python3 "$here/gen-heavy.py" "$d"
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
        fail_with "rates: heavy sites build, in regions of their own, each at its rate" "long-path checks: $long_paths" "${detail:-}" "${detail2:-}"
    fi
else
    fail_with "rates: heavy sites build, in regions of their own, each at its rate" "$(tail -5 "$d/heavy.err")"
fi

# One straight-line block whose 301 sites weigh 2^20 units each, more than
# a block may weigh at once (2^28 - 1, an int's eighth; as -O3's unrolled
# loops give when trained at every visit): the block is split into pieces
# with checks between them, the program computes what the plain build does,
# and each site is sampled at its rate.
python3 "$here/gen-block.py" >"$d/block.c"
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
        fail_with "$name" "output (expected $expected):${wrong:- right}" "long-path checks: $long_paths" "${detail:-}"
    fi
else
    fail_with "$name" "$(tail -5 "$d/block.err")"
fi
# Without a region limit the block cannot be split: a clear error.
name="rates: such a block without a region limit is refused"
if "$sgcc" -O2 -fplugin-arg-sampler-schemes=bounds -fplugin-arg-sampler-rates="$d/block.rates" \
        -fplugin-arg-sampler-region-limit=0 "$d/block.c" -o "$d/block-unlimited" 2>"$d/unlimited.err"; then
    fail_with "$name" "accepted"
elif grep -q 'weigh more than 268435455 countdown units' "$d/unlimited.err"; then
    pass "$name" "$(grep -m1 error "$d/unlimited.err")"
else
    fail_with "$name" "$(cat "$d/unlimited.err")"
fi

finish
