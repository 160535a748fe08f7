#!/bin/bash
# Programs built with -fcf-protection keep Intel CET's IBT and SHSTK
# properties when linked with the runtime (x86-64 only;
# docs/distributions.md).
#
# The linker gives a program a GNU property (x86 feature: IBT, SHSTK) only
# when every object it links has it, and the loader turns CET on only for
# programs and libraries that have it.  So:
#   - every object of libsampler.a has the property;
#   - the object sampler-gcc links for a release configuration
#     (sampler-release asm) has it;
#   - the LTO suite's program, instrumented with every scheme at -O2 with
#     -fcf-protection, without and with -flto=auto -ffat-lto-objects and
#     with a release configuration, linked as one relocatable object with
#     the whole of libsampler.a (gcc -r), has it: what a program has when
#     its C library's start files have it too (Fedora's and Ubuntu's do;
#     Debian bookworm's crt1.o, crti.o and crtn.o do not, so no program
#     has it there, with or without sampler);
#   - the same program linked statically with -z cet-report=warning: the
#     linker names no object without the properties but the C library's;
#   - it runs and writes a report.
# CHECKS: bash $SRC

. "$TOOLS/tally.sh"
set -u
B=$BUILD
GCC_WRAP=$WRAPPER
LIBA=$B/lib/libsampler.a
PROGRAM=$TESTSUITE/plugin/lto/program
scratch=$T

case $(gcc -dumpmachine) in
    x86_64-*) ;;
    *) skip "CET" "not x86-64"; finish ;;
esac

has_cet () { readelf -n "$1" 2>/dev/null | grep -q 'x86 feature: IBT, SHSTK'; }

# Every member of the static runtime.
mkdir -p "$scratch/members"
(cd "$scratch/members" && ar x "$LIBA")
missing=
for member in "$scratch"/members/*.o; do
    has_cet "$member" || missing="$missing ${member##*/}"
done
if [ -z "$missing" ] && [ -n "$(ls "$scratch/members")" ]; then
    pass "every object of libsampler.a has IBT and SHSTK ($(ls "$scratch/members" | wc -l) objects)"
else
    fail_with "every object of libsampler.a has IBT and SHSTK" "without:$missing"
fi

# The release configuration's object.
printf 'product = cet\nversion = 1\nupload-key = 0123456789abcdef\ncollector = https://c.example/\n' \
    >"$scratch/release.conf"
if "$B/bin/sampler-release" asm "$scratch/release.conf" >"$scratch/release.s" &&
   gcc -c "$scratch/release.s" -o "$scratch/release.o" && has_cet "$scratch/release.o"; then
    pass "the release configuration's object has IBT and SHSTK"
else
    readelf -n "$scratch/release.o" >"$scratch/notes.log" 2>&1
    fail "the release configuration's object has IBT and SHSTK" "$scratch/notes.log"
fi

# build NAME FLAGS...: the program's objects, into $scratch/NAME/
build () {
    local name=$1 unit
    shift
    mkdir -p "$scratch/$name"
    for unit in main classify calls; do
        "$GCC_WRAP" -fplugin-arg-sampler-schemes=all -O2 -fcf-protection "$@" \
            -c "$PROGRAM/$unit.c" -o "$scratch/$name/$unit.o" || return 1
    done
}

for variant in "plain" "lto -flto=auto -ffat-lto-objects"; do
    read -r name flags <<<"$variant"
    dir=$scratch/$name
    # shellcheck disable=SC2086
    if ! build "$name" $flags >"$scratch/$name.log" 2>&1; then
        fail "$name: builds" "$scratch/$name.log"; continue
    fi
    # shellcheck disable=SC2086
    if gcc -r -nostdlib $flags -fcf-protection -o "$dir/whole.o" "$dir"/*.o "$scratch/release.o" \
           -Wl,--whole-archive "$LIBA" -Wl,--no-whole-archive >"$dir/r.log" 2>&1 &&
       has_cet "$dir/whole.o"; then
        pass "$name: the program with the whole runtime and a release has IBT and SHSTK"
    else
        readelf -n "$dir/whole.o" >>"$dir/r.log" 2>&1
        fail "$name: the program with the whole runtime and a release has IBT and SHSTK" "$dir/r.log"
    fi
    # shellcheck disable=SC2086
    if "$GCC_WRAP" -O2 -fcf-protection $flags -static --sampler-release="$scratch/release.conf" \
           "$dir"/main.o "$dir"/classify.o "$dir"/calls.o -o "$dir/prog" \
           -Wl,-z,cet-report=warning >"$dir/link.log" 2>&1; then
        # The C library's objects are named with a path under /usr/lib.
        grep 'missing IBT\|missing SHSTK' "$dir/link.log" | grep -v ': /usr/lib/' >"$dir/ours.log"
        if [ -s "$dir/ours.log" ]; then fail "$name: static link: no object of ours without IBT or SHSTK" "$dir/ours.log"
        else pass "$name: static link: no object of ours without IBT or SHSTK"; fi
        rm -f "$dir/report"
        if SAMPLER_SPARSITY=1 SAMPLER_FILE="$dir/report" "$dir/prog" >"$dir/out" 2>&1 &&
           "$B/bin/sampler-report" show "$dir/report" --binary "$dir/prog" >"$dir/show" 2>&1 &&
           grep -q 'classify' "$dir/show"; then
            pass "$name: runs and reports"
        else
            cat "$dir/out" >>"$dir/show"
            fail "$name: runs and reports" "$dir/show"
        fi
    else
        fail "$name: links statically" "$dir/link.log"
    fi
done

finish
