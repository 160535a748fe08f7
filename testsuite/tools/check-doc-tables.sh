#!/bin/sh
# check-doc-tables.sh KIND BUILD_DIR [--print]
# Checks that a table of the documentation is the one its source
# generates, or prints the generated table (--print) to paste in.
#
#   env   docs/reference.md's table of environment variables (the table under
#         `| variable | meaning |'), from the runtime's settings tables
#         (runtime/settings.h), printed by BUILD_DIR/testsuite/tools/
#         settings-table (`make check-docs' builds it)
#
# Prints "KIND: FILE is up to date", or the difference (exit 1).
set -eu
usage="usage: check-doc-tables.sh KIND BUILD_DIR [--print]"
kind=${1:?$usage}
build=$(cd "${2:?$usage}" && pwd)
top=$(cd "$(dirname "$0")/../.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

case $kind in
    env)
        file=docs/reference.md
        header='| variable | meaning |'
        "$build/testsuite/tools/settings-table" >"$scratch/generated" ;;
    *)
        echo "check-doc-tables.sh: unknown kind '$kind' (env)" >&2
        exit 2 ;;
esac

if [ "${3-}" = --print ]; then
    cat "$scratch/generated"
    exit 0
fi
# The table in FILE: from its header line to the first line that is not
# a table row.
awk -v header="$header" '
    $0 == header { inside = 1 }
    inside && !/^\|/ { exit }
    inside { print }' "$top/$file" >"$scratch/documented"
if ! [ -s "$scratch/documented" ]; then
    echo "$kind: no table headed '$header' in $file" >&2
    exit 1
fi
if ! diff -u "$scratch/documented" "$scratch/generated" >"$scratch/diff"; then
    echo "$kind: the table in $file is not the generated one (- $file, + generated;" \
         "check-doc-tables.sh $kind BUILD_DIR --print prints it):"
    cat "$scratch/diff"
    exit 1
fi
echo "$kind: $file is up to date"
