#!/bin/bash
# run-paths-tests.sh: the paths scheme counts the paths the program took.
#
# Usage: testsuite/paths/run-paths-tests.sh BUILD_DIR
#
# shapes.c (nested ifs in a loop, a switch, early returns, break and
# continue, a goto loop, && and || chains; its comments derive the
# counts) is built with the paths and branches schemes at -O0 and -O2,
# and read back with `sampler-report paths --format=csv' as rows
#     FUNCTION  TRAVERSALS  REGION'S LINE  PATH SPELLED AS LINES AND BRANCHES
#   exact(OPT)      at SAMPLER_SPARSITY=1 with 2 rounds, the rows equal
#                   shapes.OPT.expected
#   jsonl(OPT)      --format=jsonl gives the same rows
#   merge(OPT)      two runs add up path by path (reports and an aggregate)
#   binom(OPT)      at sparsity 100 with ROUNDS rounds and a fixed seed,
#                   each path's count, and each function's sampled
#                   traversals, within the two-sided bounds of
#                   Binomial(exact count, 1/100) (confidence 0.999,
#                   Bonferroni over the counts)
#   binom(NAME)     the same for testsuite/schemes/NAME.c with every
#                   scheme and paths at -O2 (counted loops, calls, pairs)
#   edges           edges.c at -O2 as edges-O2.expected: computed gotos,
#                   weightless and weighty calls; a function that calls
#                   setjmp is not observed
#   hash            paths-array=2 (hash tables): every path that found a
#                   pair has its exact count; sampled = pairs + lost
#   path-limit      paths-max=2: checks cut every region to at most 2
#                   paths, said by verbose and the dump; counts stay exact
#                   (every traversal sampled at sparsity 1)
#   fallback        paths-max=1: a function with a branch is not observed
#                   (verbose says so) and the program runs as plain
#   same-output     the program's output and status are those of a plain build
#   inlined         inlined.c, whose loop condition calls a header's inline
#                   getchar: exact counts, every line spelled is one of
#                   inlined.c's, the loop's turns exit at the loop's line
#   tailcall        tailcall.c at -O2: a region that ends in a sibling call
#                   (free before the return) counts its traversals, as
#                   many as the region before it
#   html            --format=html of the -O2 run: a well-formed,
#                   self-contained page (testsuite/tools/html-tables.py)
#                   whose paths are the csv rows; each path's column of
#                   the source marks T or F on the line of each branch its
#                   spelling names, X on its exit line
#   html-no-source  the source not found: a note saying so, status 0
#   html-escape     a site-table file naming a source a<b&"c.c: the name
#                   and the source lines escaped, the page well-formed
# The last line is "N passed, N failed"; exit status 1 if anything failed.
set -u
build=$(cd "$1" && pwd) || { echo "usage: $0 BUILD_DIR" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../tools/tally.sh"
tools=$(cd "$here/../tools" && pwd)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/sampler-paths.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
ROUNDS=${ROUNDS:-2000}
SEED=${SEED:-4242}
report=$build/bin/sampler-report

# FUNCTION TRAVERSALS SPELLED, sorted; then, with "totals", FUNCTION
# SAMPLED LOST PAIRS-SUM per function.
rows() {   # INPUT... (sampler-report paths arguments)
    "$report" paths "$@" --top=1000000 --format=csv |
    python3 -c '
import csv, sys
for r in csv.DictReader(sys.stdin):
    print("\t".join([r["function"], r["count"], r["region_line"], r["spelled"]]))' | sort
}
totals() {   # INPUT...
    "$report" paths "$@" --top=1000000 --format=csv |
    python3 -c '
import csv, sys
seen = {}
for r in csv.DictReader(sys.stdin):
    f = seen.setdefault(r["function"], [r["sampled"], r["lost"], 0])
    f[2] += int(r["count"])
for name, (sampled, lost, pairs) in sorted(seen.items()):
    print(name, sampled, lost, pairs)'
}

statcheck=$scratch/stat-check
if ! gcc -std=c11 -O2 -Wall -Wextra -o "$statcheck" "$tools/stat-check.c" \
        -lgsl -lgslcblas -lm 2>"$scratch/err"; then
    fail_with "stat-check build" "$(cat "$scratch/err")"
fi

if gcc -O2 -o "$scratch/plain" "$here/shapes.c" 2>"$scratch/err"; then
    "$scratch/plain" 2 >"$scratch/plain.out"; echo $? >>"$scratch/plain.out"
else
    fail_with "plain build" "$(cat "$scratch/err")"
fi

compile() {   # OUT OPT ARGS...
    local out=$1 opt=$2; shift 2
    (cd "$here" && "$build/bin/sampler-gcc" $opt -fchecking "$@" shapes.c -o "$out") \
        2>"$out.build"
}
run() {   # PROG SPARSITY ROUNDS REPORT
    SAMPLER_SPARSITY=$2 SAMPLER_SEED=$SEED SAMPLER_FILE=$4 "$1" "$3" >"$4.out"
    echo $? >>"$4.out"
}

for opt in -O0 -O2; do
    dir=$scratch/shapes$opt; mkdir -p "$dir"
    prog=$dir/shapes
    if ! compile "$prog" "$opt" -fplugin-arg-sampler-schemes=paths,branches; then
        fail_with "build($opt)" "$(cat "$prog.build")"; continue
    fi
    run "$prog" 1 2 "$dir/small.report"
    run "$prog" 1 2 "$dir/small2.report"
    if cmp -s "$scratch/plain.out" "$dir/small.report.out"; then
        pass "same-output($opt)"
    else
        fail_with "same-output($opt)" "$(diff "$scratch/plain.out" "$dir/small.report.out")"
    fi
    rows "$dir/small.report" --binary "$prog" >"$dir/small.rows"
    if diff -u "$here/shapes$opt.expected" "$dir/small.rows" >"$dir/diff"; then
        pass "exact($opt): $(wc -l <"$dir/small.rows") paths as shapes$opt.expected"
    else
        fail_with "exact($opt)" "$(head -40 "$dir/diff")"
    fi

    # The same rows from --format=jsonl.
    "$report" paths "$dir/small.report" --binary "$prog" --top=1000000 --format=jsonl |
        python3 -c '
import json, sys
for line in sys.stdin:
    f = json.loads(line)
    assert f["sampled"] == sum(p["count"] for p in f["hot"]) + f["lost"]
    for p in f["hot"]:
        print("\t".join([f["function"], str(p["count"]), str(p["region_line"]), p["spelled"]]))' |
        sort >"$dir/jsonl.rows"
    if cmp -s "$dir/small.rows" "$dir/jsonl.rows"; then
        pass "jsonl($opt): the rows of csv"
    else
        fail_with "jsonl($opt)" "$(diff "$dir/small.rows" "$dir/jsonl.rows" | head)"
    fi

    # Two runs: every path's count doubles, from the reports or an aggregate.
    awk -F'\t' 'BEGIN { OFS = "\t" } { $2 = 2 * $2; print }' "$dir/small.rows" | sort \
        >"$dir/double.rows"
    rows "$dir/small.report" "$dir/small2.report" --binary "$prog" >"$dir/two.rows"
    "$report" merge "$dir/small.report" "$dir/small2.report" --binary "$prog" \
        --output "$dir/merged" 2>"$dir/merge.err"
    rows "$dir/merged" --binary "$prog" >"$dir/merged.rows" 2>>"$dir/merge.err"
    if cmp -s "$dir/double.rows" "$dir/two.rows" && cmp -s "$dir/double.rows" "$dir/merged.rows"
    then
        pass "merge($opt): two runs add up path by path"
    else
        fail_with "merge($opt)" "$(diff "$dir/double.rows" "$dir/two.rows" | head -10)" \
            "$(diff "$dir/double.rows" "$dir/merged.rows" | head -10)" "$(cat "$dir/merge.err")"
    fi

    run "$prog" 1 "$ROUNDS" "$dir/full.report"
    run "$prog" 100 "$ROUNDS" "$dir/sparse.report"
    rows "$dir/full.report" --binary "$prog" >"$dir/full.rows"
    rows "$dir/sparse.report" --binary "$prog" >"$dir/sparse.rows"
    totals "$dir/full.report" --binary "$prog" >"$dir/full.totals"
    totals "$dir/sparse.report" --binary "$prog" >"$dir/sparse.totals"
    # Each path: KEY EXACT SPARSE (0 when not sampled); each function's
    # sampled traversals too.
    python3 - "$dir/full.rows" "$dir/sparse.rows" "$dir/full.totals" "$dir/sparse.totals" \
        >"$dir/pairs" <<'EOF'
import sys
def read(path):
    d = {}
    for line in open(path):
        f, n, r, s = line.rstrip("\n").split("\t")
        k = "%s | %s | %s" % (f, r, s)
        d[k] = d.get(k, 0) + int(n)
    return d
def totals(path):
    return {l.split()[0]: int(l.split()[1]) for l in open(path)}
full, sparse = read(sys.argv[1]), read(sys.argv[2])
for k in sorted(full):
    print("%s\t%d\t%d" % (k, full[k], sparse.get(k, 0)))
for k in sorted(set(sparse) - set(full)):
    print("%s\t0\t%d" % (k, sparse[k]))
ft, st = totals(sys.argv[3]), totals(sys.argv[4])
for f in sorted(ft):
    print("%s sampled\t%d\t%d" % (f, ft[f], st.get(f, 0)))
EOF
    m=$(($(wc -l <"$dir/pairs")))
    conf=$(awk -v m="$m" 'BEGIN { printf "%.10f", 1 - 0.001 / m }')
    bad=()
    while IFS=$'\t' read -r key exact sparse; do
        "$statcheck" binom "$exact" "$sparse" 1/100 "$conf" >/dev/null ||
            bad+=("$key: $sparse of $exact")
    done <"$dir/pairs"
    if [ "$m" -lt 10 ]; then
        fail_with "binom($opt)" "only $m paths and functions"
    elif [ ${#bad[@]} -eq 0 ]; then
        pass "binom($opt): $m path counts and function totals within bounds"
    else
        fail_with "binom($opt)" "${bad[@]}"
    fi
done

# Fairness on other shapes: the programs of testsuite/schemes (loops with
# and without sites, counted loops, returns, pairs, floats) with every
# scheme and paths at -O2: each path's count and each function's sampled
# traversals at sparsity 100 within the binomial bounds of sparsity 1's.
for src in "$here"/../schemes/*.c; do
    name=$(basename "$src" .c)
    dir=$scratch/schemes-$name; mkdir -p "$dir"
    if ! (cd "$(dirname "$src")" && "$build/bin/sampler-gcc" -O2 \
            -fplugin-arg-sampler-schemes=checks,branches,returns,scalar-pairs,float-kinds,function-entries,bounds,paths \
            "$name.c" -o "$dir/prog" -lm) 2>"$dir/build"; then
        fail_with "binom($name)" "$(cat "$dir/build")"; continue
    fi
    run "$dir/prog" 1 "$ROUNDS" "$dir/full"
    run "$dir/prog" 100 "$ROUNDS" "$dir/sparse"
    python3 - "$dir/full" "$dir/sparse" "$report" "$dir/prog" >"$dir/pairs" <<'EOF'
import csv, io, subprocess, sys
def counts(path):
    out = subprocess.run([sys.argv[3], "paths", path, "--binary", sys.argv[4],
                          "--top=1000000", "--format=csv"], capture_output=True,
                         text=True, check=True).stdout
    paths, sampled = {}, {}
    for r in csv.DictReader(io.StringIO(out)):
        k = "%s | %s | %s" % (r["function"], r["region_line"], r["spelled"])
        paths[k] = paths.get(k, 0) + int(r["count"])
        sampled[r["function"]] = int(r["sampled"])
    return paths, sampled
full, full_sampled = counts(sys.argv[1])
sparse, sparse_sampled = counts(sys.argv[2])
for k in sorted(set(full) | set(sparse)):
    print("%s\t%d\t%d" % (k, full.get(k, 0), sparse.get(k, 0)))
for f in sorted(full_sampled):
    print("%s sampled\t%d\t%d" % (f, full_sampled[f], sparse_sampled.get(f, 0)))
EOF
    m=$(wc -l <"$dir/pairs")
    conf=$(awk -v m="$m" 'BEGIN { printf "%.10f", 1 - 0.001 / m }')
    bad=()
    while IFS=$'\t' read -r key exact sparse; do
        "$statcheck" binom "$exact" "$sparse" 1/100 "$conf" >/dev/null ||
            bad+=("$key: $sparse of $exact")
    done <"$dir/pairs"
    if [ "$m" -lt 3 ]; then
        fail_with "binom($name)" "only $m paths and functions"
    elif [ ${#bad[@]} -eq 0 ]; then
        pass "binom($name): $m path counts and function totals within bounds"
    else
        fail_with "binom($name)" "${bad[@]}"
    fi
done

# edges.c: computed gotos, setjmp, weightless and weighty calls.
dir=$scratch/edges; mkdir -p "$dir"
if (cd "$here" && "$build/bin/sampler-gcc" -O2 -fchecking \
        -fplugin-arg-sampler-schemes=paths,branches -fplugin-arg-sampler-verbose \
        edges.c -o "$dir/edges") 2>"$dir/build"; then
    run "$dir/edges" 1 2 "$dir/r"
    rows "$dir/r" --binary "$dir/edges" >"$dir/rows"
    if diff -u "$here/edges-O2.expected" "$dir/rows" >"$dir/diff" &&
       grep -q "'protected_call' calls setjmp" "$dir/build" &&
       ! grep -q '^protected_call' "$dir/rows"; then
        pass "edges: goto targets, weightless and weighty calls as edges-O2.expected; setjmp's function not observed"
    else
        fail_with "edges" "$(head -30 "$dir/diff")" "$(grep sampler "$dir/build")"
    fi
else
    fail_with "edges build" "$(cat "$dir/build")"
fi

# Hash tables of 2 pairs: the -O2 build's paths, found or lost.
dir=$scratch/hash; mkdir -p "$dir"
if compile "$dir/shapes" -O2 -fplugin-arg-sampler-schemes=paths,branches \
        -fplugin-arg-sampler-paths-array=2; then
    run "$dir/shapes" 1 2 "$dir/r"
    rows "$dir/r" --binary "$dir/shapes" >"$dir/rows"
    totals "$dir/r" --binary "$dir/shapes" >"$dir/totals"
    totals "$scratch/shapes-O2/small.report" --binary "$scratch/shapes-O2/shapes" \
        >"$dir/array.totals"
    # Every row is one of the array build's; sampled = pairs + lost, and
    # each function's sampled traversals are the array build's.
    if [ -z "$(comm -23 "$dir/rows" "$scratch/shapes-O2/small.rows")" ] &&
       awk '$2 != $3 + $4 { bad = 1 } END { exit bad }' "$dir/totals" &&
       [ "$(awk '{print $1, $2}' "$dir/totals")" = "$(awk '{print $1, $2}' "$dir/array.totals")" ] &&
       awk '$3 > 0 { lost = 1 } END { exit !lost }' "$dir/totals"; then
        pass "hash: paths found count exactly, the rest are lost ($(awk '{l += $3} END {print l}' "$dir/totals") lost)"
    else
        fail_with "hash" "$(comm -23 "$dir/rows" "$scratch/shapes-O2/small.rows")" \
            "$(cat "$dir/totals")" "$(cat "$dir/array.totals")"
    fi
else
    fail_with "hash build" "$(cat "$dir/shapes.build")"
fi

# paths-max=2: path-limit checks, every region within 2 paths.
dir=$scratch/limit; mkdir -p "$dir"
if compile "$dir/shapes" -O2 -fplugin-arg-sampler-schemes=paths \
        -fplugin-arg-sampler-paths-max=2 -fplugin-arg-sampler-verbose \
        -fplugin-arg-sampler-dump="$dir/dump"; then
    run "$dir/shapes" 1 2 "$dir/r"
    totals "$dir/r" --binary "$dir/shapes" >"$dir/totals"
    if grep -q 'path-limit checks keep every region within 2 paths' "$dir/shapes.build" &&
       grep -q 'check path-limit' "$dir/dump" &&
       awk '/^  region line/ { if ($4 > 2) bad = 1; n++ } END { exit bad || n == 0 }' "$dir/dump" &&
       awk '$2 != $4 || $3 != 0 { bad = 1 } END { exit bad }' "$dir/totals" &&
       cmp -s "$scratch/plain.out" "$dir/r.out"; then
        pass "path-limit: every region within 2 paths, counts exact"
    else
        fail_with "path-limit" "$(grep -e region -e path-limit "$dir/dump" | head)" \
            "$(cat "$dir/totals")"
    fi
else
    fail_with "path-limit build" "$(cat "$dir/shapes.build")"
fi

# paths-max=1: a block with two ways out cannot be cut below it.
dir=$scratch/fallback; mkdir -p "$dir"
if compile "$dir/shapes" -O2 -fplugin-arg-sampler-schemes=paths \
        -fplugin-arg-sampler-paths-max=1 -fplugin-arg-sampler-verbose; then
    run "$dir/shapes" 1 2 "$dir/r"
    totals "$dir/r" --binary "$dir/shapes" >"$dir/totals"
    if grep -q "'early': a block has more than 1 ways out: its paths are not observed" \
            "$dir/shapes.build" &&
       ! grep -q '^early ' "$dir/totals" && cmp -s "$scratch/plain.out" "$dir/r.out"; then
        pass "fallback: functions with branches not observed at paths-max=1"
    else
        fail_with "fallback" "$(grep sampler "$dir/shapes.build" | head)" "$(cat "$dir/totals")"
    fi
else
    fail_with "fallback build" "$(cat "$dir/shapes.build")"
fi

# Statements inlined from a header are spelled by the line of their call.
dir=$scratch/inlined; mkdir -p "$dir"
if (cd "$here" && "$build/bin/sampler-gcc" -O2 -fchecking -fplugin-arg-sampler-schemes=paths \
        inlined.c -o "$dir/inlined") 2>"$dir/build"; then
    printf 'ab C\nxyz\n' | SAMPLER_SPARSITY=1 SAMPLER_FILE="$dir/r" "$dir/inlined" >/dev/null
    rows "$dir/r" --binary "$dir/inlined" >"$dir/rows"
    lines=$(wc -l <"$here/inlined.c")
    beyond=$(grep -o 'line [0-9]*' "$dir/rows" | awk -v n="$lines" '$2 > n' | head -n 1)
    # 9 characters: 9 turns of the loop, its entry, its exit, the return.
    if [ -z "$beyond" ] && [ "$(awk -F"\t" "{ n += \$2 } END { print n }" "$dir/rows")" = 12 ] &&
       grep -q '^main	9	17	line 17 true -> .* -> exit line 17$' "$dir/rows"; then
        pass "inlined: exact counts, spelled by the file's own lines"
    else
        fail_with "inlined" "$(cat "$dir/rows")"
    fi
else
    fail_with "inlined build" "$(cat "$dir/build")"
fi

# A region that ends in a call GCC would make a sibling call: its exit
# marker must not be jumped over.
dir=$scratch/tailcall; mkdir -p "$dir"
if "$build/bin/sampler-gcc" -O2 -fplugin-arg-sampler-schemes=paths "$here/tailcall.c" \
        -o "$dir/tailcall" 2>"$dir/build"; then
    SAMPLER_SPARSITY=1 SAMPLER_FILE="$dir/r" "$dir/tailcall"
    status=$?
    rows "$dir/r" --binary "$dir/tailcall" | grep '^pop	' >"$dir/rows"
    if [ $status = 0 ] && [ "$(wc -l <"$dir/rows")" = 2 ] &&
       [ "$(cut -f2 "$dir/rows" | sort -u)" = 1000 ]; then
        pass "tailcall: the region ending in a sibling call counts its 1000 traversals"
    else
        fail_with "tailcall" "status $status" "$(cat "$dir/rows")"
    fi
else
    fail_with "tailcall build" "$(cat "$dir/build")"
fi

# The HTML page: its paths are the csv rows, its source marked along them.
dir=$scratch/shapes-O2
"$report" paths "$dir/small.report" --binary "$dir/shapes" --top=1000000 --format=html \
    --source-dir "$here" >"$dir/page.html" 2>"$dir/html.err"
if python3 "$tools/html-tables.py" "$dir/page.html" >"$dir/page.json" 2>>"$dir/html.err" &&
   python3 - "$dir/page.json" "$dir/small.rows" >>"$dir/html.err" 2>&1 <<'EOF'
import json, re, sys
page = json.load(open(sys.argv[1]))
rows = sorted(open(sys.argv[2]).read().splitlines())
seen, marked = [], 0
tables = page["tables"]
assert len(tables) == 2 * len(page["h2"]), (len(tables), page["h2"])
for paths, source in zip(tables[0::2], tables[1::2]):
    function = paths["after"].split(" ")[0]
    assert source["after"] == paths["after"]
    assert paths["rows"][0] == ["#", "path", "traversals", "95% interval", "share", "spelled"]
    assert source["rows"][0][-1] == "source"
    marks = {}     # (column, line) -> mark
    for r in source["rows"][1:]:
        if len(r) == 1:
            continue   # folded lines
        for column, mark in enumerate(r[1:-1]):
            marks[(column, int(r[0]))] = mark
    for column, r in enumerate(paths["rows"][1:]):
        spelled = r[5]
        # At sparsity 1 the count is the traversals; region lines are not shown.
        seen.append((function, r[2], spelled))
        for line, how in re.findall(r"line (\d+) (true|false)", spelled):
            assert how[0].upper() in marks.get((column, int(line)), ""), (function, spelled, line)
            marked += 1
        for line in re.findall(r"exit line (\d+)", spelled):
            assert "X" in marks.get((column, int(line)), ""), (function, spelled, line)
expected = sorted((f, n, s) for f, n, _, s in (r.split("\t") for r in rows))
assert sorted(seen) == expected, (sorted(seen)[:5], expected[:5])
assert marked >= 10, marked
EOF
then
    pass "html: well-formed, the csv's paths, branches and exits marked on the source"
else
    fail "html" "$dir/html.err"
fi
(cd "$scratch" && "$report" paths "$dir/small.report" --binary "$dir/shapes" --format=html) \
    >"$dir/nosource.html" 2>"$dir/nosource.err"
status=$?
if [ $status = 0 ] && python3 "$tools/html-tables.py" "$dir/nosource.html" >"$dir/nosource.json" &&
   grep -q '"Source file shapes.c not found (give --source-dir DIR)' "$dir/nosource.json"; then
    pass "html-no-source: a note, status 0"
else
    fail_with "html-no-source" "status $status" "$(cat "$dir/nosource.err")"
fi

# A source named a<b&"c.c: GCC cannot build it (an inline asm's line
# marker quotes the name as it is), so its site-table file is edited.
dir=$scratch/escape; mkdir -p "$dir"
cp "$here/shapes.c" "$dir/plain.c"
if (cd "$dir" && "$build/bin/sampler-gcc" -O2 -fplugin-arg-sampler-schemes=paths \
        -fplugin-arg-sampler-site-table=sites plain.c -o shapes) 2>"$dir/build"; then
    SAMPLER_SPARSITY=1 SAMPLER_FILE="$dir/r" "$dir/shapes" 2 >/dev/null
    sed 's/\tplain\.c\t/\ta<b\&"c.c\t/' "$dir/sites" >"$dir/sites2"
    cp "$here/shapes.c" "$dir/a<b&\"c.c"
    (cd "$dir" && "$report" paths r --sites sites2 --format=html --top=3) >"$dir/page.html" \
        2>"$dir/err"
    if grep -q 'a&lt;b&amp;&quot;c.c' "$dir/page.html" && ! grep -q 'a<b&"c.c' "$dir/page.html" &&
       python3 "$tools/html-tables.py" "$dir/page.html" >"$dir/page.json" 2>>"$dir/err" &&
       python3 -c '
import json, sys
page = json.load(open(sys.argv[1]))
assert all(h.split(" \u2014 ")[1].startswith("a<b&\"c.c:") for h in page["h2"]), page["h2"]
assert len(page["h2"]) >= 5 and not page["notes"], page
source = [r[-1] for t in page["tables"][1::2] for r in t["rows"]]
assert any("for (int k = 0; k < 10; k++)" in s for s in source), source' "$dir/page.json" \
        2>>"$dir/err"; then
        pass "html-escape: a<b&\"c.c and its source escaped"
    else
        fail "html-escape" "$dir/err"
    fi
else
    fail "html-escape build" "$dir/build"
fi

finish
