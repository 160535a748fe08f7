#!/bin/bash
# shapes.c (nested ifs in a loop, a switch, early returns, break and
# continue, a goto loop, && and || chains; its comments derive the counts)
# built with the paths and branches schemes at -O0 and -O2:
#   same-output(OPT)  the program's output and status are a plain build's
#   exact(OPT)        at SAMPLER_SPARSITY=1 with 2 rounds, the rows equal
#                     shapes-OPT.expected
#   jsonl(OPT)        --format=jsonl gives the same rows
#   merge(OPT)        two runs add up path by path (reports and an aggregate)
#   binom(OPT)        at sparsity 100 with ROUNDS rounds and a fixed seed,
#                     each path's count, and each function's sampled
#                     traversals, within the two-sided bounds of
#                     Binomial(exact count, 1/100) (confidence 0.999,
#                     Bonferroni over the counts)
# CHECKS: bash $SRC -O0
# CHECKS: bash $SRC -O2
. "$TESTSUITE/schemes/paths/lib.sh"
plain_run
opt=$1
dir=$scratch/shapes$opt; mkdir -p "$dir"
prog=$dir/shapes
if ! compile "$prog" "$opt" -fplugin-arg-sampler-schemes=paths,branches; then
    fail_with "build($opt)" "$(cat "$prog.build")"; finish
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
    python3 "$here/jsonl-rows.py" | sort >"$dir/jsonl.rows"
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
python3 "$here/path-pairs.py" "$dir/full.rows" "$dir/sparse.rows" "$dir/full.totals" "$dir/sparse.totals" \
    >"$dir/pairs"
binom_check "$opt" "$dir/pairs" 10
finish
