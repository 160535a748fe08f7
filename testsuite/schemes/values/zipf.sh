#!/bin/bash
# zipf.c: at sparsity 1 with hotlist=256 (more than its 200 values) each
# value's visits equal the truth the program prints; at sparsity 100 over 20
# seeds, the true visits and share of the 3 commonest values lie in their
# 95% intervals in at least 51 of 60 cases each (binomial lower tail of
# 0.95 at 60: below 1%; coverage.py); two halves of the stream, two runs at
# sparsity 100, combined by `values': coverage of the whole stream's truth
# as above, and the commonest value's estimate agrees with one run over the
# whole stream (the two intervals overlap, which independent estimates fail
# to do about 1% of the time) in at least 18 of 20 seeds.
# CHECKS: bash $SRC
. "$TESTSUITE/schemes/values/lib.sh"
if build_program zipf -O2; then
    zipf=$scratch/zipf-O2
    "$zipf" 0 200000 >"$scratch/truth" || fail "zipf truth"
    if build_program zipf -O2 "$scratch/zipf-big" -fplugin-arg-sampler-hotlist=256 &&
       SAMPLER_SPARSITY=1 SAMPLER_FILE=$scratch/zipf-big.report "$scratch/zipf-big" 0 200000 \
           >/dev/null &&
       value_rows "$scratch/zipf-big" "$scratch/zipf-big.report" |
           awk -F'\t' '$2 == "v (signed)" { print $3, $4 }' | sort >"$scratch/big.rows" &&
       sort "$scratch/truth" | diff -u - "$scratch/big.rows" >"$scratch/diff"; then
        pass "zipf-exact: $(wc -l <"$scratch/big.rows") values, each as often as assigned"
    else
        fail "zipf-exact" "$scratch/diff"
    fi

    trials=()
    for seed in $(seq 1 20); do
        SAMPLER_SPARSITY=100 SAMPLER_SEED=$seed SAMPLER_FILE=$scratch/z$seed.report \
            "$zipf" 0 200000 >/dev/null &&
        "$report" values "$scratch/z$seed.report" --binary "$zipf" --top=1024 --format=csv \
            >"$scratch/z$seed.csv" && trials+=("$scratch/z$seed.csv")
    done
    check "zipf-coverage (20 seeds)" python3 "$here/coverage.py" "$scratch/truth" 3 51 "${trials[@]}"

    merged=()
    agree=0
    for seed in $(seq 1 20); do
        SAMPLER_SPARSITY=100 SAMPLER_SEED=$((seed + 100)) SAMPLER_FILE=$scratch/a$seed.report \
            "$zipf" 0 100000 >/dev/null &&
        SAMPLER_SPARSITY=100 SAMPLER_SEED=$((seed + 200)) SAMPLER_FILE=$scratch/b$seed.report \
            "$zipf" 100000 200000 >/dev/null &&
        "$report" values "$scratch/a$seed.report" "$scratch/b$seed.report" --binary "$zipf" \
            --top=1024 --format=csv >"$scratch/m$seed.csv" && merged+=("$scratch/m$seed.csv")
        python3 "$here/intervals-overlap.py" "$scratch/m$seed.csv" "$scratch/z$seed.csv" && agree=$((agree + 1))
    done
    check "merge: coverage of two halves combined (20 seeds)" \
        python3 "$here/coverage.py" "$scratch/truth" 3 51 "${merged[@]}"
    if [ "$agree" -ge 18 ]; then
        pass "merge: agrees with one run over the whole stream in $agree of 20"
    else
        fail_with "merge: agrees with one run over the whole stream in $agree of 20"
    fi
else
    fail "build(zipf)" "$scratch/build.err"
fi

finish
