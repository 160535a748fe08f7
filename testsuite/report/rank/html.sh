#!/bin/sh
# rank --format=html of the hand-made runs, run from their folder: one
# self-contained, well-formed page with bars and the source line of the
# first branch (check-html.py).
# CHECKS: sh $SRC
. "$SRCDIR/fixtures.sh"
(cd "$scratch/hand" && "$tool" rank runs --sites sites.txt --format=html >"$scratch/page.html" 2>&1)
check "html: one self-contained, well-formed page with bars and the source line" \
    python3 "$SRCDIR/check-html.py" "$scratch/page.html"
finish
