# tally.sh: what every script that reports checks shares, sourced by it (a
# case's CHECKS command, testsuite/tools/run-cases, or a suite's runner):
#   pass NAME [DETAIL]     counts a pass: "PASS: NAME" (" -- DETAIL")
#   fail NAME [FILE]       counts a failure: "FAIL: NAME", then the end of
#                          FILE (what went wrong), indented
#   fail_with NAME LINE... counts a failure, then the LINEs, indented
#   skip NAME REASON       counts a test that could not run here (neither
#                          passed nor failed): "SKIP: NAME: REASON"
#   check NAME COMMAND...  passes when COMMAND succeeds; fails with its output
#                          (in $scratch, or the case's $T)
#   same NAME EXPECTED ACTUAL  passes when the two texts are equal
#   finish                 run alone: prints "N skipped" (if any), then "N
#                          passed, N failed", and exits 1 if any failed;
#                          under run-cases (RUN_CASES set), which counts the
#                          lines, exits 0: the script ran to its end
# Messages from the tools are compared in the C locale.
LC_ALL=C
export LC_ALL
passed=0
failed=0
skipped=0

pass () { passed=$((passed + 1)); echo "PASS: $1${2:+ -- $2}"; }

fail () {
    failed=$((failed + 1))
    echo "FAIL: $1"
    if [ -n "${2-}" ] && [ -f "$2" ]; then tail -n 60 "$2" | sed 's/^/    /'; fi
    return 0
}

skip () { skipped=$((skipped + 1)); echo "SKIP: $1: $2"; }

fail_with () {
    failed=$((failed + 1))
    echo "FAIL: $1"
    shift
    for line in "$@"; do printf '%s\n' "$line" | sed 's/^/    | /'; done
}

check () {
    local name=$1 log=${scratch:-$T}/check.log
    shift
    if "$@" >"$log" 2>&1; then pass "$name"; else fail "$name" "$log"; fi
}

same () {
    if [ "$2" = "$3" ]; then pass "$1"; else fail_with "$1" "expected:" "$2" "got:" "$3"; fi
}

finish () {
    [ -z "${RUN_CASES-}" ] || exit 0
    [ "$skipped" = 0 ] || echo "$skipped skipped"
    echo "$passed passed, $failed failed"
    [ "$failed" = 0 ]
    exit $?
}
