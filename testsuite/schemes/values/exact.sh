#!/bin/bash
# exact.c at sparsity 1, -O0 and -O2: every value's visits as
# exact.expected (derived by hand in exact.c); export's hot_values.csv has
# a row per value of the run, hot_lists.csv each list's samples and tau;
# values --format=html: a table per site, a row per value; the text
# listing's order (by the top value's share's lower bound) and folding
# (below --fold-below, one count line).
# CHECKS: bash $SRC
. "$TESTSUITE/schemes/values/lib.sh"
exact_values exact

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
   python3 "$here/check-order.py" "$scratch/order.csv" "$scratch/order.txt" \
       "$scratch/order-all.txt" >>"$scratch/err" 2>&1; then
    pass "order: by the top share's lower bound; text folds those below --fold-below"
else
    fail "order and folding" "$scratch/err"
fi

finish
