#!/bin/sh
# Overhead of sampled checks on bench/loops.c: run time of the instrumented
# build at several sparsities against two builds without the plugin, one
# running every check (plain) and one with the checks compiled out
# (no-checks, the floor), measured in the same session with the runs
# interleaved; medians of RUNS runs (default 5).
# Usage: run-bench.sh BUILD_DIR [ROUNDS] [RUNS]
set -eu
build=$(cd "${1:?usage: run-bench.sh BUILD_DIR [ROUNDS] [RUNS]}" && pwd)
rounds=${2:-60}
runs=${3:-5}
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d "${TMPDIR:-/tmp}/sampler-bench.XXXXXX")
trap 'rm -rf "$out"' EXIT

gcc -O2 "$here/loops.c" -o "$out/plain"
gcc -O2 -DNO_CHECKS "$here/loops.c" -o "$out/no-checks"
"$build/bin/sampler-gcc" -O2 -fplugin-arg-sampler-schemes=checks "$here/loops.c" -o "$out/sampled"

expected=$("$out/plain" "$rounds" 2>/dev/null)
configs="no-checks plain sparsity-0 sparsity-10000 sparsity-1000 sparsity-100"

# Seconds, with sub-millisecond resolution, for one run of CONFIG.
time_run () {
    config=$1
    case $config in
        plain|no-checks) prog=$out/$config sparsity= ;;
        sparsity-*) prog=$out/sampled sparsity=${config#sparsity-} ;;
    esac
    start=$(date +%s.%N)
    result=$(SAMPLER_SPARSITY=$sparsity SAMPLER_SEED=1 "$prog" "$rounds" 2>/dev/null)
    end=$(date +%s.%N)
    if [ "$result" != "$expected" ]; then
        echo "bench: $config printed '$result', plain printed '$expected'" >&2
        exit 1
    fi
    awk -v s="$start" -v e="$end" 'BEGIN { printf "%.6f\n", e - s }'
}

for i in $(seq "$runs"); do
    for config in $configs; do
        echo "$config $(time_run "$config")" >>"$out/times"
    done
done

median () {
    grep "^$1 " "$out/times" | awk '{print $2}' | sort -g \
        | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'
}
# Instructions executed (callgrind), repeatable to the instruction whatever
# else the machine is doing; on a shorter run.
instructions () {
    config=$1
    case $config in
        plain|no-checks) prog=$out/$config sparsity= ;;
        sparsity-*) prog=$out/sampled sparsity=${config#sparsity-} ;;
    esac
    if command -v valgrind >/dev/null 2>&1; then
        SAMPLER_SPARSITY=$sparsity SAMPLER_SEED=1 valgrind --tool=callgrind \
            --callgrind-out-file=/dev/null "$prog" 3 2>&1 >/dev/null \
            | awk '/Collected :/ { print $4 }'
    else
        echo 0
    fi
}

plain=$(median plain)
floor=$(median no-checks)
floor_ir=$(instructions no-checks)
echo "| build | median seconds | ratio to plain (all checks run) | ratio to no-checks | instructions ratio to no-checks |"
echo "|---|---|---|---|---|"
for config in $configs; do
    m=$(median "$config")
    ir=$(instructions "$config")
    awk -v c="$config" -v m="$m" -v p="$plain" -v f="$floor" -v i="$ir" -v fi="$floor_ir" \
        'BEGIN { printf "| %s | %.3f | %.3f | %.3f | %.4f |\n", c, m, m / p, m / f, fi ? i / fi : 0 }'
done
echo "($runs interleaved runs each, $rounds rounds, $(nproc) cores, $(uname -m))"
