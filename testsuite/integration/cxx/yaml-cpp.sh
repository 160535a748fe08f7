#!/bin/bash
# yaml-cpp (Debian bookworm's source) built with the plugin, every scheme at
# once, its library instrumented (src/; its tests and googletest built by
# the same wrapper, out of scope), then its own suite (googletest,
# yaml-cpp-tests) run at sparsities 1 and 100: every test must pass, and
# each run's report must be readable against the build's site tables and
# name C++ functions with their scopes (YAML::...) and symbols.
# Not part of `make check` (issue 37, point 4); needs cmake, ninja and
# googletest (/usr/src/googletest).  About 2 minutes on 2 idle cores.
# Usage: testsuite/integration/cxx/yaml-cpp.sh BUILD_DIR   (prints "N passed, N failed")
set -u
build=$(cd "${1:?usage: yaml-cpp.sh BUILD_DIR}" && pwd) || exit 2
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../tools/tally.sh"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/sampler-yaml-cpp.XXXXXX") || exit 2
trap '[ "$failed" -gt 0 ] || rm -rf "$scratch"' EXIT
jobs=${JOBS:-2}

src=$("$here/../../tools/fetch-debian-source.sh" yaml-cpp) || { fail "fetch yaml-cpp"; finish; }
export SAMPLER_GCC=g++
flags="-O2 -fplugin-arg-sampler-schemes=all"
# The library's own files only (the cache's path has a /src/ too).
flags="$flags -fplugin-arg-sampler-include-file=$src/src/* -fplugin-arg-sampler-exclude-file=*"
if cmake -S "$src" -B "$scratch/b" -G Ninja -DCMAKE_BUILD_TYPE=None \
       -DCMAKE_CXX_COMPILER="$build/bin/sampler-gcc" -DCMAKE_CXX_FLAGS="$flags" \
       -DYAML_CPP_BUILD_TESTS=ON -DYAML_CPP_BUILD_TOOLS=OFF >"$scratch/cmake.log" 2>&1 \
   && ninja -C "$scratch/b" -j "$jobs" >"$scratch/build.log" 2>&1; then
    pass "yaml-cpp built, its library instrumented with every scheme"
else
    fail "yaml-cpp built, its library instrumented with every scheme" "$scratch/build.log"
    finish
fi
tests=$scratch/b/test/yaml-cpp-tests
for sparsity in 1 100; do
    rm -f "$scratch/report"
    if (cd "$scratch/b/test" && SAMPLER_SPARSITY=$sparsity SAMPLER_SEED=7 \
            SAMPLER_FILE="$scratch/report" "$tests") >"$scratch/tests.$sparsity.log" 2>&1; then
        pass "sparsity $sparsity: $(grep -o '\[  PASSED  \] [0-9]* tests' "$scratch/tests.$sparsity.log")"
    else
        fail "sparsity $sparsity: yaml-cpp-tests" "$scratch/tests.$sparsity.log"
        continue
    fi
    if "$build/bin/sampler-report" show "$scratch/report" --format=csv \
           >"$scratch/show.csv" 2>"$scratch/err" \
       && grep -q '^[^,]*,[0-9]*,[^,]*,[0-9]*,[0-9]*,"\?YAML::.*,_ZN.*YAML' "$scratch/show.csv"; then
        pass "sparsity $sparsity: the report reads, YAML:: names with their symbols"
    else
        fail "sparsity $sparsity: the report reads, YAML:: names with their symbols" "$scratch/err"
    fi
done
finish
