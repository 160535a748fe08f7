#!/bin/sh
# The wrapper, sampler-gcc, in every mode: compile only, link only, both,
# preprocess, dependencies, a shared library and a program linked against
# it, a static link; the programs built sample every visit at sparsity 1
# and none at 0.
# Code for an executable reaches the countdown local-exec and defines it;
# code for a shared library reaches it initial-exec, through the GOT.  The
# executable's definition must be the one libsampler.so and the library use
# (exported by the linker): sampler_set_sparsity sets the calling thread's
# countdown, and the executable's own code must see it at once
# (countdown-main.c).
# CHECKS: sh $SRC
. "$TOOLS/tally.sh"
cp "$SRCDIR/lib.c" "$SRCDIR/main.c" "$SRCDIR/countdown-main.c" "$SRCDIR/own.c" "$T/"
cd "$T" || exit
run_wrapper () {
    name=$1
    shift
    if "$WRAPPER" "$@" >out 2>&1; then
        pass "wrapper: $name"
    else
        fail "wrapper: $name" out
    fi
}
run_wrapper "compile only" -O2 -c lib.c -o lib.o
run_wrapper "compile only, main" -O2 -c main.c -o main.o
run_wrapper "link only" lib.o main.o -o prog
run_wrapper "compile and link" -O2 lib.c main.c -o prog2
run_wrapper "preprocess only" -E lib.c -o lib.i
run_wrapper "dependencies only" -M lib.c
run_wrapper "shared library" -O2 -fPIC -shared lib.c -o libl.so
run_wrapper "link against the shared library" -O2 main.c -L. -ll -Wl,-rpath,"$T" -o prog3
run_wrapper "static link" -O2 -static lib.c main.c -o prog4
for prog in prog prog2 prog3 prog4; do
    if [ -x "$prog" ] \
            && [ "$(SAMPLER_SPARSITY=1 "./$prog")" = "499500 1000" ] \
            && [ "$(SAMPLER_SPARSITY=0 "./$prog")" = "499500 0" ]; then
        pass "wrapper-built $prog samples every visit at 1 and none at 0"
    else
        fail "wrapper-built $prog samples every visit at 1 and none at 0"
    fi
done
if "$WRAPPER" --version >/dev/null 2>&1; then pass "wrapper: --version"; else fail "wrapper: --version"; fi

run_wrapper "an executable with sites, and a shared library with sites" \
    -O2 countdown-main.c own.c -L. -ll -Wl,-rpath,"$T" -o prog5
if { "$WRAPPER" -O2 -c countdown-main.c -o main5.o \
        && "$WRAPPER" -O2 -fPIC -c lib.c -o lib-pic.o; } >out 2>&1 \
        && readelf -rW main5.o | grep -q 'R_X86_64_TPOFF32 .* __sampler_countdown' \
        && ! readelf -rW main5.o | grep -q 'GOTTPOFF' \
        && readelf -sW main5.o | grep -q 'TLS *WEAK *DEFAULT .* __sampler_countdown' \
        && readelf -rW lib-pic.o | grep -q 'R_X86_64_GOTTPOFF .* __sampler_countdown' \
        && readelf -sW lib-pic.o | grep -q 'TLS *GLOBAL *DEFAULT *UND __sampler_countdown' \
        && nm -D prog5 | grep -q ' [VW] __sampler_countdown' \
        && [ "$(SAMPLER_SPARSITY=1 ./prog5)" = "999000 1000 1000" ] \
        && [ "$(SAMPLER_SPARSITY=0 ./prog5)" = "999000 0 0" ]; then
    pass "executable code reaches the countdown local-exec, library code initial-exec, one countdown"
else
    fail "executable code reaches the countdown local-exec, library code initial-exec, one countdown" out
fi
finish
