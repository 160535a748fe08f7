#!/bin/sh
# C++ names (issue 37): names.cc, built with the plugin (every scheme) at
# -O0 and -O2, must give each function of the site table its readable name
# (scope, signature, template arguments as a reader writes them) and its
# symbol (names.expected); sampler-report must show the names, and the
# symbols in CSV, JSON and on hover in HTML (check-outputs.py).  A C
# program's table must keep its ten fields a site, and its CSV no symbol
# column.
# CHECKS: sh $SRC
. "$TOOLS/tally.sh"
here=$SRCDIR
scratch=$T
build=$BUILD
report=$REPORT

# The site table's functions and their symbols (the symbol field, or the
# name when the record has none), one pair a line, sorted.
table_names () {
    awk -F'\t' '$1 == "site" { print $7 "\t" (NF == 11 ? $11 : $7) }' "$1" | sort -u
}

for opt in -O0 -O2; do
    label="names.cc $opt"
    rm -f "$scratch/sites" "$scratch/report"
    if ! SAMPLER_GCC=g++ "$build/bin/sampler-gcc" $opt -fplugin-arg-sampler-schemes=all \
            -fplugin-arg-sampler-site-table="$scratch/sites" \
            "$here/names.cc" -o "$scratch/names" 2>"$scratch/err"; then
        fail "$label: instrumented build" "$scratch/err"
        continue
    fi
    table_names "$scratch/sites" >"$scratch/names.got"
    if diff "$here/names.expected" "$scratch/names.got" >"$scratch/diff"; then
        pass "$label: site table names and symbols"
    else
        fail "$label: site table names and symbols" "$scratch/diff"
    fi
    if ! SAMPLER_SPARSITY=1 SAMPLER_SEED=3 SAMPLER_FILE="$scratch/report" "$scratch/names" \
            >/dev/null 2>"$scratch/err"; then
        fail "$label: instrumented run" "$scratch/err"
        continue
    fi
    for format in text csv jsonl; do
        "$report" show "$scratch/report" --format=$format >"$scratch/show.$format" \
            2>"$scratch/err" || fail "$label: show --format=$format" "$scratch/err"
    done
    # At -O2 every function is inlined into main: one function has paths.
    page=- shown="text, csv and jsonl"
    if [ $opt = -O0 ]; then
        page="$scratch/paths.html" shown="text, csv, jsonl and html"
        "$report" paths "$scratch/report" --top=1000000 --format=html >"$page" \
            2>"$scratch/err" || fail "$label: paths --format=html" "$scratch/err"
    fi
    check "$label: names and symbols in $shown" \
        python3 "$here/check-outputs.py" "$here/names.expected" "$scratch/show.text" \
        "$scratch/show.csv" "$scratch/show.jsonl" "$page"
done

# C: no symbol field, no symbol column.
cat >"$scratch/plain.c" <<'CEOF'
static int twice (int x) { return x > 3 ? 2 * x : x; }
int main (void) { return twice (2) - 2; }
CEOF
rm -f "$scratch/sites" "$scratch/report"
if "$build/bin/sampler-gcc" -O2 -fplugin-arg-sampler-schemes=all \
        -fplugin-arg-sampler-site-table="$scratch/sites" "$scratch/plain.c" \
        -o "$scratch/plain" 2>"$scratch/err"; then
    check "C: every site record has ten fields, the function's name" \
        awk -F'\t' '$1 == "site" && (NF != 10 || ($7 != "main" && $7 != "twice")) { print; bad = 1 }
                    END { exit bad }' "$scratch/sites"
    SAMPLER_SPARSITY=1 SAMPLER_FILE="$scratch/report" "$scratch/plain"
    "$report" show "$scratch/report" --format=csv >"$scratch/plain.csv" 2>"$scratch/err"
    check "C: the csv has no symbol column" \
        grep -qx 'unit,site,file,line,column,function,scheme,predicate,counter,count,rate,estimate' \
        "$scratch/plain.csv"
else
    fail "C: instrumented build" "$scratch/err"
fi
finish
