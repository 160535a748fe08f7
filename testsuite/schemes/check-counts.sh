#!/bin/bash
# check-counts.sh [PLUGIN-ARGS...]: the predicate schemes count what the
# program did.  The case $SRC (a program of predicates/, branches/ or
# scalar-pairs/ whose CHECKS directive runs this) is built with
# PLUGIN-ARGS (default: every predicate scheme) at -O0, -O2 and -O2 -g, at
# -O2 with pairs-sites=pair (PAIR below) when it has scalar-pairs, and at
# -O2 with outline-entry, and run (its argument: how many rounds of its
# work); its counters are read back with sampler-report (csv) as rows
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
set -u
. "$TOOLS/tally.sh"
here=$SRCDIR
name=$NAME
scratch=$T
statcheck=$STAT_CHECK
ALL=checks,branches,returns,scalar-pairs,float-kinds,function-entries,bounds
ROUNDS=${ROUNDS:-2000}
SEED=${SEED:-4242}

# The report's rows, sorted, one per counter.
rows() {   # REPORT BINARY
    "$REPORT" show "$1" --binary "$2" --all --format=csv |
    python3 "$TOOLS/csv-fields.py" line:column function scheme predicate counter count | sort
}

PAIR="-O2 -fplugin-arg-sampler-pairs-sites=pair"
# outline-entry: the entry regions sampled in clones of their functions.
OUTLINE="-O2 -fplugin-arg-sampler-outline-entry"
for opt in -O0 -O2 "-O2 -g" "$PAIR" "$OUTLINE"; do
    args=${*:--fplugin-arg-sampler-schemes=$ALL}
    [ "$opt" = "$PAIR" ] && [[ "$args" != *scalar-pairs* ]] && continue
    dir=$scratch/$name$(printf '%s' "$opt" | tr -d ' '); mkdir -p "$dir"
    prog=$dir/$name
    if ! (cd "$here" && "$WRAPPER" $opt -fchecking \
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
    python3 "$TESTSUITE/schemes/pair-samples.py" "$dir/pairs" "$dir/visits" "$dir/apart" "$dir/sampled"
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
finish
