#!/bin/bash
# Before the programs: stat-check's self test on synthetic data (a Bernoulli
# generator must pass, periodic and other wrong sequences must fail); and
# sampler-gcc on computed_goto.c with the checks scheme, then with an
# unknown key and an unknown scheme, which must fail naming them.
# CHECKS: bash $SRC
set -u
here=$SRCDIR
sgcc=$WRAPPER
cfgdir=$T
. "$TOOLS/tally.sh"
cflags=(-Wall -Wextra "-I$here")
plugin_args="-fplugin-arg-sampler-schemes=checks"
"$STAT_CHECK" selftest
# Without a working compiler every program would fail the same way.
if "$sgcc" "${cflags[@]}" -O2 $plugin_args "$here/computed_goto.c" -o "$cfgdir/smoke" \
    >"$cfgdir/smoke.build" 2>&1; then
    pass "sampler-gcc builds computed_goto.c"
else
    fail_with "sampler-gcc builds computed_goto.c" "compile failed:" "$(tail -n 8 "$cfgdir/smoke.build")"
fi
if "$sgcc" "${cflags[@]}" -c -fplugin-arg-sampler-schemes=checks \
    -fplugin-arg-sampler-no-such-key=1 "$here/computed_goto.c" \
    -o "$cfgdir/x.o" >"$cfgdir/key.build" 2>&1; then
    fail_with "plugin arguments unknown key rejected" "the compile succeeded"
elif grep -q 'no-such-key' "$cfgdir/key.build"; then
    pass "plugin arguments unknown key rejected" "$(grep -m1 'no-such-key' "$cfgdir/key.build")"
else
    fail_with "plugin arguments unknown key rejected" "the error does not name the argument:" \
        "$(tail -n 5 "$cfgdir/key.build")"
fi
if "$sgcc" "${cflags[@]}" -c -fplugin-arg-sampler-schemes=no-such-scheme \
    "$here/computed_goto.c" -o "$cfgdir/x.o" >"$cfgdir/scheme.build" 2>&1; then
    fail_with "plugin arguments unknown scheme rejected" "the compile succeeded"
elif grep -q 'no-such-scheme' "$cfgdir/scheme.build"; then
    pass "plugin arguments unknown scheme rejected" "$(grep -m1 'no-such-scheme' "$cfgdir/scheme.build")"
else
    fail_with "plugin arguments unknown scheme rejected" "the error does not name the value:" \
        "$(tail -n 5 "$cfgdir/scheme.build")"
fi
finish
