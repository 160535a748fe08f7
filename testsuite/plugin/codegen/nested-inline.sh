#!/bin/sh
# A call to a function with sites is shared by the fast and slow copies, so
# a callee inlined later appears once per call, as in the plain build; were
# it made from both copies, it would appear 2^depth times (nested-inline.c:
# 4 levels, each with a site: 68 calls of leaf instead of 8 at -O2).
# CHECKS: sh $SRC
. "$TOOLS/tally.sh"
# Calls of leaf in the assembly: in the unsampled clones ($1 = -e) or in
# the other functions ($1 = -v).  The clones call leaf's clone, whose
# fallback (a jump to leaf, leaf.unsampled.0) is not counted.
leaf_calls () {
    pick=$1; shift
    gcc "$@" -S "$SRCDIR/nested-inline.c" -o - |
        awk '/^[A-Za-z_.$][A-Za-z0-9_.$]*:$/ && !/^\.L/ { fn = $0 }
             /(call|jmp)[[:space:]]+leaf/ && fn != "leaf.unsampled.0:" { print fn }' |
        grep -cE $pick '\.unsampled\.'
}
for level in -O0 -O2 -O3; do
    plain=$(leaf_calls -v "$level")
    schemes=-fplugin-arg-sampler-schemes=checks,branches,returns,scalar-pairs,float-kinds,function-entries,bounds
    sampled=$(leaf_calls -v "$level" -fplugin="$PLUGIN" $schemes)
    unsampled=$(leaf_calls -e "$level" -fplugin="$PLUGIN" $schemes)
    if [ "$plain" -gt 0 ] && [ "$sampled" = "$plain" ] && [ "$unsampled" = "$plain" ]; then
        pass "nested inline functions at $level: $sampled calls of leaf, as plain (and in the unsampled clone)"
    else
        echo "plain: $plain calls of leaf, instrumented: $sampled, unsampled clone: $unsampled" >"$T/out"
        fail "nested inline functions at $level: each inlined call once" "$T/out"
    fi
done
finish
