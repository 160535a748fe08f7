#!/bin/bash
# Malformed subpath records, each an edit of loop.c's exact report, are
# refused with a message.
# CHECKS: bash $SRC
. "$SRCDIR/lib.sh"
build_loop
exact_loop -O2
# Bad reports: each edit of a good report is refused with its message.
good=$scratch/exact-O2.report
bad_report() {   # NAME EXPECTED-MESSAGE SED-SCRIPT
    sed "$3" "$good" >"$scratch/bad.report"
    if "$report" subpaths "$scratch/bad.report" --binary "$scratch/loop-O2" \
            >/dev/null 2>"$scratch/err"; then
        fail_with "bad-report($1)" "accepted"
    elif grep -q "$2" "$scratch/err"; then
        pass "bad-report($1)"
    else
        fail "bad-report($1)" "$scratch/err"
    fi
}
if [ -f "$good" ]; then
    bad_report "count 0" "a subpath with count 0" '0,/^subpath	[0-9]*/s//subpath	0/'
    bad_report "3 blocks" "a subpath of 3 blocks" '0,/^subpath	\([^	]*\)	\([^	]*\)/s//subpath	\1	\2	\2/'
    bad_report "no such unit" "names no site" '0,/^subpath	\([0-9]*\)	[0-9]*:/s//subpath	\1	7:/'
    bad_report "no colon" "is not UNIT:SITE" '0,/^subpath	\([0-9]*\)	\([0-9]*\):/s//subpath	\1	\2-/'
    bad_report "before its list" "before any 'subpaths' record" '/^subpaths	/d'
    bad_report "lengths" "must be 'osp' or 'all'" 's/^subpaths	\([0-9]*\)	all/subpaths	\1	most/'
    bad_report "longest" "not a power of two" 's/^subpaths	2	/subpaths	3	/'
    bad_report "fields" "'subpaths' record has 6 fields" 's/^\(subpaths	.*\)	[0-9]*$/\1/'
    bad_report "unit after" "after the subpath lists" '/^end$/i unit\t0123456789abcdef0123456789abcdef\t1\t1\tx.c'
else
    fail "bad-report" "$scratch/err"
fi
finish
