#!/bin/bash
# inlined.c, whose loop condition calls a header's inline getchar: exact
# counts, every line spelled is one of inlined.c's, the loop's turns exit
# at the loop's line.
# CHECKS: bash $SRC
. "$TESTSUITE/schemes/paths/lib.sh"
# Statements inlined from a header are spelled by the line of their call.
dir=$scratch/inlined; mkdir -p "$dir"
if (cd "$here" && "$WRAPPER" -O2 -fchecking -fplugin-arg-sampler-schemes=paths \
        inlined.c -o "$dir/inlined") 2>"$dir/build"; then
    printf 'ab C\nxyz\n' | SAMPLER_SPARSITY=1 SAMPLER_FILE="$dir/r" "$dir/inlined" >/dev/null
    rows "$dir/r" --binary "$dir/inlined" >"$dir/rows"
    lines=$(wc -l <"$here/inlined.c")
    beyond=$(grep -o 'line [0-9]*' "$dir/rows" | awk -v n="$lines" '$2 > n' | head -n 1)
    # 9 characters: 9 turns of the loop, its entry, its exit, the return.
    if [ -z "$beyond" ] && [ "$(awk -F"\t" "{ n += \$2 } END { print n }" "$dir/rows")" = 12 ] &&
       grep -q '^main	9	17	line 17 true -> .* -> exit line 17$' "$dir/rows"; then
        pass "inlined: exact counts, spelled by the file's own lines"
    else
        fail_with "inlined" "$(cat "$dir/rows")"
    fi
else
    fail_with "inlined build" "$(cat "$dir/build")"
fi
finish
