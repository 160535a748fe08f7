#!/bin/bash
# --format=html of the -O2 run: a well-formed, self-contained page
# (testsuite/tools/html-tables.py) whose paths are the csv rows; each path's
# column of the source marks T or F on the line of each branch its
# spelling names, X on its exit line (html-marks.py); the source not
# found: a note saying so, status 0.
# CHECKS: bash $SRC
. "$TESTSUITE/schemes/paths/lib.sh"
shapes -O2
# The HTML page: its paths are the csv rows, its source marked along them.
dir=$scratch/shapes-O2
"$report" paths "$dir/small.report" --binary "$dir/shapes" --top=1000000 --format=html \
    --source-dir "$here" >"$dir/page.html" 2>"$dir/html.err"
if python3 "$TOOLS/html-tables.py" "$dir/page.html" >"$dir/page.json" 2>>"$dir/html.err" &&
   python3 "$here/html-marks.py" "$dir/page.json" "$dir/small.rows" >>"$dir/html.err" 2>&1
then
    pass "html: well-formed, the csv's paths, branches and exits marked on the source"
else
    fail "html" "$dir/html.err"
fi
(cd "$scratch" && "$report" paths "$dir/small.report" --binary "$dir/shapes" --format=html) \
    >"$dir/nosource.html" 2>"$dir/nosource.err"
status=$?
if [ $status = 0 ] && python3 "$TOOLS/html-tables.py" "$dir/nosource.html" >"$dir/nosource.json" &&
   grep -q '"Source file shapes.c not found (give --source-dir DIR)' "$dir/nosource.json"; then
    pass "html-no-source: a note, status 0"
else
    fail_with "html-no-source" "status $status" "$(cat "$dir/nosource.err")"
fi
finish
