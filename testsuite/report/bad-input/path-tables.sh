#!/bin/sh
# Damaged path tables (the paths scheme's, after the site table in a
# site-table file), read by `paths' (lib.sh): unknown records, regions that
# do not tile the numbers, bad edges, unclosed tables, bad signatures, bad
# exits.  The program is path-program.c.
# CHECKS: sh $SRC
. "$SRCDIR/lib.sh"
table_part 3-report-5-path-tables
wrapper=$WRAPPER
if "$wrapper" -O1 -fplugin-arg-sampler-schemes=paths \
        -fplugin-arg-sampler-site-table="$scratch/paths.sites" "$SRCDIR/path-program.c" \
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

finish
