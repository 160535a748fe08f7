#!/bin/sh
# Trained rates against uniform ones on the case study's more_arrays bug in
# bc (docs/rates.md), set up as CI would: a build with uniform rates runs
# TRAIN_RUNS programs at sparsity 100, `sampler-report rates` trains
# per-site rates on their reports for sparsity 1000 within the budget of
# uniform 1/1000 (a tenth of the samples per run the training runs took),
# bc is rebuilt with the rates, and the same population of programs (seed i
# for run i, as in evaluate-ranking.sh) runs again.  For uniform 1/100,
# uniform 1/1000 and trained, prints a Markdown table:
#   runs needed  the smallest prefix (25, 50, 100, ...) from which on, up to
#                the largest one run, one of rank's first two elimination
#                steps lies in more_arrays (the default rule)
#   samples      mean samples per run (all sites), over the first TIME_RUNS
#   time         wall time of the first TIME_RUNS runs, over the plain bc's
# A configuration stops after two consecutive prefixes that find the bug
# (and at least 400 runs), or at MAX_RUNS (default 6400).
# Usage: evaluate-rates.sh BUILD_DIR   (make evaluate-rates)
# WORK=DIR keeps builds, inputs and reports (default BUILD_DIR/evaluate-rates);
# TRAIN_RUNS (default 200), TIME_RUNS (default 200), CONFIGS (default
# "uniform-100 uniform-1000 trained").
build=$(cd "${1:?usage: evaluate-rates.sh BUILD_DIR}" && pwd) || exit 2
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
work=${WORK:-$build/evaluate-rates}
max_runs=${MAX_RUNS:-6400}
train_runs=${TRAIN_RUNS:-200}
time_runs=${TIME_RUNS:-200}
configs=${CONFIGS:-uniform-100 uniform-1000 trained}
schemes=returns,branches,scalar-pairs
tool=$build/bin/sampler-report
mkdir -p "$work" || exit 2

source=$("$top/testsuite/tools/fetch-debian-source.sh" bc) || { echo "cannot fetch bc's source" >&2; exit 1; }
build_bc () {   # NAME CC CFLAGS [PATCH]
    dir=$work/$1
    [ -x "$dir/bc/bc" ] && return 0
    rm -rf "$dir"
    cp -a "$source" "$dir" &&
    { [ -z "$4" ] || patch -s -d "$dir" -p1 <"$4"; } &&
    (cd "$dir" && ./configure CC="$2" CFLAGS="$3" && \
     make -j2 ACLOCAL=true AUTOMAKE=true AUTOCONF=true MAKEINFO=true) \
        >"$work/$1.log" 2>&1 && [ -x "$dir/bc/bc" ]
}
build_bc plain gcc "-O2" "$here/bc-more-arrays.patch" || { echo "cannot build bc: see $work/plain.log" >&2; exit 1; }
build_bc expected gcc "-O2" "" || { echo "cannot build bc: see $work/expected.log" >&2; exit 1; }
build_bc uniform "$build/bin/sampler-gcc" "-O2 -fplugin-arg-sampler-schemes=$schemes" \
    "$here/bc-more-arrays.patch" || { echo "cannot build bc: see $work/uniform.log" >&2; exit 1; }

# inputs UPTO: programs and the correct bc's answers for seeds 1 .. UPTO.
mkdir -p "$work/inputs" "$work/expected"
have_inputs=$(ls "$work/inputs" | wc -l)
inputs () {
    [ "$1" -le "$have_inputs" ] && return
    python3 "$here/bc-inputs.py" $((have_inputs + 1)) "$1" "$work/inputs"
    seed=$((have_inputs + 1))
    while [ $seed -le "$1" ]; do
        "$work/expected/bc/bc" -q "$work/inputs/$seed.bc" >"$work/expected/$seed.out" 2>/dev/null </dev/null
        echo $? >"$work/expected/$seed.status"
        seed=$((seed + 1))
    done
    have_inputs=$1
}

# run_chunk CONFIG BINARY SPARSITY FIRST LAST: runs of seeds FIRST .. LAST,
# labelled by the correct bc's output and exit status.
run_chunk () {
    dir=$work/$1/runs-$4-$5
    [ -s "$dir.labels" ] && return
    mkdir -p "$dir"
    : >"$dir.labels.tmp"
    seed=$4
    while [ $seed -le "$5" ]; do
        report=$dir/run-$seed.report
        SAMPLER_SPARSITY=$3 SAMPLER_SEED=$seed SAMPLER_FILE=$report \
            timeout 20 "$2" -q "$work/inputs/$seed.bc" >"$work/got.out" 2>/dev/null </dev/null
        status=$?
        if [ -s "$report" ]; then
            if [ "$status" = "$(cat "$work/expected/$seed.status")" ] &&
               cmp -s "$work/expected/$seed.out" "$work/got.out"; then
                printf 'success\t%s\n' "$report"
            else
                printf 'failure\t%s\n' "$report"
            fi >>"$dir.labels.tmp"
        fi
        seed=$((seed + 1))
    done
    mv "$dir.labels.tmp" "$dir.labels"
}

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

# Training: the uniform build at sparsity 100, runs 1 .. TRAIN_RUNS.
inputs "$train_runs"
run_chunk train "$work/uniform/bc/bc" 100 1 "$train_runs"
if [ ! -s "$work/trained.rates" ]; then
    "$tool" rates "$work/train/runs-1-$train_runs" --binary "$work/uniform/bc/bc" \
        --output "$work/default.rates" || exit 1
    budget=$(awk '/^# budget/ { print $3 / 10 }' "$work/default.rates")
    "$tool" rates "$work/train/runs-1-$train_runs" --binary "$work/uniform/bc/bc" \
        --sparsity=1000 --budget="$budget" --output "$work/trained.rates" || exit 1
fi
build_bc trained "$build/bin/sampler-gcc" \
    "-O2 -fplugin-arg-sampler-schemes=$schemes -fplugin-arg-sampler-rates=$work/trained.rates" \
    "$here/bc-more-arrays.patch" || { echo "cannot build bc: see $work/trained.log" >&2; exit 1; }

inputs "$time_runs"
plain_time=$(wall 0 "$work/plain/bc/bc")
echo "Trained on $train_runs runs: $(grep '^#' "$work/trained.rates" | sed 's/^# //' | paste -sd';' -)"
echo
echo "| setup | runs needed | runs | failing | samples per run | time ($time_runs runs) | time / plain |"
echo "|---|---|---|---|---|---|---|"
for config in $configs; do
    case $config in
        uniform-100) binary=$work/uniform/bc/bc sparsity=100 ;;
        uniform-1000) binary=$work/uniform/bc/bc sparsity=1000 ;;
        trained) binary=$work/trained/bc/bc sparsity=1000 ;;
        *) echo "unknown configuration '$config'" >&2; exit 2 ;;
    esac
    first=1 last=25 inputs_list= labels=$work/$config/prefix.labels need=- in_row=0
    mkdir -p "$work/$config"
    : >"$labels"
    while [ $last -le "$max_runs" ]; do
        inputs "$last"
        run_chunk "$config" "$binary" "$sparsity" "$first" "$last"
        inputs_list="$inputs_list $work/$config/runs-$first-$last"
        cat "$work/$config/runs-$first-$last.labels" >>"$labels"
        # shellcheck disable=SC2086
        "$tool" rank $inputs_list --binary "$binary" --labels "$labels" --top=0 --format=csv \
            >"$work/$config/rank.csv" 2>"$work/$config/rank.err" || { cat "$work/$config/rank.err" >&2; exit 1; }
        step=$(python3 -c '
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r["list"] == "elimination" and r["function"] == "more_arrays":
        print(r["position"]); break
else:
    print("-")' "$work/$config/rank.csv")
        if [ "$step" = 1 ] || [ "$step" = 2 ]; then
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
    samples=$(cat "$work/$config"/runs-*/run-*.report 2>/dev/null | awk -F'\t' -v n="$time_runs" '
        $1 == "sampler-report" { runs++ } runs <= n && $1 ~ /^[0-9]+$/ { for (i = 2; i <= NF; i++) s += $i }
        END { printf "%.0f", s / (runs < n ? runs : n) }')
    t=$(wall "$sparsity" "$binary")
    echo "| $config | $need | $n_runs | $failing | $samples | $t s | $(echo "$t $plain_time" | awk '{ printf "%.2f", $1 / $2 }') |"
done
echo
echo "plain bc: $plain_time s for $time_runs runs"
