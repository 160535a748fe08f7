# fixtures.sh, sourced by the cases of this folder: hand-made runs whose
# scores are derived below (and recomputed by reference.py), written into
# the case's scratch directory $T, and what the cases build from them:
#   hand, R           rank's arguments for the hand-made runs; their folder
#   labels            $T/labels, a label file saying what the default rule says
#   hand_csv          $T/hand.csv, rank --top=0 --format=csv of the runs
#   make_aggregates   $T/all.agg (merged), a.agg and b.agg (runs 0-49 and
#                     50-99), ab.agg (a.agg and b.agg merged)
#   make_synthetic    400 synthetic runs of every scheme (make-runs.py), and
#                     their aggregate $T/syn.agg
#   make_bad          $T/bad/: a good report, a truncated one, one whose unit
#                     does not fit the table
#   expect_error NAME STATUS MESSAGE ARGS...: exactly MESSAGE on stderr,
#                     nothing on stdout
. "$TOOLS/tally.sh"
scratch=$T
tool=$REPORT
top=$TOP

record () {
    printf '%s' "$1"
    shift
    for field in "$@"; do printf '\t%s' "$field"; done
    printf '\n'
}

# --- Hand-made runs ---------------------------------------------------------
# One unit of 8 sites; 100 runs, run-00 .. run-99.  Runs 0-39 fail (even:
# killed by signal 11, odd: exit status 2), runs 40-99 exit with 0.
#   site 0  branches 'p != 0'     observed in every run; true in runs 0-19,
#                                 false in 20-99
#   site 1  returns 'read (fd)'   observed in runs 0-79: < 0 in 0-29, > 0 in 30-79
#   site 2  function-entries      'cleanup' entered (sampled) in runs 0-9 and 40-49
#   site 3  bounds 'n (signed)'   observed in every run: min -3 in 0-24, else 1; max 5
#   site 4  bounds 'len (unsigned)' observed in every run: min 0 in 30-39 and
#                                 90-99, else 4; max 9
#   site 5  float-kinds 'x'       +normal in every run, nan in 50-59
#   site 6  switch 'switch (mode)' case 1 in even runs, default in odd ones
#   site 7  scalar-pairs 'i ? n'  < in every run
# Before elimination (F, S: runs where true; F-obs, S-obs: where observed;
# bound: Newcombe's bound from Wilson intervals, w-(x, n) and w+(x, n) the
# ends of Wilson's interval, as in reference.py below):
#   n < 0        F 25 S 0, obs 40/60: Failure 1, Context 0.4, Increase 0.6,
#                bound 0.6 - sqrt((1 - w-(25, 25))^2 + (w+(40, 100) - 0.4)^2)
#                = 0.6 - sqrt(0.1332^2 + 0.0980^2) = 0.4346,
#                Importance 2 / (1 / 0.4343 + log 40 / log 25) = 0.580
#   p != 0       F 20 S 0, obs 40/60: bound 0.411, Importance 0.546
#   read (fd) < 0  F 30 S 0, obs 40/40: Context 0.5, bound 0.344,
#                Importance 0.501
# Elimination:
#   1. n < 0 drops runs 0-24 (25 failing, 0 successful)
#   2. among 15 failing runs left (25-39): read (fd) < 0, F 5 S 0, obs
#      15/40: Context 15/55, bound 0.274, Importance 0.375; drops runs 25-29
#   3. among runs 30-39 and 40-99: len == 0, F 10 S 10, obs 10/60:
#      Failure 0.5, Context 1/7, bound 0.133, Importance 0.234; drops runs
#      30-39 and 90-99: every failing run explained.
UNIT=0123456789abcdef0123456789abcdef
hand_table () {
    record unit $UNIT src/hand.c 8 27
    record site 0 branches src/hand.c 3 7 main 2 'p != 0' false,true
    record site 1 returns src/hand.c 4 9 main 3 'read (fd)' '<0,==0,>0'
    record site 2 function-entries src/hand.c 6 1 cleanup 1 cleanup entered
    record site 3 bounds src/hand.c 8 5 main 3 'n (signed)' count,min,max
    record site 4 bounds src/hand.c 9 5 main 3 'len (unsigned)' count,min,max
    record site 5 float-kinds src/hand.c 10 5 main 9 x 'nan,-inf,-normal,-subnormal,-0,+0,+subnormal,+normal,+inf'
    record site 6 branches src/hand.c 11 5 main 3 'switch (mode)' 'case 1,case 2,default'
    record site 7 scalar-pairs src/hand.c 12 5 main 3 'i ? n' '<,==,>'
    record end
}
mkdir -p "$scratch/hand/runs" "$scratch/hand/src"
hand_table >"$scratch/hand/sites.txt"
# The source, for the HTML page: line 3 says which branch.
printf 'int main (void)\n{\n  if (p != 0)   /* line 3 */\n' >"$scratch/hand/src/hand.c"
hand_run () {
    run=$1
    record sampler-report 1
    record program /nonexistent/hand
    record pid $((1000 + run))
    record sparsity 100
    record seed "$run"
    if [ "$run" -lt 40 ]; then
        if [ $((run % 2)) = 0 ]; then record exit signal 11; else record exit status 2; fi
    else
        record exit status 0
    fi
    record unit $UNIT 8 27 src/hand.c
    if [ "$run" -lt 20 ]; then record 0 0 3; else record 0 2 0; fi
    if [ "$run" -lt 30 ]; then record 1 1 0 0; elif [ "$run" -lt 80 ]; then record 1 0 0 4; fi
    if [ "$run" -lt 10 ] || { [ "$run" -ge 40 ] && [ "$run" -lt 50 ]; }; then record 2 1; fi
    if [ "$run" -lt 25 ]; then record 3 2 18446744073709551613 5; else record 3 2 1 5; fi
    if { [ "$run" -ge 30 ] && [ "$run" -lt 40 ]; } || [ "$run" -ge 90 ]; then
        record 4 3 0 9
    else
        record 4 3 4 9
    fi
    if [ "$run" -ge 50 ] && [ "$run" -lt 60 ]; then
        record 5 1 0 0 0 0 0 0 2 0
    else
        record 5 0 0 0 0 0 0 0 2 0
    fi
    if [ $((run % 2)) = 0 ]; then record 6 1 0 0; else record 6 0 0 1; fi
    record 7 1 0 0
    record end
}
run=0
while [ $run -lt 100 ]; do
    hand_run $run >"$scratch/hand/runs/run-$(printf %02d $run).report"
    run=$((run + 1))
done
hand="$scratch/hand/runs --sites $scratch/hand/sites.txt"

R="$scratch/hand/runs"

for run in $(seq 0 99); do
    if [ "$run" -lt 40 ]; then label=failure; else label=success; fi
    record $label "$scratch/hand/runs/run-$(printf %02d "$run").report"
done >"$scratch/labels"

hand_csv () { "$tool" rank $hand --top=0 --format=csv >"$scratch/hand.csv" 2>"$scratch/hand.err"; }

make_aggregates () {
    "$tool" merge $hand --output "$scratch/all.agg" 2>"$scratch/err"
    "$tool" merge "$R"/run-[0-4]*.report --sites "$scratch/hand/sites.txt" -o "$scratch/a.agg" &&
    "$tool" merge "$R"/run-[5-9]*.report --sites "$scratch/hand/sites.txt" -o "$scratch/b.agg" &&
    "$tool" merge "$scratch/a.agg" "$scratch/b.agg" -o "$scratch/ab.agg"
}

make_synthetic () {
    python3 "$TESTSUITE/report/make-runs.py" "$scratch/syn" --runs 400 --sites 900 --units 3 --observed 0.2 \
        --bugs 3 --seed 11 && "$tool" merge "$scratch/syn/runs" --sites "$scratch/syn/sites.txt" \
        -o "$scratch/syn.agg"
}

make_bad () {
    mkdir -p "$scratch/bad"
    cp "$R/run-00.report" "$scratch/bad/a.report"
    head -n 10 "$R/run-01.report" >"$scratch/bad/truncated.report"
    sed 's/^unit\t\(.*\)\t8\t27\t/unit\t\1\t8\t28\t/' "$R/run-01.report" >"$scratch/bad/mismatch.report"
}

# expect_error NAME STATUS MESSAGE ARGS...: exactly MESSAGE on stderr, nothing on stdout.
expect_error () {
    name=$1 status=$2 message=$3
    shift 3
    "$tool" "$@" >"$scratch/err.out" 2>"$scratch/err.err"
    got=$?
    printf '%s\n' "$message" >"$scratch/err.expected"
    if [ $got != "$status" ]; then
        { echo "exit status $got, expected $status"; cat "$scratch/err.err"; } >"$scratch/err.why"
        fail "$name" "$scratch/err.why"
    elif [ -s "$scratch/err.out" ]; then
        fail "$name: wrote output" "$scratch/err.out"
    elif ! diff -u "$scratch/err.expected" "$scratch/err.err" >"$scratch/err.diff"; then
        fail "$name: message" "$scratch/err.diff"
    else
        pass "$name"
    fi
}
