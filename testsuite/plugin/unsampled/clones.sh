#!/bin/sh
# With sampling off, every way into an instrumented function ends in its
# unsampled clone: a direct call from main, a call through a pointer,
# another unit's function, functions returning aggregates (through a
# pointer), a thread's start routine, after a function with variable
# arguments (which has no clone) ran, and through a pointer from a
# function that calls setjmp, entered instrumented (it is not cloned); a
# static function called only from instrumented ones runs only as a clone
# (inlined as plain inlines it), one called from a function without sites
# dispatches; a function that gets its sites from the IPA inliner
# dispatches too (clones.c, other.c).  The plain probe (probe.c) prints its
# return address, which addr2line names; a check function's call must not
# run.  Sampling at 1 runs the instrumented functions; with unsampled=0
# there is no clone.  A clone calls the clone of another unit's function
# directly, and the plain probe's unit, without a clone, through a weak
# jump.
# CHECKS: sh $SRC
. "$TOOLS/tally.sh"
gcc -O2 -c "$SRCDIR/probe.c" -o "$T/probe.o"
copies_ran () {
    SAMPLER_FILE="$T/clone-report.%p" "$T/clones" |
        while read -r what addr rest; do
            if [ "$what" = total ]; then
                echo "$what $addr $rest"
            else
                # Without the suffixes of IPA's copies (helper's clone
                # may be specialised for its one caller) and of cold parts.
                echo "$what $(addr2line -f -e "$T/clones" "$addr" | head -n 1 |
                    sed -E 's/\.(constprop|isra|part)\.[0-9]+//g; s/\.cold$//')"
            fi
        done | tr '\n' ' '
}
for unsampled in 1 0; do
    if ! "$WRAPPER" -O2 -no-pie -fplugin-arg-sampler-schemes=checks,branches \
            -fplugin-arg-sampler-unsampled=$unsampled \
            "$SRCDIR/clones.c" "$SRCDIR/other.c" \
            "$T/probe.o" -lpthread -o "$T/clones" >"$T/out" 2>&1; then
        fail "unsampled=$unsampled: compile" "$T/out"
        continue
    fi
    if [ $unsampled = 1 ]; then
        objdump -d "$T/clones" |
            awk '/<main\.unsampled\.0>:/, /^$/' >"$T/main-clone.s"
        if grep -q 'call.*<other_unit\.unsampled\.0>' "$T/main-clone.s" &&
                nm "$T/clones" | grep -q ' T other_unit\.unsampled\.0$' &&
                nm "$T/clones" | grep -q ' W probe\.unsampled\.0$'; then
            pass "a clone calls another unit's clone directly, and a plain unit through a fallback"
        else
            nm "$T/clones" | grep unsampled | cat - "$T/main-clone.s" >"$T/out"
            fail "a clone calls another unit's clone directly, and a plain unit through a fallback" "$T/out"
        fi
    fi
    for sparsity in unset 0 1; do
        if [ $sparsity = unset ]; then
            got=$(unset SAMPLER_SPARSITY; copies_ran)
        else
            got=$(SAMPLER_SPARSITY=$sparsity copies_ran)
        fi
        if [ $unsampled = 1 ] && [ $sparsity != 1 ]; then
            want="direct direct.unsampled.0 pointer by_pointer.unsampled.0 other other_unit.unsampled.0 protected in_protected.unsampled.0 pair make_pair.unsampled.0 big make_big.unsampled.0 helper helper.unsampled.0 once main.unsampled.0 from_plain from_plain.unsampled.0 interpret interpret.unsampled.0 op_call interpret.unsampled.0 uncopied_callee uncopied_callee.unsampled.0 uncopied_pointee uncopied_pointee.unsampled.0 other other_unit.unsampled.0 gains gains_once.unsampled.0 thread thread_main.unsampled.0 total 9 checks 0 "
        elif [ $sparsity = 1 ]; then
            want="direct direct pointer by_pointer other other_unit protected in_protected pair make_pair big make_big helper helper once main from_plain from_plain interpret interpret op_call interpret uncopied_callee uncopied_callee uncopied_pointee uncopied_pointee other other_unit gains gains_sites thread thread_main total 18 checks 1 "
        else
            want="direct direct pointer by_pointer other other_unit protected in_protected pair make_pair big make_big helper helper once main from_plain from_plain interpret interpret op_call interpret uncopied_callee uncopied_callee uncopied_pointee uncopied_pointee other other_unit gains gains_sites thread thread_main total 9 checks 0 "
        fi
        if [ "$got" = "$want" ]; then
            pass "unsampled=$unsampled, sparsity $sparsity: the right copies ran"
        else
            printf 'want: %s\ngot:  %s\n' "$want" "$got" >"$T/out"
            fail "unsampled=$unsampled, sparsity $sparsity: the right copies ran" "$T/out"
        fi
    done
done
finish
