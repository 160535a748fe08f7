#!/bin/sh
# Bad plugin arguments, each tried for real: the compile of a unit with a
# site fails with an error naming the argument and saying what is
# accepted, and writes no object.  The rows go to the table of bad input
# (testsuite/tools/bad-input-table.sh).
# CHECKS: sh $SRC
. "$TOOLS/tally.sh"
. "$TOOLS/bad-input-table.sh"
scratch=$T
plugin=$PLUGIN
table_part 1-plugin-arguments
section "Plugin arguments (gcc -fplugin=sampler.so, or sampler-gcc)"
# plugin_case ARGUMENT PATTERN: the compile of a unit with a site fails
# saying PATTERN, and writes no object.
plugin_case () {
    rm -f "$scratch/x.o"
    if gcc -fplugin="$plugin" -fplugin-arg-sampler-schemes=branches "$1" -c "$SRCDIR/one-site.c" \
            -o "$scratch/x.o" >"$scratch/out" 2>&1; then
        fail "plugin $1: compile should have failed" "$scratch/out"
        return
    fi
    message=$(grep -m1 'error:' "$scratch/out" | sed 's/^.*error: //')
    if [ -e "$scratch/x.o" ]; then
        fail "plugin $1: an object was written"
    elif printf '%s\n' "$message" | grep -Eq -- "$2"; then
        pass "plugin $1"
        row "$(printf '%s' "$1" | sed 's/=.*//')" "\`$1\`" "error \`$message\`; no object"
    else
        fail "plugin $1: error does not match '$2'" "$scratch/out"
    fi
}
plugin_case -fplugin-arg-sampler-colour=red \
    "unknown argument .-fplugin-arg-sampler-colour.; accepted: schemes,"
plugin_case -fplugin-arg-sampler-schemes=checks,brnaches \
    "unknown scheme .brnaches. in .-fplugin-arg-sampler-schemes=checks,brnaches.; accepted schemes: checks,"
plugin_case -fplugin-arg-sampler-schemes=checks, "unknown scheme .. in"
plugin_case -fplugin-arg-sampler-schemes "schemes. needs a value: a comma-separated list of"
for key in include-function exclude-function include-file exclude-file; do
    plugin_case -fplugin-arg-sampler-$key "$key. needs a value: a name or fnmatch pattern"
done
plugin_case -fplugin-arg-sampler-weightless "weightless. needs a value: a comma-separated list of function names"
plugin_case -fplugin-arg-sampler-pairs-limit=lots "bad value .lots. in .-fplugin-arg-sampler-pairs-limit=lots.; accepted: a whole number from 0 to 1000"
plugin_case -fplugin-arg-sampler-pairs-limit=1001 "bad value .1001.*from 0 to 1000"
plugin_case "-fplugin-arg-sampler-pairs-limit= 5" "bad value . 5.*from 0 to 1000"
plugin_case -fplugin-arg-sampler-pairs-limit=+5 "bad value .\+5.*from 0 to 1000"
plugin_case -fplugin-arg-sampler-region-limit=-3 "bad value .-3.*region-limit=-3.*from 0 to 100000"
plugin_case -fplugin-arg-sampler-region-limit=99999999999999999999 "bad value .99999999999999999999.*from 0 to 100000"
plugin_case -fplugin-arg-sampler-pad-limit "pad-limit. needs a value: a whole number from 0 to 100000"
plugin_case -fplugin-arg-sampler-pad-limit=0x10 "bad value .0x10.*from 0 to 100000"
plugin_case -fplugin-arg-sampler-paths-array=0 "bad value .0.*paths-array=0.*from 1 to 4096"
plugin_case -fplugin-arg-sampler-paths-array=4097 "bad value .4097.*from 1 to 4096"
plugin_case -fplugin-arg-sampler-paths-max "paths-max. needs a value: a whole number from 1 to 1000000"
plugin_case -fplugin-arg-sampler-paths-max=4k "bad value .4k.*from 1 to 1000000"
for key in pairs-constants unsampled verbose; do
    plugin_case -fplugin-arg-sampler-$key=yes "bad value .yes. in .-fplugin-arg-sampler-$key=yes.; accepted: no value, 1 or 0"
done
plugin_case -fplugin-arg-sampler-site-table "site-table. needs a value: a file name"
plugin_case -fplugin-arg-sampler-dump "dump. needs a value: a file name"
mkdir -p "$scratch/a-directory"
plugin_case -fplugin-arg-sampler-site-table="$scratch/a-directory" \
    "cannot (open|write).*a-directory"
plugin_case -fplugin-arg-sampler-site-table="$scratch/missing/table" \
    "cannot (open|write).*missing/table"
plugin_case -fplugin-arg-sampler-dump="$scratch/a-directory" "cannot (open|write).*a-directory"
finish
