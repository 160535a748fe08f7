#!/bin/sh
# compare-codegen.sh OLD_BUILD NEW_BUILD [PROGRAMS]
# Shows that a change of the plugin leaves the generated code alone: builds
# PROGRAMS (default bzip2,sqlite3,lua) with branches, returns and
# scalar-pairs through bench.py with the plugin of each build directory
# (each a `make` of its own checkout), then compares every object's
# disassembly (objdump -d -r) and its .debug_sampler_sites section.
# Prints IDENTICAL, or the objects that differ (exit 1).
set -eu
usage="usage: compare-codegen.sh OLD_BUILD NEW_BUILD [PROGRAMS]"
old=$(cd "${1:?$usage}" && pwd)
new=$(cd "${2:?$usage}" && pwd)
programs=${3:-bzip2,sqlite3,lua}
here=$(cd "$(dirname "$0")" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

dump () {  # dump BUILD_DIR OUT_DIR
    nice python3 "$here/bench.py" --build-dir "$1" --programs "$programs" \
        --configs plain,brs-0 --runs 1 --size tiny --callgrind-size '' \
        --no-largest-unit --out-dir "$2/bench" >"$2.log" 2>&1 \
        || { echo "compare-codegen.sh: the build with $1 failed: $2.log" >&2; exit 2; }
    for p in $(echo "$programs" | tr , ' '); do
        (cd "$1/bench/$p/brs" && find . -name '*.o' | sort) | while read -r o; do
            d=$2/$p/${o#./}
            mkdir -p "$(dirname "$d")"
            objdump -d -r "$1/bench/$p/brs/$o" | tail -n +3 >"$d.dis"
            objdump -s -j .debug_sampler_sites "$1/bench/$p/brs/$o" 2>/dev/null \
                | tail -n +3 >"$d.sites" || true
        done
    done
}

dump "$old" "$scratch/old"
dump "$new" "$scratch/new"
rm -rf "$scratch/old/bench" "$scratch/new/bench"
if diff -r -q "$scratch/old" "$scratch/new" | grep -v '\.log'; then
    exit 1
fi
echo IDENTICAL
