#!/bin/sh
# The entry region's slow copy out of line (outline-entry): with
# outline-entry, a function with a loop and sites tail-calls its sampled
# clone from its entry check's slow entry, and has no slow copy of its
# entry region (entry.c).  The clone's sites are the function's: at
# sparsity 1 the counts equal those of the build without the option (same
# seed), and the report names no new function.  At sparsity 100 the entry
# region's sites (walk's `p.b > 10' and `first < 0', 3000 visits each) are
# sampled about 1 in 100 over five seeds.
# CHECKS: sh $SRC
. "$TOOLS/tally.sh"
cd "$T" || exit
outline_src=$SRCDIR/entry.c
outline_schemes=-fplugin-arg-sampler-schemes=branches,returns,scalar-pairs,function-entries
gcc -O2 "$outline_src" -o outline-plain && ./outline-plain >outline-want
for option in 0 1; do
    rm -f outline-dump
    if "$WRAPPER" -O2 $outline_schemes -fplugin-arg-sampler-outline-entry=$option \
            -fplugin-arg-sampler-dump=outline-dump \
            "$outline_src" -o "outline-$option" 2>out &&
       SAMPLER_SPARSITY=1 SAMPLER_SEED=1 SAMPLER_FILE=outline-$option.report \
            "./outline-$option" >outline-got 2>>out &&
       cmp -s outline-want outline-got &&
       "$REPORT" show "outline-$option.report" --format csv >"outline-$option.csv" 2>>out; then
        pass "outline-entry=$option: builds, runs at sparsity 1 with plain's output"
    else
        fail "outline-entry=$option: builds, runs at sparsity 1 with plain's output" out
    fi
done
objdump -d --no-show-raw-insn outline-1 >outline-1.s
if grep -q "entry region out of line: walk\.sampled\." outline-dump &&
   awk '/^[0-9a-f]+ <walk(\.cold)?>:/, /^$/' outline-1.s |
        grep -qE 'jmp +[0-9a-f]+ <walk\.sampled\.[0-9]+>' &&
   ! nm outline-0 | grep -q '\.sampled\.'; then
    pass "outline-entry: walk tail-calls walk.sampled from its entry check"
else
    grep -E "out of line|^function" outline-dump >out 2>&1
    nm outline-0 outline-1 | grep '\.sampled' >>out
    fail "outline-entry: walk tail-calls walk.sampled from its entry check" out
fi
if [ -s outline-0.csv ] && cmp -s outline-0.csv outline-1.csv &&
   ! grep -q '\.sampled' outline-1.csv; then
    pass "outline-entry: counts at sparsity 1 equal those without it"
else
    diff outline-0.csv outline-1.csv >out 2>&1
    fail "outline-entry: counts at sparsity 1 equal those without it" out
fi
entry_samples=0
for seed in 1 2 3 4 5; do
    rm -f outline-100.report
    SAMPLER_SPARSITY=100 SAMPLER_SEED=$seed SAMPLER_FILE=outline-100.report \
        ./outline-1 >outline-got 2>out
    cmp -s outline-want outline-got || entry_samples=-1000
    n=$("$REPORT" show outline-100.report --format csv 2>>out |
        awk -F, '$6 == "walk" && $7 == "branches" && ($8 == "p.b > 10" || $8 == "first < 0") { s += $10 }
                 END { print s + 0 }')
    entry_samples=$((entry_samples + n))
done
# 5 seeds x 2 sites x 3000 visits / 100: 300, standard deviation about 17.
if [ $entry_samples -ge 215 ] && [ $entry_samples -le 385 ]; then
    pass "outline-entry: entry region sampled at sparsity 100 ($entry_samples of about 300)"
else
    echo "entry region samples: $entry_samples, want 300 +- 85" >>out
    fail "outline-entry: entry region sampled at sparsity 100" out
fi
finish
