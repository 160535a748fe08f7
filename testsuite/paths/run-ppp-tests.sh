#!/bin/bash
# run-ppp-tests.sh: preferential numbering of interesting paths
# (paths-interesting=FILE; docs/paths.md, "Preferential numbering").
#
# Usage: testsuite/paths/run-ppp-tests.sh BUILD_DIR
#
# Each test builds a program with the paths scheme as it is (the exact
# run, sparsity 1) and again with an interesting-paths file, and compares
# the two with check-ppp.py (exact counts, distinct numbers below the
# range, interesting paths counted in the array):
#   all(OPT)       shapes.c: every path of a training run interesting,
#                  paths-array=1 (so that no function fits its array):
#                  the rows equal the exact run's and nothing is lost
#   round-trip     shapes.c: train, --write-interesting --hot=2, rebuild:
#                  the interesting paths have their exact counts, every
#                  counted path exact
#   line           a hand-written `line' entry: every path through it
#   aliases        ppp.c: trained on two paths of eight, run on four: the
#                  other two share the interesting ones' numbers and are
#                  still counted as themselves
#   random         gen-cfgs.py (seed 11): 24 random functions, a random
#                  half of each one's paths interesting (seed 5), at -O2
#   bad-*          broken interesting-paths files are rejected, naming
#                  FILE:LINE and what is wrong
#   hot-usage      --hot without --write-interesting is a usage error
# The last line is "N passed, N failed"; exit status 1 if anything failed.
set -u
build=$(cd "$1" && pwd) || { echo "usage: $0 BUILD_DIR" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../tools/tally.sh"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/sampler-ppp.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
report=$build/bin/sampler-report

# SOURCE OUT ARGS...: builds from SOURCE's directory.
compile() {
    local source=$1 out=$2; shift 2
    (cd "$(dirname "$source")" && "$build/bin/sampler-gcc" -fchecking \
        -fplugin-arg-sampler-schemes=paths "$@" "$(basename "$source")" -o "$out") \
        2>"$out.build"
}
# PROG DIR NAME ARGS...: an exact run and its paths csv.
exact_run() {
    local prog=$1 dir=$2 name=$3; shift 3
    rm -f "$dir/$name.report"
    SAMPLER_SPARSITY=1 SAMPLER_FILE="$dir/$name.report" "$prog" "$@" >/dev/null
    "$report" paths "$dir/$name.report" --binary "$prog" --top=1000000 --format=csv \
        >"$dir/$name.csv" 2>"$dir/$name.err"
}
# NAME DIR CHECK-ARGS...: check-ppp.py on DIR's exact and preferred runs.
compare() {
    local name=$1 dir=$2; shift 2
    if python3 "$here/check-ppp.py" "$dir/exact.csv" "$dir/preferred.csv" \
            "$dir/dump" "$@" >"$dir/check" 2>&1; then
        pass "$name: $(tail -n 1 "$dir/check")"
    else
        fail "$name" "$dir/check"
    fi
}

for opt in -O0 -O2; do
    dir=$scratch/all$opt; mkdir -p "$dir"
    if compile "$here/shapes.c" "$dir/exact" $opt &&
       exact_run "$dir/exact" "$dir" exact 2 &&
       "$report" paths "$dir/exact.report" --binary "$dir/exact" \
           --write-interesting "$dir/interesting" >/dev/null 2>"$dir/write.err" &&
       compile "$here/shapes.c" "$dir/preferred" $opt -fplugin-arg-sampler-paths-array=1 \
           -fplugin-arg-sampler-paths-interesting="$dir/interesting" \
           -fplugin-arg-sampler-dump="$dir/dump" &&
       exact_run "$dir/preferred" "$dir" preferred 2; then
        compare "all($opt)" "$dir" --all
    else
        fail_with "all($opt) build" "$(cat "$dir"/*.build "$dir"/*.err 2>/dev/null | tail)"
    fi
done

# Train, keep each function's two hottest paths, rebuild.
dir=$scratch/round; mkdir -p "$dir"
if compile "$here/shapes.c" "$dir/exact" -O2 && exact_run "$dir/exact" "$dir" exact 2 &&
   "$report" paths "$dir/exact.report" --binary "$dir/exact" --hot=2 \
       --write-interesting "$dir/interesting" >/dev/null 2>"$dir/write.err" &&
   compile "$here/shapes.c" "$dir/preferred" -O2 -fplugin-arg-sampler-paths-array=2 \
       -fplugin-arg-sampler-paths-interesting="$dir/interesting" \
       -fplugin-arg-sampler-dump="$dir/dump" &&
   exact_run "$dir/preferred" "$dir" preferred 2; then
    if [ "$(grep -c '^path nested ' "$dir/interesting")" = 2 ] &&
       head -n 1 "$dir/interesting" | grep -qx 'sampler-interesting-paths 1'; then
        compare "round-trip" "$dir"
    else
        fail "round-trip: the file has not nested's two hottest paths" "$dir/interesting"
    fi
else
    fail_with "round-trip build" "$(cat "$dir"/*.build "$dir"/*.err 2>/dev/null | tail)"
fi

# Every path through line 33 of shapes.c (nested's `sink = 1').
dir=$scratch/line; mkdir -p "$dir"
printf 'sampler-interesting-paths 1\n# by hand\nline nested shapes.c 33\n' >"$dir/interesting"
if compile "$here/shapes.c" "$dir/exact" -O2 && exact_run "$dir/exact" "$dir" exact 2 &&
   compile "$here/shapes.c" "$dir/preferred" -O2 -fplugin-arg-sampler-paths-array=4 \
       -fplugin-arg-sampler-paths-interesting="$dir/interesting" \
       -fplugin-arg-sampler-dump="$dir/dump" &&
   exact_run "$dir/preferred" "$dir" preferred 2; then
    if grep -q '^  preferred: 2 interesting paths, numbers 0\.\.1, compactness 1\.000, [0-9]* pairs, array' \
            "$dir/dump"; then
        compare "line" "$dir"
    else
        fail "line: nested's two paths through line 33 are not numbered 0 and 1" "$dir/dump"
    fi
else
    fail_with "line build" "$(cat "$dir"/*.build "$dir"/*.err 2>/dev/null | tail)"
fi

# Aliases: trained on all-true and all-false.
dir=$scratch/aliases; mkdir -p "$dir"
if compile "$here/ppp.c" "$dir/exact" -O2 && exact_run "$dir/exact" "$dir" train 0 &&
   "$report" paths "$dir/train.report" --binary "$dir/exact" \
       --write-interesting "$dir/interesting" >/dev/null 2>"$dir/write.err" &&
   exact_run "$dir/exact" "$dir" exact 1 &&
   compile "$here/ppp.c" "$dir/preferred" -O2 -fplugin-arg-sampler-paths-array=4 \
       -fplugin-arg-sampler-paths-interesting="$dir/interesting" \
       -fplugin-arg-sampler-dump="$dir/dump" &&
   exact_run "$dir/preferred" "$dir" preferred 1; then
    if grep -q '^  preferred: 2 interesting paths, numbers 0\.\.1' "$dir/dump" &&
       [ "$(grep -c '^ppp.c,[0-9]*,alias,' "$dir/preferred.csv")" = 4 ]; then
        compare "aliases" "$dir" --aliases
    else
        fail_with "aliases" "$(cat "$dir/dump")" "$(cat "$dir/preferred.csv")"
    fi
else
    fail_with "aliases build" "$(cat "$dir"/*.build "$dir"/*.err 2>/dev/null | tail)"
fi

# Random control flow, random interesting sets.
dir=$scratch/random; mkdir -p "$dir"
python3 "$here/gen-cfgs.py" 11 24 >"$dir/random.c"
if compile "$dir/random.c" "$dir/exact" -O2 -fplugin-arg-sampler-paths-array=4096 &&
   exact_run "$dir/exact" "$dir" exact 300 &&
   "$report" paths "$dir/exact.report" --binary "$dir/exact" \
       --write-interesting "$dir/all" >/dev/null 2>"$dir/write.err"; then
    python3 -c '
import random, sys
rng = random.Random(5)
lines = open(sys.argv[1]).read().splitlines()
print("\n".join(l for l in lines if not l.startswith("path ") or rng.random() < 0.5))
' "$dir/all" >"$dir/interesting"
    if compile "$dir/random.c" "$dir/preferred" -O2 -fplugin-arg-sampler-paths-array=8 \
           -fplugin-arg-sampler-paths-interesting="$dir/interesting" \
           -fplugin-arg-sampler-dump="$dir/dump" &&
       exact_run "$dir/preferred" "$dir" preferred 300; then
        compare "random" "$dir"
    else
        fail_with "random build" "$(cat "$dir"/*.build "$dir"/*.err 2>/dev/null | tail)"
    fi
else
    fail_with "random training" "$(cat "$dir"/*.build "$dir"/*.err 2>/dev/null | tail)"
fi

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

if "$report" paths "$scratch/round/exact.report" --hot=3 >"$dir/hot.out" 2>&1; then
    fail "hot-usage: --hot alone accepted" "$dir/hot.out"
elif grep -q -- "--hot goes with --write-interesting" "$dir/hot.out"; then
    pass "hot-usage: --hot goes with --write-interesting"
else
    fail "hot-usage" "$dir/hot.out"
fi

finish
