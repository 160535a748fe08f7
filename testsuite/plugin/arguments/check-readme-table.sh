#!/bin/sh
# check-readme-table.sh BUILD [DOC]: the table of plugin arguments in DOC
# (default docs/reference.md: the lines from `| argument | meaning |' to the end of
# the table) must be the plugin's own, which its table of arguments
# (plugin/arguments.def) generates: -fplugin-arg-sampler-help=markdown.
# Prints the difference and exits 1 when they differ.
set -eu
usage="usage: check-readme-table.sh BUILD [DOC]"
build=$(cd "${1:?$usage}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
doc=${2:-$here/../../../docs/reference.md}
scratch=$(mktemp -d "${TMPDIR:-/tmp}/sampler-docs.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
# The plugin: where sampler-gcc says, or where make puts it for the
# default GCC.
plugin=$("$build/bin/sampler-gcc" -print-sampler-plugin 2>/dev/null) \
    || plugin=$build/lib/sampler/sampler.so
generate="gcc -fplugin=$plugin -fplugin-arg-sampler-help=markdown -fsyntax-only -x c /dev/null"
$generate 2>"$scratch/generated"
awk '/^\| argument \| meaning \|$/ { on = 1 } on && !/^\|/ { exit } on' \
    "$doc" >"$scratch/documented"
if [ ! -s "$scratch/documented" ]; then
    echo "check-readme-table.sh: $doc has no table of plugin arguments" >&2
    exit 1
fi
if diff -u "$scratch/documented" "$scratch/generated" >"$scratch/diff"; then
    echo "the plugin arguments' table in $doc is the plugin's own"
else
    echo "check-readme-table.sh: the plugin arguments' table in $doc differs" \
        "from the plugin's (- $doc, + the plugin's):"
    cat "$scratch/diff"
    echo "The plugin's table: $generate"
    exit 1
fi
