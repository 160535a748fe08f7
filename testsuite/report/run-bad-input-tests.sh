#!/bin/sh
# Bad input, everywhere a user gives some: every plugin argument, every
# SAMPLER_* variable and every kind of file sampler-report reads (reports,
# aggregates, label files and --fail-if rules, site tables, binaries).
# Each malformed value is tried for real and must get its message (checked
# against a pattern) and nothing else: the compile fails with no object
# written; the program runs as it would uninstrumented, with no report;
# sampler-report exits 2 with one line naming the file and line, prints
# nothing on stdout and writes no output file.
# Writes the table of what was tried and what each gets, as Markdown with
# the messages as they were printed, to BUILD_DIR/bad-input-table.md.
# Usage: run-bad-input-tests.sh BUILD_DIR   (prints "N passed, N failed")

build=$(cd "${1:?usage: run-bad-input-tests.sh BUILD_DIR}" && pwd) || exit 2
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../tools/tally.sh"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/sampler-bad-input.XXXXXX") || exit 2
trap 'rm -rf "$scratch"' EXIT
plugin=$("$build/bin/sampler-gcc" -print-sampler-plugin) || exit 2
wrapper="$build/bin/sampler-gcc"
tool="$build/bin/sampler-report"
corpus="$here/../fuzz/corpus"    # real reports, tables and objects
table="$build/bad-input-table.md"

# row INPUT TRIED OUTCOME: one line of the table, scratch paths cut.
row () {
    tried=$(printf '%s' "$2" | sed "s|$scratch/||g; s/|/\\\\|/g")
    outcome=$(printf '%s' "$3" | sed "s|$scratch/||g; s/|/\\\\|/g")
    printf '| %s | %s | %s |\n' "$1" "$tried" "$outcome" >>"$table"
}
section () {
    printf '\n**%s**\n\n| Input | Tried | What it gets |\n|---|---|---|\n' "$1" >>"$table"
}
: >"$table"

# --- Plugin arguments -------------------------------------------------------
printf 'int f (int x) { if (x > 1) return 2; return 3; }\n' >"$scratch/unit.c"
section "Plugin arguments (gcc -fplugin=sampler.so, or sampler-gcc)"
# plugin_case ARGUMENT PATTERN: the compile of a unit with a site fails
# saying PATTERN, and writes no object.
plugin_case () {
    rm -f "$scratch/x.o"
    if gcc -fplugin="$plugin" -fplugin-arg-sampler-schemes=branches "$1" -c "$scratch/unit.c" \
            -o "$scratch/x.o" >"$scratch/out" 2>&1; then
        fail "plugin $1: compile should have failed" "$scratch/out"
        return
    fi
    message=$(grep -m1 'error:' "$scratch/out" | sed 's/^.*error: //')
    if [ -e "$scratch/x.o" ]; then
        fail "plugin $1: an object was written"
    elif printf '%s\n' "$message" | grep -Eq -- "$2"; then
        pass "plugin $1"
        row "$(printf '%s' "$1" | sed 's/=.*//')" "\`$1\`" "error \`$message\`; no object"
    else
        fail "plugin $1: error does not match '$2'" "$scratch/out"
    fi
}
plugin_case -fplugin-arg-sampler-colour=red \
    "unknown argument .-fplugin-arg-sampler-colour.; accepted: schemes,"
plugin_case -fplugin-arg-sampler-schemes=checks,brnaches \
    "unknown scheme .brnaches. in .-fplugin-arg-sampler-schemes=checks,brnaches.; accepted schemes: checks,"
plugin_case -fplugin-arg-sampler-schemes=checks, "unknown scheme .. in"
plugin_case -fplugin-arg-sampler-schemes "schemes. needs a value: a comma-separated list of"
for key in include-function exclude-function include-file exclude-file; do
    plugin_case -fplugin-arg-sampler-$key "$key. needs a value: a name or fnmatch pattern"
done
plugin_case -fplugin-arg-sampler-weightless "weightless. needs a value: a comma-separated list of function names"
plugin_case -fplugin-arg-sampler-pairs-limit=lots "bad value .lots. in .-fplugin-arg-sampler-pairs-limit=lots.; accepted: a whole number from 0 to 1000"
plugin_case -fplugin-arg-sampler-pairs-limit=1001 "bad value .1001.*from 0 to 1000"
plugin_case "-fplugin-arg-sampler-pairs-limit= 5" "bad value . 5.*from 0 to 1000"
plugin_case -fplugin-arg-sampler-pairs-limit=+5 "bad value .\+5.*from 0 to 1000"
plugin_case -fplugin-arg-sampler-region-limit=-3 "bad value .-3.*region-limit=-3.*from 0 to 100000"
plugin_case -fplugin-arg-sampler-region-limit=99999999999999999999 "bad value .99999999999999999999.*from 0 to 100000"
plugin_case -fplugin-arg-sampler-pad-limit "pad-limit. needs a value: a whole number from 0 to 100000"
plugin_case -fplugin-arg-sampler-pad-limit=0x10 "bad value .0x10.*from 0 to 100000"
plugin_case -fplugin-arg-sampler-paths-array=0 "bad value .0.*paths-array=0.*from 1 to 4096"
plugin_case -fplugin-arg-sampler-paths-array=4097 "bad value .4097.*from 1 to 4096"
plugin_case -fplugin-arg-sampler-paths-max "paths-max. needs a value: a whole number from 1 to 1000000"
plugin_case -fplugin-arg-sampler-paths-max=4k "bad value .4k.*from 1 to 1000000"
for key in pairs-constants unsampled verbose; do
    plugin_case -fplugin-arg-sampler-$key=yes "bad value .yes. in .-fplugin-arg-sampler-$key=yes.; accepted: no value, 1 or 0"
done
plugin_case -fplugin-arg-sampler-site-table "site-table. needs a value: a file name"
plugin_case -fplugin-arg-sampler-dump "dump. needs a value: a file name"
mkdir -p "$scratch/a-directory"
plugin_case -fplugin-arg-sampler-site-table="$scratch/a-directory" \
    "cannot (open|write).*a-directory"
plugin_case -fplugin-arg-sampler-site-table="$scratch/missing/table" \
    "cannot (open|write).*missing/table"
plugin_case -fplugin-arg-sampler-dump="$scratch/a-directory" "cannot (open|write).*a-directory"

# --- Environment ------------------------------------------------------------
section "Environment of an instrumented program"
cat >"$scratch/prog.c" <<'EOF'
#include <stdio.h>
int main (int argc, char **argv)
{
  int n = 0;
  for (int i = 0; i < 1000; i++)
    if (i % 7 == argc)
      n++;
  printf ("%d\n", n);
  return 3;
}
EOF
if ! "$wrapper" -O1 -fplugin-arg-sampler-schemes=branches "$scratch/prog.c" -o "$scratch/prog" \
        >"$scratch/out" 2>&1; then
    fail "build the environment test program" "$scratch/out"
fi
(cd "$scratch" && env -u SAMPLER_SPARSITY ./prog >plain.out 2>plain.err; echo $? >plain.status)
mkdir -p "$scratch/reports"
# env_case VARIABLE VALUE PATTERN: with sampling asked for
# (SAMPLER_SPARSITY=1, the report in reports/), VARIABLE=VALUE gets one
# warning matching PATTERN; the program's output and status are plain's,
# and no report is written.
env_case () {
    rm -rf "$scratch/reports"/* "$scratch/reports"/.[!.]* 2>/dev/null
    (cd "$scratch" && env SAMPLER_SPARSITY=1 SAMPLER_FILE="$scratch/reports/r.report" "$1=$2" \
        ./prog >env.out 2>env.err </dev/null; echo $? >env.status)
    name="$1=$(printf '%.40s' "$2")"
    if ! cmp -s "$scratch/plain.out" "$scratch/env.out" \
            || ! cmp -s "$scratch/plain.status" "$scratch/env.status"; then
        fail "env $name: output or status differs from the plain run" "$scratch/env.err"
    elif [ "$(wc -l <"$scratch/env.err")" != 1 ] || ! grep -Eq -- "$3" "$scratch/env.err"; then
        fail "env $name: warning does not match '$3'" "$scratch/env.err"
    elif [ -n "$(ls -A "$scratch/reports")" ]; then
        fail "env $name: a report was written: $(ls -A "$scratch/reports")"
    else
        pass "env $name"
        shown=$2
        [ ${#shown} -gt 40 ] && shown="$(printf '%.20s' "$2")... (${#2} bytes)"
        message=$(sed 's/\(expected [^;]\{60\}\)[^;]*;/\1...;/' "$scratch/env.err")
        row "$1" "\`$shown\`" "warning \`$message\`; program unchanged, no report"
    fi
}
off="sampling is off"
for value in -1 abc 1e3 " 5" 1000000001 99999999999999999999; do
    env_case SAMPLER_SPARSITY "$value" \
        "^sampler: ignoring SAMPLER_SPARSITY='$value': expected 0 \(off\) or a whole number from 1 to 1000000000; $off\$"
done
for value in -3 x 18446744073709551616; do
    env_case SAMPLER_SEED "$value" \
        "^sampler: ignoring SAMPLER_SEED='$value': expected a whole number from 0 to 18446744073709551615; $off\$"
done
env_case SAMPLER_FILE "r-%q.report" "^sampler: ignoring SAMPLER_FILE='r-%q.report': expected a path shorter than 4096 bytes where '%' is followed only by"
env_case SAMPLER_FILE "r-%" "^sampler: ignoring SAMPLER_FILE='r-%': expected a path"
long=$(printf '%05000d' 0)
env_case SAMPLER_FILE "$long" "^sampler: ignoring SAMPLER_FILE='0+\.\.\.': expected a path shorter than 4096 bytes"
for value in -1 3x 2147483648; do
    env_case SAMPLER_REPORT_FD "$value" \
        "^sampler: ignoring SAMPLER_REPORT_FD='$value': expected the number of an open file descriptor, from 0 to 2147483647; $off\$"
done
env_case SAMPLER_REPORT_FD 99 "^sampler: ignoring SAMPLER_REPORT_FD='99': file descriptor 99 is not open for writing; $off\$"
env_case SAMPLER_REPORT_FD 0 "^sampler: ignoring SAMPLER_REPORT_FD='0': file descriptor 0 is not open for writing; $off\$"
for value in -1 1.5 31536001; do
    env_case SAMPLER_INTERVAL "$value" \
        "^sampler: ignoring SAMPLER_INTERVAL='$value': expected 0 \(no interim reports\) or a whole number of seconds from 1 to 31536000; $off\$"
done
# Two bad variables: one line each.
(cd "$scratch" && env SAMPLER_SPARSITY=x SAMPLER_SEED=y ./prog >env.out 2>env.err)
if [ "$(grep -c '^sampler: ignoring SAMPLER_\(SPARSITY\|SEED\)=' "$scratch/env.err")" = 2 ]; then
    pass "env: two bad variables, two warnings"
else
    fail "env: two bad variables, two warnings" "$scratch/env.err"
fi
# A report that cannot be written where asked: said so, the program unchanged.
(cd "$scratch" && env SAMPLER_SPARSITY=1 SAMPLER_FILE=/proc/self/no-such/r.report ./prog \
    >env.out 2>env.err; echo $? >env.status)
if cmp -s "$scratch/plain.out" "$scratch/env.out" \
        && cmp -s "$scratch/plain.status" "$scratch/env.status" \
        && grep -q "^sampler: cannot write report to '/proc/self/no-such/r.report': " "$scratch/env.err"; then
    pass "env: unwritable SAMPLER_FILE"
    row SAMPLER_FILE "\`/proc/self/no-such/r.report\`" \
        "\`$(cat "$scratch/env.err")\` at exit; program unchanged"
else
    fail "env: unwritable SAMPLER_FILE" "$scratch/env.err"
fi
# An existing path is never overwritten: the report goes beside it.
(cd "$scratch" && env SAMPLER_SPARSITY=1 SAMPLER_FILE="$scratch/a-directory" ./prog \
    >env.out 2>env.err)
if [ -f "$scratch/a-directory.1" ] && [ -d "$scratch/a-directory" ] && [ ! -s "$scratch/env.err" ] \
        && "$tool" show "$scratch/a-directory.1" --sites /dev/null >/dev/null 2>&1; [ $? -le 1 ]; then
    pass "env: SAMPLER_FILE naming a directory"
    row SAMPLER_FILE "\`a-directory\` (a directory)" "the report goes to \`a-directory.1\` (an existing path is never replaced); the directory is untouched"
else
    fail "env: SAMPLER_FILE naming a directory" "$scratch/env.err"
fi

# --- sampler-report ---------------------------------------------------------
report="$scratch/good.report"
cp "$corpus/report/dense.report-2" "$report"
sites="$corpus/sites/program"
aggregate="$scratch/good.aggregate"
cp "$corpus/aggregate/one" "$aggregate"
# tool_case INPUT-KIND WHAT PATTERN COMMAND-ARGUMENTS...: sampler-report
# exits 2 with one line on stderr matching PATTERN, nothing on stdout, and
# writes no output (the arguments may name $scratch/out as --output).
tool_case () {
    kind=$1 what=$2 pattern=$3
    shift 3
    rm -rf "$scratch/out"
    "$tool" "$@" >"$scratch/tool.out" 2>"$scratch/tool.err"
    status=$?
    name="$kind: $what ($1)"
    if [ $status != 2 ]; then
        fail "$name: exit status $status, expected 2" "$scratch/tool.err"
    elif [ "$(wc -l <"$scratch/tool.err")" != 1 ] || ! grep -Eq -- "$pattern" "$scratch/tool.err"; then
        fail "$name: message does not match '$pattern'" "$scratch/tool.err"
    elif [ -s "$scratch/tool.out" ] || [ -e "$scratch/out" ] || ls "$scratch" | grep -q '^out\.tmp'; then
        fail "$name: output was written"
    else
        pass "$name"
        message=$(sed "s|$scratch/||g; s|$corpus/||g" "$scratch/tool.err")
        if [ "$what" != "$last_what" ]; then
            row "$kind" "$what" "\`$message\`; exit 2, nothing written"
        fi
        last_what=$what
    fi
}
# bad NAME: a file to damage, in the scratch directory.
bad () { printf '%s' "$scratch/$1"; }
# A report, damaged one way each; show and merge must both refuse it.
report_case () {
    what=$1 pattern=$2 file=$3
    tool_case Report "$what" "$pattern" show "$file" --sites "$sites"
    tool_case Report "$what" "$pattern" merge "$file" --sites "$sites" -o "$scratch/out"
}
section "Files given to sampler-report (show, merge, rank, export)"
: >"$(bad empty)"
report_case "empty file" "empty:1: not a sampler report \(empty file\)" "$(bad empty)"
report_case "no such file" "nothing-here: No such file or directory" "$(bad nothing-here)"
report_case "an ELF object instead" "prog-object:1: not a sampler report \(it looks like an ELF file: pass programs, libraries and objects with --binary\)" "$corpus/elf/prog-object"
tool_case Report "a directory given to show" "a-directory: Is a directory" show "$scratch/a-directory"
report_case "a site table instead" "program:1: not a sampler report \(it looks like a site table: pass it with --sites\)" "$sites"
sed 's/^sampler-report\t1$/sampler-report\t2/' "$report" >"$(bad version)"
report_case "version 2" "version:1: unsupported report version '2' \(this sampler-report reads version 1\)" "$(bad version)"
sed 's/$/\r/' "$report" >"$(bad crlf)"
report_case "CRLF line ends" "crlf:1: unsupported report version '1\\\\x0d'" "$(bad crlf)"
sed '$d' "$report" >"$(bad no-end)"
report_case "last line ('end') missing" "no-end:[0-9]+: truncated report \(no 'end' line\)" "$(bad no-end)"
head -c 300 "$report" >"$(bad cut)"
report_case "cut short mid-line" "cut:[0-9]+: truncated report \(no 'end' line\)" "$(bad cut)"
sed 's/^pid\t.*/pid\t12x/' "$report" >"$(bad pid)"
report_case "pid 12x" "pid:3: bad number '12x' for pid" "$(bad pid)"
sed 's/^sparsity\t.*/sparsity\t99999999999999999999999/' "$report" >"$(bad sparsity)"
report_case "sparsity 99999999999999999999999" "sparsity:4: sparsity '99999999999999999999999' too large \(at most 18446744073709551615\)" "$(bad sparsity)"
sed 's/^pid\t.*/&\n&/' "$report" >"$(bad dup-pid)"
report_case "pid twice" "dup-pid:4: duplicate 'pid' record" "$(bad dup-pid)"
sed 's/^exit\t.*/exit\tsignal\t0/' "$report" >"$(bad signal0)"
report_case "exit signal 0" "signal0:[0-9]+: signal 0 is not a signal" "$(bad signal0)"
sed 's/^exit\t.*/exit\tkilled\t9/' "$report" >"$(bad exit-kind)"
report_case "exit killed 9" "exit-kind:[0-9]+: bad exit kind 'killed' \(expected status, signal, exec, _exit or quick_exit\)" "$(bad exit-kind)"
sed 's/^seed\t.*/&\ncolour\tred/' "$report" >"$(bad unknown)"
report_case "unknown record" "unknown:6: unknown record 'colour'" "$(bad unknown)"
awk '/^unit/ && !done { print; print "1\t0\x00\t0"; done = 1; next } { print }' "$report" >"$(bad nul)"
report_case "NUL byte in a line" "nul:[0-9]+: NUL byte in line" "$(bad nul)"
awk '/^unit/ && !done { print; print "999\t1"; done = 1; next } { print }' "$report" >"$(bad site-range)"
report_case "site index out of range" "site-range:[0-9]+: site index 999 out of range \(unit [0-9a-f]{32} has [0-9]+ sites\)" "$(bad site-range)"
awk '/^unit/ && !done { print; print "0\t1"; print "0\t1"; done = 1; next } /^0\t/ && done == 1 { done = 2; next } { print }' "$report" >"$(bad dup-site)"
report_case "a site twice" "dup-site:[0-9]+: duplicate site 0 of unit [0-9a-f]{32} \(first at line [0-9]+\)" "$(bad dup-site)"
sed 's/^\(unit\t[0-9a-f]\{31\}\)[0-9a-f]/\1G/' "$report" >"$(bad signature)"
report_case "bad unit signature" "signature:[0-9]+: bad unit signature '[0-9a-f]{31}G' \(expected 32 lowercase hex digits\)" "$(bad signature)"
sed 's/^\(unit\t[0-9a-f]*\t\)\([0-9]*\)/\11\2/' "$report" >"$(bad unit-size)"
report_case "a unit's site count unlike its table's" "unit-size:[0-9]+: unit [0-9a-f]{32} has [0-9]+ sites and [0-9]+ counters, but its site table at .*program:[0-9]+ has" "$(bad unit-size)"
awk '/^unit/ { u++ } u == 1 && /^[0-9]/ && !done { print $0 "\t7"; done = 1; next } { print }' "$report" >"$(bad counters)"
report_case "a site with a counter too many" "counters:[0-9]+: site [0-9]+ of unit [0-9a-f]{32} has [0-9]+ counters, its site table has [0-9]+" "$(bad counters)"
{ cat "$report"; echo extra; } >"$(bad after-end)"
report_case "data after 'end'" "after-end:[0-9]+: data after 'end'" "$(bad after-end)"
# loaded records (the objects that name indirect-call targets).
loaded_case () {   # WHAT PATTERN NAME RECORD: RECORD after the exit record
    awk -v record="$4" '{ print } /^exit\t/ { print record }' "$report" >"$(bad "$3")"
    report_case "$1" "$3:[0-9]+: $2" "$(bad "$3")"
}
loaded_case "'loaded' with 4 fields" "'loaded' record has 4 fields, expected 5" loaded-fields "$(printf 'loaded\t0\t4096\t/bin/true')"
loaded_case "'loaded' start not below end" "loaded object's start address 8192 is not below its end address 4096" loaded-range "$(printf 'loaded\t0\t8192\t4096\t/bin/true')"
loaded_case "'loaded' start below base" "loaded object's start address 4096 is below its load address 8192" loaded-base "$(printf 'loaded\t8192\t4096\t9000\t/bin/true')"
loaded_case "'loaded' without a path" "loaded object without a path" loaded-path "$(printf 'loaded\t0\t4096\t8192\t')"
loaded_case "'loaded' address 0x1000" "bad number '0x1000' for load address" loaded-hex "$(printf 'loaded\t0x1000\t4096\t8192\t/bin/true')"
awk '{ print } /^unit\t/ && !done { print "loaded\t0\t4096\t8192\t/bin/true"; done = 1 }' "$report" >"$(bad loaded-late)"
report_case "'loaded' after a unit" "loaded-late:[0-9]+: 'loaded' record after the first 'object' or 'unit' record" "$(bad loaded-late)"
awk '/^exit\t/ { print "loaded\t0\t4096\t8192\t/bin/true" } { print }' "$report" >"$(bad loaded-early)"
report_case "an 'exit' record after 'loaded'" "loaded-early:[0-9]+: 'exit' record after a 'loaded' or 'region' record" "$(bad loaded-early)"
# region records (where the heap and stack were, for pointers' values).
loaded_case "'region' with 3 fields" "'region' record has 3 fields, expected 4" region-fields "$(printf 'region\theap\t4096')"
loaded_case "'region' of kind data" "'region' record of kind 'data', expected heap or stack" region-kind "$(printf 'region\tdata\t4096\t8192')"
loaded_case "'region' start not below end" "region's start address 8192 is not below its end address 4096" region-range "$(printf 'region\tstack\t8192\t4096')"
loaded_case "'region' address 0x1000" "bad number '0x1000' for start address" region-hex "$(printf 'region\theap\t0x1000\t8192')"
awk '{ print } /^unit\t/ && !done { print "region\theap\t4096\t8192"; done = 1 }' "$report" >"$(bad region-late)"
report_case "'region' after a unit" "region-late:[0-9]+: 'region' record after the first 'object' or 'unit' record" "$(bad region-late)"
sed 's/^sampler-report\t1$/\xef\xbb\xbf&/' "$report" >"$(bad bom)"
report_case "UTF-8 byte order mark" "bom:1: not a sampler report \(the first line must be 'sampler-report<TAB>1'\)" "$(bad bom)"

# Aggregates (what merge writes).
aggregate_case () {
    what=$1 pattern=$2 file=$3
    tool_case Aggregate "$what" "$pattern" merge "$file" -o "$scratch/out"
    tool_case Aggregate "$what" "$pattern" export "$file" -o "$scratch/out"
}
sed '1s/\t1$/\t7/' "$aggregate" >"$(bad agg-version)"
aggregate_case "version 7" "agg-version:1: unsupported aggregate version '7' \(this sampler-report reads version 1\)" "$(bad agg-version)"
sed '$d' "$aggregate" >"$(bad agg-cut)"
aggregate_case "last line missing" "agg-cut:[0-9]+: truncated aggregate \(no 'aggregate-end' line\)" "$(bad agg-cut)"
sed '/^runs$/,$d' "$aggregate" >"$(bad agg-tables)"
aggregate_case "only its site tables" "agg-tables:[0-9]+: truncated aggregate \(no 'runs' line after the site tables\)" "$(bad agg-tables)"
sed 's/^aggregate-end\t.*/aggregate-end\t5/' "$aggregate" >"$(bad agg-count)"
aggregate_case "run count 5 at the end" "agg-count:[0-9]+: the aggregate says it has 5 runs, but holds 1" "$(bad agg-count)"
sed 's/^run\t.*/run/' "$aggregate" >"$(bad agg-run)"
aggregate_case "'run' without its origin" "agg-run:[0-9]+: expected 'run<TAB>ORIGIN' before each report of an aggregate, found 'run'" "$(bad agg-run)"
sed '0,/^site\t0\t/s/\(^site\t0\t[^\t]*\t[^\t]*\t\)\([0-9]*\)/\19\2/' "$aggregate" >"$(bad agg-table)"
tool_case Aggregate "a site table unlike --sites'" "agg-table:2: unit [0-9a-f]{32} differs from the table with the same signature at" merge "$(bad agg-table)" --sites "$sites" -o "$scratch/out"
{ cat "$aggregate"; echo more; } >"$(bad agg-after)"
aggregate_case "data after 'aggregate-end'" "agg-after:[0-9]+: data after 'aggregate-end'" "$(bad agg-after)"

# Label files (--labels) and failure rules (--fail-if), with export.
labels_case () {
    what=$1 pattern=$2
    tool_case Labels "$what" "$pattern" export "$report" --sites "$sites" --labels "$scratch/labels" -o "$scratch/out"
}
printf 'passed\t%s\n' "$report" >"$scratch/labels"
labels_case "outcome 'passed'" "labels:1: expected 'success' or 'failure', a TAB and a report"
printf 'success %s\n' "$report" >"$scratch/labels"
labels_case "space instead of TAB" "labels:1: expected 'success' or 'failure', a TAB and a report"
printf 'success\t%s\nfailure\t%s\n' "$report" "$report" >"$scratch/labels"
labels_case "a run labelled twice" "labels:2: second label for '.*good.report' \(first at line 1\)"
printf 'success\t%s\nfailure\t%s/other.report\n' "$report" "$scratch" >"$scratch/labels"
labels_case "a label naming no run" "labels:2: '.*other.report' is labelled, but no run was read from it"
printf 'success\t%s/other.report\n' "$scratch" >"$scratch/labels"
labels_case "a run without a label" "good.report: no label for this run in .*labels"
printf 'success\tgood\\q.report\n' >"$scratch/labels"
labels_case "bad escape" "labels:1: bad escape '\\\\q' in report \(only"
: >"$scratch/labels"
labels_case "empty file" "labels: no labels"
cp "$report" "$scratch/labels"
labels_case "a report instead" "labels:1: not a label file \(it looks like a report\)"
for rule in signal=0 status=256 status=5-2 exit "signal,"; do
    tool_case "--fail-if" "$rule" "bad failure condition '.*' in '$rule' \(expected signal, signal=N, status=N or status=N-M, N from 0 to 255, comma-separated\)" \
        export "$report" --sites "$sites" --fail-if="$rule" -o "$scratch/out"
done

# Site tables (--sites), with show and merge.
# on_first_site SED-COMMAND: the site table with its first site line edited.
on_first_site () {
    line=$(grep -n -m1 '^site' "$sites" | cut -d: -f1)
    sed "${line}$1" "$sites"
}
sites_case () {
    what=$1 pattern=$2 file=$3
    tool_case "Site table" "$what" "$pattern" show "$report" --sites "$file"
    tool_case "Site table" "$what" "$pattern" merge "$report" --sites "$file" -o "$scratch/out"
}
on_first_site 's/^\(site\t[0-9]*\t\)[a-z-]*/\1colours/' >"$(bad scheme)"
sites_case "unknown scheme" "scheme:2: unknown scheme 'colours' \(known: $("$here/../tools/scheme-names.sh" ', ')\)" "$(bad scheme)"
on_first_site 's/\t[^\t]*$//' >"$(bad fields)"
sites_case "a field missing" "fields:2: 'site' record has 9 fields, expected 10" "$(bad fields)"
sed '0,/^unit\t/s/\t[0-9]*$/\t99/' "$sites" >"$(bad total)"
sites_case "counter total unlike the sites'" "total:[0-9]+: unit [0-9a-f]{32} declares 99 counters, its sites have [0-9]+" "$(bad total)"
sed '0,/^end$/{/^end$/d}' "$sites" >"$(bad unclosed)"
sites_case "a unit not closed by 'end'" "unclosed:[0-9]+: unit [0-9a-f]{32} not closed by 'end' before the next 'unit'" "$(bad unclosed)"
sed '0,/^site\t1\t/s/^site\t1\t/site\t5\t/' "$sites" >"$(bad order)"
sites_case "sites out of order" "order:3: site index 5 out of order \(expected 1\)" "$(bad order)"
on_first_site 's/^\(\([^\t]*\t\)\{4\}\)[0-9]*/\1twelve/' >"$(bad line)"
sites_case "line 'twelve'" "line:2: bad number 'twelve' for line" "$(bad line)"
sed '0,/(unsigned)/s/ (unsigned)//' "$sites" >"$(bad bound)"
sites_case "bounds predicate without its kind" "bound:[0-9]+: bounds site [0-9]+: predicate '.*' does not end with \(signed\), \(unsigned\) or \(double\)" "$(bad bound)"
on_first_site 's/entered$/entered,again/' >"$(bad names)"
sites_case "counter names unlike the count" "names:2: site 0 declares 1 counters but names 2" "$(bad names)"
on_first_site 's/\tlib_sum ()\t/\tlib_sum (\\x)\t/' >"$(bad escape)"
sites_case "bad escape" "escape:2: bad escape '\\\\x' in predicate" "$(bad escape)"
on_first_site 's/^\(site\t0\t\([^\t]*\t\)\{2\}\)[0-9]*/\1999/' >"$(bad other)"
tool_case "Site table" "two different tables, one signature" "other:1: unit [0-9a-f]{32} differs from the table with the same signature at .*program:1" \
    show "$report" --sites "$sites" --sites "$(bad other)"
sites_case "a report instead" "good.report:1: not a site table \(it looks like a report\)" "$report"
sites_case "an ELF object instead" "prog-object:1: not a site table \(it looks like an ELF file: pass programs, libraries and objects with --binary\)" "$corpus/elf/prog-object"
sites_case "an aggregate instead" "good.aggregate:1: not a site table \(it looks like an aggregate: give it to merge, rank or export\)" "$aggregate"

# Path tables (the paths scheme), after the site table in a site-table
# file: read by `paths', damaged one way each.
printf 'int g (int x) { if (x > 1) x = 3 * x; else x = x + 7; return x; }\nint main (int c, char **v) { (void) v; return g (c) & 1; }\n' >"$scratch/paths.c"
if "$wrapper" -O1 -fplugin-arg-sampler-schemes=paths \
        -fplugin-arg-sampler-site-table="$scratch/paths.sites" "$scratch/paths.c" \
        -o "$scratch/paths-prog" 2>"$scratch/paths.err" &&
   SAMPLER_SPARSITY=1 SAMPLER_FILE="$scratch/paths.report" "$scratch/paths-prog"; [ -s "$scratch/paths.report" ]; then
    paths_case () {
        tool_case "Path table" "$1" "$2" paths "$scratch/paths.report" --sites "$3"
    }
    path_table="$scratch/paths.sites"
    sed 's/^block\t/blocks\t/' "$path_table" >"$(bad path-record)"
    paths_case "unknown record in a function's paths" "path-record:[0-9]+: unknown record 'blocks' in the paths of [a-z]+" "$(bad path-record)"
    sed '0,/^region\t/s/^\(region\t[0-9]*\t\)0\t/\15\t/' "$path_table" >"$(bad path-range)"
    paths_case "regions that do not tile the numbers" "path-range:[0-9]+: paths of [a-z]+: region at block [0-9]+ has paths 5 to 5 \+ [0-9]+, which do not follow the previous region's" "$(bad path-range)"
    sed '0,/^edge\t/s/^\(edge\t[0-9]*\t[0-9]*\t[0-9]*\t\)[a-z-]*/\1sideways/' "$path_table" >"$(bad path-how)"
    paths_case "an edge that leaves by 'sideways'" "path-how:[0-9]+: paths of [a-z]+: an edge leaves its block by 'sideways', not true, false, switch or -" "$(bad path-how)"
    sed '/^pathunitend$/d' "$path_table" >"$(bad path-open)"
    paths_case "a path table not closed" "path-open:[0-9]+: path table without its 'pathunitend'" "$(bad path-open)"
    sed 's/^\(pathunit\t[0-9a-f]*\)[0-9a-f]$/\1G/' "$path_table" >"$(bad path-signature)"
    paths_case "bad signature" "path-signature:[0-9]+: bad unit signature '[0-9a-f]{31}G' \(expected 32 lowercase hex digits\)" "$(bad path-signature)"
    sed '0,/^exit\t/s/^exit\t\([0-9]*\)\t/exit\t\1\tx\t/' "$path_table" >"$(bad path-fields)"
    paths_case "an exit with a field too many" "path-fields:[0-9]+: 'exit' record with 5 fields, not 4" "$(bad path-fields)"
else
    fail "path table: build or run of paths.c" "$scratch/paths.err"
fi

# Binaries (--binary, or a report's own program).
binary_case () {
    what=$1 pattern=$2 file=$3
    tool_case Binary "$what" "$pattern" show "$report" --binary "$file"
    tool_case Binary "$what" "$pattern" merge "$report" --binary "$file" -o "$scratch/out"
}
object="$corpus/elf/prog-object"
binary_case "a site table instead" "program: not an ELF file \(it looks like a site table: pass it with --sites\)" "$sites"
binary_case "a report instead" "good.report: not an ELF file \(it looks like a report\)" "$report"
binary_case "a directory" "a-directory: not a regular file" "$scratch/a-directory"
binary_case "no such file" "nothing-here: No such file or directory" "$(bad nothing-here)"
head -c 40 "$object" >"$(bad elf-header)"
binary_case "cut inside the ELF header" "elf-header: truncated ELF header" "$(bad elf-header)"
head -c 3000 "$object" >"$(bad elf-cut)"
binary_case "cut before its section headers" "elf-cut: section header table lies outside the file \(truncated or damaged ELF file\)" "$(bad elf-cut)"
# ELF identification bytes: class (4) and data encoding (5).
patch_byte () {   # patch_byte FILE OFFSET OCTAL-VALUE OUT
    cp "$1" "$4" && printf "\\$3" | dd of="$4" bs=1 seek="$2" conv=notrunc 2>/dev/null
}
patch_byte "$object" 4 001 "$(bad elf32)"
binary_case "32-bit ELF" "elf32: 32-bit ELF files are not supported \(only ELF64\)" "$(bad elf32)"
patch_byte "$object" 5 002 "$(bad elf-be)"
binary_case "big-endian ELF" "elf-be: big-endian ELF files are not supported \(only little-endian\)" "$(bad elf-be)"
patch_byte "$object" 58 020 "$(bad elf-shentsize)"
binary_case "section header size 16" "elf-shentsize: unexpected section header size 16" "$(bad elf-shentsize)"
if objcopy --compress-debug-sections=zlib "$object" "$(bad compressed)" 2>/dev/null; then
    binary_case "its site tables compressed" "compressed: section .debug_sampler_sites is compressed, which sampler-report does not read; decompress it with objcopy --decompress-debug-sections" "$(bad compressed)"
fi
objcopy --remove-section=.debug_sampler_sites "$object" "$(bad no-tables)"
rm -rf "$scratch/out"
"$tool" merge "$report" --binary "$(bad no-tables)" -o "$scratch/out" >"$scratch/tool.out" 2>"$scratch/tool.err"
status=$?
if [ $status = 2 ] && grep -q "note: .*no-tables has no .debug_sampler_sites section (stripped, or built without the sampler plugin)" "$scratch/tool.err" \
        && grep -q "no site table found; pass the program or library with --binary" "$scratch/tool.err" \
        && [ ! -e "$scratch/out" ]; then
    pass "Binary: no site tables"
    row Binary "without .debug_sampler_sites" "$(sed "s|$scratch/||g; s|$corpus/||g; s/^/\`/; s/$/\`/" "$scratch/tool.err" | paste -sd ' ' -); exit 2, nothing written"
else
    fail "Binary: no site tables (exit $status)" "$scratch/tool.err"
fi

finish
