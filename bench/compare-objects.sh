#!/bin/bash
# compare-objects.sh OLD_BUILD NEW_BUILD
# Shows that a change of the plugin leaves what it emits alone, scheme by
# scheme: compiles testsuite programs (-c, from their own directory)
# with the sampler-gcc of each build directory under every configuration
# below, and compares the objects byte for byte (code, data, site table,
# path table).  Where two objects differ, names the sections that differ.
# compare-codegen.sh does the same for real programs (bzip2, sqlite3, lua)
# with branches, returns and scalar-pairs.
# An object the old build itself does not give twice the same, when the new
# build does (main's plugin before the determinism fix of 4186789: paths at
# -O0), is counted apart.
# Prints `N identical, N differ, N vary in the old build, N built by
# neither' and what differs, then IDENTICAL (exit 0), or exits 1 when a
# difference is the change's.
set -u
usage="usage: compare-objects.sh OLD_BUILD NEW_BUILD"
old=$(cd "${1:?$usage}" && pwd) || exit 2
new=$(cd "${2:?$usage}" && pwd) || exit 2
for b in "$old" "$new"; do
    [ -x "$b/bin/sampler-gcc" ] || { echo "compare-objects.sh: no $b/bin/sampler-gcc" >&2; exit 2; }
done
top=$(cd "$(dirname "$0")/.." && pwd)
t=$top/testsuite
scratch=$(mktemp -d "${TMPDIR:-/tmp}/sampler-compare-objects.XXXXXX") || exit 2
trap 'rm -rf "$scratch"' EXIT

# The registry's schemes (the old build may predate schemes=all).
all=$("$t/tools/scheme-names.sh")
brs=branches,returns,scalar-pairs
a=-fplugin-arg-sampler
# NAME|FLAGS: each configuration, applied to every source.
configs=(
    "all-O0|-O0 $a-schemes=$all"
    "all-O2|-O2 $a-schemes=$all $a-pairs-constants $a-hotlist=3"
    "brs-pair|-O2 $a-schemes=$brs $a-pairs-sites=pair"
    "brs-limits|-O3 $a-schemes=$brs $a-region-limit=3 $a-pad-limit=1 $a-outline-entry"
    "paths-O0|-O0 $a-schemes=paths,branches"
    "paths-small|-O2 $a-schemes=paths $a-paths-array=2 $a-paths-max=6"
    "subpaths|-O2 $a-schemes=subpaths $a-subpath-max=2^4"
    "rates|-O2 $a-schemes=$brs RATES"
)
# The control flow the suites gather (the cases with their own arguments
# come below).
sources=(
    "$t"/run/*.c "$t"/paths/{shapes,ppp}.c "$t"/subpaths/{interp,nested}.c
    "$t"/rates/weighted.c "$scratch/random.c"
)
# Random control flow for the paths' numbering (seeded: the same file each run).
python3 "$t/paths/gen-cfgs.py" 11 24 >"$scratch/random.c" || exit 2

identical=0 differ=0 varies=0 neither=0
differences=$scratch/differences
: >"$differences"

# BUILD SOURCE OUT FLAGS...: an object of SOURCE, built from its directory.
compile() {
    local build=$1 source=$2 out=$3; shift 3
    (cd "$(dirname "$source")" &&
        "$build/bin/sampler-gcc" -c -I"$t/run" "$@" "$(basename "$source")" -o "$out") \
        >"$out.log" 2>&1
}

# BUILD SOURCE OBJECT FLAGS...: whether BUILD gives another object than
# OBJECT in one of two more compiles.
unstable() {
    local build=$1 source=$2 o=$3 i; shift 3
    for i in 2 3; do
        compile "$build" "$source" "$o.$i" "$@" && ! cmp -s "$o" "$o.$i" && return 0
    done
    return 1
}

# SOURCE OLD_OBJECT NEW_OBJECT FLAGS...: whether the old build varies (its
# hash tables' order, not the change, may then explain a difference) and
# the new one does not.
old_varies() {
    local source=$1 o=$2 n=$3; shift 3
    unstable "$old" "$source" "$o" "$@" && ! unstable "$new" "$source" "$n" "$@"
}

# CONFIG SOURCE FLAGS...: both objects, compared.
compare() {
    local config=$1 source=$2; shift 2
    local name=$config/$(basename "$(dirname "$source")")-$(basename "$source" .c)
    mkdir -p "$scratch/old/$config" "$scratch/new/$config"
    local o=$scratch/old/$name.o n=$scratch/new/$name.o
    compile "$old" "$source" "$o" "$@" & local old_job=$!
    compile "$new" "$source" "$n" "$@"; local new_rc=$?
    wait $old_job; local old_rc=$?
    if [ $old_rc != 0 ] && [ $new_rc != 0 ]; then
        neither=$((neither + 1))
    elif [ $old_rc = 0 ] && [ $new_rc = 0 ] && cmp -s "$o" "$n"; then
        identical=$((identical + 1))
    elif [ $old_rc = 0 ] && [ $new_rc = 0 ] && old_varies "$source" "$o" "$n" "$@"; then
        varies=$((varies + 1))
        echo "$name ($*): the old build's objects differ from one compile to the next" \
            >>"$differences"
    else
        differ=$((differ + 1))
        {
            echo "$name ($*):"
            if [ $old_rc != 0 ] || [ $new_rc != 0 ]; then
                echo "  built by one only: old $old_rc, new $new_rc"
                tail -n 3 "$o.log" "$n.log" | sed 's/^/  /'
            else
                local s
                for s in $(objdump -h "$n" | awk '$1 ~ /^[0-9]+$/ { print $2 }'); do
                    cmp -s <(objdump -s -j "$s" "$o" | tail -n +3) \
                        <(objdump -s -j "$s" "$n" | tail -n +3) ||
                        echo "  section $s differs"
                done
                cmp -s <(objdump -h "$o" | tail -n +3) <(objdump -h "$n" | tail -n +3) ||
                    echo "  the section headers differ"
            fi
        } >>"$differences"
    fi
}

# A rates file for SOURCE built with FLAGS: every site of its table (the new
# build's) a weight from 1 to 23 that changes from site to site, so that
# regions, refunds and limits see uneven weights.
rates_for() {   # SOURCE OUT FLAGS...
    local source=$1 out=$2; shift 2
    rm -f "$out.sites"
    compile "$new" "$source" "$out.o" "$@" "$a-site-table=$out.sites" || return 1
    awk -F'\t' -v OFS='\t' '
        BEGIN { print "sampler-rates", 1; print "unit", 8 }
        $1 == "unit" { source = $3 }
        $1 == "site" { n++; print "site", 1 + (n * 7) % 23, source, $4, $5, $7, $3, $9 }' \
        "$out.sites" >"$out"
}

for entry in "${configs[@]}"; do
    config=${entry%%|*}
    read -r -a flags <<<"${entry#*|}"
    for source in "${sources[@]}"; do
        if [ "${flags[-1]}" = RATES ]; then
            rates=$scratch/rates/$(basename "$(dirname "$source")")-$(basename "$source" .c).rates
            mkdir -p "$scratch/rates"
            rates_for "$source" "$rates" "${flags[@]:0:${#flags[@]}-1}" || { neither=$((neither + 1)); continue; }
            compare "$config" "$source" "${flags[@]:0:${#flags[@]}-1}" "$a-rates=$rates"
        else
            compare "$config" "$source" "${flags[@]}"
        fi
    done
done
# Each test case with its own arguments (plugin/schemes, plugin/shapes, values).
for args in "$t"/plugin/schemes/*.args "$t"/plugin/shapes/*.args "$t"/values/*.args; do
    source=${args%.args}.c
    [ -f "$source" ] || continue
    read -r -a flags <"$args"
    compare case-args "$source" -O2 "${flags[@]}"
done
# Preferential numbering of interesting paths (a file written by hand, as
# testsuite/paths/run-ppp-tests.sh does).
printf 'sampler-interesting-paths 1\nline nested shapes.c 33\nline cases shapes.c 56\n' \
    >"$scratch/interesting"
for opt in -O0 -O2; do
    compare "interesting$opt" "$t/paths/shapes.c" $opt "$a-schemes=paths" \
        "$a-paths-array=4" "$a-paths-interesting=$scratch/interesting"
done

echo "$identical identical, $differ differ, $varies vary in the old build, $neither built by neither"
cat "$differences"
[ $differ = 0 ] || exit 1
[ $identical != 0 ] || { echo "compare-objects.sh: nothing was compared" >&2; exit 2; }
echo IDENTICAL
