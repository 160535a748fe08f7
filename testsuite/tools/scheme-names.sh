#!/bin/sh
# Prints the names of the schemes in the registry (runtime/schemes.def), in
# its order, joined by SEPARATOR (default ","), so that tests which use
# every scheme, or check a message listing them, follow the registry.
# Usage: scheme-names.sh [SEPARATOR]
registry="$(cd "$(dirname "$0")/../.." && pwd)/runtime/schemes.def"
sed -n 's/^SAMPLER_SCHEME *([A-Z_]*, *"\([a-z-]*\)".*/\1/p' "$registry" |
    awk -v separator="${1-,}" '{ printf "%s%s", (NR > 1 ? separator : ""), $0 } END { print "" }'
