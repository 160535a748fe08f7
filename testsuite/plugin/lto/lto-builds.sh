#!/bin/bash
# Programs built with -flto give the same site tables and, at sparsity 1,
# the same counts as the build without it (docs/lto.md).
#
# The three units of program/ are built with every scheme, plainly (one
# object per unit, linked without LTO: the reference) and in each LTO way:
#   fat        -flto=auto -ffat-lto-objects, linked with -flto=auto
#   fat-plain  the same fat objects linked without -flto (their code)
#   slim       -flto (-fno-fat-lto-objects), linked with -flto
#   partitions -flto=auto -flto-partition=max: every function in a
#              partition of its own, the site tables and descriptors in
#              others than the code that counts into them
#   whole      -flto -fwhole-program at the link
# at -O2, and at -O0 (fat only), compiled with -fchecking (GCC verifies
# its IR after each pass).  For each, checks that:
#   - the program prints what the plain program prints;
#   - its .debug_sampler_sites holds the same units as the reference's
#     (units sorted: the link may order them otherwise);
#   - a run at SAMPLER_SPARSITY=1 gives the same counts, site by site, as
#     the reference's (sampler-report show --format=csv --all): every
#     counter of the predicate schemes, and the number of samples of the
#     hot-list schemes (values, sizes, indirect-calls), whose hot-lists
#     keep a random sample.  The paths counts are not compared: a
#     region's paths are numbered in the function the transformation
#     sees, and with -flto it runs before the link's inliner (and after
#     GCC's function splitting, which the link may undo), so that a
#     callee inlined later keeps its own paths;
#   - sampler-report paths finds every path table (.debug_sampler_paths
#     goes through LTO as the site tables do);
#   - the plugin, given at the link too, is quiet in lto1.
# CHECKS: bash $SRC
# TIMEOUT: 300

. "$TOOLS/tally.sh"
set -u
HERE=$SRCDIR
GCC_WRAP=$WRAPPER
scratch=$T
SCHEMES=-fplugin-arg-sampler-schemes=all
UNITS="main classify calls"

# build NAME COMPILE_FLAGS LINK_FLAGS: the program, into $scratch/NAME/
build () {
    local name=$1 compile=$2 link=$3 dir=$scratch/$1 objects=
    mkdir -p "$dir"
    for unit in $UNITS; do
        # shellcheck disable=SC2086
        "$GCC_WRAP" $SCHEMES -fchecking $compile -c "$HERE/program/$unit.c" \
            -o "$dir/$unit.o" >>"$dir/build.log" 2>&1 || return 1
        objects="$objects $dir/$unit.o"
    done
    # shellcheck disable=SC2086
    "$GCC_WRAP" $SCHEMES $link $objects -o "$dir/prog" >>"$dir/build.log" 2>&1
}

# site_tables DIR: the program's site tables, one unit a line, sorted
site_tables () {
    objcopy --dump-section .debug_sampler_sites="$1/sites.bin" "$1/prog" "$1/prog.copy" &&
        awk '/^unit\t/ { block = "" } { block = block $0 "|" } /^end$/ { print block }' \
            "$1/sites.bin" | sort
}

# counts DIR: the run's counts that must not depend on LTO, sorted
counts () {
    "$REPORT" show "$1/report" --binary "$1/prog" --format=csv --all |
        awk -F, 'NR > 1 && $7 != "paths" &&
                 (($7 != "values" && $7 != "sizes" && $7 != "indirect-calls") || $9 == "sampled") {
                     print $1, $2, $7, $9, $10 }' | sort
}

# run DIR: the program at sparsity 1, its output and its report
run () {
    rm -f "$1/report"
    SAMPLER_SPARSITY=1 SAMPLER_SEED=7 SAMPLER_FILE="$1/report" "$1/prog" >"$1/output" 2>&1
}

# compare NAME REFERENCE: the checks of one LTO build against its reference
compare () {
    local name=$1 ref=$scratch/$2 dir=$scratch/$1
    if ! run "$dir"; then fail "$name: runs" "$dir/output"; return; fi
    if cmp -s "$ref/output" "$dir/output"; then pass "$name: output"
    else fail_with "$name: output" "plain: $(cat "$ref/output")" "lto: $(cat "$dir/output")"; fi
    site_tables "$ref" >"$ref/tables" 2>&1
    site_tables "$dir" >"$dir/tables" 2>&1
    if [ -s "$ref/tables" ] && cmp -s "$ref/tables" "$dir/tables"; then
        pass "$name: site tables ($(wc -l <"$ref/tables") units)"
    else
        diff "$ref/tables" "$dir/tables" | tr '|' '\n' | head -20 >"$dir/tables.diff"
        fail "$name: site tables" "$dir/tables.diff"
    fi
    counts "$ref" >"$ref/counts" 2>&1
    counts "$dir" >"$dir/counts" 2>&1
    if [ -s "$ref/counts" ] && cmp -s "$ref/counts" "$dir/counts"; then
        pass "$name: counts at sparsity 1 ($(wc -l <"$ref/counts") counters)"
    else
        diff "$ref/counts" "$dir/counts" >"$dir/counts.diff"
        fail "$name: counts at sparsity 1" "$dir/counts.diff"
    fi
    if "$REPORT" paths "$dir/report" --binary "$dir/prog" >"$dir/paths" 2>&1 &&
       grep -q "main\.c:[0-9]*  main .*paths [0-9]" "$dir/paths" && ! grep -q "no path table" "$dir/paths"; then
        pass "$name: path tables"
    else
        fail "$name: path tables" "$dir/paths"
    fi
    if grep -q "sampler" "$dir/build.log"; then fail "$name: quiet build" "$dir/build.log"
    else pass "$name: quiet build"; fi
}

# name       compile flags                              link flags                               reference
configurations=(
  "plain      -O2                                        -O2                                      -"
  "fat        -O2_-flto=auto_-ffat-lto-objects            -O2_-flto=auto                           plain"
  "fat-plain  -O2_-flto=auto_-ffat-lto-objects            -O2_-fno-lto                             plain"
  "slim       -O2_-flto_-fno-fat-lto-objects              -O2_-flto                                plain"
  "partitions -O2_-flto=auto_-flto-partition=max          -O2_-flto=auto_-flto-partition=max       plain"
  "whole      -O2_-flto                                   -O2_-flto_-fwhole-program                plain"
  "plain-O0   -O0                                        -O0                                      -"
  "fat-O0     -O0_-flto_-ffat-lto-objects                 -O0_-flto                                plain-O0"
)
for configuration in "${configurations[@]}"; do
    read -r name compile link reference <<<"$configuration"
    if ! build "$name" "${compile//_/ }" "${link//_/ }"; then
        fail "$name: builds" "$scratch/$name/build.log"
        continue
    fi
    if [ "$reference" = - ]; then
        if run "$scratch/$name"; then pass "$name: builds and runs"
        else fail "$name: runs" "$scratch/$name/output"; fi
    else
        compare "$name" "$reference"
    fi
done

# The slim objects hold no code (an empty .text): only the LTO streams,
# which carry the instrumented functions and the units' site tables.
slim_text=$(readelf -SW "$scratch/slim/classify.o" | sed -n 's/.* \.text  *PROGBITS  *[0-9a-f]*  *[0-9a-f]*  *\([0-9a-f]*\) .*/\1/p')
if objdump -h "$scratch/slim/classify.o" | grep -q '\.gnu\.lto_' && [ "$slim_text" = 000000 ]; then
    pass "slim: objects hold only LTO streams"
else
    readelf -SW "$scratch/slim/classify.o" >"$scratch/sections.log" 2>&1
    fail "slim: objects hold only LTO streams" "$scratch/sections.log"
fi

finish
