#!/bin/bash
# Terminating signals (terminate.c): SIGTERM, SIGINT, SIGHUP, SIGQUIT,
# SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF
# at the default action: status and core as the plain build's, a complete
# report "exit signal N" with the exact counts; handlers installed after and
# before the runtime starts run (and the report is the one at exit), an
# ignored signal stays ignored, also one ignored when the program starts; a
# blocked signal taken by sigwait; a one-shot handler (SA_RESETHAND) then
# the default; yes | head (SIGPIPE); a server (in main, in a thread, or
# while another thread writes reports without pause) stopped by SIGTERM
# from another process.  Dynamic and -static.
# CHECKS: bash $SRC dynamic
# CHECKS: bash $SRC static
# TIMEOUT: 1800
. "$SRCDIR/lib.sh"
[ $core_files_kept = yes ] || echo "NOTE: core_pattern pipes cores to a program: core dumps not compared"
# Terminating signals: at the default action, the report says "exit signal
# N" and the process ends as the plain build does; the program's own
# handlers, ignored and blocked signals are left as they are.
terminating_signals="TERM INT HUP QUIT USR1 USR2 ALRM PIPE XCPU XFSZ VTALRM PROF"

# terminate_test LABEL BINARY MODE SIGNAL EXPECTED_STATUS ENDING COUNTS OUTPUT
terminate_test() {
    local label=$1 bin=$2 mode=$3 signal=$4 status=$5 ending=$6 counts=$7 output=$8
    local name="terminate $label $mode $signal" dir=$scratch/terminate-$1-$3-$4 plain instrumented
    mkdir -p "$dir"
    local early="" ignore=""
    [ "$mode" = early-handler ] && early=$signal
    [ "$mode" = inherited ] && ignore=$signal
    (cd "$dir" && TERMINATE_EARLY_HANDLER=$early IGNORE_SIGNAL=$ignore WANT_CORE=$core_files_kept \
        status_of "$dir.plain-status" "$bin.plain" "$mode" "$signal" >"$dir.plain-out" 2>&1)
    rm -f "$dir"/core*
    (cd "$dir" && SAMPLER_SPARSITY=1 SAMPLER_SEED=5 SAMPLER_FILE=$dir/r.report \
        TERMINATE_EARLY_HANDLER=$early IGNORE_SIGNAL=$ignore WANT_CORE=$core_files_kept \
        status_of "$dir.status" "$bin" "$mode" "$signal" >"$dir.out" 2>"$dir.err")
    rm -f "$dir"/core*
    plain=$(cat "$dir.plain-status") instrumented=$(cat "$dir.status")
    if [ $core_files_kept = no ]; then
        plain=${plain% core *} instrumented=${instrumented% core *}
    fi
    if [ "${plain% core *}" != "$status" ] || [ "$(cat "$dir.plain-out")" != "$output" ]; then
        fail_with "$name: the plain build" "ends with '$plain', expected '$status'" \
            "output: $(cat "$dir.plain-out")"
        return
    fi
    same "$name: status, core and output as the plain build's" \
        "$plain|$output|" "$instrumented|$(cat "$dir.out")|$(cat "$dir.err")"
    if [ ! -f "$dir/r.report" ] || [ "$(ls "$dir")" != r.report ]; then
        fail_with "$name: one report" "found: $(ls "$dir")"
        return
    fi
    same "$name: complete report, its ending and counts" \
        "$ending|$counts" \
        "$(record "$dir/r.report" exit)|$(checks "$dir/r.report" --binary "$bin" | tr '\n' ' ' | sed 's/ $//')"
}

terminate_tests() {   # LABEL BINARY
    local label=$1 bin=$2 name number core
    for name in $terminating_signals; do
        number=$(kill -l "$name")
        terminate_test "$label" "$bin" default "$number" "signal $number" \
            "signal $number" "after_signal 0 before_signal 200" ""
        terminate_test "$label" "$bin" handler "$number" "exit 0" \
            "status 0" "after_signal 50 before_signal 200" "handled $number
handled $number"
        terminate_test "$label" "$bin" early-handler "$number" "exit 0" \
            "status 0" "after_signal 50 before_signal 200" "handled $number
handled $number"
        terminate_test "$label" "$bin" ignore "$number" "exit 0" \
            "status 0" "after_signal 50 before_signal 200" ""
    done
    for name in INT QUIT TERM; do
        number=$(kill -l "$name")
        terminate_test "$label" "$bin" inherited "$number" "exit 0" \
            "status 0" "after_signal 50 before_signal 200" "ignored $number"
    done
    number=$(kill -l TERM)
    terminate_test "$label" "$bin" blocked "$number" "exit 0" \
        "status 0" "after_signal 50 before_signal 200" "waited $number"
    terminate_test "$label" "$bin" resethand "$number" "signal $number" \
        "signal $number" "after_signal 0 before_signal 200" "handled $number"
    terminate_test "$label" "$bin" restore "$number" "signal $number" \
        "signal $number" "after_signal 0 before_signal 200" ""

    # yes | head: the writer dies of SIGPIPE, after its report.
    local dir=$scratch/terminate-$label-pipe plain_status status
    mkdir -p "$dir"
    plain_status=$( { "$bin.plain" pipe; echo $? >"$dir.plain-status"; } | head -c 100 >/dev/null;
                    cat "$dir.plain-status")
    status=$( { SAMPLER_SPARSITY=1 SAMPLER_FILE=$dir/r.report "$bin" pipe 2>"$dir.err";
                echo $? >"$dir.status"; } | head -c 100 >/dev/null; cat "$dir.status")
    same "terminate $label pipe: dies of SIGPIPE as the plain build (128 + 13)" \
        "141|141|" "$plain_status|$status|$(cat "$dir.err")"
    same "terminate $label pipe: its report" \
        "signal 13|after_signal 0 before_signal 200" \
        "$(record "$dir/r.report" exit)|$(checks "$dir/r.report" --binary "$bin" | tr '\n' ' ' | sed 's/ $//')"

    # A server stopped with SIGTERM by another process, in main or in a
    # thread: a full report.  The signal can arrive while an interim report
    # is being written, or between two: the dumping server is stopped
    # several times to meet both.
    local how pid
    for how in server thread-server dumping-server dumping-server-2 dumping-server-3 \
               dumping-server-4 dumping-server-5; do
        dir=$scratch/terminate-$label-$how
        mkdir -p "$dir"
        for build_name in plain instrumented; do
            local program=$bin
            [ $build_name = plain ] && program=$bin.plain
            SAMPLER_SPARSITY=1 SAMPLER_FILE=$dir/r.report "$program" "${how%-[0-9]}" \
                >"$dir.$build_name-out" 2>&1 &
            pid=$!
            for _ in $(seq 200); do
                [ -s "$dir.$build_name-out" ] && break
                sleep 0.05
            done
            kill -TERM $pid
            wait $pid
            echo "status $?" >>"$dir.$build_name-out"
        done
        same "terminate $label $how: stopped by SIGTERM as the plain build" \
            "$(cat "$dir.plain-out")" "$(cat "$dir.instrumented-out")"
        same "terminate $label $how: a full report" \
            "signal 15|after_signal 0 before_signal 1000|end" \
            "$(record "$dir/r.report" exit)|$(checks "$dir/r.report" --binary "$bin" | tr '\n' ' ' | sed 's/ $//')|$(tail -n 1 "$dir/r.report")"
    done
}

bin=$scratch/bin/terminate-$link
build terminate "$bin" "${flags[@]}" && terminate_tests $link "$bin"
finish
