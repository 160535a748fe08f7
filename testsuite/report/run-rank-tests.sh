#!/bin/sh
# Tests of sampler-report rank, merge and export: statistics on hand-made
# runs whose answers are derived below and recomputed by an independent
# reference (Python); labels and failure rules; aggregates (merge of
# reports and of aggregates, every truncation rejected); every error path
# with its message; export's tables (its SQL is tested in testsuite/sql);
# the HTML page; progress only on a terminal; runs
# repeated under ASan and UBSan.
# Usage: run-rank-tests.sh BUILD_DIR   (prints "N passed, N failed")

build=$(cd "${1:?usage: run-rank-tests.sh BUILD_DIR}" && pwd) || exit 2
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../tools/tally.sh"
top="$here/../.."
tool="$build/bin/sampler-report"
expected="$here/expected"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/sampler-rank-tests.XXXXXX") || exit 2
trap '[ -n "${KEEP_SCRATCH-}" ] || rm -rf "$scratch"' EXIT

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

# reference CSV: recomputes every score from the reports with Python, and
# compares with rank's CSV (--top=0: all kept predicates).
cat >"$scratch/reference.py" <<'EOF'
import csv, math, sys
ranked, z = sys.argv[1], float(sys.argv[2])
min_failing = int(sys.argv[3]) if len(sys.argv) > 3 else 3
def wilson(x, n, z, sign):
    """An end of Wilson's score interval (Wilson, JASA 1927), solved from
    |x/n - p| = z sqrt(p (1 - p) / n) as a quadratic in p."""
    a, b, c = 1 + z * z / n, -(2 * x / n + z * z / n), (x / n) ** 2
    return (-b + sign * math.sqrt(b * b - 4 * a * c)) / (2 * a)
# The hand-made runs, as the comments of run-rank-tests.sh describe them.
truth = {}   # predicate text -> set of runs where true
observed = {}
R = range(100)
order = {}   # predicate text -> place among ties: branches, returns, then
             # other schemes, then scalar pairs; then line (one file, column 5
             # or more but for line 3, 4, 6)
LINES = {"p": 3, "!(p": 3, "read": 4, "cleanup": 6, "n": 8, "len": 9, "x": 10, "switch": 11, "i": 12}
def put(text, runs, seen):
    truth[text] = set(runs)
    observed[text] = set(seen)
    first = text.split()[0]
    kind = 0 if first in ("p", "!(p", "read", "switch") else 2 if first == "i" else 1
    order[text] = (kind, LINES[first], len(order))
put("p != 0", range(0, 20), R)
put("!(p != 0)", range(20, 100), R)
lt, gt = set(range(0, 30)), set(range(30, 80))
seen = range(0, 80)
for op, runs in (("<", lt), (">=", gt), ("==", set()), ("!=", lt | gt), (">", gt), ("<=", lt)):
    put("read (fd) %s 0" % op, runs, seen)
put("cleanup entered", list(range(0, 10)) + list(range(40, 50)), R)
neg = set(range(0, 25))
for op, runs in (("< 0", neg), ("<= 0", neg), ("> 0", R), (">= 0", R), ("!= 0", R)):
    put("n %s" % op, runs, R)
zero = set(range(30, 40)) | set(range(90, 100))
put("len == 0", zero, R)
put("len != 0", R, R)
put("x is nan", range(50, 60), R)
put("x is +normal", R, R)
put("switch (mode): case 1", range(0, 100, 2), R)
put("switch (mode): default", range(1, 100, 2), R)
for op, runs in (("<", R), (">=", ()), ("==", ()), ("!=", R), (">", ()), ("<=", R)):
    put("i %s n" % op, runs, R)
failing = set(range(40))
expected = []
for text in truth:
    t, o = truth[text], observed[text]
    if text == "cleanup entered":
        o = set(R)
    f, s = len(t & failing), len(t - failing)
    fo, so = len(o & failing), len(o - failing)
    if f + s == 0:
        continue
    failure, context = f / (f + s), fo / (fo + so)
    bound = failure - context - math.hypot(failure - wilson(f, f + s, z, -1),
                                           wilson(fo, fo + so, z, 1) - context)
    if bound <= 0 or f < min_failing:
        continue
    importance = 0 if f <= 1 else 2 / (1 / bound + math.log(40) / math.log(f))
    expected.append((text, f, s, fo, so, bound, importance, order[text]))
got = [row for row in csv.DictReader(open(ranked)) if row["list"] == "ranking"]
assert len(got) == len(expected), (len(got), [e[0] for e in expected], [g["predicate"] for g in got])
expected.sort(key=lambda e: (-e[6], -e[5], -e[1], e[7]))
for e, g in zip(expected, got):
    assert g["predicate"] == e[0], (g["predicate"], e[0])
    assert (int(g["f"]), int(g["s"]), int(g["f_observed"]), int(g["s_observed"])) == e[1:5], (g, e)
    assert abs(float(g["increase_lower_bound"]) - e[5]) < 1e-12, (g, e)
    assert abs(float(g["importance_from_lower_bound"]) - e[6]) < 1e-12, (g, e)
print("%d kept predicates agree" % len(got))
steps = [(g["predicate"], g["f"], g["s"], g["num_failing"])
         for g in csv.DictReader(open(ranked)) if g["list"] == "elimination"]
want = [("n < 0", "25", "0", "40"), ("read (fd) < 0", "5", "0", "15"), ("len == 0", "10", "10", "10")]
assert steps == want, steps
print("elimination:", steps)
EOF

"$tool" rank $hand --top=0 --format=csv >"$scratch/hand.csv" 2>"$scratch/hand.err"
check "hand-made runs: every score as recomputed, elimination as derived" \
    python3 "$scratch/reference.py" "$scratch/hand.csv" 1.959963984540054
"$tool" rank $hand >"$scratch/hand.txt" 2>&1
check "hand-made runs: text" diff -u "$expected/rank-hand.txt" "$scratch/hand.txt"
"$tool" rank $hand --format=jsonl --top=0 >"$scratch/hand.jsonl" 2>&1
check "hand-made runs: jsonl is the csv" python3 -c '
import csv, json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert lines[0]["runs"] == 100 and lines[0]["failing"] == 40 and lines[0]["unexplained"] == 0, lines[0]
rows = list(csv.DictReader(open(sys.argv[2])))
assert len(rows) == len(lines) - 1
for j, c in zip(lines[1:], rows):
    for key, value in c.items():
        assert str(j[key]) == value or float(j[key]) == float(value), (key, j[key], value)
' "$scratch/hand.jsonl" "$scratch/hand.csv"
# At 99% the bounds are lower: the reference agrees with z at 99%, and no
# predicate is kept that was not kept at 95%.
"$tool" rank $hand --top=0 --format=csv --confidence=99 >"$scratch/hand99.csv" 2>&1
check "confidence 99%: the reference agrees with z = 2.5758" \
    python3 "$scratch/reference.py" "$scratch/hand99.csv" 2.5758293035489004
check "confidence 99%: lower bounds, no predicate gained" python3 -c "
import csv
def bounds(path):
    return {r['predicate']: float(r['increase_lower_bound']) for r in csv.DictReader(open(path)) if r['list'] == 'ranking'}
a, b = bounds('$scratch/hand.csv'), bounds('$scratch/hand99.csv')
assert set(b) <= set(a) and all(b[p] < a[p] for p in b), (a, b)"

# --- Small counts: a fluke, a tie, the zero-width case ------------------------------
# 200 runs, 0-39 failing (signal 11), every site observed in every run:
#   fluke != 0     true in failing run 39 only
#   few != 0       true in failing runs 36-38 only: F 3, S 0, so Failure's
#                  interval has zero width under the normal approximation
#   real > limit   true in failing runs 0-11 and successful runs 40-45
#   res < buf (scalar pair, line 39) and fgets (buf) == 0 (return, line 40):
#                  both true in failing runs 12-19 and successful 100-103,
#                  an exact tie
# Under the normal approximation without minimum support (the old rule),
# few != 0 (bound 0.745, Importance 0.425) leads real > limit (0.357); with
# Wilson's intervals few's bound is 0.235 and real leads.  The fluke is not
# kept (F 1 < 3); without the minimum support its bound is 0.004 (Wilson's
# interval of 1 of 1 reaches down to 0.21) and it comes last.  The tie goes
# to the return.
python3 - "$scratch/small" <<'PY'
import os, sys
out = sys.argv[1]
os.makedirs(out + "/runs")
unit = "fedcba9876543210fedcba9876543210"
sites = [("branches", 20, "fluke != 0", "false,true", 2), ("branches", 21, "few != 0", "false,true", 2),
         ("branches", 30, "real > limit", "false,true", 2), ("scalar-pairs", 39, "res ? buf", "<,==,>", 3),
         ("returns", 40, "fgets (buf)", "<0,==0,>0", 3)]
n_counters = sum(s[4] for s in sites)
with open(out + "/sites.txt", "w") as f:
    f.write("unit\t%s\tsrc/small.c\t%d\t%d\n" % (unit, len(sites), n_counters))
    for i, (scheme, line, predicate, counters, n) in enumerate(sites):
        f.write("site\t%d\t%s\tsrc/small.c\t%d\t5\tmain\t%d\t%s\t%s\n"
                % (i, scheme, line, n, predicate, counters))
    f.write("end\n")
def branch(i, true):
    return "%d\t%d\t%d" % (i, 0 if true else 1, 1 if true else 0)
for run in range(200):
    fluke, few = run == 39, 36 <= run <= 38
    real = run < 12 or 40 <= run <= 45
    tie = 12 <= run <= 19 or 100 <= run <= 103
    lines = ["sampler-report\t1", "program\t/nonexistent/small", "pid\t%d" % (5000 + run),
             "sparsity\t100", "seed\t%d" % run,
             "exit\tsignal\t11" if run < 40 else "exit\tstatus\t0",
             "unit\t%s\t%d\t%d\tsrc/small.c" % (unit, len(sites), n_counters),
             branch(0, fluke), branch(1, few), branch(2, real),
             "3\t1\t0\t0" if tie else "3\t0\t0\t1", "4\t0\t1\t0" if tie else "4\t0\t0\t1", "end"]
    with open("%s/runs/run-%03d.report" % (out, run), "w") as f:
        f.write("\n".join(lines) + "\n")
PY
small="$scratch/small/runs --sites $scratch/small/sites.txt"
# small_lists CSV: "elimination: A; B | ranking: C; D" (predicate texts)
small_lists () {
    python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print(" | ".join("%s: %s" % (kind, "; ".join(r["predicate"] for r in rows if r["list"] == kind))
                 for kind in ("elimination", "ranking")))' "$1"
}
# first_predicate CSV: the predicate of the first elimination step
first_predicate () {
    python3 -c '
import csv, sys
print(next(r["predicate"] for r in csv.DictReader(open(sys.argv[1]))))' "$1"
}
"$tool" rank $small --top=0 --format=csv >"$scratch/small.csv" 2>&1
want="elimination: real > limit; fgets (buf) == 0; few != 0 | ranking: real > limit; fgets (buf) == 0; fgets (buf) <= 0; res < buf; res <= buf; few != 0"
got=$(small_lists "$scratch/small.csv")
if [ "$got" = "$want" ]; then
    pass "small counts: the real predicate leads, the fluke is not kept, the tie goes to the return"
else
    printf 'got:      %s\nexpected: %s\n' "$got" "$want" >"$scratch/small.why"
    fail "small counts: the real predicate leads, the fluke is not kept, the tie goes to the return" \
        "$scratch/small.why"
fi
"$tool" rank $small --top=0 --format=csv --min-failing=1 >"$scratch/small1.csv" 2>&1
if [ "$(grep '^ranking,' "$scratch/small1.csv" | tail -n 1 | cut -d, -f11)" = "fluke != 0" ] &&
   [ "$(first_predicate "$scratch/small1.csv")" = "real > limit" ]; then
    pass "small counts, no minimum support: the fluke comes last, the real predicate leads"
else
    fail "small counts, no minimum support: the fluke comes last, the real predicate leads" \
        "$scratch/small1.csv"
fi
"$tool" rank $small --top=0 --format=csv --interval=normal --min-failing=1 >"$scratch/small-old.csv" 2>&1
if [ "$(first_predicate "$scratch/small-old.csv")" = "few != 0" ] &&
   grep -q '^ranking,.*,fluke != 0,' "$scratch/small-old.csv"; then
    pass "small counts, the old rule (normal approximation): the zero-width predicate leads, the fluke is kept"
else
    fail "small counts, the old rule (normal approximation): the zero-width predicate leads, the fluke is kept" \
        "$scratch/small-old.csv"
fi
"$tool" rank $small >"$scratch/small.txt" 2>&1
"$tool" rank $small --fail-if=signal >"$scratch/small-signal.txt" 2>&1
if grep -qx 'runs        200: 40 failing, 160 successful (failure: --fail-if=signal,status=1-255)' "$scratch/small.txt" &&
   grep -q 'the default rule: any signal or non-zero exit status is a failure' "$scratch/small.txt" &&
   grep -q 'true in at least 3 failing runs' "$scratch/small.txt" &&
   ! grep -q 'default rule' "$scratch/small-signal.txt"; then
    pass "small counts: the text says the failure rule, that it is the default, and the minimum support"
else
    fail "small counts: the text says the failure rule, that it is the default, and the minimum support" \
        "$scratch/small.txt"
fi
"$tool" rank $small --format=jsonl >"$scratch/small.jsonl" 2>&1
check "small counts: the jsonl summary has the failure rule, interval and minimum support" python3 -c "
import json
head = json.loads(open('$scratch/small.jsonl').readline())
assert head['failing'] == 40 and head['default_failure_rule'] is True, head
assert head['interval'] == 'wilson' and head['min_failing'] == 3, head"
# --- Rounds: runs of builds with different sites ------------------------------------
# Adaptive instrumentation (docs/ranking.md, "Runs of several builds"): round
# 1's build has the branch x > 50 only; round 2's, a denser build, has it and
# main's entry (function-entries: a site observed in every run of its build).
# Round 1: 200 runs, 10 failing; round 2, run mostly where the failure
# shows: 50 runs, 45 failing.  x > 50 is true exactly in the failing runs.
# Counting main's entry as observed in every run of both rounds (naive
# mixing) gives Context 55/250 = 0.22 against Failure 0.9: bound 0.56,
# Importance 0.70, ahead of round 1's x > 50 (F 10 of 10, Context 0.05:
# Importance 0.62).  Observed only in the runs of its own build, main's
# entry has Context 0.9 = Failure: not kept; x > 50 leads.
mkdir -p "$scratch/rounds/runs"
python3 - "$scratch/rounds" <<'PY'
import sys
out = sys.argv[1]
ROUND1, ROUND2 = "a1" * 16, "b2" * 16
branch = "site\t0\tbranches\tsrc/mix.c\t5\t9\tmain\t2\tx > 50\tfalse,true"
entry = "site\t1\tfunction-entries\tsrc/mix.c\t3\t1\tmain\t1\tmain\tentered"
with open(out + "/sites.txt", "w") as f:
    f.write("unit\t%s\tsrc/mix.c\t1\t2\n%s\nend\n" % (ROUND1, branch))
    f.write("unit\t%s\tsrc/mix.c\t2\t3\n%s\n%s\nend\n" % (ROUND2, branch, entry))
def run(number, unit, n_sites, n_counters, failed, lines):
    with open("%s/runs/run-%03d.report" % (out, number), "w") as f:
        f.write("\n".join(["sampler-report\t1", "program\t/nonexistent/mix", "pid\t%d" % (1000 + number),
                           "sparsity\t1", "seed\t%d" % number,
                           "exit\tsignal\t11" if failed else "exit\tstatus\t0",
                           "unit\t%s\t%d\t%d\tsrc/mix.c" % (unit, n_sites, n_counters)]
                          + lines + ["end"]) + "\n")
for r in range(200):
    run(r, ROUND1, 1, 2, r < 10, ["0\t0\t1" if r < 10 else "0\t1\t0"])
for r in range(50):
    run(200 + r, ROUND2, 2, 3, r < 45, ["0\t0\t1" if r < 45 else "0\t1\t0", "1\t1"])
PY
rounds="$scratch/rounds/runs --sites $scratch/rounds/sites.txt"
"$tool" rank $rounds --top=0 --format=csv >"$scratch/rounds.csv" 2>&1
if [ "$(first_predicate "$scratch/rounds.csv")" = "x > 50" ] &&
   ! grep -q ',main entered,' "$scratch/rounds.csv"; then
    pass "rounds: an every-run site is observed only in its own build's runs; x > 50 leads"
else
    fail "rounds: an every-run site is observed only in its own build's runs; x > 50 leads" \
        "$scratch/rounds.csv"
fi
# --- Failure rules and labels ------------------------------------------------------
summary () { sed -n 1p "$scratch/out"; }
rule_case () {
    name=$1 want=$2
    shift 2
    "$tool" rank $hand "$@" >"$scratch/out" 2>&1
    if [ "$(summary)" = "$want" ]; then pass "$name"; else fail "$name: $(summary)" "$scratch/out"; fi
}
rule_case "--fail-if=signal" "runs        100: 20 failing, 80 successful (failure: --fail-if=signal)" --fail-if=signal
rule_case "--fail-if=signal=11,status=3-9" \
    "runs        100: 20 failing, 80 successful (failure: --fail-if=signal=11,status=3-9)" \
    --fail-if=signal=11,status=3-9
rule_case "--fail-if=status=2" "runs        100: 20 failing, 80 successful (failure: --fail-if=status=2)" --fail-if=status=2
rule_case "--fail-if=status=0-255" "runs        100: 80 failing, 20 successful (failure: --fail-if=status=0-255)" --fail-if status=0-255
# A label file that says what the default rule says gives the same ranking.
for run in $(seq 0 99); do
    if [ "$run" -lt 40 ]; then label=failure; else label=success; fi
    record $label "$scratch/hand/runs/run-$(printf %02d "$run").report"
done >"$scratch/labels"
"$tool" rank $hand --labels "$scratch/labels" --top=0 --format=csv >"$scratch/labelled.csv" 2>&1
check "label file: the default rule's ranking" cmp "$scratch/hand.csv" "$scratch/labelled.csv"

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
R="$scratch/hand/runs"
rank_usage="usage: sampler-report rank (INPUT... | --store URL --release R) [--binary FILE]... [--sites FILE]... [--fail-if=RULE | --labels FILE] [--confidence=PERCENT] [--min-failing=K] [--interval=wilson|normal] [--top=N] [--format=text|csv|jsonl|html] [--source-dir DIR]..."
head -n 99 "$scratch/labels" >"$scratch/labels-short"
expect_error "label file: a run without a label" 2 \
    "sampler-report: $R/run-99.report: no label for this run in $scratch/labels-short" \
    rank $hand --labels "$scratch/labels-short"
{ cat "$scratch/labels"; record failure "$R/run-100.report"; } >"$scratch/labels-extra"
expect_error "label file: a label without a run" 2 \
    "sampler-report: $scratch/labels-extra:101: '$R/run-100.report' is labelled, but no run was read from it" \
    rank $hand --labels "$scratch/labels-extra"
{ record failure "$R/run-00.report"; record failure "$R/run-00.report"; } >"$scratch/labels-twice"
expect_error "label file: two labels for a run" 2 \
    "sampler-report: $scratch/labels-twice:2: second label for '$R/run-00.report' (first at line 1)" \
    rank $hand --labels "$scratch/labels-twice"
{ record crashed "$R/run-00.report"; } >"$scratch/labels-bad"
expect_error "label file: a bad label" 2 \
    "sampler-report: $scratch/labels-bad:1: expected 'success' or 'failure', a TAB and a report" \
    rank $hand --labels "$scratch/labels-bad"
: >"$scratch/labels-empty"
expect_error "label file: empty" 2 "sampler-report: $scratch/labels-empty: no labels" \
    rank $hand --labels "$scratch/labels-empty"
expect_error "label file: missing" 2 "sampler-report: $scratch/nope: No such file or directory" \
    rank $hand --labels "$scratch/nope"
for rule in signal=0 status=256 status=5-2 crash "signal," status; do
    expect_error "bad rule '$rule'" 2 \
        "sampler-report: bad failure condition '$(printf '%s' "$rule," | cut -d, -f$(printf '%s' "$rule" | grep -q '^signal,$' && echo 2 || echo 1))' in '$rule' (expected signal, signal=N, status=N or status=N-M, N from 0 to 255, comma-separated)" \
        rank $hand --fail-if="$rule"
done
expect_error "rule and labels together" 2 "sampler-report: give --fail-if or --labels, not both
$rank_usage" rank $hand --labels "$scratch/labels" --fail-if=signal
expect_error "rank: no reports" 2 "sampler-report: 'rank' needs reports
$rank_usage" rank --top=3
expect_error "rank: bad confidence" 2 "sampler-report: bad confidence '100' (expected a percentage above 0 and below 100, such as 95)
$rank_usage" rank $hand --confidence=100
expect_error "rank: bad --top" 2 "sampler-report: bad --top '-1' (expected a number; 0 lists every kept predicate)
$rank_usage" rank $hand --top=-1
expect_error "rank: unknown format" 2 "sampler-report: unknown format 'xml' (expected text, csv, jsonl or html)
$rank_usage" rank $hand --format=xml

# --- Bad reports and tables -------------------------------------------------------
mkdir -p "$scratch/bad"
cp "$R/run-00.report" "$scratch/bad/a.report"
head -n 10 "$R/run-01.report" >"$scratch/bad/truncated.report"
expect_error "truncated report" 2 \
    "sampler-report: $scratch/bad/truncated.report:10: truncated report (no 'end' line)" \
    rank "$scratch/bad/a.report" "$scratch/bad/truncated.report" --sites "$scratch/hand/sites.txt"
sed 's/^unit\t\(.*\)\t8\t27\t/unit\t\1\t8\t28\t/' "$R/run-01.report" >"$scratch/bad/mismatch.report"
expect_error "report and site table from different builds" 2 \
    "sampler-report: $scratch/bad/mismatch.report:7: unit $UNIT has 8 sites and 28 counters, but its site table at $scratch/hand/sites.txt:1 has 8 sites and 27 counters" \
    rank "$scratch/bad/a.report" "$scratch/bad/mismatch.report" --sites "$scratch/hand/sites.txt"
expect_error "no site table" 2 \
    "sampler-report: note: the reports' program /nonexistent/hand does not exist here
sampler-report: $scratch/bad/a.report:7: unit $UNIT (src/hand.c): no site table found; pass the program or library with --binary, or a site-table file with --sites" \
    rank "$scratch/bad/a.report"
sed '/^7\t/s/$/\t0/' "$R/run-01.report" >"$scratch/bad/counters.report"
expect_error "a site with the wrong number of counters" 2 \
    "sampler-report: $scratch/bad/counters.report:15: site 7 of unit $UNIT has 4 counters, its site table has 3" \
    rank "$scratch/bad/counters.report" --sites "$scratch/hand/sites.txt"
# A report written on demand (no exit record) is a snapshot: left out, and said.
grep -v '^exit' "$R/run-02.report" >"$scratch/bad/snapshot.report"
"$tool" rank "$R" "$scratch/bad/snapshot.report" --sites "$scratch/hand/sites.txt" \
    --top=0 --format=csv >"$scratch/out" 2>"$scratch/err"
if cmp -s "$scratch/out" "$scratch/hand.csv" &&
   [ "$(cat "$scratch/err")" = "sampler-report: note: left out 1 report written on demand (no exit record: snapshots of runs that went on)" ]; then
    pass "on-demand report left out, with a note"
else
    fail "on-demand report left out, with a note" "$scratch/err"
fi
# So is an interim report (the runtime's `interim N' record).
sed 's/^exit\t.*/interim\t3/' "$R/run-02.report" >"$scratch/bad/interim.report"
"$tool" rank "$R" "$scratch/bad/interim.report" --sites "$scratch/hand/sites.txt" \
    --top=0 --format=csv >"$scratch/out" 2>"$scratch/err"
if cmp -s "$scratch/out" "$scratch/hand.csv" && grep -q "left out 1 report" "$scratch/err"; then
    pass "interim report left out, with a note"
else
    fail "interim report left out, with a note" "$scratch/err"
fi
# A report written before an exec is a run; merge keeps its exit record.
mkdir -p "$scratch/exec"
sed 's/^exit\t.*/exit\texec/' "$R/run-03.report" >"$scratch/exec/before-exec.report"
check "merge keeps an exec report's exit record, and reads it back" sh -c "
    '$tool' merge '$scratch/exec/before-exec.report' --sites '$scratch/hand/sites.txt' \
        -o '$scratch/exec.agg' && grep -qx 'exit	exec' '$scratch/exec.agg' &&
    '$tool' merge '$scratch/exec.agg' -o '$scratch/exec2.agg' && cmp '$scratch/exec.agg' '$scratch/exec2.agg'"
# A fork child's report is a run too; merge keeps its parent record.
mkdir -p "$scratch/forked"
sed 's/^seed\t.*/&\nparent\t4241/' "$R/run-03.report" >"$scratch/forked/child.report"
check "merge keeps a fork child's parent record, and reads it back" sh -c "
    grep -qx 'parent	4241' '$scratch/forked/child.report' &&
    '$tool' merge '$scratch/forked/child.report' '$R/run-04.report' --sites '$scratch/hand/sites.txt' \
        -o '$scratch/forked.agg' && [ \"\$(grep -c '^parent	' '$scratch/forked.agg')\" = 1 ] &&
    grep -qx 'parent	4241' '$scratch/forked.agg' &&
    '$tool' merge '$scratch/forked.agg' -o '$scratch/forked2.agg' && cmp '$scratch/forked.agg' '$scratch/forked2.agg'"
expect_error "only on-demand reports" 2 \
    "sampler-report: no runs: every report was written on demand (no exit record)" \
    rank "$scratch/bad/snapshot.report" --sites "$scratch/hand/sites.txt"
expect_error "missing input" 2 "sampler-report: $scratch/nope: No such file or directory" \
    rank "$scratch/nope" --sites "$scratch/hand/sites.txt"
mkdir -p "$scratch/empty-dir"
expect_error "empty directory" 2 "sampler-report: no reports: the directories given hold none" \
    rank "$scratch/empty-dir" --sites "$scratch/hand/sites.txt"
# A directory's hidden files and stale temporary reports are not read.
mkdir -p "$scratch/dir"
cp "$R"/*.report "$scratch/dir/"
head -c 50 "$R/run-00.report" >"$scratch/dir/run-00.report.tmp.4242"
echo junk >"$scratch/dir/.hidden"
"$tool" rank "$scratch/dir" --sites "$scratch/hand/sites.txt" --top=0 --format=csv \
    >"$scratch/out" 2>"$scratch/err"
if [ "$(sed 's|/dir/|/hand/runs/|' "$scratch/out" | cksum)" = "$(cksum <"$scratch/hand.csv")" ] &&
   grep -q "left out 1 directory entry that is not a regular file or is a stale temporary report" "$scratch/err"; then
    pass "directory: stale temporary report left out, with a note"
else
    fail "directory: stale temporary report left out, with a note" "$scratch/err"
fi

# --- Aggregates -----------------------------------------------------------------------
"$tool" merge $hand --output "$scratch/all.agg" 2>"$scratch/err"
check "merge: an aggregate ranks as its reports" \
    sh -c "'$tool' rank '$scratch/all.agg' --top=0 --format=csv | cmp - '$scratch/hand.csv'"
"$tool" merge "$R"/run-[0-4]*.report --sites "$scratch/hand/sites.txt" -o "$scratch/a.agg" &&
"$tool" merge "$R"/run-[5-9]*.report --sites "$scratch/hand/sites.txt" -o "$scratch/b.agg" &&
"$tool" merge "$scratch/a.agg" "$scratch/b.agg" -o "$scratch/ab.agg"
check "merge of aggregates: the same aggregate" cmp "$scratch/all.agg" "$scratch/ab.agg"
check "labels name the reports an aggregate was made from" \
    sh -c "'$tool' rank '$scratch/ab.agg' --labels '$scratch/labels' --top=0 --format=csv | cmp - '$scratch/hand.csv'"
check "an aggregate is site tables and reports in their formats" sh -c "
    sed -n '2,/^runs\$/p' '$scratch/all.agg' | sed '\$d' | cmp - '$scratch/hand/sites.txt' &&
    sed -n '/^runs\$/,\$p' '$scratch/all.agg' | grep -c '^sampler-report	1\$' | grep -qx 100 &&
    tail -n 1 '$scratch/all.agg' | grep -qx 'aggregate-end	100'"
# Every proper prefix of an aggregate is rejected (but the last newline).
size=$(wc -c <"$scratch/a.agg")
bad=0
cut=0
while [ $cut -lt "$size" ]; do
    head -c $cut "$scratch/a.agg" >"$scratch/cut.agg"
    "$tool" rank "$scratch/cut.agg" >/dev/null 2>&1
    status=$?
    if [ $cut -eq $((size - 1)) ]; then want=0; else want=2; fi
    [ $status = $want ] || { bad=$((bad + 1)); echo "prefix $cut: status $status" >>"$scratch/cut.why"; }
    cut=$((cut + 97))
done
if [ $bad = 0 ]; then pass "aggregate truncations rejected"; else fail "aggregate truncations" "$scratch/cut.why"; fi
A="$scratch/agg"
sed '1s/1$/2/' "$scratch/a.agg" >"$A"
expect_error "aggregate: other version" 2 \
    "sampler-report: $A:1: unsupported aggregate version '2' (this sampler-report reads version 1)" rank "$A"
sed '$s/50$/51/' "$scratch/a.agg" >"$A"
expect_error "aggregate: run count differs" 2 \
    "sampler-report: $A:$(wc -l <"$A"): the aggregate says it has 51 runs, but holds 50" rank "$A"
{ cat "$scratch/a.agg"; echo more; } >"$A"
expect_error "aggregate: data after the end" 2 \
    "sampler-report: $A:$(wc -l <"$A"): data after 'aggregate-end'" rank "$A"
sed '/^run\t/{x;s/^/x/;/^x\{3\}$/{x;d};x}' "$scratch/a.agg" >"$A"
line=$(grep -n '^sampler-report' "$A" | sed -n 3p | cut -d: -f1)
expect_error "aggregate: a report without its run line" 2 \
    "sampler-report: $A:$line: expected 'run<TAB>ORIGIN' before each report of an aggregate, found 'sampler-report'" rank "$A"
sed -n '1,/^runs$/p' "$scratch/a.agg" | sed '$d' >"$A"
expect_error "aggregate: no runs line" 2 \
    "sampler-report: $A:$(wc -l <"$A"): truncated aggregate (no 'runs' line after the site tables)" rank "$A"
merge_usage="usage: sampler-report merge INPUT... --output FILE [--binary FILE]... [--sites FILE]..."
expect_error "merge: no output" 2 "sampler-report: 'merge' needs --output FILE
$merge_usage" merge $hand
expect_error "merge: labels" 2 "sampler-report: 'merge' keeps every run's exit; give --fail-if or --labels to 'rank' or 'export'
$merge_usage" merge $hand -o "$A" --fail-if=signal
values_usage="usage: sampler-report values (INPUT... | --store URL --release R) [--binary FILE]... [--sites FILE]... [--min-share=P] [--top=N] [--format=text|csv|jsonl|html]"
# values writes to standard output only: --output is refused (it once
# crashed the tool), and so are the labels it would not use.
expect_error "values: no --output" 2 "sampler-report: unknown option '--output=$A' for 'values'
$values_usage" values $hand --output="$A"
expect_error "values: labels" 2 "sampler-report: 'values' uses every run alike; --fail-if and --labels are for 'rank' and 'export'
$values_usage" values $hand --fail-if=signal
rm -f "$scratch/partial.agg"
"$tool" merge "$scratch/bad/a.report" "$scratch/bad/truncated.report" --sites "$scratch/hand/sites.txt" \
    -o "$scratch/partial.agg" 2>/dev/null
if [ $? = 2 ] && [ -z "$(ls "$scratch" | grep partial)" ]; then
    pass "merge: bad input leaves no aggregate, not even a temporary one"
else
    fail "merge: bad input leaves no aggregate"
fi

# --- Export and SQL ----------------------------------------------------------------------
# The SQL over the export is tested in testsuite/sql (make check-sql).
python3 "$here/make-runs.py" "$scratch/syn" --runs 400 --sites 900 --units 3 --observed 0.2 \
    --bugs 3 --seed 11 && "$tool" merge "$scratch/syn/runs" --sites "$scratch/syn/sites.txt" \
    -o "$scratch/syn.agg" && "$tool" export "$scratch/syn.agg" -o "$scratch/export-syn" &&
"$tool" rank "$scratch/syn.agg" --top=0 --format=csv >"$scratch/syn.csv"
check "synthetic runs: elimination finds the planted bugs" python3 -c "
import csv
bugs = {tuple(l.split()) for l in open('$scratch/syn/bugs.txt')}
steps = [(r['unit'], r['site']) for r in csv.DictReader(open('$scratch/syn.csv')) if r['list'] == 'elimination']
assert set(steps[:3]) == bugs, (steps, bugs)"
check "export: the schema's tables, a row per run in runs.csv" sh -c "
    [ \$(ls '$scratch/export-syn' | wc -l) = 11 ] &&
    head -n 1 '$scratch/export-syn/runs.csv' | grep -qx 'release,run,run_id,origin,program,pid,sparsity,countdown_unit,seed,exit_kind,exit_code,failed,received' &&
    [ \$(wc -l <'$scratch/export-syn/runs.csv') = 401 ]"
export_usage="usage: sampler-report export INPUT... --output DIRECTORY [--release NAME] [--release-id N] [--counts] [--format=csv] [--binary FILE]... [--sites FILE]... [--fail-if=RULE | --labels FILE]"
expect_error "export: no output" 2 "sampler-report: 'export' needs --output DIRECTORY
$export_usage" export $hand
expect_error "export: other format" 2 "sampler-report: unknown format 'parquet' (export writes csv; tools/sql/sampler-sql parquet makes Parquet of it)
$export_usage" export $hand -o "$A" --format=parquet

# --- HTML ----------------------------------------------------------------------------------
(cd "$scratch/hand" && "$tool" rank runs --sites sites.txt --format=html >"$scratch/page.html" 2>&1)
check "html: one self-contained, well-formed page with bars and the source line" python3 - "$scratch/page.html" <<'EOF'
import html.parser, sys
text = open(sys.argv[1]).read()
class Parser(html.parser.HTMLParser):
    void = {"meta", "br", "img", "link", "input", "hr"}
    def __init__(self):
        super().__init__()
        self.stack, self.bars, self.pres = [], 0, []
    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for key in ("src", "href"):
            assert key not in attrs, (tag, attrs)
        if attrs.get("class") == "bar":
            self.bars += 1
        if tag not in self.void and tag not in ("tr", "td", "th"):
            self.stack.append(tag)
    def handle_endtag(self, tag):
        if tag in ("tr", "td", "th"):
            return
        assert self.stack and self.stack[-1] == tag, (tag, self.stack)
        self.stack.pop()
    def handle_data(self, data):
        if self.stack and self.stack[-1] == "pre":
            self.pres.append(data)
p = Parser()
p.feed(text)
assert not p.stack, p.stack
assert "http" not in text and "url(" not in text
assert p.bars >= 4, p.bars
assert any("if (p != 0)" in s for s in p.pres), p.pres
EOF

# --- Progress ---------------------------------------------------------------------------
"$tool" rank "$scratch/syn.agg" >/dev/null 2>"$scratch/err"
check "no progress when stderr is not a terminal" test ! -s "$scratch/err"
if command -v script >/dev/null && script -qec true /dev/null >/dev/null 2>&1; then
    # Slow enough to draw: the synthetic runs read several times over.
    SHELL=/bin/sh script -qec "'$tool' rank '$scratch/syn.agg' '$scratch/syn.agg' '$scratch/syn.agg' '$scratch/syn.agg' '$scratch/syn.agg' >/dev/null" \
        "$scratch/typescript" >/dev/null 2>&1
    check "progress on a terminal" grep -q 'reading runs: [0-9]*/5' "$scratch/typescript"
fi

# --- Sanitizers ---------------------------------------------------------------------------
sanitized="$scratch/sampler-report-sanitized"
if gcc -std=c11 -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -D_GNU_SOURCE \
       -I"$top/tools/report" -I"$top/runtime" $(find "$top/tools/report" -name '*.c' | sort) -lgsl -lgslcblas -lm \
       -o "$sanitized" >"$scratch/asan.log" 2>&1; then
    : >"$scratch/sanitizer-failures"
    for args in "rank $hand --top=0 --format=csv" "rank $hand --format=html" \
                "rank $scratch/syn.agg --format=jsonl" "merge $hand -o $scratch/s.agg" \
                "export $scratch/ab.agg -o $scratch/export-asan" \
                "rank $hand --labels $scratch/labels-extra" "rank $scratch/agg" \
                "rank $scratch/bad/a.report $scratch/bad/mismatch.report --sites $scratch/hand/sites.txt"; do
        # shellcheck disable=SC2086
        "$sanitized" $args >/dev/null 2>"$scratch/asan.err"
        status=$?
        if [ $status -gt 2 ] || grep -q 'Sanitizer\|runtime error' "$scratch/asan.err"; then
            { echo "$args: status $status"; cat "$scratch/asan.err"; } >>"$scratch/sanitizer-failures"
        fi
    done
    if [ -s "$scratch/sanitizer-failures" ]; then
        fail "rank, merge and export under ASan, LSan and UBSan" "$scratch/sanitizer-failures"
    else
        pass "rank, merge and export under ASan, LSan and UBSan"
    fi
else
    echo "NOTE: gcc cannot build with -fsanitize=address,undefined; no sanitizer runs"
fi

finish
