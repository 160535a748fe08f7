#!/bin/bash
# run-values-tests.sh: the values and sizes schemes' hot-lists, end to end
# (plugin, runtime, sampler-report values and export).
#
# Usage: testsuite/values/run-values-tests.sh BUILD_DIR
#
# Each program NAME.c here is built with NAME.args:
#   hotlist-arg       -fplugin-arg-sampler-hotlist= refuses 0, 1025 and text
#   exact(OPT)        exact.c at sparsity 1, -O0 and -O2: every value's
#                     visits as exact.expected (derived by hand in exact.c)
#   sizes(OPT)        the same for sizes.c (the sizes scheme: memcpy,
#                     memset, malloc, calloc, strncmp, __builtin_memmove;
#                     constant sizes are no sites)
#   export            export's hot_values.csv has a row per value of exact's run
#   html              values --format=html: a table per site, a row per value
#   zipf-exact        zipf.c at sparsity 1 with hotlist=256 (more than its
#                     200 values): each value's visits equal the truth the
#                     program prints
#   zipf-coverage     at sparsity 100 over 20 seeds, the true visits and
#                     share of the 3 commonest values lie in their 95%
#                     intervals in at least 51 of 60 cases each (binomial
#                     lower tail of 0.95 at 60: below 1%)
#   merge             two halves of the stream, two runs at sparsity 100,
#                     combined by `values`: coverage of the whole stream's
#                     truth as above; and the commonest value's estimate
#                     agrees with one run over the whole stream (the two
#                     intervals overlap, which independent estimates fail
#                     to do about 1% of the time) in at least 18 of 20
#                     seeds
#   indirect(PIE)     indirect.c (indirect-calls) at sparsity 1, PIE and
#                     not, -O0 and -O2, calling its own functions, one of
#                     a library it dlopens (indirect-lib.c, not
#                     instrumented) and libc's: each target's calls by name
#                     as indirect.expected (strcmp: the name of the
#                     implementation libc chose, __strcmp_avx2 and the
#                     like, reads as strcmp); the names survive merge into
#                     an aggregate and show in export's hot_values.csv; a
#                     report without indirect-call samples has no loaded
#                     objects; addresses moved in the report read as
#                     twice+0x1, 0x1 (no object) and linux-vdso.so.1+0x10
#   order             values' sites by their top share's lower bound; text
#                     folds those below --fold-below into a count line
#   pointers          pointers.c run 4 times with address-space
#                     randomisation: its pointer sites' raw addresses differ
#                     in every run, and combined, each site is one value:
#                     program+offset of a static object, "heap, 16-aligned",
#                     "stack, N-aligned", null
#   hotlist=1024      a unit with more than 16 MiB of counters builds and
#                     counts every site
#   threads           four threads at sparsity 1: no update lost
#   crash             the same, then abort: the report at the signal has it
#   fork              the child's report starts from zero, the parent's
#                     holds its own values only
# The last line is "N passed, N failed"; exit status 1 if anything failed.
set -u
build=$(cd "$1" && pwd) || { echo "usage: $0 BUILD_DIR" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../tools/tally.sh"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/sampler-values.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
report=$build/bin/sampler-report

build_program() {   # NAME OPT [OUTPUT [EXTRA ARGS...]]: into $scratch/NAMEOPT or OUTPUT
    local name=$1 opt=$2 output=${3:-$scratch/$1$2}
    shift 2
    [ $# -gt 0 ] && shift
    (cd "$here" && "$build/bin/sampler-gcc" $opt -fchecking $(cat "$name.args") "$@" \
        "$name.c" -o "$output") 2>"$scratch/build.err"
}

# "LINE:COLUMN OBSERVED VALUE VISITS FLAG" for every value of every site.
value_rows() {   # BINARY REPORT...
    local binary=$1
    shift
    "$report" values "$@" --binary "$binary" --top=1024 --format=csv |
    python3 -c '
import csv, sys
for r in csv.DictReader(sys.stdin):
    print(r["line"] + ":" + r["column"], r["observed"], r["value"], r["visits"],
          r["flag"] or "-", sep="\t")' | sort
}

for value in 0 1025 many; do
    if (cd "$here" && "$build/bin/sampler-gcc" -fplugin-arg-sampler-schemes=values \
            -fplugin-arg-sampler-hotlist=$value -c exact.c -o "$scratch/x.o") \
            2>"$scratch/err"; then
        fail_with "hotlist-arg($value)" "accepted"
    elif grep -q "hotlist.*whole number from 1 to 1024" "$scratch/err"; then
        pass "hotlist-arg($value)"
    else
        fail "hotlist-arg($value)" "$scratch/err"
    fi
done

for name in exact sizes; do
for opt in -O0 -O2; do
    if ! build_program $name $opt; then
        fail "build($name $opt)" "$scratch/build.err"
        continue
    fi
    if SAMPLER_SPARSITY=1 SAMPLER_FILE=$scratch/$name$opt.report "$scratch/$name$opt" 2 &&
       value_rows "$scratch/$name$opt" "$scratch/$name$opt.report" >"$scratch/$name$opt.rows" &&
       diff -u "$here/$name.expected" "$scratch/$name$opt.rows" >"$scratch/diff"; then
        pass "$name($opt): $(wc -l <"$scratch/$name$opt.rows") values as $name.expected"
    else
        fail "$name($opt)" "$scratch/diff"
    fi
done
done

if [ -f "$scratch/exact-O2.report" ] &&
   "$report" export "$scratch/exact-O2.report" --binary "$scratch/exact-O2" \
       --output "$scratch/export" 2>"$scratch/err" &&
   [ "$(head -n 1 "$scratch/export/hot_values.csv")" = release,run,site,hot_value,target,count ] &&
   [ "$(tail -n +2 "$scratch/export/hot_values.csv" | wc -l)" = "$(wc -l <"$here/exact.expected")" ] &&
   grep -qx '1,1,1,-1,"",8' "$scratch/export/hot_values.csv" &&
   grep -qx '1,1,3,0,"other, 16-aligned",6' "$scratch/export/hot_values.csv" &&
   grep -qx '1,1,3,0,null,6' "$scratch/export/hot_values.csv" &&
   grep -qx '1,1,1,12,0' "$scratch/export/hot_lists.csv" &&
   grep -qx '1,1,3,12,0' "$scratch/export/hot_lists.csv"; then
    pass "export: hot_values.csv and hot_lists.csv"
else
    fail "export: hot_values.csv and hot_lists.csv" "$scratch/err"
fi

# The page: one table per site (7 in exact.c), a row per value and the
# header, nothing unescaped from the predicates.
if [ -f "$scratch/exact-O2.report" ] &&
   "$report" values "$scratch/exact-O2.report" --binary "$scratch/exact-O2" --top=1024 \
       --fold-below=0 --format=html >"$scratch/values.html" 2>"$scratch/err" &&
   [ "$(grep -c '^<table>' "$scratch/values.html")" = 7 ] &&
   [ "$(grep -c '^<tr><td' "$scratch/values.html")" = "$(wc -l <"$here/exact.expected")" ] &&
   grep -q 'classify (...) (signed)' "$scratch/values.html" &&
   tail -n 1 "$scratch/values.html" | grep -qx '</body></html>'; then
    pass "html: a table per site, a row per value"
else
    fail "html" "$scratch/err"
fi

# The listing's order and folding (docs/values.md): sites by their top
# value's share's lower bound, highest first; text shows those whose bound
# reaches --fold-below and counts the others in one line.
if [ -f "$scratch/exact-O2.report" ] &&
   "$report" values "$scratch/exact-O2.report" --binary "$scratch/exact-O2" --format=csv \
       >"$scratch/order.csv" 2>"$scratch/err" &&
   "$report" values "$scratch/exact-O2.report" --binary "$scratch/exact-O2" --fold-below=0.3 \
       >"$scratch/order.txt" 2>>"$scratch/err" &&
   "$report" values "$scratch/exact-O2.report" --binary "$scratch/exact-O2" --fold-below=0 \
       --top=1 >"$scratch/order-all.txt" 2>>"$scratch/err" &&
   python3 - "$scratch/order.csv" "$scratch/order.txt" "$scratch/order-all.txt" \
       >>"$scratch/err" 2>&1 <<'EOF'
import csv, re, sys
tops = [float(r["share_low"]) for r in csv.DictReader(open(sys.argv[1])) if r["rank"] == "1"]
shown = [float(m.group(1)) / 100 for l in open(sys.argv[3])
         for m in [re.search(r"share [0-9.]+% \[([0-9.]+)%", l)] if m]
assert len(shown) == len(tops), f"{len(shown)} sites in text, {len(tops)} in csv"
assert shown == sorted(shown, reverse=True), f"top shares' lower bounds out of order: {shown}"
assert sorted(shown) != shown, f"a listing that cannot tell the order: {shown}"
text = open(sys.argv[2]).read().splitlines()
sites = [l for l in text if not l.startswith(" ") and "not shown" not in l]
folded = [int(m.group(1)) for l in text
          for m in [re.match(r"(\d+) sites whose top value's share has its lower bound "
                             r"below 30% not shown; use --fold-below=0$", l)] if m]
assert len(sites) == sum(t >= 0.3 for t in tops), f"{len(sites)} sites shown, tops {tops}"
assert sum(folded) == sum(t < 0.3 for t in tops) > 0, f"folded {folded}, tops {tops}"
EOF
then
    pass "order: by the top share's lower bound; text folds those below --fold-below"
else
    fail "order and folding" "$scratch/err"
fi

# Four runs of pointers.c, address-space randomisation on: raw addresses
# differ in every run, and combined, each pointer site is one value that
# holds in every run (the static table as program+offset, the heap block
# and the local array as their class and alignment, null).
if build_program pointers -O2; then
    binary=$scratch/pointers-O2
    for run in 1 2 3 4; do
        SAMPLER_SPARSITY=1 SAMPLER_FILE=$binary.$run.report "$binary" || break
    done
    table=$(nm "$binary" | awk '$3 == "table" { print $1 }')
    printf '%s\t%s\t4000\tinvariant\n' \
        'into_table (pointer)' "pointers-O2+0x$(printf %x $((0x${table:-0} + 40)))" \
        'block (pointer)' 'heap, 16-aligned' \
        'local (pointer)' 'stack, N-aligned' \
        'nothing (pointer)' 'null' >"$scratch/pointers.expected"
    raw=$("$report" values "$binary".?.report --binary "$binary" --raw-pointers --top=1024 \
              --format=csv 2>"$scratch/err" | grep -c ',into_table (pointer),')
    if [ "$raw" != 4 ]; then
        fail_with "pointers: raw addresses of table in 4 runs" \
            "$raw distinct (address-space randomisation off?)" "$(cat "$scratch/err")"
    elif value_rows "$binary" "$binary".?.report 2>"$scratch/err" | cut -f2- |
             sed -E 's/stack, [0-9]+-aligned/stack, N-aligned/' >"$scratch/pointers.rows" &&
         diff -u "$scratch/pointers.expected" "$scratch/pointers.rows" >"$scratch/diff"; then
        pass "pointers: 4 runs under ASLR, each pointer site one value across runs"
    else
        cat "$scratch/err" >>"$scratch/diff"
        fail "pointers: one value across runs" "$scratch/diff"
    fi
else
    fail "build(pointers)" "$scratch/build.err"
fi

# Checks estimates against the truth a run printed.
#   coverage TRUTH TOP MIN CSV...: for each CSV (values --format=csv of
#   one trial), the TOP commonest true values' visits and shares against
#   their intervals (a value missing from the list has count 0: visits in
#   [0, 3.84 tau], share in [0, 3.84 / (n + 3.84)], the score intervals
#   at 0); fails unless each interval held the truth MIN times or more.
coverage_check() {
    python3 - "$@" <<'EOF'
import csv, sys
truth_path, top, minimum = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
truth = {}
for line in open(truth_path):
    value, count = line.split()
    truth[value] = int(count)
total = sum(truth.values())
commonest = sorted(truth, key=lambda v: -truth[v])[:top]
visits_in = share_in = cases = 0
for path in sys.argv[4:]:
    rows = [r for r in csv.DictReader(open(path)) if r["observed"] == "v (signed)"]
    if not rows:
        sys.exit(f"{path}: no row for v")
    tau, sample = float(rows[0]["tau"]), float(rows[0]["sample"])
    by_value = {r["value"]: r for r in rows}
    for v in commonest:
        r = by_value.get(v)
        if r:
            vl, vh = float(r["visits_low"]), float(r["visits_high"])
            sl, sh = float(r["share_low"]), float(r["share_high"])
        else:
            vl, vh, sl, sh = 0, 3.8415 * tau, 0, 3.8415 / (sample + 3.8415)
        visits_in += vl <= truth[v] <= vh
        share_in += sl <= truth[v] / total <= sh
        cases += 1
print(f"visits intervals held the truth {visits_in}/{cases}, shares {share_in}/{cases}")
sys.exit(0 if visits_in >= minimum and share_in >= minimum else 1)
EOF
}

if build_program zipf -O2; then
    zipf=$scratch/zipf-O2
    "$zipf" 0 200000 >"$scratch/truth" || fail "zipf truth"
    if build_program zipf -O2 "$scratch/zipf-big" -fplugin-arg-sampler-hotlist=256 &&
       SAMPLER_SPARSITY=1 SAMPLER_FILE=$scratch/zipf-big.report "$scratch/zipf-big" 0 200000 \
           >/dev/null &&
       value_rows "$scratch/zipf-big" "$scratch/zipf-big.report" |
           awk -F'\t' '$2 == "v (signed)" { print $3, $4 }' | sort >"$scratch/big.rows" &&
       sort "$scratch/truth" | diff -u - "$scratch/big.rows" >"$scratch/diff"; then
        pass "zipf-exact: $(wc -l <"$scratch/big.rows") values, each as often as assigned"
    else
        fail "zipf-exact" "$scratch/diff"
    fi

    trials=()
    for seed in $(seq 1 20); do
        SAMPLER_SPARSITY=100 SAMPLER_SEED=$seed SAMPLER_FILE=$scratch/z$seed.report \
            "$zipf" 0 200000 >/dev/null &&
        "$report" values "$scratch/z$seed.report" --binary "$zipf" --top=1024 --format=csv \
            >"$scratch/z$seed.csv" && trials+=("$scratch/z$seed.csv")
    done
    check "zipf-coverage (20 seeds)" coverage_check "$scratch/truth" 3 51 "${trials[@]}"

    merged=()
    agree=0
    for seed in $(seq 1 20); do
        SAMPLER_SPARSITY=100 SAMPLER_SEED=$((seed + 100)) SAMPLER_FILE=$scratch/a$seed.report \
            "$zipf" 0 100000 >/dev/null &&
        SAMPLER_SPARSITY=100 SAMPLER_SEED=$((seed + 200)) SAMPLER_FILE=$scratch/b$seed.report \
            "$zipf" 100000 200000 >/dev/null &&
        "$report" values "$scratch/a$seed.report" "$scratch/b$seed.report" --binary "$zipf" \
            --top=1024 --format=csv >"$scratch/m$seed.csv" && merged+=("$scratch/m$seed.csv")
        python3 - "$scratch/m$seed.csv" "$scratch/z$seed.csv" <<'EOF' && agree=$((agree + 1))
import csv, sys
# 1001's visits interval; missing from the list: count 0, [0, 3.84 tau].
def interval(path):
    tau = None
    for r in csv.DictReader(open(path)):
        if r["observed"] == "v (signed)":
            tau = float(r["tau"])
            if r["value"] == "1001":
                return float(r["visits_low"]), float(r["visits_high"])
    return (0, 3.8415 * tau) if tau else None
a, b = interval(sys.argv[1]), interval(sys.argv[2])
sys.exit(0 if a and b and a[0] <= b[1] and b[0] <= a[1] else 1)
EOF
    done
    check "merge: coverage of two halves combined (20 seeds)" \
        coverage_check "$scratch/truth" 3 51 "${merged[@]}"
    if [ "$agree" -ge 18 ]; then
        pass "merge: agrees with one run over the whole stream in $agree of 20"
    else
        fail_with "merge: agrees with one run over the whole stream in $agree of 20"
    fi
else
    fail "build(zipf)" "$scratch/build.err"
fi

# "LINE:COLUMN OBSERVED TARGET VISITS FLAG", strcmp's implementations as
# strcmp.
target_rows() {   # BINARY REPORT...
    value_rows "$@" | sed -E 's/\t__strcmp_[a-z0-9_]+\t/\tstrcmp\t/'
}

if (cd "$here" && gcc -shared -fPIC -O2 indirect-lib.c -o "$scratch/indirect-lib.so") \
       2>"$scratch/build.err"; then
    for pie in pie no-pie; do
    for opt in -O0 -O2; do
        name="indirect($pie $opt)"
        flag=$([ $pie = pie ] && echo -fPIE || echo -fno-PIE)
        binary=$scratch/indirect-$pie$opt
        if ! build_program indirect $opt "$binary" $flag -$pie -ldl; then
            fail "build($name)" "$scratch/build.err"
            continue
        fi
        if SAMPLER_SPARSITY=1 SAMPLER_FILE=$binary.report "$binary" "$scratch/indirect-lib.so" \
               >/dev/null 2>"$scratch/err" &&
           target_rows "$binary" "$binary.report" >"$binary.rows" 2>>"$scratch/err" &&
           diff -u "$here/indirect.expected" "$binary.rows" >"$scratch/diff"; then
            pass "$name: 5 targets named, as indirect.expected"
        else
            cat "$scratch/err" >>"$scratch/diff"
            fail "$name" "$scratch/diff"
        fi
    done
    done
    binary=$scratch/indirect-pie-O2
    # The table site's first three targets (entries with a count, in the
    # list's order) moved: one byte into twice, an address no object holds,
    # and one in an object without a readable file (the vDSO).
    if [ -f "$binary.report" ] &&
       python3 - "$binary.report" "$(nm "$binary" | awk '$3 == "twice" { print $1 }')" \
           >"$scratch/moved.report" <<'EOF'
import sys
lines = open(sys.argv[1]).read().split("\n")
loaded = [l.split("\t") for l in lines if l.startswith("loaded\t")]
program = int(loaded[0][1])
vdso = next(int(l[1]) for l in loaded if l[4] == "linux-vdso.so.1")
moved = [program + int(sys.argv[2], 16) + 1, 1, vdso + 16]
site = next(i for i, l in enumerate(lines) if l.startswith("0\t"))
fields = lines[site].split("\t")
counted = [i for i in range((len(fields) - 4) // 2) if fields[5 + 2 * i] != "0"]
for i, address in zip(counted, moved):
    fields[4 + 2 * i] = str(address)
lines[site] = "\t".join(fields)
print("\n".join(lines), end="")
EOF
       value_rows "$binary" "$scratch/moved.report" >"$scratch/moved.rows" 2>"$scratch/err" &&
       grep -q "	twice+0x1	" "$scratch/moved.rows" &&
       grep -q "	0x1	" "$scratch/moved.rows" &&
       grep -q "	linux-vdso.so.1+0x10	" "$scratch/moved.rows"; then
        pass "indirect: name+0xN inside a function, 0xN outside every object, object+0xN"
    else
        cat "$scratch/moved.rows" >>"$scratch/err" 2>/dev/null
        fail "indirect: names of other addresses" "$scratch/err"
    fi
    if [ -f "$binary.report" ] &&
       "$report" merge "$binary.report" --binary "$binary" --output "$scratch/indirect.agg" \
           2>"$scratch/err" &&
       target_rows "$binary" "$scratch/indirect.agg" >"$scratch/agg.rows" 2>>"$scratch/err" &&
       diff -u "$here/indirect.expected" "$scratch/agg.rows" >"$scratch/diff"; then
        pass "indirect: names survive merge into an aggregate"
    else
        cat "$scratch/err" >>"$scratch/diff"
        fail "indirect: merge" "$scratch/diff"
    fi
    if [ -f "$binary.report" ] &&
       "$report" export "$binary.report" --binary "$binary" --output "$scratch/iexport" \
           2>"$scratch/err" &&
       grep -q ',[0-9]*,twice,3$' "$scratch/iexport/hot_values.csv" &&
       grep -q ',[0-9]*,triple,2$' "$scratch/iexport/hot_values.csv" &&
       [ "$(grep -c '^loaded' "$binary.report")" -ge 3 ] &&
       [ -f "$scratch/sizes-O2.report" ] && ! grep -q '^loaded' "$scratch/sizes-O2.report"; then
        pass "indirect: export names targets; loaded objects only where targets were seen"
    else
        fail "indirect: export" "$scratch/err"
    fi
else
    fail "build(indirect-lib)" "$scratch/build.err"
fi

# More than 16 MiB of counters in one unit (1100 sites of 2051 counters at
# K = 1024): the sites past 16 MiB reach them through a register, as GCC
# takes a symbol plus an offset as a constant only below that.
python3 - >"$scratch/big.c" <<'EOF'
print("volatile int sink;\nint main (int argc, char **argv)\n{\n  int v = argc;")
for i in range(1100):
    print("  v = v * 3 + %d; sink = v;" % i)
print("  return v == 12345;\n}")
EOF
if "$build/bin/sampler-gcc" -O2 -fplugin-arg-sampler-schemes=values \
       -fplugin-arg-sampler-hotlist=1024 "$scratch/big.c" -o "$scratch/big" \
       2>"$scratch/build.err" &&
   SAMPLER_SPARSITY=1 SAMPLER_FILE=$scratch/big.report "$scratch/big" &&
   [ "$("$report" values "$scratch/big.report" --binary "$scratch/big" --format=csv |
        grep -c ',invariant,1,')" = 1101 ]; then
    pass "hotlist=1024 with 16 MiB of counters in a unit: 1101 sites, each its one value"
else
    fail "hotlist=1024 with 16 MiB of counters" "$scratch/build.err"
fi

if build_program threads -O2; then
    printf '%s\n' 0 1 2 3 4 5 6 7 | awk '{ print "14:9\tv (signed)\t" $1 "\t5000\t-" }' \
        >"$scratch/threads.expected"
    for mode in threads crash; do
        # In a subshell of its own, whose "Aborted" goes to /dev/null.
        status=$( (SAMPLER_SPARSITY=1 SAMPLER_FILE=$scratch/$mode.report \
                   "$scratch/threads-O2" $mode; echo $?) 2>/dev/null)
        if { [ $mode = threads ] && [ $status = 0 ]; } ||
           { [ $mode = crash ] && [ $status -gt 128 ] &&
             grep -qx "exit.signal.6" "$scratch/$mode.report"; }; then
            value_rows "$scratch/threads-O2" "$scratch/$mode.report" >"$scratch/$mode.rows"
            if diff -u "$scratch/threads.expected" "$scratch/$mode.rows" >"$scratch/diff"; then
                pass "$mode: 4 x 10000 visits, 8 values of 5000 each"
            else
                fail "$mode" "$scratch/diff"
            fi
        else
            fail_with "$mode: exit status $status"
        fi
    done
else
    fail "build(threads)" "$scratch/build.err"
fi

if build_program fork -O2; then
    mkdir -p "$scratch/fork"
    if SAMPLER_SPARSITY=1 SAMPLER_FILE=$scratch/fork/%p.report "$scratch/fork-O2"; then
        child=$(grep -l '^parent' "$scratch"/fork/*.report)
        parent=$(grep -L '^parent' "$scratch"/fork/*.report)
        if [ -n "$child" ] && [ -n "$parent" ] &&
           [ "$(value_rows "$scratch/fork-O2" "$child" | cut -f3,4 | tr '\t\n' ' ')" = "7 4 " ] &&
           [ "$(value_rows "$scratch/fork-O2" "$parent" | cut -f3,4 | sort -n | tr '\t\n' ' ')" \
             = "5 3 9 2 " ]; then
            pass "fork: the child's values from zero, the parent's its own"
        else
            fail_with "fork" "child: $(value_rows "$scratch/fork-O2" "$child" 2>&1)" \
                "parent: $(value_rows "$scratch/fork-O2" "$parent" 2>&1)"
        fi
    else
        fail_with "fork: run failed"
    fi
else
    fail "build(fork)" "$scratch/build.err"
fi

finish
