#!/bin/sh
# Markers weigh nothing in the inliners' estimates.  Small static functions
# with sites, which plain -O2 inlines everywhere (calls and tail calls
# counted, IPA's copies of the callee included; inline-weight.c).  push,
# called four times: its markers (asm statements, one instruction each to
# the inliners) made it look too big, and every call stayed a call in the
# instrumented code.  slot (the shape of lua's index2value), called eight
# times: inlined for the speedup GCC expects, which the statements
# computing its branches' outcomes for the markers alone hid (8 calls with
# the markers' own weight taken out, and not theirs).
# CHECKS: sh $SRC
. "$TOOLS/tally.sh"
calls_of () {
    callee=$1
    shift
    gcc -O2 "$@" -S "$SRCDIR/inline-weight.c" -o - |
        awk -v callee="$callee" '
             /^[A-Za-z_.$][A-Za-z0-9_.$]*:$/ && !/^\.L/ { fn = $0 }
             ($1 == "call" || $1 == "jmp") && fn !~ /unsampled/ &&
                 ($2 == callee || index($2, callee ".") == 1) { n++ }
             END { print n + 0 }'
}
for callee in push slot; do
    plain=$(calls_of $callee)
    sampled=$(calls_of $callee -fplugin="$PLUGIN" \
        -fplugin-arg-sampler-schemes=branches,returns,scalar-pairs)
    if [ "$sampled" = "$plain" ]; then
        pass "a small function with sites, $callee, is inlined as plain inlines it ($plain calls)"
    else
        echo "plain: $plain calls of $callee, instrumented: $sampled" >"$T/out"
        fail "a small function with sites, $callee, is inlined as plain inlines it" "$T/out"
    fi
done
finish
