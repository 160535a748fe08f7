#!/bin/sh
# check-dump.sh OPT [PLUGIN-ARGS...]: the case $SRC, compiled at OPT with
# -fchecking and PLUGIN-ARGS, must dump (-fplugin-arg-sampler-dump) the
# checks and weights of $NAME.expected.  The transformation runs after GCC's
# optimisers, on the CFG they leave: where a level gives other checks,
# $NAME.O2.expected holds them for -O2 (and -O3, unless $NAME.O3.expected
# does).  `check' is weightless, so that its calls are sites and nothing
# else: an unknown function would end a region at each call.  NAME.cc is
# C++, compiled with g++.
opt=$1
shift
expected=$SRCDIR/$NAME.expected
for level in O2 O3; do
    case $opt in -O0) break ;; -O2) [ $level = O3 ] && break ;; esac
    [ -f "$SRCDIR/$NAME.$level.expected" ] && expected=$SRCDIR/$NAME.$level.expected
done
case $SRC in *.cc) compiler=g++ ;; *) compiler=gcc ;; esac
rm -f "$T/dump"
# $opt is split into words on purpose ("-O3 -g").
# shellcheck disable=SC2086
$compiler $opt -fchecking -fplugin="$PLUGIN" "$@" -fplugin-arg-sampler-weightless=check \
    -fplugin-arg-sampler-dump="$T/dump" -c "$SRC" -o "$T/$NAME.o" || exit
diff -u "$expected" "$T/dump"
