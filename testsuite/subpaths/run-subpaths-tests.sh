#!/bin/bash
# run-subpaths-tests.sh: the subpaths scheme end to end (plugin, runtime,
# sampler-report subpaths).
#
# Usage: testsuite/subpaths/run-subpaths-tests.sh BUILD_DIR
#
#   subpath-max-arg   -fplugin-arg-sampler-subpath-max= refuses 3, 2048, 2^11
#                     and text, takes 2^4 and 16
#   env(VAR=VALUE)    a bad SAMPLER_SUBPATH_MAX, _MEMORY or _LENGTHS: one
#                     warning naming it, sampling off, no report
#   memory too small  for the longest subpaths: one warning, no lists
#   exact(OPT)        exact mode (sparsity 1, every length, room for every
#                     subpath) on loop.c at -O0 and -O2: the counts of five
#                     subpaths of 2 blocks derived by hand in loop.c
#   trace             SAMPLER_SUBPATH_TRACE on loop.c: the trace's counts of
#                     every subpath of 2 to 8 blocks (subpath-count.c) are
#                     exact mode's; at sparsity 100 the trace is the end of
#                     sparsity 1's, and the run's subpath list is the one
#                     it has untraced; a path too long is refused;
#                     subpath-count refuses bad subpaths and traces
#   P-found           interp.c, a synthetic interpreter, and nested.c, nested
#                     loops with data-dependent branches, at sparsity 100
#                     (OSP's lengths, the default memory) over 20 seeds,
#                     combined: the top 5 subpaths of 4 and of 8 blocks are
#                     among the 10 commonest of their length in exact mode
#   P-bounds          each of the 5 commonest subpaths of 4 and of 8 blocks
#                     (exact mode) lies within its 95% Chernoff bounds in at
#                     least 19 of the 20 runs (the bounds are conservative)
#   formats(NAME)     --format=jsonl and --format=html agree with csv on the
#                     interpreter's sampled runs and on loop.c's exact one:
#                     every object and table row a csv row, each block's
#                     source line shown; the page well-formed
#                     (testsuite/tools/html-tables.py)
#   html-no-source    the source not found: a note per block, status 0
#   fairness(S)       loop.c's branch at line 24 with branches alone and with
#                     branches and subpaths (S), 20 seeds at sparsity 100: its
#                     sampled true outcomes within 4 standard deviations of
#                     the binomial mean (the countdown held while recording
#                     still samples every other site at its rate)
#   threads           four threads at sparsity 1: every subpath counted
#   fork              the child's report holds its own subpaths only, the
#                     parent's its threads' and its own
#   crash             an abort while the main thread records (sparsity 1):
#                     the report at the signal holds every list
#   interim           SAMPLER_INTERVAL reports carry the current hot-list
#   bad-report(...)   malformed subpath records are refused with a message
# The last line is "N passed, N failed"; exit status 1 if anything failed.
set -u
build=$(cd "$1" && pwd) || { echo "usage: $0 BUILD_DIR" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../tools/tally.sh"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/sampler-subpaths.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
report=$build/bin/sampler-report
gcc=$build/bin/sampler-gcc

build_program() {   # NAME OPT OUTPUT [EXTRA ARGS...]
    local name=$1 opt=$2 output=$3
    shift 3
    (cd "$here" && "$gcc" $opt -fchecking "$@" "$name.c" -o "$output") 2>"$scratch/build.err"
}

# "ESTIMATE<TAB>LOW<TAB>HIGH<TAB>BLOCKS<TAB>SITES" of every subpath of length
# L in the reports (SITES tells apart blocks on one line).
subpath_rows() {   # BINARY LENGTH REPORT...
    local binary=$1 length=$2
    shift 2
    "$report" subpaths "$@" --binary "$binary" --length "$length" --top 100000 \
        --format=csv | python3 -c '
import csv, sys
for r in csv.DictReader(sys.stdin):
    print(r["estimate"], r["low"], r["high"], r["blocks"], r["sites"], sep="\t")'
}

for value in 3 2048 '2^11' many; do
    if (cd "$here" && "$gcc" -fplugin-arg-sampler-schemes=subpaths \
            "-fplugin-arg-sampler-subpath-max=$value" -c loop.c -o "$scratch/x.o") \
            2>"$scratch/err"; then
        fail_with "subpath-max-arg($value)" "accepted"
    elif grep -q "subpath-max.*power of two from 2 to 1024" "$scratch/err"; then
        pass "subpath-max-arg($value)"
    else
        fail "subpath-max-arg($value)" "$scratch/err"
    fi
done
for value in '2^4' 16; do
    check "subpath-max-arg($value) taken" \
        "$gcc" -fplugin-arg-sampler-schemes=subpaths "-fplugin-arg-sampler-subpath-max=$value" \
        -c "$here/loop.c" -o "$scratch/x.o"
done

if ! build_program loop -O2 "$scratch/loop-O2" -fplugin-arg-sampler-schemes=subpaths; then
    fail "build(loop)" "$scratch/build.err"
fi
for setting in SAMPLER_SUBPATH_MAX=3 SAMPLER_SUBPATH_MAX=2048 SAMPLER_SUBPATH_MEMORY=100 \
               SAMPLER_SUBPATH_LENGTHS=some; do
    rm -f "$scratch/env.report"
    env SAMPLER_SPARSITY=1 SAMPLER_FILE="$scratch/env.report" "$setting" \
        "$scratch/loop-O2" 10 >/dev/null 2>"$scratch/err"
    if grep -q "ignoring ${setting%%=*}='${setting#*=}'.*sampling is off" "$scratch/err" &&
       [ ! -e "$scratch/env.report" ]; then
        pass "env($setting)"
    else
        fail "env($setting)" "$scratch/err"
    fi
done

# Memory too small for the longest subpaths: one warning, the run goes on.
SAMPLER_SPARSITY=1 SAMPLER_SUBPATH_MAX=1024 SAMPLER_SUBPATH_MEMORY=16384 \
    SAMPLER_FILE="$scratch/small.report" "$scratch/loop-O2" 10 >/dev/null 2>"$scratch/err"
if [ "$(grep -c 'SAMPLER_SUBPATH_MEMORY is too small' "$scratch/err")" = 1 ] &&
   grep -q '^end$' "$scratch/small.report" && ! grep -q '^subpaths' "$scratch/small.report"; then
    pass "memory too small: one warning, no subpaths"
else
    fail "memory too small" "$scratch/err"
fi

# Exact mode.
exact_env="SAMPLER_SPARSITY=1 SAMPLER_SUBPATH_LENGTHS=all SAMPLER_SUBPATH_MEMORY=16000000"
for opt in -O0 -O2; do
    if ! build_program loop $opt "$scratch/loop$opt" -fplugin-arg-sampler-schemes=subpaths; then
        fail "exact($opt)" "$scratch/build.err"
        continue
    fi
    env $exact_env SAMPLER_SUBPATH_MAX=2 SAMPLER_FILE="$scratch/exact$opt.report" \
        "$scratch/loop$opt" >/dev/null
    subpath_rows "$scratch/loop$opt" 2 "$scratch/exact$opt.report" >"$scratch/exact$opt.rows" \
        2>"$scratch/err"
    missing=
    for expected in "100000	main:23 main:24" "50000	main:24 main:27" \
                    "50000	main:24 main:25" "16667	f:15 f:16" "33333	f:15 f:17"; do
        count=${expected%%	*} blocks=${expected#*	}
        awk -F'\t' -v c="$count" -v b="$blocks" \
            '$1 == c && $2 == c && $3 == c && $4 == b { found = 1 } END { exit !found }' \
            "$scratch/exact$opt.rows" || missing="$missing [$expected]"
    done
    if [ -z "$missing" ]; then
        pass "exact($opt): five subpaths counted exactly"
    else
        fail_with "exact($opt)" "not found:$missing" "$(head -n 12 "$scratch/exact$opt.rows")"
    fi
done

# The synthetic programs: the truth in exact mode, then 20 sampled runs.
for program in interp nested; do
if build_program $program -O2 "$scratch/$program" -fplugin-arg-sampler-schemes=subpaths; then
    env $exact_env SAMPLER_SUBPATH_MAX=8 SAMPLER_FILE="$scratch/truth-$program.report" \
        "$scratch/$program" >/dev/null
    for length in 4 8; do
        subpath_rows "$scratch/$program" $length "$scratch/truth-$program.report" |
            cut -f 1,5 >"$scratch/truth$length"
    done
    for seed in $(seq 1 20); do
        SAMPLER_SPARSITY=100 SAMPLER_SEED=$seed SAMPLER_SUBPATH_MAX=8 \
            SAMPLER_FILE="$scratch/$program$seed.report" "$scratch/$program" >/dev/null
        for length in 4 8; do
            subpath_rows "$scratch/$program" $length "$scratch/$program$seed.report" \
                >"$scratch/sampled$length.$seed"
        done
    done
    for length in 4 8; do
        subpath_rows "$scratch/$program" $length "$scratch"/$program[0-9]*.report \
            >"$scratch/combined$length"
        # The top 5 combined, among the 10 commonest (ties included).
        if python3 - "$scratch/truth$length" "$scratch/combined$length" <<'PY'
import sys
truth = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
counts = {b: float(c) for c, b in truth}
tenth = sorted(counts.values(), reverse=True)[min(9, len(counts) - 1)]
top = [l.rstrip("\n").split("\t")[4] for l in open(sys.argv[2])][:5]
bad = [b for b in top if counts.get(b, 0) < tenth]
if len(top) < 5 or bad:
    print("top 5:", top, "below the 10th count", tenth, ":", bad)
    sys.exit(1)
PY
        then
            pass "$program-found($length blocks)"
        else
            fail "$program-found($length blocks)"
        fi
        if python3 - "$scratch/truth$length" "$scratch"/sampled$length.* >"$scratch/cover" <<'PY'
import sys
truth = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])][:5]
runs = []
for path in sys.argv[2:]:
    rows = {}
    for l in open(path):
        e, lo, hi, _, b = l.rstrip("\n").split("\t")
        rows[b] = (float(lo), float(hi))
    runs.append(rows)
ok = True
for count, blocks in truth:
    c = float(count)
    # Absent from a run's list: its count there is 0, whose upper bound
    # is the Chernoff bound of a count of 0 times the scale; counted as a
    # miss unless listed.
    held = sum(1 for r in runs if blocks in r and r[blocks][0] <= c <= r[blocks][1])
    print(count, blocks, "held in", held, "of", len(runs))
    ok = ok and held >= len(runs) - 1
sys.exit(0 if ok else 1)
PY
        then
            pass "$program-bounds($length blocks): $(cut -d' ' -f1,3- "$scratch/cover" | awk '{print $(NF-2)}' | tr '\n' ' ')of 20"
        else
            fail "$program-bounds($length blocks)" "$scratch/cover"
        fi
    done
else
    fail "build($program)" "$scratch/build.err"
fi
done

# jsonl and html give the csv's subpaths: the interpreter's sampled runs
# (Chernoff bounds) and loop.c's exact run (scale 1, bounds the count).
for input in interp loop; do
    if [ $input = interp ]; then
        binary=$scratch/interp; reports=("$scratch"/interp[0-9]*.report)
    else
        binary=$scratch/loop-O2; reports=("$scratch/exact-O2.report")
    fi
    for format in csv jsonl html; do
        "$report" subpaths "${reports[@]}" --binary "$binary" --top 30 --format=$format \
            --source-dir "$here" >"$scratch/formats.$format" 2>"$scratch/formats.err"
    done
    if python3 "$here/../tools/html-tables.py" "$scratch/formats.html" >"$scratch/formats.json" \
            2>>"$scratch/formats.err" &&
       python3 - "$scratch/formats.csv" "$scratch/formats.jsonl" "$scratch/formats.json" \
            >>"$scratch/formats.err" 2>&1 <<'EOF'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
objects = [json.loads(line) for line in open(sys.argv[2])]
page = json.load(open(sys.argv[3]))
assert len(rows) >= 5 and len(objects) == len(rows), (len(rows), len(objects))
for r, o in zip(rows, objects):
    assert int(r["rank"]) == o["rank"] and int(r["length"]) == o["length"], (r, o)
    assert int(r["count"]) == o["count"] and float(r["confidence"]) == o["confidence"], (r, o)
    for key in ("estimate", "low", "high"):
        assert r[key] == "%.0f" % o[key], (key, r, o)
    assert abs(float(r["scale"]) - o["scale"]) <= 1e-5 * o["scale"], (r, o)
    assert r["blocks"] == " ".join("%s:%d" % (b["function"], b["line"]) for b in o["blocks"])
    assert r["sites"] == " ".join(b["site"] for b in o["blocks"]), (r, o)
    assert r["file"] == o["blocks"][0]["file"], (r, o)
(table,) = page["tables"]
assert table["rows"][0][:3] == ["#", "estimate", "bounds"], table["rows"][0]
assert len(table["rows"]) == len(rows) + 1, len(table["rows"])
for r, cells in zip(rows, table["rows"][1:]):
    assert cells[0] == r["rank"] and cells[1] == r["estimate"], (r, cells)
    assert cells[2] == "%s\u2013%s" % (r["low"], r["high"]), (r, cells)
    assert cells[3] == r["length"] and cells[4] == r["count"], (r, cells)
    # Each block as function:line, then its source line, found in --source-dir.
    blocks = [b for b in cells[6].split("\n") if b]
    assert [b.split(" ")[0] for b in blocks] == r["blocks"].split(" "), (r, blocks)
    assert all(len(b.split(" ", 1)) == 2 and "not found" not in b for b in blocks), blocks
EOF
    then
        pass "formats($input): jsonl and html as csv"
    else
        fail "formats($input)" "$scratch/formats.err"
    fi
done
(cd "$scratch" && "$report" subpaths "$scratch/exact-O2.report" --binary "$scratch/loop-O2" \
    --format=html --top 1) >"$scratch/nosource.html" 2>"$scratch/nosource.err"
status=$?
if [ $status = 0 ] &&
   python3 "$here/../tools/html-tables.py" "$scratch/nosource.html" >"$scratch/nosource.json" &&
   grep -q 'main:[0-9]* (loop.c not found)' "$scratch/nosource.json"; then
    pass "html-no-source: each block says its file was not found, status 0"
else
    fail_with "html-no-source" "status $status" "$(cat "$scratch/nosource.err")"
fi

# The trace against exact mode (loop-O2's exact report, every subpath of
# 2, 4 and 8 blocks).
if gcc -std=c11 -O2 -Wall -Wextra -D_GNU_SOURCE "$here/../../bench/subpath-count.c" \
        -o "$scratch/subpath-count" 2>"$scratch/err"; then
    env $exact_env SAMPLER_SUBPATH_MAX=8 SAMPLER_FILE="$scratch/exact8.report" \
        "$scratch/loop-O2" 3000 >/dev/null
    SAMPLER_SPARSITY=1 SAMPLER_SUBPATH_TRACE="$scratch/trace1" \
        SAMPLER_FILE="$scratch/report-trace1" "$scratch/loop-O2" 3000 >/dev/null
    SAMPLER_SPARSITY=100 SAMPLER_SEED=5 SAMPLER_SUBPATH_TRACE="$scratch/trace100" \
        SAMPLER_FILE="$scratch/report-trace100" "$scratch/loop-O2" 3000 >/dev/null
    for length in 2 4 8; do
        "$report" subpaths "$scratch/exact8.report" --binary "$scratch/loop-O2" \
            --length $length --top 100000 --format=csv | tail -n +2
    done | python3 -c '
import csv, sys
# "COUNT BLOCKS": loop.c is one unit, unit 0 in the trace.
for r in csv.reader(sys.stdin):
    print(r[6], " ".join("0:" + b.rsplit(":", 1)[1] for b in r[10].split()))
' >"$scratch/exact8.rows"
    cut -d' ' -f2- "$scratch/exact8.rows" |
        "$scratch/subpath-count" "$scratch"/trace1.* >"$scratch/traced8" 2>&1
    if [ "$(ls "$scratch"/trace1.* | wc -l)" = 1 ] && [ "$(wc -l <"$scratch/exact8.rows")" -ge 20 ] &&
       paste -d' ' "$scratch/exact8.rows" <(head -n -1 "$scratch/traced8") |
           awk '$1 != $NF { bad = 1 } END { exit bad }'; then
        pass "trace: $(wc -l <"$scratch/exact8.rows") subpaths of 2 to 8 blocks, exact mode's counts"
    else
        fail_with "trace" "$(paste -d' ' "$scratch/exact8.rows" "$scratch/traced8" | head -n 20)"
    fi
    if python3 - "$scratch"/trace1.* "$scratch"/trace100.* <<'PY'
import sys
full, late = (open(p, "rb").read() for p in sys.argv[1:3])
sys.exit(0 if 0 < len(late) < len(full) and full.endswith(late) else 1)
PY
    then
        pass "trace at sparsity 100: the end of sparsity 1's"
    else
        fail_with "trace at sparsity 100" "$(ls -l "$scratch"/trace1.* "$scratch"/trace100.*)"
    fi
    # The traced run keeps the list it has without the trace (the same
    # seed): one run gives both.  A list is a set: its entries' order
    # follows their hashes, which follow the blocks' addresses (ASLR).
    SAMPLER_SPARSITY=100 SAMPLER_SEED=5 SAMPLER_FILE="$scratch/report-untraced100" \
        "$scratch/loop-O2" 3000 >/dev/null
    if grep -q '^subpath	' "$scratch/report-trace100" &&
       cmp -s <(grep '^subpath' "$scratch/report-trace100" | sort) \
              <(grep '^subpath' "$scratch/report-untraced100" | sort); then
        pass "trace at sparsity 100: the run's subpath list as without the trace"
    else
        fail_with "trace at sparsity 100: list" \
            "$(diff <(grep '^subpath' "$scratch/report-trace100" | sort) \
                    <(grep '^subpath' "$scratch/report-untraced100" | sort) | head -n 10)"
    fi
    # subpath-count refuses what it cannot read.
    printf 'abc\n' >"$scratch/odd.trace"
    for bad in "0:1 x:2|$scratch/trace1.*|line 1" "0:1 0:|$scratch/trace1.*|line 1" \
               "0:1|$scratch/odd.trace|not a trace" "0:1|$scratch/missing|cannot read"; do
        IFS='|' read -r line trace message <<<"$bad"
        if ! echo "$line" | "$scratch/subpath-count" $trace >/dev/null 2>"$scratch/err" &&
           grep -q "subpath-count: .*$message" "$scratch/err"; then
            pass "subpath-count refuses ($message: $line)"
        else
            fail "subpath-count refuses ($message: $line)" "$scratch/err"
        fi
    done
else
    fail "build(subpath-count)" "$scratch/err"
fi
long=$(printf '%04100d' 0)
SAMPLER_SPARSITY=1 SAMPLER_SUBPATH_TRACE="$scratch/$long" SAMPLER_FILE="$scratch/long.report" \
    "$scratch/loop-O2" 10 >/dev/null 2>"$scratch/err"
if grep -q "ignoring SAMPLER_SUBPATH_TRACE=.*path shorter than.*sampling is off" "$scratch/err" &&
   [ ! -e "$scratch/long.report" ]; then
    pass "env(SAMPLER_SUBPATH_TRACE too long)"
else
    fail "env(SAMPLER_SUBPATH_TRACE too long)" "$scratch/err"
fi

# Fairness: the branch at line 24 of loop.c, true in 50000 of 100000.
for schemes in branches branches,subpaths; do
    rm -f "$scratch/sites"
    if ! build_program loop -O2 "$scratch/fair" -fplugin-arg-sampler-schemes=$schemes \
            "-fplugin-arg-sampler-site-table=$scratch/sites"; then
        fail "fairness($schemes)" "$scratch/build.err"
        continue
    fi
    for seed in $(seq 1 20); do
        SAMPLER_SPARSITY=100 SAMPLER_SEED=$seed SAMPLER_FILE="$scratch/fair-$schemes-$seed.report" \
            "$scratch/fair" >/dev/null
    done
    if python3 - "$scratch/sites" "$scratch"/fair-$schemes-*.report >"$scratch/fair.out" <<'PY'
import math, sys
site = None
for l in open(sys.argv[1]):
    f = l.rstrip("\n").split("\t")
    if f[0] == "site" and f[2] == "branches" and f[4] == "24":
        site = f[1]
total = 0
for path in sys.argv[2:]:
    for l in open(path):
        f = l.rstrip("\n").split("\t")
        if f[0] == site:
            total += int(f[2])
runs = len(sys.argv) - 2
mean = runs * 50000 / 100
sd = math.sqrt(runs * 50000 * 0.01 * 0.99)
print("site", site, "true outcomes sampled", total, "expected", mean, "sd", round(sd, 1))
sys.exit(0 if site is not None and abs(total - mean) <= 4 * sd else 1)
PY
    then
        pass "fairness($schemes): $(cat "$scratch/fair.out")"
    else
        fail "fairness($schemes)" "$scratch/fair.out"
    fi
done

# Threads and fork: f's first branch taken 500 times per 3000 passes.
if build_program threads -O2 "$scratch/threads" -pthread -fplugin-arg-sampler-schemes=subpaths; then
    env $exact_env SAMPLER_SUBPATH_MAX=2 SAMPLER_FILE="$scratch/threads.report" \
        "$scratch/threads" 3000
    count=$(subpath_rows "$scratch/threads" 2 "$scratch/threads.report" 2>"$scratch/err" |
            awk -F'\t' '$4 == "f:16 f:17" { print $1 }')
    lists=$(grep -c '^subpaths	' "$scratch/threads.report")
    if [ "$count" = 2000 ] && [ "$lists" -ge 1 ]; then
        pass "threads: f:16 f:17 counted 2000 times over $lists lists"
    else
        fail_with "threads" "count '$count' (2000 expected), $lists lists" "$(cat "$scratch/err")"
    fi
    mkdir -p "$scratch/fork"
    env $exact_env SAMPLER_SUBPATH_MAX=2 SAMPLER_FILE="$scratch/fork/%p.report" \
        "$scratch/threads" 3000 fork
    parent= child=
    for file in "$scratch"/fork/*.report; do
        c=$(subpath_rows "$scratch/threads" 2 "$file" | awk -F'\t' '$4 == "f:16 f:17" { print $1 }')
        if grep -q '^parent	' "$file"; then child=$c; else parent=$c; fi
    done
    if [ "$parent" = 3000 ] && [ "$child" = 500 ]; then
        pass "fork: the parent counts 3000, the child 500"
    else
        fail_with "fork" "parent '$parent' (3000 expected), child '$child' (500 expected)"
    fi
    # A crash in the middle of a subpath: the report at the signal has the
    # lists, and reads.
    (env $exact_env SAMPLER_SUBPATH_MAX=2 SAMPLER_FILE="$scratch/crash.report" \
        "$scratch/threads" 3000 abort; true) 2>/dev/null
    if grep -q '^exit	signal	6$' "$scratch/crash.report" 2>/dev/null &&
       count=$(subpath_rows "$scratch/threads" 2 "$scratch/crash.report" 2>"$scratch/err" |
               awk -F'\t' '$4 == "f:16 f:17" { print $1 }') &&
       [ "$count" = 2500 ]; then
        pass "crash: the abort's report lists f:16 f:17 $count times"
    else
        fail "crash" "$scratch/err"
    fi
else
    fail "build(threads)" "$scratch/build.err"
fi

# An interim report (SAMPLER_INTERVAL) while the interpreter runs.
if [ -x "$scratch/interp" ]; then
    SAMPLER_SPARSITY=10 SAMPLER_INTERVAL=1 SAMPLER_FILE="$scratch/interim.report" \
        "$scratch/interp" 100000000 >/dev/null &
    pid=$!
    for wait in 1 2 3 4 5 6 7 8 9 10; do
        sleep 0.5
        grep -q '^interim	' "$scratch/interim.report" 2>/dev/null && break
    done
    cp "$scratch/interim.report" "$scratch/interim.copy" 2>/dev/null
    kill $pid
    wait $pid 2>/dev/null
    if grep -q '^interim	' "$scratch/interim.copy" 2>/dev/null &&
       grep -q '^subpaths	256	osp	' "$scratch/interim.copy" &&
       [ "$(grep -c '^subpath	' "$scratch/interim.copy")" -ge 5 ]; then
        pass "interim: the report written while the run went on has its hot-list"
    else
        fail "interim" "$scratch/interim.copy"
    fi
fi

# merge keeps the counts and says that the subpath lists stay behind.
if [ -f "$scratch/exact-O2.report" ] &&
   "$report" merge "$scratch/exact-O2.report" --binary "$scratch/loop-O2" \
       --output "$scratch/merged.aggregate" 2>"$scratch/merge.err" &&
   grep -q "1 run's subpath lists are not carried into the aggregate" "$scratch/merge.err" &&
   grep -q '^aggregate-end	1$' "$scratch/merged.aggregate" &&
   ! grep -q '^subpath' "$scratch/merged.aggregate"; then
    pass "merge: the counts merged, the subpath lists' absence said"
else
    fail "merge" "$scratch/merge.err"
fi

# Bad reports: each edit of a good report is refused with its message.
good=$scratch/exact-O2.report
bad_report() {   # NAME EXPECTED-MESSAGE SED-SCRIPT
    sed "$3" "$good" >"$scratch/bad.report"
    if "$report" subpaths "$scratch/bad.report" --binary "$scratch/loop-O2" \
            >/dev/null 2>"$scratch/err"; then
        fail_with "bad-report($1)" "accepted"
    elif grep -q "$2" "$scratch/err"; then
        pass "bad-report($1)"
    else
        fail "bad-report($1)" "$scratch/err"
    fi
}
if [ -f "$good" ]; then
    bad_report "count 0" "a subpath with count 0" '0,/^subpath	[0-9]*/s//subpath	0/'
    bad_report "3 blocks" "a subpath of 3 blocks" '0,/^subpath	\([^	]*\)	\([^	]*\)/s//subpath	\1	\2	\2/'
    bad_report "no such unit" "names no site" '0,/^subpath	\([0-9]*\)	[0-9]*:/s//subpath	\1	7:/'
    bad_report "no colon" "is not UNIT:SITE" '0,/^subpath	\([0-9]*\)	\([0-9]*\):/s//subpath	\1	\2-/'
    bad_report "before its list" "before any 'subpaths' record" '/^subpaths	/d'
    bad_report "lengths" "must be 'osp' or 'all'" 's/^subpaths	\([0-9]*\)	all/subpaths	\1	most/'
    bad_report "longest" "not a power of two" 's/^subpaths	2	/subpaths	3	/'
    bad_report "fields" "'subpaths' record has 6 fields" 's/^\(subpaths	.*\)	[0-9]*$/\1/'
    bad_report "unit after" "after the subpath lists" '/^end$/i unit\t0123456789abcdef0123456789abcdef\t1\t1\tx.c'
else
    fail "bad-report" "$scratch/err"
fi

finish
