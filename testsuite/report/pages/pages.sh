#!/bin/sh
# The HTML pages of a large program stay small.  A
# generated program of 2000 functions (make-many-functions.py), built with
# the branches, returns, paths and values schemes, run 6 times (3 failing),
# at sparsity 1 so that every function has paths and values:
#   paths     the page shows the 50 hottest functions and says how many more
#             (50 + that = the functions csv lists), is under 2 MB and parses
#   values    at most 50 sites, a line for the others, under 2 MB, parses
#   rank      under 2 MB and parses
#   all       paths with --functions=all shows every function
# A page parses when html.parser reads it and every element that must be
# closed is, in order (check-page.py).
# CHECKS: sh $SRC
# TIMEOUT: 1800
. "$TOOLS/tally.sh"
here=$SRCDIR
tool=$REPORT
scratch=$T
functions=2000
limit=2000000

cd "$scratch" || exit 2
python3 "$here/make-many-functions.py" $functions >many.c || exit 2
if ! "$WRAPPER" -O0 -fplugin-arg-sampler-schemes=branches,returns,paths,values \
        many.c -o many 2>build.err; then
    fail "build: $functions functions" build.err
    finish
    exit
fi
for run in 1 2 3; do
    SAMPLER_SPARSITY=1 SAMPLER_FILE=ok$run.report ./many 4
    SAMPLER_SPARSITY=1 SAMPLER_FILE=bad$run.report ./many 6 fail
done

# page NAME COMMAND...: the page of COMMAND under the limit and parsing;
# sets $headings to its count of h2.
page () {
    name=$1
    shift
    headings=
    if "$tool" "$@" --format=html >"$name.html" 2>err &&
       python3 "$here/check-page.py" "$name.html" $limit >check 2>>err; then
        headings=$(cut -d' ' -f2 check)
        return 0
    fi
    cat check >>err
    return 1
}

listed=$("$tool" paths ./*.report --binary many --format=csv 2>err | tail -n +2 |
         cut -d, -f3 | sort -u | wc -l)
if page paths paths ./*.report --binary many --source-dir . &&
   more=$(sed -n 's/^<p>\([0-9]*\) more functions not shown; use --functions=all<\/p>$/\1/p' \
              paths.html) &&
   [ "$headings" = 50 ] && [ $((50 + ${more:-0})) = "$listed" ] && [ "$listed" -gt $functions ]
then
    pass "paths: 50 of $listed functions on a page of $(wc -c <paths.html) bytes"
else
    fail_with "paths: page of 50 functions" "$headings headings, ${more:-no} more, $listed listed" \
        "$(cat err)"
fi
if page values values ./*.report --binary many &&
   [ "$headings" -le 50 ] && grep -q '^<p>[0-9]* more sites not shown; use --max-sites=all</p>$' \
       values.html; then
    pass "values: $headings sites on a page of $(wc -c <values.html) bytes"
else
    fail_with "values: page of at most 50 sites" "${headings:-no} headings" "$(cat err)"
fi
if page rank rank ./*.report --binary many; then
    pass "rank: a page of $(wc -c <rank.html) bytes"
else
    fail_with "rank: page" "$(cat err)"
fi
if "$tool" paths ./*.report --binary many --functions=all --format=html >all.html 2>err &&
   [ "$(grep -c '^<h2>' all.html)" = "$listed" ] && ! grep -q 'more functions' all.html; then
    pass "paths --functions=all: every function"
else
    fail_with "paths --functions=all" "$(grep -c '^<h2>' all.html) headings" "$(cat err)"
fi
finish
