#!/bin/bash
# More than 16 MiB of counters in one unit (gen-big.py: 1100 sites of 2051
# counters at hotlist=1024): the sites past 16 MiB reach them through a
# register, as GCC takes a symbol plus an offset as a constant only below
# that; every site counts its one value.
# CHECKS: bash $SRC
. "$TESTSUITE/schemes/values/lib.sh"
python3 "$here/gen-big.py" >"$scratch/big.c"
if "$WRAPPER" -O2 -fplugin-arg-sampler-schemes=values \
       -fplugin-arg-sampler-hotlist=1024 "$scratch/big.c" -o "$scratch/big" \
       2>"$scratch/build.err" &&
   SAMPLER_SPARSITY=1 SAMPLER_FILE=$scratch/big.report "$scratch/big" &&
   [ "$("$report" values "$scratch/big.report" --binary "$scratch/big" --format=csv |
        grep -c ',invariant,1,')" = 1101 ]; then
    pass "hotlist=1024 with 16 MiB of counters in a unit: 1101 sites, each its one value"
else
    fail "hotlist=1024 with 16 MiB of counters" "$scratch/build.err"
fi

finish
