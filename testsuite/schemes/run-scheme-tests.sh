#!/bin/bash
# run-scheme-tests.sh: the predicate schemes count what the program did.
#
# Usage: testsuite/schemes/run-scheme-tests.sh BUILD_DIR
#
# Each program NAME.c here (counts.c: branches, switches, loops, returns,
# pairs, float kinds, bounds; kinds.c: pointers, enums, unsigned types,
# bit-fields, globals; constants.c: pairs with constants; loops.c: counted
# loops, which the plugin versions at -O2) is built with
# every scheme at -O0, -O2 and -O2 -g, and those with scalar-pairs also
# at -O2 with pairs-sites=pair (PAIR below), and run
# (its argument: how many rounds of its work; NAME.args, when present,
# gives the plugin arguments instead: constants.c tests pairs-constants,
# within scope rules, loops.c branches only); its counters
# are read back with sampler-report (csv) as rows
#     LINE:COLUMN  FUNCTION  SCHEME  PREDICATE  COUNTER  VALUE
#   exact(OPT)       at SAMPLER_SPARSITY=1 with 2 rounds, every row equals
#                    NAME.expected (every counter of every site, zeros
#                    included; the counts are derived by hand in NAME.c's
#                    comments); and with ROUNDS rounds the rows of the
#                    two levels agree
#   binom(OPT)       at SAMPLER_SPARSITY=100 with ROUNDS rounds and a fixed
#                    seed, each count counter is within the two-sided
#                    bounds of Binomial(exact count, 1/100) (confidence
#                    0.999, Bonferroni over the counters), and so are each
#                    scalar-pairs assignment's sampled visits (the samples
#                    of its first pair) and the total of all sampled visits
#                    (each assignment's visits once)
#   together(OPT)    by default an assignment is one visit that observes all
#                    its pairs: at sparsity 100, every pair of an assignment
#                    has the same samples
#   apart(PAIR)      with pairs-sites=pair each pair is sampled alone: some
#                    assignment's pairs have different samples
#   bounds(OPT)      at sparsity 100 each bounds site's min and max lie
#                    within the exact run's (samples are a subset of visits)
#   same-samples     -O2 -g samples the same visits as -O2 with the same seed
#   with-values(MODE) counts.c at -O2 with every scheme above and the values
#                    and sizes schemes, pairs-sites=assignment and =pair, at
#                    sparsity 1 and a fixed seed: the predicate counters
#                    are counts.expected, and every site's hot-list (each
#                    value and its visits) is that of a build with values
#                    and sizes alone
# The last line is "N passed, N failed"; exit status 1 if anything failed.
set -u
build=$(cd "$1" && pwd) || { echo "usage: $0 BUILD_DIR" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../tools/tally.sh"
tools=$(cd "$here/../tools" && pwd)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/sampler-schemes.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
ALL=checks,branches,returns,scalar-pairs,float-kinds,function-entries,bounds
ROUNDS=${ROUNDS:-2000}
SEED=${SEED:-4242}

# The report's rows, sorted, one per counter.
rows() {   # REPORT BINARY
    "$build/bin/sampler-report" show "$1" --binary "$2" --all --format=csv |
    python3 -c '
import csv, sys
for r in csv.DictReader(sys.stdin):
    print("\t".join([r["line"] + ":" + r["column"], r["function"], r["scheme"],
                     r["predicate"], r["counter"], r["count"]]))' |
    sort
}

statcheck=$scratch/stat-check
if ! gcc -std=c11 -O2 -Wall -Wextra -o "$statcheck" "$tools/stat-check.c" \
        -lgsl -lgslcblas -lm 2>"$scratch/err"; then
    fail_with "stat-check build" "$(cat "$scratch/err")"
fi

for src in "$here"/*.c; do
name=$(basename "$src" .c)
PAIR="-O2 -fplugin-arg-sampler-pairs-sites=pair"
# outline-entry: the entry regions sampled in clones of their functions.
OUTLINE="-O2 -fplugin-arg-sampler-outline-entry"
for opt in -O0 -O2 "-O2 -g" "$PAIR" "$OUTLINE"; do
    args=-fplugin-arg-sampler-schemes=$ALL
    [ -f "$here/$name.args" ] && args=$(cat "$here/$name.args")
    [ "$opt" = "$PAIR" ] && [[ "$args" != *scalar-pairs* ]] && continue
    dir=$scratch/$name$(printf '%s' "$opt" | tr -d ' '); mkdir -p "$dir"
    prog=$dir/$name
    if ! (cd "$here" && "$build/bin/sampler-gcc" $opt -fchecking \
            $args "$name.c" -o "$prog" -lm) \
            2>"$dir/build.err"; then
        fail_with "build($name $opt)" "$(cat "$dir/build.err")"; continue
    fi
    run() {   # SPARSITY ROUNDS NAME
        SAMPLER_SPARSITY=$1 SAMPLER_SEED=$SEED SAMPLER_FILE=$dir/$3.report \
            "$prog" "$2" >"$dir/$3.out" && rows "$dir/$3.report" "$prog" >"$dir/$3.rows"
    }
    if ! run 1 2 small || ! diff -u "$here/$name.expected" "$dir/small.rows" >"$dir/diff"; then
        fail_with "exact($name $opt)" "$(head -40 "$dir/diff" 2>/dev/null)"
    else
        pass "exact($name $opt): $(wc -l <"$dir/small.rows") counters as $name.expected"
    fi
    run 1 "$ROUNDS" full || { fail_with "run($name $opt) at sparsity 1"; continue; }
    if [ "$opt" != -O0 ]; then
        if diff -u "$scratch/$name-O0/full.rows" "$dir/full.rows" >"$dir/diff"; then
            pass "exact($name $opt): $ROUNDS rounds count as at -O0"
        else
            fail_with "exact($name $opt): $ROUNDS rounds differ from -O0" "$(head -20 "$dir/diff")"
        fi
    fi
    run 100 "$ROUNDS" sparse || { fail_with "run($name $opt) at sparsity 100"; continue; }
    cmp -s "$dir/full.out" "$dir/sparse.out" || fail_with "output($name $opt) differs between sparsities"
    if [ "$opt" = "-O2 -g" ]; then
        # Debugging information changes nothing in the code: the same seed
        # samples the same visits.  (Across levels the checks and weights
        # differ, and so do the visits a seed samples, as fairly.)
        if diff -u "$scratch/$name-O2/sparse.rows" "$dir/sparse.rows" >"$dir/diff"; then
            pass "same-samples($name $opt): sparsity 100 samples as at -O2"
        else
            fail_with "same-samples($name $opt): sparsity 100 samples differ from -O2" "$(head -20 "$dir/diff")"
        fi
    fi

    # Pair each sparse counter with the exact one: KEY EXACT SPARSE.
    join -t $'\t' <(awk -F'\t' '{print $1"|"$2"|"$3"|"$4"|"$5"\t"$6}' "$dir/full.rows") \
                  <(awk -F'\t' '{print $1"|"$2"|"$3"|"$4"|"$5"\t"$6}' "$dir/sparse.rows") \
        >"$dir/pairs"
    if [ "$(wc -l <"$dir/pairs")" != "$(wc -l <"$dir/full.rows")" ]; then
        fail_with "binom($name $opt): the sparse report has other sites"; continue
    fi
    # Counters that count (not bounds' min and max), with a non-zero exact count.
    grep -v -e '|min	' -e '|max	' "$dir/pairs" | awk -F'\t' '$2 > 0' >"$dir/counting"
    # Each scalar-pairs assignment's visits, exact and sampled: the counts
    # of its first pair, added (KEY EXACT SPARSE); in apart, the
    # assignments whose pairs have different samples; in sampled, those of
    # more than one pair that were sampled (what together tests).
    python3 - "$dir/pairs" "$dir/visits" "$dir/apart" "$dir/sampled" <<'PY'
import collections, sys
pairs = collections.defaultdict(lambda: collections.defaultdict(lambda: [0, 0]))
for line in open(sys.argv[1]):
    key, exact, sparse = line.rstrip("\n").split("\t")
    place, function, scheme, predicate, counter = key.split("|")
    if scheme != "scalar-pairs":
        continue
    x, y = predicate.split(" ? ")
    totals = pairs["%s|%s|scalar-pairs|%s ?|visits" % (place, function, x)][y]
    totals[0] += int(exact)
    totals[1] += int(sparse)
with open(sys.argv[2], "w") as visits, open(sys.argv[3], "w") as apart, \
        open(sys.argv[4], "w") as sampled:
    for assignment, partners in sorted(pairs.items()):
        if len(partners) > 1 and any(s > 0 for _, s in partners.values()):
            sampled.write(assignment + "\n")
        exact, sparse = partners[min(partners)]
        if exact > 0:
            visits.write("%s\t%d\t%d\n" % (assignment, exact, sparse))
        if len(partners) > 1 and len({s for _, s in partners.values()}) > 1:
            apart.write("%s: %s\n" % (assignment, " ".join(
                "%s %d" % (y, s) for y, (_, s) in sorted(partners.items()))))
PY
    m=$(($(wc -l <"$dir/counting") + $(wc -l <"$dir/visits") + 1))
    conf=$(awk -v m="$m" 'BEGIN { printf "%.10f", 1 - 0.001 / m }')
    bad=()
    while IFS=$'\t' read -r key exact sparse; do
        "$statcheck" binom "$exact" "$sparse" 1/100 "$conf" >/dev/null ||
            bad+=("$key: $sparse of $exact")
    done < <(cat "$dir/counting" "$dir/visits")
    read -r total_exact total_sparse < <(cat <(grep -v '|scalar-pairs|' "$dir/counting") "$dir/visits" |
        awk -F'\t' '{e += $2; s += $3} END {print e + 0, s + 0}')
    "$statcheck" binom "$total_exact" "$total_sparse" 1/100 "$conf" >/dev/null ||
        bad+=("total: $total_sparse of $total_exact")
    if [ ${#bad[@]} -eq 0 ]; then
        pass "binom($name $opt): $((m - 1)) counters and visit counts, and the total ($total_sparse of $total_exact visits) within bounds"
    else
        fail_with "binom($name $opt)" "${bad[@]}"
    fi
    if [ -s "$dir/sampled" ]; then
        if [ "$opt" = "$PAIR" ]; then
            if [ -s "$dir/apart" ]; then
                pass "apart($name $opt): $(wc -l <"$dir/apart") assignments' pairs sampled apart"
            else
                fail_with "apart($name $opt): every assignment's pairs have the same samples"
            fi
        elif [ -s "$dir/apart" ]; then
            fail_with "together($name $opt): pairs of one assignment sampled apart" "$(head -5 "$dir/apart")"
        else
            pass "together($name $opt): the pairs of each of $(wc -l <"$dir/sampled") sampled assignments sampled together"
        fi
    elif [ -s "$dir/visits" ]; then
        fail_with "together($name $opt): no assignment of several pairs was sampled"
    fi
    # Sampled bounds lie inside the exact ones (a site never sampled keeps 0s).
    if awk -F'\t' '
        $1 ~ /\|min$/ && $3 != "" && $3 + 0 < $2 + 0 { print; bad = 1 }
        $1 ~ /\|max$/ && $3 != "" && $3 + 0 > $2 + 0 { print; bad = 1 }
        END { exit bad }' "$dir/pairs" >"$dir/bounds.bad"; then
        pass "bounds($name $opt): sampled min and max within the exact ones"
    else
        fail_with "bounds($name $opt)" "$(cat "$dir/bounds.bad")"
    fi
done
done

# One unit with scalar-pairs and the hot-list schemes: neither's sites,
# counts or samples change the other's.
value_rows() {   # REPORT BINARY
    "$build/bin/sampler-report" values "$1" --binary "$2" --top=1024 --format=csv |
    python3 -c '
import csv, sys
for r in csv.DictReader(sys.stdin):
    print("\t".join([r["line"] + ":" + r["column"], r["function"], r["observed"],
                     r["site_visits"], r["value"], r["visits"]]))' |
    sort
}
dir=$scratch/with-values; mkdir -p "$dir"
if (cd "$here" && "$build/bin/sampler-gcc" -O2 -fchecking \
        -fplugin-arg-sampler-schemes=values,sizes counts.c -o "$dir/alone" -lm) \
        2>"$dir/build.err" &&
   SAMPLER_SPARSITY=1 SAMPLER_SEED=$SEED SAMPLER_FILE=$dir/alone.report \
        "$dir/alone" 2 >/dev/null &&
   value_rows "$dir/alone.report" "$dir/alone" >"$dir/alone.values" &&
   [ -s "$dir/alone.values" ]; then
    for mode in assignment pair; do
        prog=$dir/$mode
        if ! (cd "$here" && "$build/bin/sampler-gcc" -O2 -fchecking \
                -fplugin-arg-sampler-schemes=$ALL,values,sizes \
                -fplugin-arg-sampler-pairs-sites=$mode counts.c -o "$prog" -lm) \
                2>"$dir/build.err"; then
            fail_with "with-values($mode): build" "$(cat "$dir/build.err")"; continue
        fi
        SAMPLER_SPARSITY=1 SAMPLER_SEED=$SEED SAMPLER_FILE=$prog.report "$prog" 2 >/dev/null
        rows "$prog.report" "$prog" | awk -F'\t' '$3 != "values" && $3 != "sizes"' >"$prog.rows"
        value_rows "$prog.report" "$prog" >"$prog.values"
        if ! diff -u "$here/counts.expected" "$prog.rows" >"$dir/diff"; then
            fail_with "with-values($mode): predicate counters differ from counts.expected" "$(head -20 "$dir/diff")"
        elif ! diff -u "$dir/alone.values" "$prog.values" >"$dir/diff"; then
            fail_with "with-values($mode): hot-lists differ from values and sizes alone" "$(head -20 "$dir/diff")"
        else
            pass "with-values($mode): $(wc -l <"$prog.rows") counters as counts.expected, $(wc -l <"$prog.values") hot-list values as without the other schemes"
        fi
    done
else
    fail_with "with-values: counts.c with values and sizes alone" "$(cat "$dir/build.err")"
fi

finish
