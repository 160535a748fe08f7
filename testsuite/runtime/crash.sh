#!/bin/bash
# Crashes (crash.c): SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT, a
# stack overflow, a crash in a thread, the program's own handlers
# (installed after and before the runtime's, chained), a handler that
# recovers, an ignored signal: the exit status is the plain build's (and the
# core dump too, where core_pattern writes files), the report is complete
# and says "exit signal N", with the exact counts.  Dynamic and -static.
# CHECKS: bash $SRC dynamic
# CHECKS: bash $SRC static
. "$SRCDIR/lib.sh"
[ $core_files_kept = yes ] || echo "NOTE: core_pattern pipes cores to a program: core dumps not compared"
crash_test() {   # LABEL BINARY MODE EXPECTED_SIGNAL (0: exits with 0)
    local label=$1 bin=$2 mode=$3 signal=$4 dir=$scratch/crash-$1-$3 plain instrumented
    mkdir -p "$dir"
    local early=""
    [ "$mode" = early-handler ] && early=1
    (cd "$dir" && CRASH_EARLY_HANDLER=$early WANT_CORE=$core_files_kept \
        status_of "$dir.plain-status" "$bin.plain" "$mode" >/dev/null 2>&1)
    rm -f "$dir"/core*
    (cd "$dir" && SAMPLER_SPARSITY=1 SAMPLER_SEED=5 SAMPLER_FILE=$dir/r.report \
        CRASH_EARLY_HANDLER=$early WANT_CORE=$core_files_kept \
        status_of "$dir.status" "$bin" "$mode" >"$dir.out" 2>"$dir.err")
    plain=$(cat "$dir.plain-status") instrumented=$(cat "$dir.status")
    if [ $core_files_kept = no ]; then
        plain=${plain% core *} instrumented=${instrumented% core *}
    fi
    local expected_status="signal $signal"
    [ "$signal" = 0 ] && expected_status="exit 0"
    case $plain in
        "$expected_status"*) ;;
        *) fail_with "crash $label $mode: the plain build" "ends with '$plain', expected '$expected_status'"
           return ;;
    esac
    same "crash $label $mode: ends as the plain build (status and core)" "$plain" "$instrumented"
    rm -f "$dir"/core*
    if [ ! -f "$dir/r.report" ]; then
        fail_with "crash $label $mode: a report" "none in $dir: $(ls "$dir")"
        return
    fi
    local ending=$signal after=0
    [ "$signal" = 0 ] && { ending=status; after=50; }
    case $ending in
        status) ending="status 0" ;;
        *) ending="signal $ending" ;;
    esac
    same "crash $label $mode: complete report, its ending and counts" \
        "$ending|after_crash $after before_crash 200" \
        "$(record "$dir/r.report" exit)|$(checks "$dir/r.report" --binary "$bin" | tr '\n' ' ' | sed 's/ $//')"
    case $mode in
        handler | early-handler) same "crash $label $mode: the program's handler ran" \
                                     "handled" "$(cat "$dir.out")" ;;
    esac
}

crash_tests() {   # LABEL BINARY
    local sigsegv=11 sigbus=7 sigfpe=8 sigill=4 sigtrap=5 sigabrt=6
    crash_test "$1" "$2" segv $sigsegv
    crash_test "$1" "$2" bus $sigbus
    crash_test "$1" "$2" fpe $sigfpe
    crash_test "$1" "$2" ill $sigill
    crash_test "$1" "$2" trap $sigtrap
    crash_test "$1" "$2" abort $sigabrt
    crash_test "$1" "$2" stack $sigsegv
    crash_test "$1" "$2" thread $sigsegv
    crash_test "$1" "$2" handler $sigsegv
    crash_test "$1" "$2" early-handler $sigsegv
    crash_test "$1" "$2" recover 0
    crash_test "$1" "$2" ignore 0
}

bin=$scratch/bin/crash-$link
build crash "$bin" "${flags[@]}" && crash_tests $link "$bin"
finish
