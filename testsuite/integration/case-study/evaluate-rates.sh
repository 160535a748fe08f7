#!/bin/sh
# Trained rates against uniform ones on two bugs in bc (docs/rates.md): the
# case study's more_arrays bug (bc-more-arrays.patch: heap damage, failing
# runs crash) and the wrong-output line-wrap bug of evaluate-ranking.sh
# (bc-line-wrap.patch, in out_char).  For each, set up as CI would: a
# build with uniform rates runs TRAIN_RUNS programs at sparsity 100,
# `sampler-report rates` trains per-site rates on their reports for
# sparsity 1000 within the budget of uniform 1/1000 (a tenth of the samples
# per run the training runs took), bc is rebuilt with the rates, and the
# same population of programs (seed i for run i, as in evaluate-ranking.sh)
# runs again.  For uniform 1/100, uniform 1/1000 and trained, prints a
# Markdown table:
#   runs needed   the smallest prefix (25, 50, 100, ...) from which on, up
#                 to the largest one run, one of rank's first two
#                 elimination steps lies in the bug's function (the
#                 default rule; evaluate-lib.sh's bug_function)
#   samples       mean samples per run (all sites), over the first TIME_RUNS
#   instructions  callgrind's count over runs 1 .. INSN_RUNS, and over the
#                 plain (buggy) bc's
#   time          wall time of the first TIME_RUNS runs, over the plain bc's
# A configuration stops after two consecutive prefixes that find the bug
# (and at least 400 runs), or at MAX_RUNS (default 6400).
# Usage: evaluate-rates.sh BUILD_DIR   (make evaluate-rates)
# WORK=DIR keeps builds, inputs and reports (default BUILD_DIR/evaluate-rates);
# TRAIN_RUNS (default 200), TIME_RUNS (default 200), INSN_RUNS (default 10,
# 0 for none), CONFIGS (default "uniform-100 uniform-1000 trained"), BUGS
# (default "more-arrays line-wrap").
build=$(cd "${1:?usage: evaluate-rates.sh BUILD_DIR}" && pwd) || exit 2
here=$(cd "$(dirname "$0")" && pwd)
work=${WORK:-$build/evaluate-rates}
max_runs=${MAX_RUNS:-6400}
train_runs=${TRAIN_RUNS:-200}
time_runs=${TIME_RUNS:-200}
insn_runs=${INSN_RUNS:-10}
configs=${CONFIGS:-uniform-100 uniform-1000 trained}
bugs=${BUGS:-more-arrays line-wrap}
. "$here/evaluate-lib.sh"

build_bc expected gcc "-O2" "" || { echo "cannot build bc: see $work/expected.log" >&2; exit 1; }
reference=$work/expected/bc/bc

# wall SPARSITY BINARY: seconds for runs 1 .. TIME_RUNS (reports to /dev/null).
wall () {
    start=$(date +%s.%N)
    seed=1
    while [ $seed -le "$time_runs" ]; do
        SAMPLER_SPARSITY=$1 SAMPLER_SEED=$seed SAMPLER_FILE=/dev/null \
            timeout 20 "$2" -q "$work/inputs/$seed.bc" >/dev/null 2>&1 </dev/null
        seed=$((seed + 1))
    done
    echo "$(date +%s.%N) $start" | awk '{ printf "%.2f\n", $1 - $2 }'
}

# instructions SPARSITY BINARY: callgrind's instructions for runs 1 ..
# INSN_RUNS at seeds 1 .. INSN_RUNS, "-" without valgrind.
instructions () {
    if [ "$insn_runs" = 0 ] || ! command -v valgrind >/dev/null; then
        echo -
        return
    fi
    seed=1 total=0
    while [ $seed -le "$insn_runs" ]; do
        n=$(SAMPLER_SPARSITY=$1 SAMPLER_SEED=$seed SAMPLER_FILE=/dev/null \
            valgrind --tool=callgrind --callgrind-out-file=/dev/null \
            "$2" -q "$work/inputs/$seed.bc" 2>&1 >/dev/null </dev/null |
            sed -n 's/.*Collected : *//p')
        total=$((total + ${n:-0}))
        seed=$((seed + 1))
    done
    echo $total
}

ratio () { echo "$1 $2" | awk '$1 == "-" || $2 == "-" || $2 == 0 { print "-"; next } { printf "%.2f\n", $1 / $2 }'; }

inputs "$train_runs"
inputs "$time_runs"
inputs "$insn_runs"
echo "| bug | setup | runs needed | runs | failing | samples per run | instructions, runs 1-$insn_runs (/ plain) | time, runs 1-$time_runs (/ plain) |"
echo "|---|---|---|---|---|---|---|---|"
notes=
for bug in $bugs; do
    function=$(bug_function "$bug") || exit 2
    patch=$here/bc-$bug.patch
    mkdir -p "$work/$bug"
    build_bc "$bug/plain" gcc "-O2" "$patch" || { echo "cannot build bc: see $work/$bug/plain.log" >&2; exit 1; }
    build_bc "$bug/uniform" "$build/bin/sampler-gcc" "-O2 -fplugin-arg-sampler-schemes=$schemes" \
        "$patch" || { echo "cannot build bc: see $work/$bug/uniform.log" >&2; exit 1; }

    # Training: the uniform build at sparsity 100, runs 1 .. TRAIN_RUNS.
    run_chunk "$work/$bug/train/runs-1-$train_runs" "$work/$bug/uniform/bc/bc" 100 1 "$train_runs"
    rates=$work/$bug/trained.rates
    if [ ! -s "$rates" ]; then
        "$tool" rates "$work/$bug/train/runs-1-$train_runs" --binary "$work/$bug/uniform/bc/bc" \
            --output "$work/$bug/default.rates" || exit 1
        budget=$(awk '/^# budget/ { print $3 / 10 }' "$work/$bug/default.rates")
        "$tool" rates "$work/$bug/train/runs-1-$train_runs" --binary "$work/$bug/uniform/bc/bc" \
            --sparsity=1000 --budget="$budget" --output "$rates" || exit 1
    fi
    build_bc "$bug/trained" "$build/bin/sampler-gcc" \
        "-O2 -fplugin-arg-sampler-schemes=$schemes -fplugin-arg-sampler-rates=$rates" \
        "$patch" || { echo "cannot build bc: see $work/$bug/trained.log" >&2; exit 1; }
    notes="$notes
$bug: trained on $train_runs runs: $(grep '^#' "$rates" | sed 's/^# //' | paste -sd';' -)"

    plain_time=$(wall 0 "$work/$bug/plain/bc/bc")
    plain_insn=$(instructions 0 "$work/$bug/plain/bc/bc")
    notes="$notes
$bug: plain bc: $plain_time s for runs 1-$time_runs, $plain_insn instructions for runs 1-$insn_runs"
    for config in $configs; do
        case $config in
            uniform-100) binary=$work/$bug/uniform/bc/bc sparsity=100 ;;
            uniform-1000) binary=$work/$bug/uniform/bc/bc sparsity=1000 ;;
            trained) binary=$work/$bug/trained/bc/bc sparsity=1000 ;;
            *) echo "unknown configuration '$config'" >&2; exit 2 ;;
        esac
        dir=$work/$bug/$config
        first=1 last=25 inputs_list= labels=$dir/prefix.labels need=- in_row=0
        mkdir -p "$dir"
        : >"$labels"
        while [ $last -le "$max_runs" ]; do
            inputs "$last"
            run_chunk "$dir/runs-$first-$last" "$binary" "$sparsity" "$first" "$last"
            inputs_list="$inputs_list $dir/runs-$first-$last"
            cat "$dir/runs-$first-$last.labels" >>"$labels"
            # shellcheck disable=SC2086
            "$tool" rank $inputs_list --binary "$binary" --labels "$labels" --top=0 --format=csv \
                >"$dir/rank.csv" 2>"$dir/rank.err" || { cat "$dir/rank.err" >&2; exit 1; }
            set -- $(found "$dir/rank.csv" "$function")
            if [ "$1" = 1 ] || [ "$1" = 2 ]; then
                [ "$need" = - ] && need=$last
                in_row=$((in_row + 1))
            else
                need=- in_row=0
            fi
            n_runs=$last
            [ $in_row -ge 2 ] && [ "$last" -ge 400 ] && break
            first=$((last + 1)) last=$((last * 2))
        done
        failing=$(grep -c '^failure' "$labels")
        # Mean samples per run over runs 1 .. TIME_RUNS (prefixes start at 1).
        samples=$(for seed in $(seq 1 "$time_runs"); do cat "$dir"/runs-*/run-$seed.report; done 2>/dev/null |
            awk -F'\t' -v n="$time_runs" '
            $1 == "sampler-report" { runs++ } runs <= n && $1 ~ /^[0-9]+$/ { for (i = 2; i <= NF; i++) s += $i }
            END { printf "%.0f", s / (runs < n ? runs : n) }')
        insn=$(instructions "$sparsity" "$binary")
        t=$(wall "$sparsity" "$binary")
        echo "| $(echo $function | sed 's/ /, /g') | $config | $need | $n_runs | $failing | $samples | $insn ($(ratio "$insn" "$plain_insn")) | $t s ($(ratio "$t" "$plain_time")) |"
    done
done
echo "$notes"
