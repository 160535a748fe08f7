#!/bin/bash
# Exact mode (sparsity 1, every length, room for every subpath) on loop.c at
# -O0 and -O2: the counts of five subpaths of 2 blocks derived by hand in
# loop.c.
# CHECKS: bash $SRC
. "$SRCDIR/lib.sh"
for opt in -O0 -O2; do
    if ! build_program loop $opt "$scratch/loop$opt" -fplugin-arg-sampler-schemes=subpaths; then
        fail "exact($opt)" "$scratch/build.err"
        continue
    fi
    env $exact_env SAMPLER_SUBPATH_MAX=2 SAMPLER_FILE="$scratch/exact$opt.report" \
        "$scratch/loop$opt" >/dev/null
    subpath_rows "$scratch/loop$opt" 2 "$scratch/exact$opt.report" >"$scratch/exact$opt.rows" \
        2>"$scratch/err"
    missing=
    for expected in "100000	main:23 main:24" "50000	main:24 main:27" \
                    "50000	main:24 main:25" "16667	f:15 f:16" "33333	f:15 f:17"; do
        count=${expected%%	*} blocks=${expected#*	}
        awk -F'\t' -v c="$count" -v b="$blocks" \
            '$1 == c && $2 == c && $3 == c && $4 == b { found = 1 } END { exit !found }' \
            "$scratch/exact$opt.rows" || missing="$missing [$expected]"
    done
    if [ -z "$missing" ]; then
        pass "exact($opt): five subpaths counted exactly"
    else
        fail_with "exact($opt)" "not found:$missing" "$(head -n 12 "$scratch/exact$opt.rows")"
    fi
done
finish
