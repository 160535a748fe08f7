#!/bin/bash
# pointers.c run 4 times with address-space randomisation (the default):
# its pointer sites' raw addresses differ in every run (--raw-pointers),
# and combined, each pointer site is one value that holds in every run:
# the static table as program+offset (the offset from nm), the heap block
# as "heap, 16-aligned", the local array as "stack, N-aligned", and null
# (docs/values.md).
# CHECKS: bash $SRC
. "$TESTSUITE/schemes/values/lib.sh"
if build_program pointers -O2; then
    binary=$scratch/pointers-O2
    for run in 1 2 3 4; do
        SAMPLER_SPARSITY=1 SAMPLER_FILE=$binary.$run.report "$binary" || break
    done
    table=$(nm "$binary" | awk '$3 == "table" { print $1 }')
    printf '%s\t%s\t4000\tinvariant\n' \
        'into_table (pointer)' "pointers-O2+0x$(printf %x $((0x${table:-0} + 40)))" \
        'block (pointer)' 'heap, 16-aligned' \
        'local (pointer)' 'stack, N-aligned' \
        'nothing (pointer)' 'null' >"$scratch/pointers.expected"
    raw=$("$report" values "$binary".?.report --binary "$binary" --raw-pointers --top=1024 \
              --format=csv 2>"$scratch/err" | grep -c ',into_table (pointer),')
    if [ "$raw" != 4 ]; then
        fail_with "pointers: raw addresses of table in 4 runs" \
            "$raw distinct (address-space randomisation off?)" "$(cat "$scratch/err")"
    elif value_rows "$binary" "$binary".?.report 2>"$scratch/err" | cut -f2- |
             sed -E 's/stack, [0-9]+-aligned/stack, N-aligned/' >"$scratch/pointers.rows" &&
         diff -u "$scratch/pointers.expected" "$scratch/pointers.rows" >"$scratch/diff"; then
        pass "pointers: 4 runs under ASLR, each pointer site one value across runs"
    else
        cat "$scratch/err" >>"$scratch/diff"
        fail "pointers: one value across runs" "$scratch/diff"
    fi
else
    fail "build(pointers)" "$scratch/build.err"
fi
finish
