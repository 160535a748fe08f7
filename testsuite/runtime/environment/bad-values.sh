#!/bin/sh
# Bad SAMPLER_* variables, each tried for real on prog.c: with sampling
# asked for, the program gets one warning line naming the variable and
# runs as it would uninstrumented (output and status), and no report is
# written; two bad variables, two warnings; a report that cannot be written
# where asked is said so at exit; an existing path is never replaced.  The
# rows go to the table of bad input (testsuite/tools/bad-input-table.sh).
# CHECKS: sh $SRC
. "$TOOLS/tally.sh"
. "$TOOLS/bad-input-table.sh"
scratch=$T
tool=$REPORT
table_part 2-environment
section "Environment of an instrumented program"
if ! "$WRAPPER" -O1 -fplugin-arg-sampler-schemes=branches "$SRCDIR/prog.c" -o "$scratch/prog" \
        >"$scratch/out" 2>&1; then
    fail "build the environment test program" "$scratch/out"
fi
mkdir -p "$scratch/a-directory"
(cd "$scratch" && env -u SAMPLER_SPARSITY ./prog >plain.out 2>plain.err; echo $? >plain.status)
mkdir -p "$scratch/reports"
# env_case VARIABLE VALUE PATTERN: with sampling asked for
# (SAMPLER_SPARSITY=1, the report in reports/), VARIABLE=VALUE gets one
# warning matching PATTERN; the program's output and status are plain's,
# and no report is written.
env_case () {
    rm -rf "$scratch/reports"/* "$scratch/reports"/.[!.]* 2>/dev/null
    (cd "$scratch" && env SAMPLER_SPARSITY=1 SAMPLER_FILE="$scratch/reports/r.report" "$1=$2" \
        ./prog >env.out 2>env.err </dev/null; echo $? >env.status)
    name="$1=$(printf '%.40s' "$2")"
    if ! cmp -s "$scratch/plain.out" "$scratch/env.out" \
            || ! cmp -s "$scratch/plain.status" "$scratch/env.status"; then
        fail "env $name: output or status differs from the plain run" "$scratch/env.err"
    elif [ "$(wc -l <"$scratch/env.err")" != 1 ] || ! grep -Eq -- "$3" "$scratch/env.err"; then
        fail "env $name: warning does not match '$3'" "$scratch/env.err"
    elif [ -n "$(ls -A "$scratch/reports")" ]; then
        fail "env $name: a report was written: $(ls -A "$scratch/reports")"
    else
        pass "env $name"
        shown=$2
        [ ${#shown} -gt 40 ] && shown="$(printf '%.20s' "$2")... (${#2} bytes)"
        message=$(sed 's/\(expected [^;]\{60\}\)[^;]*;/\1...;/' "$scratch/env.err")
        row "$1" "\`$shown\`" "warning \`$message\`; program unchanged, no report"
    fi
}
off="sampling is off"
for value in -1 abc 1e3 " 5" 1000000001 99999999999999999999; do
    env_case SAMPLER_SPARSITY "$value" \
        "^sampler: ignoring SAMPLER_SPARSITY='$value': expected 0 \(off\) or a whole number from 1 to 1000000000; $off\$"
done
for value in -3 x 18446744073709551616; do
    env_case SAMPLER_SEED "$value" \
        "^sampler: ignoring SAMPLER_SEED='$value': expected a whole number from 0 to 18446744073709551615; $off\$"
done
env_case SAMPLER_FILE "r-%q.report" "^sampler: ignoring SAMPLER_FILE='r-%q.report': expected a path shorter than 4096 bytes where '%' is followed only by"
env_case SAMPLER_FILE "r-%" "^sampler: ignoring SAMPLER_FILE='r-%': expected a path"
long=$(printf '%05000d' 0)
env_case SAMPLER_FILE "$long" "^sampler: ignoring SAMPLER_FILE='0+\.\.\.': expected a path shorter than 4096 bytes"
for value in -1 3x 2147483648; do
    env_case SAMPLER_REPORT_FD "$value" \
        "^sampler: ignoring SAMPLER_REPORT_FD='$value': expected the number of an open file descriptor, from 0 to 2147483647; $off\$"
done
env_case SAMPLER_REPORT_FD 99 "^sampler: ignoring SAMPLER_REPORT_FD='99': file descriptor 99 is not open for writing; $off\$"
env_case SAMPLER_REPORT_FD 0 "^sampler: ignoring SAMPLER_REPORT_FD='0': file descriptor 0 is not open for writing; $off\$"
for value in -1 1.5 31536001; do
    env_case SAMPLER_INTERVAL "$value" \
        "^sampler: ignoring SAMPLER_INTERVAL='$value': expected 0 \(no interim reports\) or a whole number of seconds from 1 to 31536000; $off\$"
done
# Two bad variables: one line each.
(cd "$scratch" && env SAMPLER_SPARSITY=x SAMPLER_SEED=y ./prog >env.out 2>env.err)
if [ "$(grep -c '^sampler: ignoring SAMPLER_\(SPARSITY\|SEED\)=' "$scratch/env.err")" = 2 ]; then
    pass "env: two bad variables, two warnings"
else
    fail "env: two bad variables, two warnings" "$scratch/env.err"
fi
# A report that cannot be written where asked: said so, the program unchanged.
(cd "$scratch" && env SAMPLER_SPARSITY=1 SAMPLER_FILE=/proc/self/no-such/r.report ./prog \
    >env.out 2>env.err; echo $? >env.status)
if cmp -s "$scratch/plain.out" "$scratch/env.out" \
        && cmp -s "$scratch/plain.status" "$scratch/env.status" \
        && grep -q "^sampler: cannot write report to '/proc/self/no-such/r.report': " "$scratch/env.err"; then
    pass "env: unwritable SAMPLER_FILE"
    row SAMPLER_FILE "\`/proc/self/no-such/r.report\`" \
        "\`$(cat "$scratch/env.err")\` at exit; program unchanged"
else
    fail "env: unwritable SAMPLER_FILE" "$scratch/env.err"
fi
# An existing path is never overwritten: the report goes beside it.
(cd "$scratch" && env SAMPLER_SPARSITY=1 SAMPLER_FILE="$scratch/a-directory" ./prog \
    >env.out 2>env.err)
if [ -f "$scratch/a-directory.1" ] && [ -d "$scratch/a-directory" ] && [ ! -s "$scratch/env.err" ] \
        && "$tool" show "$scratch/a-directory.1" --sites /dev/null >/dev/null 2>&1; [ $? -le 1 ]; then
    pass "env: SAMPLER_FILE naming a directory"
    row SAMPLER_FILE "\`a-directory\` (a directory)" "the report goes to \`a-directory.1\` (an existing path is never replaced); the directory is untouched"
else
    fail "env: SAMPLER_FILE naming a directory" "$scratch/env.err"
fi

finish
