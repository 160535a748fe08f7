#!/bin/bash
# Exits (exits.c): a fork child that ends with _exit, _Exit, quick_exit (its
# at_quick_exit handler's counts included) or __builtin__exit: its own
# report, exact, "exit _exit 7" or "exit quick_exit 7", read by
# sampler-report; the parent's report unaffected; a vfork child that calls
# _exit writes none.  Dynamic and -static.
# CHECKS: bash $SRC dynamic
# CHECKS: bash $SRC static
. "$SRCDIR/lib.sh"
# A fork child that ends with _exit, _Exit, quick_exit or __builtin__exit
# leaves its own report, exact; a vfork child writes none.
exits_test() {   # LABEL BINARY HOW
    local label=$1 bin=$2 how=$3 dir=$scratch/exits-$1-$3 out parent child
    mkdir -p "$dir"
    out=$(SAMPLER_SPARSITY=1 SAMPLER_FILE=$dir/r-%p "$bin" "$how" 2>"$dir.err")
    same "exits $label $how: the child's status reaches the parent, nothing on stderr" \
        "child 7|" "$out|$(cat "$dir.err")"
    parent=$(grep -L '^parent' "$dir"/r-* 2>/dev/null)
    child=$(grep -l '^parent' "$dir"/r-* 2>/dev/null)
    same "exits $label $how: the parent's report is unaffected" \
        "status 0|parent_work 1000" \
        "$(record "$parent" exit)|$(checks "$parent" --binary "$bin" | grep -v ' 0$' | tr '\n' ' ' | sed 's/ $//')"
    local ending="_exit 7" counts="child_work 1000"
    [ "$how" = quick_exit ] && ending="quick_exit 7" counts="child_work 1005"
    if [ "$how" = vfork ]; then
        same "exits $label vfork: no report from the vfork child" "1" "$(ls "$dir" | wc -l)"
        return
    fi
    same "exits $label $how: the child's own report, exact, says how it ended" \
        "$ending|$(basename "$parent" | sed 's/^r-//')|$counts" \
        "$(record "$child" exit)|$(record "$child" parent)|$(checks "$child" --binary "$bin" | grep -v ' 0$' | tr '\n' ' ' | sed 's/ $//')"
    same "exits $label $how: sampler-report reads it as an exit with status 7" \
        "exit      $ending" "$("$report_tool" show "$child" --binary "$bin" | grep '^exit ')"
    same "exits $label $how: rank --fail-if=status=7 finds the child failing, the parent not" \
        "runs        2: 1 failing, 1 successful (failure: --fail-if=status=7)" \
        "$("$report_tool" rank "$dir" --binary "$bin" --fail-if=status=7 2>&1 | head -n 1)"
}

bin=$scratch/bin/exits-$link
if build exits "$bin" "${flags[@]}"; then
    for how in _exit _Exit quick_exit builtin vfork; do
        exits_test $link "$bin" $how
    done
fi
finish
