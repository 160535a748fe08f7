#!/bin/bash
# field-runs.sh: what a field run of a release costs a short program
# (docs/remote.md): its start (consent files, the store) and its end (the
# store's lock and bound, the check whether a sending round is due),
# against the same program's developer run (SAMPLER_FILE) and its plain
# build.
#
# Usage: bench/field-runs.sh BUILD_DIR [RUNS] [BATCHES]
#
# testsuite/remote/field-prog.c (2000 loop iterations: a run is mostly
# process start and exit) is built plainly and as a release at sparsity
# 1000 with branches, returns, values and indirect-calls; each
# configuration runs RUNS times (default 50) in each of BATCHES batches
# (default 5), the configurations interleaved batch by batch; prints each
# configuration's median CPU time (user and system) per run over the
# batches, and its ratio to plain's in the same batches.
#
#   plain         gcc -O2
#   no-consent    the release, no consent recorded: sampling off
#   developer     the release with SAMPLER_FILE: a report per run, in a file
#   field         the release with consent: a report per run into the
#                 store, kept at its bound of 100 reports (so each run also
#                 drops one), submit-at-exit set but never due
set -u
build=$(cd "${1:?usage: field-runs.sh BUILD_DIR [RUNS] [BATCHES]}" && pwd) || exit 2
runs=${2:-50}
batches=${3:-5}
here=$(cd "$(dirname "$0")" && pwd)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/sampler-field-runs.XXXXXX") || exit 2
trap 'rm -rf "$scratch"' EXIT

cat > "$scratch/release.conf" <<EOF
product = field-bench
version = 1
sparsity = 1000
collector = http://127.0.0.1:9/
upload-key = field-bench-key-0123
store-max-reports = 100
submit-at-exit = $build/bin/sampler-submit
EOF
gcc -O2 "$here/../testsuite/remote/field-prog.c" -o "$scratch/plain" || exit 2
"$build/bin/sampler-gcc" --sampler-release="$scratch/release.conf" -O2 -I"$build/include" \
    -fplugin-arg-sampler-schemes=branches,returns,values,indirect-calls \
    "$here/../testsuite/remote/field-prog.c" -o "$scratch/release" || exit 2

home=$scratch/home
mkdir -p "$home/consented" "$home/none"
env -i HOME="$home/consented" "$build/bin/sampler-submit" consent field-bench yes > /dev/null
# A round is never due: the store's next-attempt is far away.
env -i HOME="$home/consented" "$scratch/release" > /dev/null
touch -d '+1 year' "$home/consented/.local/state/sampler/field-bench/1/next-attempt"
for _ in $(seq 100); do env -i HOME="$home/consented" "$scratch/release" > /dev/null; done

# run CONFIG: RUNS runs; prints the CPU time (user and system, of the
# processes run) per run in microseconds: on a shared machine, less noisy
# than the wall clock.
run () {
    local program=$scratch/release command=()
    case $1 in
        plain) program=$scratch/plain; command=(env -i HOME="$home/none") ;;
        no-consent) command=(env -i HOME="$home/none") ;;
        developer) command=(env -i HOME="$home/none" SAMPLER_FILE="$scratch/dev/%p.report") ;;
        field) command=(env -i HOME="$home/consented") ;;
    esac
    (
        for _ in $(seq "$runs"); do "${command[@]}" "$program" > /dev/null; done
        times
    ) | python3 -c '
import re, sys
lines = sys.stdin.read().split("\n")
def seconds(text):
    minutes, secs = re.fullmatch(r"(\d+)m([\d.]+)s", text).groups()
    return int(minutes) * 60 + float(secs)
user, system = (seconds(t) for t in lines[1].split())
print(round((user + system) / int(sys.argv[1]) * 1e6))' "$runs"
    rm -rf "$scratch/dev"
}

configs="plain no-consent developer field"
for batch in $(seq "$batches"); do
    for config in $configs; do echo "$batch $config $(run "$config")"; done
done > "$scratch/times"
pending=$(ls "$home/consented/.local/state/sampler/field-bench/1/pending" | wc -l)
python3 - "$scratch/times" "$pending" "$runs" "$batches" <<'EOF'
import statistics, sys
times = {}
for line in open(sys.argv[1]):
    batch, config, micros = line.split()
    times.setdefault(config, {})[batch] = int(micros)
print(f"per run, median of {sys.argv[4]} batches of {sys.argv[3]} runs "
      f"(store at its bound: {sys.argv[2]} reports pending)")
print(f"{'config':12} {'cpu us/run':>10} {'vs plain':>9}")
for config, by_batch in times.items():
    ratios = [by_batch[b] / times["plain"][b] for b in by_batch]
    print(f"{config:12} {statistics.median(by_batch.values()):10.0f} "
          f"{statistics.median(ratios):9.2f}")
EOF
