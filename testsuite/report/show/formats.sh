#!/bin/sh
# show's output in every format, compared with expected/ (text, csv, jsonl;
# --all; site tables from binaries, objects and files; a report from
# standard input; a unit twice; two reports in one file; interim, exec,
# object and parent records; unknown units and their messages); jsonl and
# csv parse; escapes and bytes that are not UTF-8; a failed write.  Every
# run repeated under ASan and UBSan.
# CHECKS: sh $SRC
. "$SRCDIR/fixtures.sh"
if build_fixtures; then
    pass "build binaries with site-table sections"
else
    fail "build binaries with site-table sections" "$scratch/build.log"
fi

expect_output "text from binaries" show.txt 0 show "$scratch/run.report" $both
expect_output "text from site-table files" show.txt 0 show "$scratch/run.report" \
    --sites "$scratch/main.sites" --sites "$scratch/util.sites" --sites "$scratch/lib.sites"
expect_output "text from objects and files mixed" show.txt 0 show "$scratch/run.report" \
    --binary "$scratch/main.o" --binary="$scratch/util.o" --sites="$scratch/lib.sites"
expect_output "text, same tables twice" show.txt 0 show "$scratch/run.report" $both \
    --sites "$scratch/main.sites" --binary "$scratch/main.o"
expect_output "text --all" show-all.txt 0 show --all "$scratch/run.report" $both
expect_output "csv --all" show-all.csv 0 show "$scratch/run.report" $both --format=csv --all
expect_output "jsonl" show.jsonl 0 show "$scratch/run.report" $both --format jsonl
expect_output "report from stdin" show.txt 0 show - $both <"$scratch/run.report"
expect_output "unit twice: counts added up" twice.txt 0 show "$scratch/twice.report" $both
expect_output "two reports in one file, text" two.txt 0 show "$scratch/two.report" $both
expect_output "two reports in one file, csv" two.csv 0 show "$scratch/two.report" $both \
    --format=csv
expect_output "two reports in one file, jsonl" two.jsonl 0 show "$scratch/two.report" $both \
    --format=jsonl
expect_output "interim, exec, object and parent records, text" stream.txt 0 show \
    "$scratch/stream.report" $both
expect_output "interim, exec, object and parent records, jsonl" stream.jsonl 0 show \
    "$scratch/stream.report" $both --format=jsonl
expect_output "no units, killed by a signal" empty.txt 0 show "$scratch/empty.report"
expect_output "no units, jsonl" empty.jsonl 0 show "$scratch/empty.report" --format=jsonl

# Without --binary the report's program is read; the library is not.
expect_output "program found from the report" auto.txt 1 show "$scratch/run.report"
msg="sampler-report: unit $LIB (lib/size.c) of $scratch/run.report: no site table found; pass the program or library with --binary, or a site-table file with --sites"
if [ "$(cat "$scratch/program found from the report.err")" = "$msg" ]; then
    pass "program found from the report: message"
else
    fail "program found from the report: message" "$scratch/program found from the report.err"
fi

expect_output "unknown unit, text" unknown.txt 1 show "$scratch/unknown.report" $both
expect_output "unknown unit, csv" unknown.csv 1 show "$scratch/unknown.report" $both --format=csv
expect_output "unknown unit, jsonl" unknown.jsonl 1 show "$scratch/unknown.report" $both \
    --format=jsonl
printf '%s\n' "sampler-report: unit $GONE (gone.c) of $scratch/unknown.report: no site table found; pass the program or library with --binary, or a site-table file with --sites" \
    >"$scratch/unknown.expected-err"
if diff -u "$scratch/unknown.expected-err" "$scratch/unknown unit, text.err" >"$scratch/diff"; then
    pass "unknown unit: message"
else
    fail "unknown unit: message" "$scratch/diff"
fi

# --- The machine formats parse -------------------------------------------------
run_tool "jsonl --all" show "$scratch/run.report" $both --format=jsonl --all
for name in "jsonl" "jsonl --all" "unknown unit, jsonl" "no units, jsonl" \
        "two reports in one file, jsonl" "interim, exec, object and parent records, jsonl"; do
    if python3 "$SRCDIR/check-jsonl.py" <"$scratch/$name.raw" >"$scratch/check" 2>&1; then
        pass "$name: every line is JSON"
    else
        fail "$name: every line is JSON" "$scratch/check"
    fi
done
for name in "csv --all" "unknown unit, csv" "two reports in one file, csv"; do
    if python3 "$SRCDIR/check-csv.py" <"$scratch/$name.raw" >"$scratch/check" 2>&1; then
        pass "$name: parses as CSV"
    else
        fail "$name: parses as CSV" "$scratch/check"
    fi
done
# The escaped predicates come through intact.
if python3 "$SRCDIR/check-escapes.py" <"$scratch/jsonl --all.raw" >"$scratch/check" 2>&1; then
    pass "jsonl: escapes decoded"
else
    fail "jsonl: escapes decoded" "$scratch/check"
fi

# A program path that is not UTF-8, with a control character: still JSON.
{ header "$(printf '/tmp/a\001\377b')"; record end; } >"$scratch/bytes.report"
run_tool "jsonl, bytes that are not UTF-8" show "$scratch/bytes.report" --format=jsonl
if python3 "$SRCDIR/check-bytes.py" <"$scratch/jsonl, bytes that are not UTF-8.raw" >"$scratch/check" 2>&1; then
    pass "jsonl, bytes that are not UTF-8"
else
    fail "jsonl, bytes that are not UTF-8" "$scratch/check"
fi

if [ -w /dev/full ]; then
    "$tool" show "$scratch/run.report" $both >/dev/full 2>"$scratch/full.err"
    if [ $? = 2 ] && grep -qx 'sampler-report: cannot write the output' "$scratch/full.err"; then
        pass "output write error"
    else
        fail "output write error" "$scratch/full.err"
    fi
fi

sanitizer_check
finish
