#!/bin/sh
# Runs the fuzz targets of sampler-report's readers (built by `make
# fuzz-build' into BUILD_DIR/fuzz), each for SECONDS, from the seed corpus
# (testsuite/report/fuzz/corpus/KIND, read only) and what earlier runs found
# (BUILD_DIR/fuzz/corpus/KIND, where new inputs go); then replays every
# kept regression input (testsuite/report/fuzz/regressions/KIND).  A crash, leak,
# hang, sanitizer report or broken invariant fails the run; its input is in
# BUILD_DIR/fuzz/artifacts/KIND.
# Usage: run-fuzz.sh BUILD_DIR SECONDS [KIND...]   (prints "N passed, N failed";
# each fuzz-KIND.c runs it for its KIND under testsuite/tools/run-cases)
# KINDs: report aggregate sites labels elf (default: all).  FUZZ_FLAGS adds
# libFuzzer options (e.g. "-fork=1 -ignore_crashes=1" to go on after a
# finding).

build=$(cd "${1:?usage: run-fuzz.sh BUILD_DIR SECONDS [KIND...]}" && pwd) || exit 2
seconds=${2:?usage: run-fuzz.sh BUILD_DIR SECONDS [KIND...]}
shift 2
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../tools/tally.sh"
kinds=${*:-report aggregate sites labels elf}

# The largest input a target makes: objects need room, text stays small.
max_len () {
    case $1 in
        elf) echo 65536 ;;
        *) echo 16384 ;;
    esac
}

for kind in $kinds; do
    target="$build/fuzz/fuzz-$kind"
    if [ ! -x "$target" ]; then
        fail "$kind: $target is not built (make fuzz-build)"
        continue
    fi
    corpus="$build/fuzz/corpus/$kind"
    artifacts="$build/fuzz/artifacts/$kind"
    mkdir -p "$corpus" "$artifacts"
    log="$build/fuzz/$kind.log"
    # -close_fd_mask=2: the commands' error messages on bad input are
    # noise; libFuzzer and the sanitizers keep their own copy of stderr.
    if "$target" -max_total_time="$seconds" -max_len="$(max_len "$kind")" -timeout=10 \
           -rss_limit_mb=2048 -close_fd_mask=2 -print_final_stats=1 -dict="$here/sampler.dict" ${FUZZ_FLAGS-} \
           -artifact_prefix="$artifacts/" "$corpus" "$here/corpus/$kind" >"$log" 2>&1; then
        # The final stats, or (in -fork mode) the last status line "#RUNS ...".
        runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
        [ -n "$runs" ] || runs=$(grep -o '^#[0-9][0-9]*' "$log" | tail -1 | tr -d '#')
        pass "$kind: $seconds s, ${runs:-?} inputs run, $(grep -o 'cov: [0-9]*' "$log" | tail -1) edges"
    else
        fail "$kind: finding in $artifacts (log $log)"
        grep -A20 -m1 'ERROR\|invariant\|==[0-9]*==' "$log" | sed 's/^/    /'
    fi
    # Kept findings, each replayed once: each must now be handled.
    if [ -d "$here/regressions/$kind" ]; then
        for input in "$here/regressions/$kind"/*; do
            [ -f "$input" ] || continue
            if "$target" -runs=1 "$input" >"$build/fuzz/replay-$kind.log" 2>&1; then
                pass "$kind: regression $(basename "$input")"
            else
                fail "$kind: regression $(basename "$input")"
                sed 's/^/    /' "$build/fuzz/replay-$kind.log" | tail -30
            fi
        done
    fi
done
finish
