#!/bin/bash
# --format=jsonl and --format=html agree with csv on loop.c's exact run
# (scale 1, bounds the count); with the source not found, the page has a
# note per block, and status 0.
# CHECKS: bash $SRC
. "$SRCDIR/lib.sh"
build_loop
exact_loop -O2
formats loop "$scratch/loop-O2" "$scratch/exact-O2.report"
(cd "$scratch" && "$report" subpaths "$scratch/exact-O2.report" --binary "$scratch/loop-O2" \
    --format=html --top 1) >"$scratch/nosource.html" 2>"$scratch/nosource.err"
status=$?
if [ $status = 0 ] &&
   python3 "$TOOLS/html-tables.py" "$scratch/nosource.html" >"$scratch/nosource.json" &&
   grep -q 'main:[0-9]* (loop.c not found)' "$scratch/nosource.json"; then
    pass "html-no-source: each block says its file was not found, status 0"
else
    fail_with "html-no-source" "status $status" "$(cat "$scratch/nosource.err")"
fi
finish
