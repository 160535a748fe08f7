#!/bin/sh
# Malformed reports: each is rejected by show with exit status 2, nothing on
# standard output and exactly its message (file and line) on standard error.
# Every run repeated under ASan and UBSan.
# CHECKS: sh $SRC
. "$SRCDIR/fixtures.sh"
build_fixtures || fail "build binaries with site-table sections" "$scratch/build.log"

# bad_report NAME MESSAGE: the report in $scratch/input is rejected with MESSAGE,
# where R stands for its path.
bad_report () {
    cp "$scratch/input" "$scratch/bad.report"
    message=$(printf '%s' "$2" | sed "s|^R:|sampler-report: $scratch/bad.report:|")
    expect_error "report: $1" 2 "$message" show "$scratch/bad.report" $both
}

printf '' > "$scratch/input"; bad_report "empty file" "R:1: not a sampler report (empty file)"
printf 'hello\n' > "$scratch/input"; bad_report "not a report" \
    "R:1: not a sampler report (the first line must be 'sampler-report<TAB>1')"
{ record sampler-report 2; record end; } > "$scratch/input"; bad_report "other version" \
    "R:1: unsupported report version '2' (this sampler-report reads version 1)"
{ record sampler-report 1 x; } > "$scratch/input"; bad_report "version line fields" \
    "R:1: 'sampler-report' record has 3 fields, expected 2"
{ header /p; main_counts; } > "$scratch/input"; bad_report "truncated" "R:14: truncated report (no 'end' line)"
{ header /p; main_counts; record en; } > "$scratch/input"; bad_report "truncated end" "R:15: unknown record 'en'"
{ header /p; record end; record unit $MAIN 9 20 demo/main.c; } > "$scratch/input"; bad_report "data after end" \
    "R:8: data after 'end'"
{ header /p; record end; echo; } > "$scratch/input"; bad_report "empty line after end" "R:8: data after 'end'"
{ header /p; record colour blue; record end; } > "$scratch/input"; bad_report "unknown record" \
    "R:7: unknown record 'colour'"
{ header /p; record pid 1; record end; } > "$scratch/input"; bad_report "duplicate header" \
    "R:7: duplicate 'pid' record"
{ record sampler-report 1; record program /p; record pid 1; record sparsity 1; record exit status 0;
  record end; } > "$scratch/input"; bad_report "missing header" "R:6: missing 'seed' record before the units"
{ header /p; main_counts; record seed 2; record end; } > "$scratch/input"; bad_report "header after units" \
    "R:15: 'seed' record after the first unit"
{ record sampler-report 1; record program /p; record pid 1 2; } > "$scratch/input"; bad_report "wrong field count" \
    "R:3: 'pid' record has 3 fields, expected 2"
{ record sampler-report 1; record program /p; record pid 12a; } > "$scratch/input"; bad_report "bad number" \
    "R:3: bad number '12a' for pid"
{ record sampler-report 1; record program /p; record pid -1; } > "$scratch/input"; bad_report "negative number" \
    "R:3: bad number '-1' for pid"
{ record sampler-report 1; record seed 18446744073709551616; } > "$scratch/input"; bad_report "number too large" \
    "R:2: seed '18446744073709551616' too large (at most 18446744073709551615)"
{ record sampler-report 1; record exit status 256; } > "$scratch/input"; bad_report "exit status too large" \
    "R:2: exit status '256' too large (at most 255)"
{ record sampler-report 1; record exit crashed 1; } > "$scratch/input"; bad_report "exit kind" \
    "R:2: bad exit kind 'crashed' (expected status, signal, exec, _exit or quick_exit)"
{ record sampler-report 1; record exit _exit 256; } > "$scratch/input"; bad_report "exit _exit too large" \
    "R:2: exit status '256' too large (at most 255)"
{ record sampler-report 1; record exit quick_exit; } > "$scratch/input"; bad_report "exit quick_exit without status" \
    "R:2: 'exit' record has 2 fields, expected 3"
{ header /p; record interim 1; record end; } > "$scratch/input"; bad_report "exit and interim" \
    "R:7: a report has an 'exit' record or an 'interim' one, not both"
{ record sampler-report 1; record interim 0; } > "$scratch/input"; bad_report "interim 0" \
    "R:2: interim reports are numbered from 1"
{ record sampler-report 1; record exit exec 0; } > "$scratch/input"; bad_report "exit exec field count" \
    "R:2: 'exit' record has 3 fields, expected 2"
{ header /p; record parent 0; record end; } > "$scratch/input"; bad_report "parent 0" \
    "R:7: parent pid 0 is not a process"
{ header /p; record parent 12x; record end; } > "$scratch/input"; bad_report "parent not a number" \
    "R:7: bad number '12x' for parent pid"
{ header /p; record parent; record end; } > "$scratch/input"; bad_report "parent field count" \
    "R:7: 'parent' record has 1 fields, expected 2"
{ header /p; record parent 4241; record parent 4241; record end; } > "$scratch/input"
bad_report "parent twice" "R:8: duplicate 'parent' record"
{ header /p; record parent 4242; record end; } > "$scratch/input"; bad_report "parent is itself" \
    "R:7: parent pid 4242 is the report's own pid"
{ record sampler-report 1; record parent 4242; record pid 4242; } > "$scratch/input"
bad_report "parent is itself, pid second" "R:3: parent pid 4242 is the report's own pid"
{ header /p; main_counts; record parent 4241; record end; } > "$scratch/input"
bad_report "parent after units" "R:15: 'parent' record after the first unit"
{ header /p; record unit $MAIN 9 20 demo/main.c; record object /lib.so; record 0 1; record end; } \
    > "$scratch/input"; bad_report "counts after object" \
    "R:9: counts after an 'object' record, before its first 'unit' record"
{ header /p; record object; } > "$scratch/input"; bad_report "object field count" \
    "R:7: 'object' record has 1 fields, expected 2"
{ record sampler-report 1; record program 'a\qb'; } > "$scratch/input"; bad_report "bad escape" \
    "R:2: bad escape '\\q' in program (only \\\\, \\t and \\n)"
{ record sampler-report 1; printf 'program\t/a\0b\n'; } > "$scratch/input"; bad_report "NUL byte" \
    "R:2: NUL byte in line"
{ header /p; record 0 1; record end; } > "$scratch/input"; bad_report "counts outside a unit" \
    "R:7: counts before the first 'unit' record"
{ header /p; record unit $MAIN 9 20; } > "$scratch/input"; bad_report "unit field count" \
    "R:7: 'unit' record has 4 fields, expected 5"
{ header /p; record unit 0123ABCD 9 20 x.c; } > "$scratch/input"; bad_report "bad signature" \
    "R:7: bad unit signature '0123ABCD' (expected 32 lowercase hex digits)"
{ header /p; main_counts; record unit $MAIN 9 21 demo/main.c; record end; } \
    > "$scratch/input"; bad_report "unit twice, in two sizes" \
      "R:15: unit $MAIN has 9 sites and 21 counters here, but 9 and 20 at line 7"
{ header /p; record unit $MAIN 9 20 demo/main.c; record 9 1; record end; } \
    > "$scratch/input"; bad_report "site index out of range" "R:8: site index 9 out of range (unit $MAIN has 9 sites)"
{ header /p; record unit $MAIN 9 20 demo/main.c; record 1 1 1; record 1 2 2; record end; } \
    > "$scratch/input"; bad_report "duplicate site" "R:9: duplicate site 1 of unit $MAIN (first at line 8)"
{ header /p; record unit $MAIN 9 20 demo/main.c; record 1; record end; } \
    > "$scratch/input"; bad_report "site without counters" "R:8: site 1 has no counters"
{ header /p; record unit $MAIN 9 20 demo/main.c; record 1 1 0 0; record end; } \
    > "$scratch/input"; bad_report "counter count differs from the table" \
      "R:8: site 1 of unit $MAIN has 3 counters, its site table has 2"
{ header /p; record unit $MAIN 9 21 demo/main.c; record end; } \
    > "$scratch/input"; bad_report "unit size differs from the table" \
      "R:7: unit $MAIN has 9 sites and 21 counters, but its site table at $scratch/demo-prog[.debug_sampler_sites]:1 has 9 sites and 20 counters"

sanitizer_check
finish
