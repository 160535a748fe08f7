#!/bin/sh
# check-table.sh PLUGIN-ARGS...: the case $SRC, compiled at -O2 with
# PLUGIN-ARGS, must give the site table $NAME.expected (sites, predicate
# text, counters, signature), and carry the same table in its object's
# section, which strip removes.  Compiled from inside the folder so that the
# file name (and so the signature) does not depend on where the checkout is.
# NAME.cc is C++, compiled with g++.
. "$TOOLS/tally.sh"
case $SRC in *.cc) compiler=g++ ;; *) compiler=gcc ;; esac
rm -f "$T/table"
if ! (cd "$SRCDIR" && $compiler -O2 -fchecking -fplugin="$PLUGIN" "$@" \
        -fplugin-arg-sampler-site-table="$T/table" \
        -c "$(basename "$SRC")" -o "$T/$NAME.o") 2>"$T/err"; then
    fail "site table $NAME: compile" "$T/err"
elif diff -u "$SRCDIR/$NAME.expected" "$T/table" >"$T/diff"; then
    pass "site table $NAME"
else
    fail "site table $NAME: differs" "$T/diff"
fi
objcopy --dump-section .debug_sampler_sites="$T/section" "$T/$NAME.o" "$T/copy.o" 2>/dev/null
if cmp -s "$T/section" "$SRCDIR/$NAME.expected"; then
    pass "site table $NAME: in the object's section"
else
    fail "site table $NAME: in the object's section"
fi
strip "$T/$NAME.o" -o "$T/stripped.o"
if readelf -S "$T/stripped.o" | grep -q debug_sampler_sites; then
    fail "site table $NAME: strip removes it"
else
    pass "site table $NAME: strip removes it"
fi
finish
