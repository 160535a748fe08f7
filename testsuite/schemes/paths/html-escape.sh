#!/bin/bash
# A source named a<b&"c.c: GCC cannot build it (an inline asm's line
# marker quotes the name as it is), so its site-table file is edited: the
# name and the source lines escaped in the page, which stays well-formed.
# CHECKS: bash $SRC
. "$TESTSUITE/schemes/paths/lib.sh"
# A source named a<b&"c.c: GCC cannot build it (an inline asm's line
# marker quotes the name as it is), so its site-table file is edited.
dir=$scratch/escape; mkdir -p "$dir"
cp "$here/shapes.c" "$dir/plain.c"
if (cd "$dir" && "$WRAPPER" -O2 -fplugin-arg-sampler-schemes=paths \
        -fplugin-arg-sampler-site-table=sites plain.c -o shapes) 2>"$dir/build"; then
    SAMPLER_SPARSITY=1 SAMPLER_FILE="$dir/r" "$dir/shapes" 2 >/dev/null
    sed 's/\tplain\.c\t/\ta<b\&"c.c\t/' "$dir/sites" >"$dir/sites2"
    cp "$here/shapes.c" "$dir/a<b&\"c.c"
    (cd "$dir" && "$report" paths r --sites sites2 --format=html --top=3) >"$dir/page.html" \
        2>"$dir/err"
    if grep -q 'a&lt;b&amp;&quot;c.c' "$dir/page.html" && ! grep -q 'a<b&"c.c' "$dir/page.html" &&
       python3 "$TOOLS/html-tables.py" "$dir/page.html" >"$dir/page.json" 2>>"$dir/err" &&
       python3 "$here/html-escape.py" "$dir/page.json" 2>>"$dir/err"; then
        pass "html-escape: a<b&\"c.c and its source escaped"
    else
        fail "html-escape" "$dir/err"
    fi
else
    fail "html-escape build" "$dir/build"
fi
finish
