#!/bin/bash
# Bad rates files: the compile fails with an error naming FILE:LINE.
# CHECKS: bash $SRC
. "$SRCDIR/lib.sh"
d=$out/bad
mkdir -p "$d"
src=$here/weighted.c
good_site=$(printf 'site\t8\t%s\t%s\t15\tmain\tchecks\tcheck (...)' "$src" "$src")
bad_rates() {   # NAME EXPECTED-TEXT CONTENTS (printf format, no arguments)
    printf "$3" >"$d/$1.rates"
    if "$sgcc" -O2 -c -I"$TESTSUITE/runtime/sampling" -fplugin-arg-sampler-rates="$d/$1.rates" "$src" \
        -o "$d/$1.o" 2>"$d/$1.err"; then
        fail_with "bad rates: $1" "the compile succeeded"
    elif grep -q -- "$2" "$d/$1.err"; then
        pass "bad rates: $1" "$(grep -m1 -- "$2" "$d/$1.err" | sed "s|$d/||")"
    else
        fail_with "bad rates: $1" "expected '$2' in:" "$(cat "$d/$1.err")"
    fi
}
bad_rates empty "empty, not a rates file" ''
bad_rates not-rates "1: not a rates file" 'unit\t5\n'
bad_rates version "1: unknown rates file version" 'sampler-rates\t2\nunit\t1\n'
bad_rates no-unit "no .unit. record" 'sampler-rates\t1\n'
bad_rates unit-zero "2: .unit. takes one whole number from 1 to 4096" 'sampler-rates\t1\nunit\t0\n'
bad_rates unit-big "2: .unit. takes one whole number" 'sampler-rates\t1\nunit\t4097\n'
bad_rates unit-text "2: .unit. takes one whole number" 'sampler-rates\t1\nunit\tten\n'
bad_rates unit-twice "3: a second .unit. record" 'sampler-rates\t1\nunit\t2\nunit\t2\n'
bad_rates site-first "2: a .site. before the .unit. record" "sampler-rates\t1\n$good_site\n"
bad_rates fields "3: a .site. record has 8 fields, not 7" \
    'sampler-rates\t1\nunit\t2\nsite\t1\ta.c\ta.c\t3\tmain\tchecks\n'
bad_rates weight-negative "3: the weight .-1. is not a whole number from 0 to 1048576" \
    'sampler-rates\t1\nunit\t2\nsite\t-1\ta.c\ta.c\t3\tmain\tchecks\tp\n'
bad_rates weight-big "3: the weight .1048577. is not" \
    'sampler-rates\t1\nunit\t2\nsite\t1048577\ta.c\ta.c\t3\tmain\tchecks\tp\n'
bad_rates weight-zeros "3: the weight .007. is not" \
    'sampler-rates\t1\nunit\t2\nsite\t007\ta.c\ta.c\t3\tmain\tchecks\tp\n'
bad_rates line "3: the line .x3. is not a whole number" \
    'sampler-rates\t1\nunit\t2\nsite\t1\ta.c\ta.c\tx3\tmain\tchecks\tp\n'
bad_rates scheme "3: unknown scheme .no-such." \
    'sampler-rates\t1\nunit\t2\nsite\t1\ta.c\ta.c\t3\tmain\tno-such\tp\n'
bad_rates escape "3: a bad escape" \
    'sampler-rates\t1\nunit\t2\nsite\t1\ta.c\ta.c\t3\tmain\tchecks\tp\\q\n'
bad_rates empty-function "3: an empty source, file or function" \
    'sampler-rates\t1\nunit\t2\nsite\t1\ta.c\ta.c\t3\t\tchecks\tp\n'
bad_rates record "3: unknown record .rate." 'sampler-rates\t1\nunit\t2\nrate\t1\n'
bad_rates truncated "3: the last line has no newline" \
    'sampler-rates\t1\nunit\t2\nsite\t1\ta.c\ta.c\t3\tmain\tchecks\tp'
name="bad rates: missing file"
if "$sgcc" -c -fplugin-arg-sampler-rates="$d/none.rates" "$src" -I"$TESTSUITE/runtime/sampling" \
    -o "$d/x.o" 2>"$d/none.err"; then
    fail_with "$name" "the compile succeeded"
elif grep -q "cannot read the rates file .*none.rates" "$d/none.err"; then
    pass "$name" "$(grep -m1 'cannot read' "$d/none.err" | sed "s|$d/||")"
else
    fail_with "$name" "$(cat "$d/none.err")"
fi
printf 'sampler-rates\t1\nunit\t2\n' >"$d/ok.rates"
name="bad rates: pairs-sites=pair refused"
if "$sgcc" -c -fplugin-arg-sampler-rates="$d/ok.rates" -fplugin-arg-sampler-pairs-sites=pair \
    "$src" -I"$TESTSUITE/runtime/sampling" -o "$d/x.o" 2>"$d/pair.err"; then
    fail_with "$name" "the compile succeeded"
elif grep -q "needs .pairs-sites=assignment." "$d/pair.err"; then
    pass "$name" "$(grep -m1 'pairs-sites' "$d/pair.err")"
else
    fail_with "$name" "$(cat "$d/pair.err")"
fi
finish
