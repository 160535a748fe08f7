#!/bin/sh
# Damaged site tables (--sites) given to show and merge (lib.sh): unknown
# schemes, missing fields, counter totals, unclosed units, sites out of
# order, bad numbers, bounds without their kind, counter names, escapes, two
# tables with one signature, files of other kinds.
# CHECKS: sh $SRC
. "$SRCDIR/lib.sh"
table_part 3-report-4-site-tables
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
sites_case "unknown scheme" "scheme:2: unknown scheme 'colours' \(known: $("$TOOLS/scheme-names.sh" ', ')\)" "$(bad scheme)"
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

finish
