#!/bin/sh
# Tests of sampler-report: synthetic site tables (as files, and as ELF
# sections assembled with plain gcc, so the plugin is not needed) and
# synthetic reports; output compared with expected/ in every format; every
# error path with its exact message; every run repeated under ASan and
# UBSan; a fuzzing pass over damaged inputs.
# Usage: run-report-tests.sh BUILD_DIR   (prints "N passed, N failed")
# FUZZ_ROUNDS=N fuzzes longer (default 100); KEEP_SCRATCH=1 keeps the
# scratch directory for a look at what went wrong.

build=$(cd "${1:?usage: run-report-tests.sh BUILD_DIR}" && pwd) || exit 2
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../tools/tally.sh"
sources="$here/../../tools/report"
runtime="$here/../../runtime"
tool="$build/bin/sampler-report"
expected="$here/expected"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/sampler-report-tests.XXXXXX") || exit 2
trap '[ -n "${KEEP_SCRATCH-}" ] || rm -rf "$scratch"' EXIT

if [ ! -x "$tool" ]; then
    echo "FAIL: $tool is not built"
    echo "0 passed, 1 failed"
    exit 1
fi

# record FIELD...: one record, fields joined by TABs.
record () {
    printf '%s' "$1"
    shift
    for field in "$@"; do
        printf '\t%s' "$field"
    done
    printf '\n'
}

# The same sources built with AddressSanitizer (and its leak checker) and
# UBSan, where gcc has them: every run below is repeated with it, and must
# behave the same and report nothing.
sanitized_tool="$scratch/sampler-report-sanitized"
sanitized_runs=0
if ! gcc -std=c11 -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -D_GNU_SOURCE \
       -I"$sources" -I"$runtime" $(find "$sources" -name '*.c' | sort) -lgsl -lgslcblas -lm -o "$sanitized_tool" >"$scratch/asan.log" 2>&1; then
    echo "NOTE: gcc cannot build with -fsanitize=address,undefined; no sanitizer runs"
    sed 's/^/    /' "$scratch/asan.log"
    sanitized_tool=
fi

# --- Site tables ------------------------------------------------------------
MAIN=0123456789abcdef0123456789abcdef   # demo/main.c, in the program
UTIL=5555aaaa5555aaaa5555aaaa5555aaaa   # demo/util.c, in the program
LIB=fedcba9876543210fedcba9876543210    # lib/size.c, in the shared library
GONE=00000000000000000000000000000001   # in no binary at all

main_table () {
    record unit $MAIN demo/main.c 9 20
    record site 0 function-entries demo/main.c 10 1 main 1 main entered
    record site 1 branches demo/main.c 12 7 main 2 'argc > 1' false,true
    record site 2 returns demo/main.c 14 13 main 3 'parse (argv[1])' '<0,==0,>0'
    record site 3 scalar-pairs demo/main.c 15 9 main 3 'n ? limit' '<,==,>'
    record site 4 branches demo/main.c 17 5 main 3 'switch (mode)' 'case 1,case 2,default'
    record site 5 bounds demo/main.c 21 9 main 3 'n (signed)' count,min,max
    record site 6 checks demo/main.c 23 5 main 1 'check_invariant ("a,b")' sampled
    # Escapes: a backslash from the source, and a TAB.
    record site 7 branches demo/main.c 25 11 main 2 "c == '\\\\t'" false,true
    record site 8 branches demo/main.c 27 7 main 2 'flags\tmask' false,true
    record end
}

util_table () {
    record unit $UTIL demo/util.c 3 15
    record site 0 float-kinds demo/util.c 4 12 scale 9 'x * factor' \
        'nan,-inf,-normal,-subnormal,-0,+0,+subnormal,+normal,+inf'
    record site 1 bounds demo/util.c 6 5 scale 3 'x (double)' count,min,max
    record site 2 bounds demo/util.c 7 5 scale 3 'ratio (double)' count,min,max
    record end
}

lib_table () {
    record unit $LIB lib/size.c 4 10
    record site 0 function-entries lib/size.c 3 1 größe 1 größe entered
    record site 1 bounds lib/size.c 5 5 größe 3 'len (unsigned)' count,min,max
    record site 2 returns lib/size.c 8 10 größe 3 'strlen (s)' '<0,==0,>0'
    record site 3 bounds lib/size.c 9 7 größe 3 'total (double)' count,min,max
    record end
}

main_table >"$scratch/main.sites"
util_table >"$scratch/util.sites"
lib_table >"$scratch/lib.sites"

# A C file carrying a site table in .debug_sampler_sites, the way the
# plugin's objects do; EXTRA is more assembly after it (padding).
object_source () {
    printf '__asm__ (".pushsection .debug_sampler_sites,\\"\\",@progbits\\n"\n'
    printf '         ".incbin \\"%s\\"\\n%s"\n' "$1" "$2"
    printf '         ".popsection");\n'
    printf '%s\n' "$3"
}

build_binaries () {
    object_source "$scratch/main.sites" "" 'int main (void) { return 0; }' >"$scratch/main.c"
    # NUL bytes after a table: what a linker's alignment padding looks like.
    object_source "$scratch/util.sites" '.byte 0, 0, 0\n' 'int scale (int x) { return 2 * x; }' \
        >"$scratch/util.c"
    # The same unit again: one object linked twice, through an archive and a library, say.
    object_source "$scratch/main.sites" "" 'int again (void) { return 1; }' >"$scratch/again.c"
    object_source "$scratch/lib.sites" "" 'int size (void) { return 3; }' >"$scratch/lib.c"
    gcc -c "$scratch/main.c" -o "$scratch/main.o" &&
    gcc -c "$scratch/util.c" -o "$scratch/util.o" &&
    gcc -c "$scratch/again.c" -o "$scratch/again.o" &&
    gcc -shared -fPIC "$scratch/lib.c" -o "$scratch/libsize.so" &&
    gcc "$scratch/main.o" "$scratch/util.o" "$scratch/again.o" "$scratch/libsize.so" \
        -o "$scratch/demo-prog"
}
if build_binaries >"$scratch/build.log" 2>&1; then
    pass "build binaries with site-table sections"
else
    fail "build binaries with site-table sections" "$scratch/build.log"
fi

# --- Reports ------------------------------------------------------------------
# header PROGRAM [EXIT-KIND CODE]
header () {
    record sampler-report 1
    record program "$1"
    record pid 4242
    record sparsity 100
    record seed 7
    record exit "${2:-status}" "${3:-0}"
}

main_counts () {
    record unit $MAIN 9 20 demo/main.c
    record 0 1
    record 1 0 1
    record 2 0 0 1
    record 4 2 1 0
    record 5 3 18446744073709551609 42
    record 6 1
    record 8 4 0
}

util_counts () {
    # -2.5, 0.001; then a NaN minimum and an infinite maximum.
    record unit $UTIL 3 15 demo/util.c
    record 0 0 0 3 0 0 1 0 5 0
    record 1 9 13836183955189006336 4562254508917369340
    record 2 2 9221120237041090560 9218868437227405312
}

lib_counts () {
    # Sites out of order: the reader sorts them.
    record unit $LIB 4 10 lib/size.c
    record 2 0 0 2
    record 1 2 0 18446744073709551615
    record 0 1
}

{ header "$scratch/demo-prog"; main_counts; util_counts; lib_counts; record end; } \
    >"$scratch/run.report"
{ header "$scratch/demo-prog"; main_counts; record unit $GONE 4 6 gone.c; record 3 5 6; \
  record end; } >"$scratch/unknown.report"
{ header /nonexistent/prog signal 11; record end; } >"$scratch/empty.report"
# One unit twice (linked into two objects): the occurrences add up.  A
# bounds count of 2^64-1 is a first observation under way: it counts 0.
{ header "$scratch/demo-prog"; main_counts; util_counts; lib_counts
  record unit $MAIN 9 20 demo/main.c
  record 1 2 0
  record 5 2 18446744073709551607 10
  record 8 1 1
  record unit $UTIL 3 15 demo/util.c
  record 1 1 13837309855095848960 4620130267728707584
  record 2 1 4607182418800017408 4607182418800017408
  record unit $LIB 4 10 lib/size.c
  record 1 18446744073709551615 0 0
  record 3 18446744073709551615 0 0
  record end; } >"$scratch/twice.report"
# Two reports in one file (a descriptor shared by a process and its
# child); the second written on demand, with no exit record.
{ header "$scratch/demo-prog" status 3; util_counts; record end
  record sampler-report 1; record program "$scratch/demo-prog"; record pid 4243
  record sparsity 100; record seed 8; lib_counts; record end; } >"$scratch/two.report"

# The records the runtime writes for a run that goes on: three reports of
# one process, a fork child of 4241, on one descriptor (an interim one after
# two resets, the one written before an exec, and the new program's, no
# longer a fork child), units under the objects they were in.
{ record sampler-report 1; record program "$scratch/demo-prog"; record pid 4242
  record sparsity 100; record seed 7; record parent 4241; record reset 2; record interim 3
  record object "$scratch/demo-prog"; util_counts; record object "$scratch/libsize.so"; lib_counts
  record end
  record sampler-report 1; record program "$scratch/demo-prog"; record pid 4242
  record sparsity 100; record seed 7; record parent 4241; record exit exec
  record object "$scratch/demo-prog"; util_counts; record end
  record sampler-report 1; record program "$scratch/demo-prog"; record pid 4242
  record sparsity 100; record seed 7; record exit status 0; record end; } >"$scratch/stream.report"

# --- Output in each format ------------------------------------------------
# run_tool NAME ARGS...: runs the tool into $scratch/NAME.raw (stdout),
# .out (the same, with the scratch directory written @SCRATCH@), .err and
# .status; then the sanitized build, which must do exactly the same.
run_tool () {
    # Not "name": sh has no local variables, and callers use that one.
    run=$1
    shift
    "$tool" "$@" >"$scratch/$run.raw" 2>"$scratch/$run.err"
    echo $? >"$scratch/$run.status"
    sed "s|$scratch|@SCRATCH@|g" "$scratch/$run.raw" >"$scratch/$run.out"
    # Standard input can be read only once.
    for argument; do
        [ "$argument" = - ] && return
    done
    [ -n "$sanitized_tool" ] || return
    sanitized_runs=$((sanitized_runs + 1))
    "$sanitized_tool" "$@" >"$scratch/sanitized.out" 2>"$scratch/sanitized.err" </dev/null
    echo $? >"$scratch/sanitized.status"
    if ! cmp -s "$scratch/sanitized.out" "$scratch/$run.raw" ||
       ! cmp -s "$scratch/sanitized.err" "$scratch/$run.err" ||
       ! cmp -s "$scratch/sanitized.status" "$scratch/$run.status"; then
        {
            echo "$run: sampler-report $*"
            echo "exit status $(cat "$scratch/sanitized.status"), stderr:"
            sed 's/^/    /' "$scratch/sanitized.err"
        } >>"$scratch/sanitizer-failures"
    fi
}

# expect_output NAME EXPECTED-FILE STATUS ARGS...
expect_output () {
    name=$1 file=$2 status=$3
    shift 3
    run_tool "$name" "$@"
    if [ "$(cat "$scratch/$name.status")" != "$status" ]; then
        echo "exit status $(cat "$scratch/$name.status"), expected $status" >"$scratch/$name.why"
        cat "$scratch/$name.err" >>"$scratch/$name.why"
        fail "$name" "$scratch/$name.why"
    elif ! diff -u "$expected/$file" "$scratch/$name.out" >"$scratch/$name.diff"; then
        fail "$name: output differs from expected/$file" "$scratch/$name.diff"
    elif [ "$status" = 0 ] && [ -s "$scratch/$name.err" ]; then
        fail "$name: unexpected messages" "$scratch/$name.err"
    else
        pass "$name"
    fi
}

both="--binary $scratch/demo-prog --binary $scratch/libsize.so"
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
check_jsonl () {
    python3 -c '
import json, sys
lines = [json.loads(l) for l in sys.stdin]
run_keys = {"program", "pid", "sparsity", "seed", "exit"}
optional_run_keys = {"parent", "resets", "interim", "countdown_unit", "run_id", "product",
                     "version", "withheld", "dropped"}
site_keys = {"unit", "source", "site", "file", "line", "column", "function", "scheme",
             "predicate", "counts"}
# A site whose table is known has its rate and estimated counts.
rated_keys = site_keys | {"rate", "estimated"}
def is_run(line):
    return run_keys <= set(line) <= run_keys | optional_run_keys
assert is_run(lines[0]), lines[0]
for line in lines[1:]:
    # Each report of a file starts with its run line.
    if "program" in line:
        assert is_run(line), line
        continue
    assert set(line) == (site_keys if line["file"] is None else rated_keys), line
    assert all(v is None or isinstance(v, (int, float)) for v in line["counts"].values()), line
    if "rate" in line:
        assert 0 <= line["rate"] <= 1, line
        assert set(line["estimated"]) <= set(line["counts"]), line
' <"$1"
}
check_csv () {
    python3 -c '
import csv, sys
rows = list(csv.reader(sys.stdin))
assert rows[0] == ["unit", "site", "file", "line", "column", "function", "scheme",
                   "predicate", "counter", "count", "rate", "estimate"], rows[0]
assert len(rows) > 1
for row in rows[1:]:
    assert len(row) == 12, row
' <"$1"
}
run_tool "jsonl --all" show "$scratch/run.report" $both --format=jsonl --all
for name in "jsonl" "jsonl --all" "unknown unit, jsonl" "no units, jsonl" \
        "two reports in one file, jsonl" "interim, exec, object and parent records, jsonl"; do
    if check_jsonl "$scratch/$name.raw" >"$scratch/check" 2>&1; then
        pass "$name: every line is JSON"
    else
        fail "$name: every line is JSON" "$scratch/check"
    fi
done
for name in "csv --all" "unknown unit, csv" "two reports in one file, csv"; do
    if check_csv "$scratch/$name.raw" >"$scratch/check" 2>&1; then
        pass "$name: parses as CSV"
    else
        fail "$name: parses as CSV" "$scratch/check"
    fi
done
# The escaped predicates come through intact.
if python3 -c '
import json, sys
predicates = {json.loads(l).get("predicate") for l in sys.stdin}
assert "c == '"'\\\\t'"'" in predicates, predicates
assert "flags\tmask" in predicates, predicates
assert "check_invariant (\"a,b\")" in predicates, predicates
' <"$scratch/jsonl --all.raw" >"$scratch/check" 2>&1; then
    pass "jsonl: escapes decoded"
else
    fail "jsonl: escapes decoded" "$scratch/check"
fi

# A program path that is not UTF-8, with a control character: still JSON.
{ header "$(printf '/tmp/a\001\377b')"; record end; } >"$scratch/bytes.report"
run_tool "jsonl, bytes that are not UTF-8" show "$scratch/bytes.report" --format=jsonl
if python3 -c '
import json, sys
assert json.loads(sys.stdin.readline())["program"] == "/tmp/a\x01\ufffdb"
' <"$scratch/jsonl, bytes that are not UTF-8.raw" >"$scratch/check" 2>&1; then
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

# --- Errors -----------------------------------------------------------------------
# expect_error NAME STATUS MESSAGE ARGS...: the tool fails with STATUS, writes
# nothing on stdout and exactly MESSAGE (lines) on stderr.
expect_error () { check_messages no-output "$@"; }
# expect_messages: the same, but the tool may write output.
expect_messages () { check_messages output "$@"; }
check_messages () {
    output=$1 name=$2 status=$3 message=$4
    shift 4
    run_tool err "$@"
    got=$(cat "$scratch/err.status")
    printf '%s\n' "$message" >"$scratch/err.expected"
    if [ $got != "$status" ]; then
        echo "exit status $got, expected $status" >"$scratch/err.why"
        cat "$scratch/err.err" >>"$scratch/err.why"
        fail "$name" "$scratch/err.why"
    elif [ "$output" = no-output ] && [ -s "$scratch/err.raw" ]; then
        fail "$name: wrote output" "$scratch/err.raw"
    elif ! diff -u "$scratch/err.expected" "$scratch/err.err" >"$scratch/err.diff"; then
        fail "$name: message" "$scratch/err.diff"
    else
        pass "$name"
    fi
}

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
    > "$scratch/input"; bad_table "site field count" "T:2: 'site' record has 9 fields, expected 10 or 11"
{ record unit $MAIN a.c 1 2; record site 0 branchez a.c 1 1 f 2 x false,true; record end; } \
    > "$scratch/input"; bad_table "unknown scheme" \
      "T:2: unknown scheme 'branchez' (known: $("$here/../tools/scheme-names.sh" ', '))"
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

# --- Binaries and files ------------------------------------------------------------
printf '\177ELF\001\001\001\000\000\000\000\000\000\000\000\000\001\000\003\000' >"$scratch/elf32.o"
expect_error "ELF32 binary" 2 \
    "sampler-report: $scratch/elf32.o: 32-bit ELF files are not supported (only ELF64)" \
    show "$scratch/run.report" --binary "$scratch/elf32.o"
printf '\177ELF\002\002\001\000\000\000\000\000\000\000\000\000' >"$scratch/big.o"
expect_error "big-endian binary" 2 \
    "sampler-report: $scratch/big.o: big-endian ELF files are not supported (only little-endian)" \
    show "$scratch/run.report" --binary "$scratch/big.o"
expect_error "non-ELF binary" 2 "sampler-report: $scratch/main.c: not an ELF file" \
    show "$scratch/run.report" --binary "$scratch/main.c"
expect_error "site table given as a binary" 2 \
    "sampler-report: $scratch/main.sites: not an ELF file (it looks like a site table: pass it with --sites)" \
    show "$scratch/run.report" --binary "$scratch/main.sites"
head -c 100 "$scratch/demo-prog" >"$scratch/truncated-prog"
expect_error "truncated ELF" 2 \
    "sampler-report: $scratch/truncated-prog: section header table lies outside the file (truncated or damaged ELF file)" \
    show "$scratch/run.report" --binary "$scratch/truncated-prog"
expect_error "directory as a binary" 2 "sampler-report: $scratch: not a regular file" \
    show "$scratch/run.report" --binary "$scratch"
expect_error "missing report" 2 "sampler-report: $scratch/missing.report: No such file or directory" \
    show "$scratch/missing.report"
expect_error "missing binary" 2 "sampler-report: $scratch/missing: No such file or directory" \
    show "$scratch/run.report" --binary "$scratch/missing"
expect_error "missing site table" 2 "sampler-report: $scratch/missing.sites: No such file or directory" \
    show "$scratch/run.report" --sites "$scratch/missing.sites"

# A binary without the section is no error, but is named when units stay unknown.
printf 'int plain (void) { return 0; }\n' >"$scratch/plain.c"
gcc -c "$scratch/plain.c" -o "$scratch/plain.o"
run_tool "binary without section" show "$scratch/run.report" --binary "$scratch/plain.o" \
    --binary "$scratch/demo-prog"
if [ "$(cat "$scratch/binary without section.status")" = 1 ] &&
   grep -qx "sampler-report: note: $scratch/plain.o has no .debug_sampler_sites section (stripped, or built without the sampler plugin)" \
       "$scratch/binary without section.err"; then
    pass "binary without section"
else
    fail "binary without section" "$scratch/binary without section.err"
fi

# Without --binary, the report's program is tried, and why it did not help
# is said.
gcc "$scratch/plain.c" -Dplain=main -o "$scratch/plain-prog"
gone_message () {
    echo "sampler-report: unit $MAIN (demo/main.c) of $1: no site table found; pass the program or library with --binary, or a site-table file with --sites"
}
{ header "$scratch/plain-prog"; main_counts; record end; } >"$scratch/plain.report"
expect_messages "report's program without section" 1 "$(gone_message "$scratch/plain.report")
sampler-report: note: $scratch/plain-prog has no .debug_sampler_sites section (stripped, or built without the sampler plugin)" \
    show "$scratch/plain.report"
{ header "$scratch/main.c"; main_counts; record end; } >"$scratch/script.report"
expect_messages "report's program not ELF" 1 "sampler-report: note: not using the report's program: $scratch/main.c: not an ELF file
$(gone_message "$scratch/script.report")" \
    show "$scratch/script.report"
{ header /nonexistent/prog; main_counts; record end; } >"$scratch/elsewhere.report"
expect_messages "report's program absent" 1 "$(gone_message "$scratch/elsewhere.report")
sampler-report: note: the report's program /nonexistent/prog does not exist here" \
    show "$scratch/elsewhere.report"
expect_output "report's program absent, tables from a file" auto-sites.txt 0 \
    show "$scratch/elsewhere.report" --sites "$scratch/main.sites"

# --- The checker of real packages' reports (testsuite/real/check-reports.py) ------------
# At sparsity 1 a process that started at main entered it once; a fork
# child (its `parent' record says so, nothing else does) need not have.
# fork_report PID [PARENT]: a run of demo-prog at sparsity 1 whose main
# counted a branch; entered once, unless it has a parent.
fork_report () {
    record sampler-report 1; record program "$scratch/demo-prog"; record pid "$1"
    record sparsity 1; record seed 7
    [ -z "${2-}" ] || record parent "$2"
    record exit status 0; record unit $MAIN 9 20 demo/main.c
    [ -n "${2-}" ] || record 0 1
    record 1 0 1; record end
}
check_reports () {
    python3 "$here/../real/check-reports.py" --report-tool "$tool" --plausible "$1"
}
# expect_problems NAME DIR LINE...: the checker fails on DIR, saying exactly LINEs.
expect_problems () {
    local name=$1 dir=$2 status
    shift 2
    check_reports "$dir" >/dev/null 2>"$dir.err"
    status=$?
    printf '%s\n' "$@" >"$dir.expected"
    if [ $status = 1 ] && diff -u "$dir.expected" "$dir.err" >"$scratch/diff"; then
        pass "$name"
    else
        echo "exit status $status" >>"$scratch/diff"
        fail "$name" "$scratch/diff"
    fi
}
mkdir -p "$scratch/forked" "$scratch/unmarked"
# Alone: its parent's report may be elsewhere, or none.
fork_report 4243 4242 >"$scratch/forked/r-4243"
check_reports "$scratch/forked" >"$scratch/forked.out" 2>"$scratch/forked.err"
status=$?
if [ $status = 0 ] && [ "$(cat "$scratch/forked.out")" = "1 reports read back, 1 checked at sparsity 1 (1 of them fork children), 0 of programs deleted since read without site tables, 1 folders analysed by values, paths and subpaths" ]; then
    pass "check-reports: a report with a parent record is a fork child"
else
    fail_with "check-reports: a report with a parent record is a fork child" "exit status $status" \
        "$(cat "$scratch/forked.out" "$scratch/forked.err")"
fi
# Main not entered, without the record: wrong, even beside a report that
# entered main.
fork_report 4242 >"$scratch/unmarked/r-4242"
fork_report 4243 4242 | grep -v '^parent' >"$scratch/unmarked/r-4243"
expect_problems "check-reports: without a parent record, main must be entered once" \
    "$scratch/unmarked" \
    "$scratch/unmarked/r-4243 ($scratch/demo-prog): main entered 0 times, not once" \
    "$scratch/unmarked/r-4243 ($scratch/demo-prog): function main has counts but was never entered"

# Bounds: a minimum above the maximum is wrong; a NaN or an infinity (null in
# jsonl) is not compared (gawk's format_nan_inf saw only NaNs).
# bounds_report PID MIN MAX: util's `ratio' saw two doubles (bit patterns).
bounds_report () {
    record sampler-report 1; record program "$scratch/demo-prog"; record pid "$1"
    record sparsity 1; record seed 7; record exit status 0
    record unit $MAIN 9 20 demo/main.c; record 0 1; record 1 0 1
    record unit $UTIL 3 15 demo/util.c; record 2 2 "$2" "$3"
    record end
}
mkdir -p "$scratch/nan-bounds" "$scratch/bad-bounds"
# (util has no function-entries site, so the checker also says that scale
# was never entered: that line, and nothing about its bounds.)
bounds_report 4300 9221120237041090560 9218868437227405312 >"$scratch/nan-bounds/r-4300"
expect_problems "check-reports: NaN and infinite bounds are not compared" "$scratch/nan-bounds" \
    "$scratch/nan-bounds/r-4300 ($scratch/demo-prog): function scale has counts but was never entered"
# 2.0 and 1.0
bounds_report 4301 4611686018427387904 4607182418800017408 >"$scratch/bad-bounds/r-4301"
expect_problems "check-reports: a minimum above the maximum is a problem" "$scratch/bad-bounds" \
    "$scratch/bad-bounds/r-4301 ($scratch/demo-prog): demo/util.c:7: bounds min 2 > max 1" \
    "$scratch/bad-bounds/r-4301 ($scratch/demo-prog): function scale has counts but was never entered"

# --- Command line --------------------------------------------------------------------
top_usage="usage: sampler-report COMMAND [ARGUMENT]... (commands: show, merge, rank, export, values, rates, paths, subpaths, help; see sampler-report --help)"
show_usage="usage: sampler-report show REPORT [--binary FILE]... [--sites FILE]... [--format=text|csv|jsonl] [--all]"
expect_error "no command" 2 "sampler-report: no command given
$top_usage"
expect_error "unknown command" 2 "sampler-report: unknown command 'rnak'
$top_usage" rnak
expect_error "unknown top-level option" 2 "sampler-report: unknown option '--colour'
$top_usage" --colour
expect_error "show: unknown option" 2 "sampler-report: unknown option '--colour' for 'show'
$show_usage" show "$scratch/run.report" --colour
expect_error "show: no report" 2 "sampler-report: 'show' needs a report file
$show_usage" show --all
expect_error "show: two reports" 2 "sampler-report: 'show' takes one report; 'b' is a second one
$show_usage" show a b
values_usage="usage: sampler-report values (INPUT... | --store URL --release R) [--binary FILE]... [--sites FILE]... [--min-share=P] [--top=N] [--format=text|csv|jsonl|html]"
expect_error "values: --top 0" 2 "sampler-report: --top wants a whole number from 1 to 1024, not '0'
$values_usage" values "$scratch/run.report" --top=0
expect_error "values: --min-share 1.5" 2 "sampler-report: --min-share wants a number above 0 and at most 1, not '1.5'
$values_usage" values "$scratch/run.report" --min-share=1.5
expect_error "values: --min-share text" 2 "sampler-report: --min-share wants a number above 0 and at most 1, not 'most'
$values_usage" values "$scratch/run.report" --min-share most
expect_error "values: unknown format" 2 "sampler-report: unknown format 'xml' (text, csv, jsonl or html)
$values_usage" values "$scratch/run.report" --format=xml
expect_error "values: no input" 2 "sampler-report: 'values' needs reports
$values_usage" values --top=3
expect_error "show: unknown format" 2 "sampler-report: unknown format 'xml' (expected text, csv or jsonl)
$show_usage" show "$scratch/run.report" --format=xml
expect_error "show: --binary without file" 2 "sampler-report: option '--binary' needs a file
$show_usage" show "$scratch/run.report" --binary
expect_error "help: unknown command" 2 "sampler-report: unknown command 'rnak'
$top_usage" help rnak
for args in "--help" "help" "help show" "show --help"; do
    # shellcheck disable=SC2086
    if "$tool" $args >"$scratch/help" 2>&1 && grep -q '^usage: sampler-report ' "$scratch/help" &&
       grep -q -- '--binary FILE' "$scratch/help"; then
        pass "help: $args"
    else
        fail "help: $args" "$scratch/help"
    fi
done

# --- Truncations: every proper prefix of a report is rejected ---------------------------
size=$(wc -c <"$scratch/run.report")
bad=0
cut=0
while [ $cut -lt "$size" ]; do
    head -c $cut "$scratch/run.report" >"$scratch/cut.report"
    "$tool" show "$scratch/cut.report" $both >/dev/null 2>"$scratch/cut.err"
    status=$?
    # Only the final newline may go.
    if [ $cut -eq $((size - 1)) ]; then want=0; else want=2; fi
    if [ $status != $want ]; then
        echo "prefix of $cut bytes: exit status $status, expected $want" >>"$scratch/cut.why"
        bad=$((bad + 1))
    fi
    cut=$((cut + 1))
done
if [ $bad = 0 ]; then
    pass "truncations: all $size prefixes"
else
    fail "truncations: $bad of $size prefixes" "$scratch/cut.why"
fi

# --- Sanitizers -------------------------------------------------------------------------
if [ -n "$sanitized_tool" ]; then
    if [ -s "$scratch/sanitizer-failures" ]; then
        fail "the same $sanitized_runs runs under ASan, LSan and UBSan" "$scratch/sanitizer-failures"
    else
        pass "the same $sanitized_runs runs under ASan, LSan and UBSan"
    fi
    fuzz_tool=$sanitized_tool
    fuzz_name="fuzzing with ASan and UBSan"
else
    fuzz_tool=$tool
    fuzz_name="fuzzing (no sanitizers available)"
fi

# --- Fuzzing ----------------------------------------------------------------------------
# Damaged reports, site tables and binaries must give a message and status
# 1 or 2, never a crash.  FUZZ_ROUNDS (default 100) sets how many of each.
# Leaks are looked for below, on the ordinary paths; here they would only
# slow each run down.
if ASAN_OPTIONS=detect_leaks=0 python3 - "$fuzz_tool" "$scratch" "${FUZZ_ROUNDS:-100}" \
       >"$scratch/fuzz.log" 2>&1 <<'EOF'
import os, random, subprocess, sys

tool, scratch, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
rng = random.Random(20240601)
inputs = {name: open(os.path.join(scratch, name), "rb").read()
          for name in ("run.report", "main.sites", "util.sites", "main.o", "demo-prog")}

def mutate(data):
    data = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        choice = rng.random()
        position = rng.randrange(len(data)) if data else 0
        if choice < 0.3 and data:
            data[position] = rng.randrange(256)
        elif choice < 0.5 and data:
            data[position] = rng.choice(b"\t\n\\0123456789-,")
        elif choice < 0.7:
            data[position:position] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 16)))
        elif choice < 0.85 and data:
            del data[position:position + rng.randint(1, 32)]
        else:
            start = rng.randrange(len(data)) if data else 0
            data[position:position] = data[start:start + rng.randint(1, 64)]
    return bytes(data)

def run(args):
    result = subprocess.run([tool] + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            timeout=20)
    error = result.stderr.decode("utf-8", "replace")
    if result.returncode not in (0, 1, 2) or "Sanitizer" in error or "runtime error" in error:
        return "exit status %d: %s" % (result.returncode, error[:2000])
    if result.returncode == 2 and not error.startswith("sampler-report: "):
        return "status 2 without a message: %r" % error[:200]
    return None

case_path = os.path.join(scratch, "fuzz.input")
binaries = ["--binary", os.path.join(scratch, "demo-prog"),
            "--binary", os.path.join(scratch, "libsize.so")]
failures = 0
cases = 0
for round in range(rounds):
    for kind in ("report", "sites", "binary", "random"):
        if kind == "report":
            data = mutate(inputs["run.report"])
            args = ["show", case_path] + binaries
        elif kind == "sites":
            data = mutate(inputs[rng.choice(["main.sites", "util.sites"])])
            args = ["show", os.path.join(scratch, "run.report"), "--sites", case_path]
        elif kind == "binary":
            original = inputs[rng.choice(["main.o", "demo-prog"])]
            data = bytearray(original)
            # Headers and section tables are where damage is interesting.
            for _ in range(rng.randint(1, 6)):
                region = rng.choice([(0, 64), (max(0, len(data) - 2048), len(data)),
                                     (0, len(data))])
                position = rng.randrange(*region)
                data[position] = rng.randrange(256)
            if rng.random() < 0.2:
                data = data[:rng.randrange(len(data))]
            data = bytes(data)
            args = ["show", os.path.join(scratch, "run.report"), "--binary", case_path,
                    "--format=" + rng.choice(["text", "csv", "jsonl"])]
        else:
            data = bytes(rng.randrange(256) for _ in range(rng.randint(0, 300)))
            args = ["show", case_path]
        with open(case_path, "wb") as out:
            out.write(data)
        cases += 1
        problem = run(args)
        if problem:
            failures += 1
            kept = os.path.join(scratch, "fuzz-failure-%d" % failures)
            os.rename(case_path, kept)
            print("%s case %d: %s" % (kind, round, problem))
print("%d cases, %d failures" % (cases, failures))
sys.exit(1 if failures else 0)
EOF
then
    pass "$fuzz_name: $(tail -n 1 "$scratch/fuzz.log")"
else
    fail "$fuzz_name" "$scratch/fuzz.log"
fi

finish
