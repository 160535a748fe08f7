#!/bin/sh
# Progress on standard error only when it is a terminal (script(1) gives
# one): reading 400 synthetic runs five times over is slow enough to draw.
# CHECKS: sh $SRC
. "$SRCDIR/fixtures.sh"
make_synthetic
"$tool" rank "$scratch/syn.agg" >/dev/null 2>"$scratch/err"
check "no progress when stderr is not a terminal" test ! -s "$scratch/err"
if command -v script >/dev/null && script -qec true /dev/null >/dev/null 2>&1; then
    # Slow enough to draw: the synthetic runs read several times over.
    SHELL=/bin/sh script -qec "'$tool' rank '$scratch/syn.agg' '$scratch/syn.agg' '$scratch/syn.agg' '$scratch/syn.agg' '$scratch/syn.agg' >/dev/null" \
        "$scratch/typescript" >/dev/null 2>&1
    check "progress on a terminal" grep -q 'reading runs: [0-9]*/5' "$scratch/typescript"
fi

finish
