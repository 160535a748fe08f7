# lib.sh, sourced by the cases of this folder (bash): the runtime in real
# programs built with the plugin (sampler-gcc) with
# -fplugin-arg-sampler-schemes=checks (the sampled functions' calls are the
# sites) and, where a case says so, also with -static; reports read back
# with sampler-report show --format=csv (checks counts by function called)
# or as text.
#   link              the case's first argument, dynamic or static
#   build NAME OUTPUT [FLAGS...]   NAME.c instrumented into OUTPUT, and
#                     without the plugin into OUTPUT.plain (a check)
#   checks REPORT [--binary FILE]...   "NAME COUNT" per sampled function
#   record REPORT NAME   the fields of its NAME records, one line each
#   status_of FILE COMMAND...   testsuite/tools/status-of.py
#   core_files_kept   yes when core_pattern writes files (cores compared)
. "$TOOLS/tally.sh"
set -u
scratch=$T
here=$SRCDIR
build=$BUILD
sgcc=$WRAPPER
report_tool=$REPORT
statcheck=$STAT_CHECK
ulimit -c 0
link=${1:-dynamic}
flags=()
[ "$link" = static ] && flags=(-static)
mkdir -p "$scratch/bin"

# build NAME OUTPUT [FLAGS...]: NAME.c instrumented; OUTPUT.plain without
# the plugin.
build() {
    local name=$1 out=$2
    shift 2
    if "$sgcc" -O2 -Wall -Wextra -fplugin-arg-sampler-schemes=checks -I"$build/include" \
            "$here/$name.c" -o "$out" -pthread "$@" >"$out.build" 2>&1 &&
       gcc -O2 -Wall -Wextra -I"$build/include" "$here/$name.c" -o "$out.plain" -pthread "$@" \
            >>"$out.build" 2>&1; then
        pass "build $name ${*:-}"
        return 0
    fi
    fail_with "build $name ${*:-}" "$(tail -n 20 "$out.build")"
    return 1
}

# checks REPORT [--binary FILE]...: one line per sampled function, "NAME
# COUNT": the checks counts of its calls, all units added up.
checks() {
    local report=$1
    shift
    "$report_tool" show "$report" "$@" --all --format=csv | python3 "$here/checks-by-function.py"
}

# record REPORT NAME: the fields of its NAME records, one line each.
record() { awk -F'\t' -v name="$2" '$1 == name { $1 = ""; print substr($0, 2) }' "$1"; }

status_of() { python3 "$TOOLS/status-of.py" "$@"; }

core_files_kept=no
case $(cat /proc/sys/kernel/core_pattern 2>/dev/null) in
    '|'* | '') ;;
    *) core_files_kept=yes ;;
esac
