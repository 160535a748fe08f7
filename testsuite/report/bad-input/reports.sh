#!/bin/sh
# Damaged reports given to show and merge (lib.sh): not a report, other
# versions, line ends, truncations, bad numbers, duplicate records, bad
# exit kinds, unknown records, NUL bytes, sites out of range or twice, bad
# signatures, a unit unlike its table, data after the end, and the
# 'loaded' records that name indirect-call targets and the 'region'
# records that class pointers.
# CHECKS: sh $SRC
. "$SRCDIR/lib.sh"
table_part 3-report-1-reports
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

finish
