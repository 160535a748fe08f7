#!/bin/bash
# A bad SAMPLER_SUBPATH_MAX, _MEMORY, _LENGTHS or _TRACE (loop.c): one
# warning naming it, sampling off, no report; memory too small for the
# longest subpaths: one warning, no lists, the run goes on.
# CHECKS: bash $SRC
. "$SRCDIR/lib.sh"
build_loop
for setting in SAMPLER_SUBPATH_MAX=3 SAMPLER_SUBPATH_MAX=2048 SAMPLER_SUBPATH_MEMORY=100 \
               SAMPLER_SUBPATH_LENGTHS=some; do
    rm -f "$scratch/env.report"
    env SAMPLER_SPARSITY=1 SAMPLER_FILE="$scratch/env.report" "$setting" \
        "$scratch/loop-O2" 10 >/dev/null 2>"$scratch/err"
    if grep -q "ignoring ${setting%%=*}='${setting#*=}'.*sampling is off" "$scratch/err" &&
       [ ! -e "$scratch/env.report" ]; then
        pass "env($setting)"
    else
        fail "env($setting)" "$scratch/err"
    fi
done

# Memory too small for the longest subpaths: one warning, the run goes on.
SAMPLER_SPARSITY=1 SAMPLER_SUBPATH_MAX=1024 SAMPLER_SUBPATH_MEMORY=16384 \
    SAMPLER_FILE="$scratch/small.report" "$scratch/loop-O2" 10 >/dev/null 2>"$scratch/err"
if [ "$(grep -c 'SAMPLER_SUBPATH_MEMORY is too small' "$scratch/err")" = 1 ] &&
   grep -q '^end$' "$scratch/small.report" && ! grep -q '^subpaths' "$scratch/small.report"; then
    pass "memory too small: one warning, no subpaths"
else
    fail "memory too small" "$scratch/err"
fi


long=$(printf '%04100d' 0)
SAMPLER_SPARSITY=1 SAMPLER_SUBPATH_TRACE="$scratch/$long" SAMPLER_FILE="$scratch/long.report" \
    "$scratch/loop-O2" 10 >/dev/null 2>"$scratch/err"
if grep -q "ignoring SAMPLER_SUBPATH_TRACE=.*path shorter than.*sampling is off" "$scratch/err" &&
   [ ! -e "$scratch/long.report" ]; then
    pass "env(SAMPLER_SUBPATH_TRACE too long)"
else
    fail "env(SAMPLER_SUBPATH_TRACE too long)" "$scratch/err"
fi
finish
