#!/bin/sh
# The red zone: a runtime call steps over the 128 bytes below the stack
# pointer, where a leaf function may keep data, and red-zone.cc takes that
# step out where the frame keeps nothing there.  red-zone.c's leaf keeps its
# volatile array in the red zone across its branch sites' calls: it must
# keep the step (a call without it overwrote the array: wrong sums at
# sparsity 1).  caller and main make calls, so they have no red zone and no
# step.
# The counters' address: a runtime call takes its site's counters by an
# address relative to the instruction pointer, loaded in the asm itself
# ("i" operand): no register of the function holds it.  In the large code
# model, where the data may be out of that reach, it goes through a
# register as other arguments do.  Either way the program runs as plain
# does.
# CHECKS: sh $SRC
. "$TOOLS/tally.sh"
cd "$T" || exit
: >out
gcc -O2 "$SRCDIR/red-zone.c" -o red-zone-plain 2>>out
./red-zone-plain >red-zone.expected 2>>out
# Without plain's sums there is nothing to compare with.
if [ ! -s red-zone.expected ]; then
    fail "red-zone program: plain build or run" out
elif "$WRAPPER" -O2 -fplugin-arg-sampler-schemes=branches,returns -S \
        "$SRCDIR/red-zone.c" -o red-zone.s 2>>out \
    && "$WRAPPER" -O2 -fplugin-arg-sampler-schemes=branches,returns \
        "$SRCDIR/red-zone.c" -o red-zone 2>>out; then
    # Per function, hot and cold parts together: the steps over the red
    # zone, and the accesses below the stack pointer.
    count() {
        awk -v fn="$1" -v pattern="$2" '
            /\.type.*@function/ { name = $2; sub(/,$/, "", name); sub(/\.cold$/, "", name) }
            name == fn && $0 ~ pattern { n++ }
            END { print n + 0 }' red-zone.s
    }
    step='lea -128[(]%rsp[)], %rsp'
    below=$(count leaf ', -[0-9]+[(]%rsp')
    echo "steps: leaf $(count leaf "$step"), caller $(count caller "$step"), main $(count main "$step"); leaf's accesses below the stack pointer: $below" >>out
    if [ "$(count leaf "$step")" -eq 0 ] || [ "$below" -eq 0 ] \
        || [ "$(count caller "$step")" -ne 0 ] || [ "$(count main "$step")" -ne 0 ]; then
        fail "the red-zone step is kept in a leaf that uses the red zone, and only there" out
    else
        pass "the red-zone step is kept in a leaf that uses the red zone, and only there"
    fi
    for sparsity in 0 1 3; do
        SAMPLER_SPARSITY=$sparsity SAMPLER_FILE="$T/red-zone-%p.report" ./red-zone \
            >red-zone.got 2>>out
        if cmp -s red-zone.expected red-zone.got; then
            pass "a leaf's red zone survives the runtime calls at sparsity $sparsity"
        else
            diff red-zone.expected red-zone.got >>out
            fail "a leaf's red zone survives the runtime calls at sparsity $sparsity" out
        fi
    done
else
    fail "red-zone program: compile" out
fi

for model in small large; do
    : >out
    if "$WRAPPER" -O2 -mcmodel=$model -fplugin-arg-sampler-schemes=branches,returns -S \
            "$SRCDIR/red-zone.c" -o model.s 2>>out \
        && "$WRAPPER" -O2 -mcmodel=$model -fplugin-arg-sampler-schemes=branches,returns \
            "$SRCDIR/red-zone.c" -o model 2>>out \
        && SAMPLER_SPARSITY=1 SAMPLER_FILE="$T/model-%p.report" ./model >model.got 2>>out \
        && [ -s red-zone.expected ] \
        && cmp -s red-zone.expected model.got; then
        direct=$(grep -c 'lea [0-9+]*__sampler_counters[0-9+]*(%rip), %rdi' model.s)
        calls=$(grep -c 'call \*__sampler_\(count\|branch\|sign\)' model.s)
        echo "calls $calls, counters loaded in the asm $direct" >>out
        if { [ $model = small ] && [ "$direct" -eq "$calls" ] && [ "$calls" -gt 0 ]; } \
            || { [ $model = large ] && [ "$direct" -eq 0 ]; }; then
            pass "counters' address in the $model code model"
        else
            fail "counters' address in the $model code model" out
        fi
    else
        fail "counters' address in the $model code model: build or run" out
    fi
done
finish
