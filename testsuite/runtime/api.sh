#!/bin/bash
# The sampler.h API (api.c): sampler_dump, sampler_reset,
# sampler_set_sparsity (another thread follows it from its next countdown).
# CHECKS: bash $SRC
. "$SRCDIR/lib.sh"
api_tests() {
    local dir=$scratch/api bin=$scratch/bin/api
    mkdir -p "$dir"
    if ! "$sgcc" -O2 -Wall -Wextra -fplugin-arg-sampler-schemes=checks -I"$build/include" \
            "$here/api.c" -o "$bin" >"$dir/build" 2>&1; then
        fail_with "api: build" "$(cat "$dir/build")"
        return
    fi
    SAMPLER_SPARSITY=1 SAMPLER_SEED=8 SAMPLER_FILE=$dir/a.report "$bin" >"$dir/out"
    same "api: return values" \
        "dump 0|reset 0|sparsity 0: -1 EINVAL|sparsity 1000000001: -1 EINVAL|sparsity 1000000000: 0|now 1000000000|sparsity 1: 0|done 2511" \
        "$(tr '\n' '|' <"$dir/out" | sed 's/|$//')"
    same "api: the dump is kept, the report after the reset is a new file" "a.report a.report.1" \
        "$(ls "$dir" | grep '^a\.' | tr '\n' ' ' | sed 's/ $//')"
    same "api: the dump holds what was counted before it" \
        "1|phase_a 1000 phase_b 0 phase_c 0 phase_d 0 phase_e 0 phase_f 0" \
        "$(record "$dir/a.report" interim)|$(checks "$dir/a.report" --binary "$bin" | tr '\n' ' ' | sed 's/ $//')"
    same "api: after the reset, sparsity 10^9 (in every thread) then 1: counts from zero" \
        "1|status 0|1|phase_a 0 phase_b 0 phase_c 0 phase_d 1000 phase_e 10 phase_f 1" \
        "$(record "$dir/a.report.1" reset)|$(record "$dir/a.report.1" exit)|$(record "$dir/a.report.1" sparsity)|$(checks "$dir/a.report.1" --binary "$bin" | tr '\n' ' ' | sed 's/ $//')"
}

api_tests
finish
