#!/bin/bash
# Broken interesting-paths files are rejected, naming FILE:LINE and what is
# wrong; a missing file cannot be read.
# CHECKS: bash $SRC
. "$SRCDIR/lib.sh"
# Broken files: NAME, CONTENTS, the message expected.
dir=$scratch/bad; mkdir -p "$dir"
bad() {
    printf "$2" >"$dir/$1"
    if ! compile "$here/ppp.c" "$dir/$1.out" -O2 \
            -fplugin-arg-sampler-paths-interesting="$dir/$1" &&
       grep -qF -- "$3" "$dir/$1.out.build"; then
        pass "bad-$1: $3"
    else
        fail "bad-$1: expected \"$3\"" "$dir/$1.out.build"
    fi
}
bad header 'paths\n' "$dir/header:1: not an interesting-paths file"
bad version 'sampler-interesting-paths 2\n' "$dir/version:1: unknown interesting-paths file version"
bad record 'sampler-interesting-paths 1\nroute alias ppp.c 1\n' "$dir/record:2: unknown record"
bad step 'sampler-interesting-paths 1\npath alias ppp.c from:14 14:maybe exit:15\n' \
    "$dir/step:2: bad step '14:maybe'"
bad exit 'sampler-interesting-paths 1\npath alias ppp.c from:14 exit:15 14:true\n' \
    "$dir/exit:2: a path ends with its one 'exit:LINE' step"
bad from 'sampler-interesting-paths 1\npath alias ppp.c 14:true exit:15\n' \
    "$dir/from:2: expected 'path FUNCTION FILE from:LINE"
bad index 'sampler-interesting-paths 1\npath alias ppp.c from:13/0 13:true exit:25\n' \
    "$dir/index:2: expected 'path FUNCTION FILE from:LINE[/N]"
bad line 'sampler-interesting-paths 1\n\nline alias ppp.c twelve\n' \
    "$dir/line:3: expected 'line FUNCTION FILE LINE'"
bad truncated 'sampler-interesting-paths 1\nline alias ppp.c 12' \
    "$dir/truncated:2: the last line has no newline"
bad empty '' "$dir/empty: empty"
if ! compile "$here/ppp.c" "$dir/missing.out" -O2 \
        -fplugin-arg-sampler-paths-interesting="$dir/no-such-file" &&
   grep -qF "cannot read the interesting-paths file" "$dir/missing.out.build"; then
    pass "bad-missing: cannot read"
else
    fail "bad-missing" "$dir/missing.out.build"
fi
finish
