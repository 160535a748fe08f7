#!/bin/bash
# interp.c, a synthetic interpreter, and nested.c, nested loops with
# data-dependent branches, at sparsity 100 (OSP's lengths, the default
# memory) over 20 seeds, combined: the top 5 subpaths of 4 and of 8 blocks
# are among the 10 commonest of their length in exact mode (found.py), and
# each of the 5 commonest of exact mode lies within its 95% Chernoff
# bounds in at least 19 of the 20 runs (bounds-cover.py).  For the
# interpreter, --format=jsonl and --format=html agree with csv on the
# sampled runs (formats-agree.py), and an interim report (SAMPLER_INTERVAL)
# while it runs carries the current hot-list.
# CHECKS: bash $SRC interp
# CHECKS: bash $SRC nested
. "$SRCDIR/lib.sh"
# The synthetic programs: the truth in exact mode, then 20 sampled runs.
program=$1
if build_program $program -O2 "$scratch/$program" -fplugin-arg-sampler-schemes=subpaths; then
    env $exact_env SAMPLER_SUBPATH_MAX=8 SAMPLER_FILE="$scratch/truth-$program.report" \
        "$scratch/$program" >/dev/null
    for length in 4 8; do
        subpath_rows "$scratch/$program" $length "$scratch/truth-$program.report" |
            cut -f 1,5 >"$scratch/truth$length"
    done
    for seed in $(seq 1 20); do
        SAMPLER_SPARSITY=100 SAMPLER_SEED=$seed SAMPLER_SUBPATH_MAX=8 \
            SAMPLER_FILE="$scratch/$program$seed.report" "$scratch/$program" >/dev/null
        for length in 4 8; do
            subpath_rows "$scratch/$program" $length "$scratch/$program$seed.report" \
                >"$scratch/sampled$length.$seed"
        done
    done
    for length in 4 8; do
        subpath_rows "$scratch/$program" $length "$scratch"/$program[0-9]*.report \
            >"$scratch/combined$length"
        # The top 5 combined, among the 10 commonest (ties included).
        if python3 "$here/found.py" "$scratch/truth$length" "$scratch/combined$length"
        then
            pass "$program-found($length blocks)"
        else
            fail "$program-found($length blocks)"
        fi
        if python3 "$here/bounds-cover.py" "$scratch/truth$length" "$scratch"/sampled$length.* >"$scratch/cover"
        then
            pass "$program-bounds($length blocks): $(cut -d' ' -f1,3- "$scratch/cover" | awk '{print $(NF-2)}' | tr '\n' ' ')of 20"
        else
            fail "$program-bounds($length blocks)" "$scratch/cover"
        fi
    done
else
    fail "build($program)" "$scratch/build.err"
fi
[ "$program" = interp ] || finish
# jsonl and html give the csv's subpaths on the sampled runs (Chernoff
# bounds).
formats interp "$scratch/interp" "$scratch"/interp[0-9]*.report

# An interim report (SAMPLER_INTERVAL) while the interpreter runs.
if [ -x "$scratch/interp" ]; then
    SAMPLER_SPARSITY=10 SAMPLER_INTERVAL=1 SAMPLER_FILE="$scratch/interim.report" \
        "$scratch/interp" 100000000 >/dev/null &
    pid=$!
    for wait in 1 2 3 4 5 6 7 8 9 10; do
        sleep 0.5
        grep -q '^interim	' "$scratch/interim.report" 2>/dev/null && break
    done
    cp "$scratch/interim.report" "$scratch/interim.copy" 2>/dev/null
    kill $pid
    wait $pid 2>/dev/null
    if grep -q '^interim	' "$scratch/interim.copy" 2>/dev/null &&
       grep -q '^subpaths	256	osp	' "$scratch/interim.copy" &&
       [ "$(grep -c '^subpath	' "$scratch/interim.copy")" -ge 5 ]; then
        pass "interim: the report written while the run went on has its hot-list"
    else
        fail "interim" "$scratch/interim.copy"
    fi
fi
finish
