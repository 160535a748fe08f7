#!/bin/sh
# Malformed site-table files, and tables that conflict with a binary's: each
# is rejected by show with exit status 2, nothing on standard output and
# exactly its message (file and line).  Every run repeated under ASan and
# UBSan.
# CHECKS: sh $SRC
. "$SRCDIR/fixtures.sh"
build_fixtures || fail "build binaries with site-table sections" "$scratch/build.log"

# bad_table NAME MESSAGE: the site-table file in $scratch/input is rejected with
# MESSAGE, where T stands for its path.
bad_table () {
    cp "$scratch/input" "$scratch/bad.sites"
    message=$(printf '%s' "$2" | sed "s|^T:|sampler-report: $scratch/bad.sites:|")
    expect_error "site table: $1" 2 "$message" show "$scratch/run.report" \
        --sites "$scratch/bad.sites"
}
# site_line INDEX: a well-formed branches site.
site_line () { record site "$1" branches a.c 1 1 f 2 'x' false,true; }

{ record unit $MAIN a.c 2 4; site_line 0; record end; } > "$scratch/input"; bad_table "fewer sites than declared" \
    "T:3: unit $MAIN declares 2 sites, found 1"
{ record unit $MAIN a.c 1 2; site_line 0; site_line 1; record end; } \
    > "$scratch/input"; bad_table "more sites than declared" "T:3: site index 1 out of range (unit has 1 sites)"
{ record unit $MAIN a.c 2 5; site_line 0; site_line 1; record end; } \
    > "$scratch/input"; bad_table "counter total differs" "T:4: unit $MAIN declares 5 counters, its sites have 4"
{ record unit $MAIN a.c 2 4; site_line 1; site_line 0; record end; } \
    > "$scratch/input"; bad_table "sites out of order" "T:2: site index 1 out of order (expected 0)"
{ record unit $MAIN a.c 1 2; site_line 0; } > "$scratch/input"; bad_table "missing end" \
    "T:2: unit $MAIN not closed by 'end'"
{ record unit $MAIN a.c 1 2; site_line 0; record unit $UTIL b.c 0 0; record end; } \
    > "$scratch/input"; bad_table "unit inside a unit" "T:3: unit $MAIN not closed by 'end' before the next 'unit'"
{ site_line 0; } > "$scratch/input"; bad_table "site outside a unit" "T:1: 'site' record outside a unit"
{ record unit $MAIN a.c 1 2; record site 0 branches a.c 1 1 f 2 x; record end; } \
    > "$scratch/input"; bad_table "site field count" "T:2: 'site' record has 9 fields, expected 10"
{ record unit $MAIN a.c 1 2; record site 0 branchez a.c 1 1 f 2 x false,true; record end; } \
    > "$scratch/input"; bad_table "unknown scheme" \
      "T:2: unknown scheme 'branchez' (known: $("$TOOLS/scheme-names.sh" ', '))"
{ record unit $MAIN a.c 1 2; record site 0 returns a.c 1 1 f 2 x '<0,>0'; record end; } \
    > "$scratch/input"; bad_table "scheme counter count" "T:2: returns site 0 has 2 counters, expected 3"
{ record unit $MAIN a.c 1 3; record site 0 branches a.c 1 1 f 3 x false,true; record end; } \
    > "$scratch/input"; bad_table "counter names" "T:2: site 0 declares 3 counters but names 2"
{ record unit $MAIN a.c 1 2; record site 0 branches a.c 1 1 f 2 x true,true; record end; } \
    > "$scratch/input"; bad_table "duplicate counter name" "T:2: site 0: duplicate counter name 'true'"
{ record unit $MAIN a.c 1 3; record site 0 bounds a.c 1 1 f 3 'n' count,min,max; record end; } \
    > "$scratch/input"; bad_table "bounds without kind" \
      "T:2: bounds site 0: predicate 'n' does not end with (signed), (unsigned) or (double)"
{ record unit $MAIN a.c 1 4; record site 0 values a.c 1 1 f 4 'n (signed)' s,t,l,v; record end; } \
    > "$scratch/input"; bad_table "values counter count" \
      "T:2: values site 0 has 4 counters; a hot-list of K values has 3 + 2K, K >= 1"
{ record unit $MAIN a.c 1 5; record site 0 values a.c 1 1 f 5 'n' s,t,l,v,c; record end; } \
    > "$scratch/input"; bad_table "values without kind" \
      "T:2: values site 0: predicate 'n' does not end with (signed), (unsigned) or (pointer)"
{ record unit $MAIN a.c 1 2; record site 0 branches a.c x 1 f 2 x false,true; record end; } \
    > "$scratch/input"; bad_table "bad line number" "T:2: bad number 'x' for line"
{ record unit $MAIN a.c 1 2; site_line 0; record end; record stray; } \
    > "$scratch/input"; bad_table "unknown record" "T:4: unknown record 'stray' in a site table"
# Tables are read in command-line order, so the second one is blamed.
{ record unit $MAIN demo/main.c 1 2; site_line 0; record end; } >"$scratch/conflict.sites"
expect_error "site table: conflicts with a binary's" 2 \
    "sampler-report: $scratch/conflict.sites:1: unit $MAIN differs from the table with the same signature at $scratch/demo-prog[.debug_sampler_sites]:1" \
    show "$scratch/run.report" --binary "$scratch/demo-prog" --sites "$scratch/conflict.sites"
expect_error "site table: conflicts with a file's" 2 \
    "sampler-report: $scratch/demo-prog[.debug_sampler_sites]:1: unit $MAIN differs from the table with the same signature at $scratch/conflict.sites:1" \
    show "$scratch/run.report" --sites "$scratch/conflict.sites" --binary "$scratch/demo-prog"

sanitizer_check
finish
