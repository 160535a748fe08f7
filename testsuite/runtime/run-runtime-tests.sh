#!/bin/bash
# run-runtime-tests.sh: the runtime in real programs built with the plugin
# (sampler-gcc): every way a process can end or split writes exactly the
# reports it should, complete, with every count once.
#
# Usage: testsuite/runtime/run-runtime-tests.sh BUILD_DIR
#
# Each program here is built with -fplugin-arg-sampler-schemes=checks (its
# sampled functions' calls are the sites) and, where noted, also with
# -static; the reports are read back with sampler-report show --format=csv
# (checks counts by function called) or as text.
#
#   threads     16 threads on shared sites.  Sparsity 1: each thread's own
#               count and the report's totals are exact.  Sparsity 100, a
#               fixed seed: each thread's samples within the 99.9% binomial
#               bounds (Bonferroni over the threads), the report's total is
#               the sum of the threads' counts, and a second run samples
#               the same visits in every thread (streams follow creation
#               order, not scheduling).
#   going-threaded  main samples alone, then with 8 threads on the same
#               site (all started together at a barrier), then alone again
#               (counters go from plain adds to atomic ones): at sparsity 1
#               the report counts every visit.
#   forkexec    fork, then exec through each of the exec family, vfork, and
#               an exec that fails: the parent, the child before exec and
#               the new image each report their own counts exactly once
#               ("exit exec" before the exec), under their own names; the
#               fork child's reports (also after a failed exec) name the
#               parent's pid in a "parent" record, the others have none; no
#               report descriptor reaches the new image, even when it is
#               started by posix_spawn while another thread writes reports;
#               daemon(): the parent's counts before it are kept, and the
#               daemon's report names the parent.
#   crash       SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT, a stack
#               overflow, a crash in a thread, the program's own handlers
#               (installed after and before the runtime's, chained), a
#               handler that recovers, an ignored signal: the exit status
#               is the plain build's (and the core dump too, where
#               core_pattern writes files), the report is complete and
#               says "exit signal N", with the exact counts.
#   terminate   SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM,
#               SIGPIPE, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF at the default
#               action: status and core as the plain build's, a complete
#               report "exit signal N" with the exact counts; handlers
#               installed after and before the runtime starts run (and the
#               report is the one at exit), an ignored signal stays ignored,
#               also one ignored when the program starts; a blocked signal
#               taken by sigwait; a one-shot handler (SA_RESETHAND) then the
#               default; yes | head (SIGPIPE); a server (in main, in a
#               thread, or while another thread writes reports without
#               pause) stopped by SIGTERM from another process.
#   exits       a fork child that ends with _exit, _Exit, quick_exit (its
#               at_quick_exit handler's counts included) or __builtin__exit:
#               its own report, exact, "exit _exit 7" or "exit quick_exit
#               7", read by sampler-report; the parent's report unaffected;
#               a vfork child that calls _exit writes none.
#   dso         an instrumented library loaded, unloaded (its counts
#               kept), loaded again, and a second library from the same
#               source: one report, the units told apart by their objects.
#   interval    SAMPLER_INTERVAL=1: interim reports while the program runs,
#               numbered, each complete, counts growing, then the final
#               one; to a file, the final report replaces them.
#   api         sampler_dump, sampler_reset, sampler_set_sparsity (another
#               thread follows it from its next countdown).
#   leftover    something at a report's temporary name: a leftover file of
#               the user's own is replaced; another user's file (as root)
#               and a symbolic link are left alone, nothing written through
#               the link, one warning.
#   secure      (as root; skipped otherwise) a set-user-ID and a
#               set-group-ID root program run by nobody with SAMPLER_FILE,
#               SAMPLER_REPORT_FD and SAMPLER_INTERVAL at root's places:
#               no file created or changed, output and status plain's.
#
# The last line is "N passed, N failed"; exit status 1 if anything failed.
set -u
export LC_ALL=C
build=$(cd "${1:?usage: $0 BUILD_DIR}" && pwd) || exit 2
here=$(cd "$(dirname "$0")" && pwd)
tools=$(cd "$here/../tools" && pwd)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/sampler-runtime.XXXXXX") || exit 2
trap 'rm -rf "$scratch"' EXIT
sgcc=$build/bin/sampler-gcc
report_tool=$build/bin/sampler-report
. "$here/../tools/tally.sh"
# same NAME EXPECTED ACTUAL: passes when the two texts are equal.
same() {
    if [ "$2" = "$3" ]; then pass "$1"; else fail_with "$1" "expected:" "$2" "got:" "$3"; fi
}
unset SAMPLER_SPARSITY SAMPLER_SEED SAMPLER_FILE SAMPLER_REPORT_FD SAMPLER_INTERVAL
ulimit -c 0

statcheck=$scratch/stat-check
gcc -std=c11 -O2 -Wall -Wextra -o "$statcheck" "$tools/stat-check.c" -lgsl -lgslcblas -lm ||
    { fail "stat-check build"; finish; }

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
    "$report_tool" show "$report" "$@" --all --format=csv | python3 -c '
import collections, csv, sys
counts = collections.Counter()
for row in csv.DictReader(sys.stdin):
    if row["scheme"] == "checks":
        counts[row["predicate"].split(" (")[0]] += int(row["count"])
for name in sorted(counts):
    print(name, counts[name])'
}

# record REPORT NAME: the fields of its NAME records, one line each.
record() { awk -F'\t' -v name="$2" '$1 == name { $1 = ""; print substr($0, 2) }' "$1"; }

# status_of FILE COMMAND...: runs COMMAND, writes to FILE "exit N" or
# "signal N core C" (C: whether a core was dumped; cores are allowed when
# WANT_CORE=yes); COMMAND starts with signal IGNORE_SIGNAL ignored, if set.
status_of() {
    python3 -c '
import os, resource, signal, sys
pid = os.fork()
if pid == 0:
    if os.environ.get("WANT_CORE") == "yes":
        hard = resource.getrlimit(resource.RLIMIT_CORE)[1]
        resource.setrlimit(resource.RLIMIT_CORE, (hard, hard))
    # The terminating signals at their default, unblocked, whatever this
    # shell inherited (nohup, a background job ignores INT and QUIT) or
    # Python set (it ignores PIPE and XFSZ).
    for name in ("HUP", "INT", "QUIT", "TERM", "USR1", "USR2", "ALRM",
                 "PIPE", "XCPU", "XFSZ", "VTALRM", "PROF"):
        signal.signal(getattr(signal, "SIG" + name), signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    if os.environ.get("IGNORE_SIGNAL"):
        signal.signal(int(os.environ["IGNORE_SIGNAL"]), signal.SIG_IGN)
    os.execvp(sys.argv[2], sys.argv[2:])
_, status = os.waitpid(pid, 0)
with open(sys.argv[1], "w") as out:
    if os.WIFSIGNALED(status):
        out.write("signal %d core %d\n" % (os.WTERMSIG(status), bool(os.WCOREDUMP(status))))
    else:
        out.write("exit %d\n" % os.WEXITSTATUS(status))' "$@"
}

# ---------------------------------------------------------------------------
threads_tests() {   # LABEL BINARY
    local label=$1 bin=$2 dir=$scratch/threads-$1 rounds=20000 out bad
    mkdir -p "$dir"
    SAMPLER_SPARSITY=1 SAMPLER_FILE=$dir/exact.report "$bin" $rounds >"$dir/exact.out"
    bad=$(awk -v r=$rounds '$4 != r' "$dir/exact.out")
    if [ -z "$bad" ] && [ "$(wc -l <"$dir/exact.out")" = 16 ]; then
        pass "threads $label sp=1: every thread sampled each of its $rounds visits"
    else
        fail_with "threads $label sp=1: per-thread counts" "$(cat "$dir/exact.out")"
    fi
    same "threads $label sp=1: report counts all 16 x $rounds visits" \
        "check $((16 * rounds))" "$(checks "$dir/exact.report" --binary "$bin")"
    # The branches of work(): not sampled, so not in the report (checks only).
    for run in first again; do
        SAMPLER_SPARSITY=100 SAMPLER_SEED=4242 SAMPLER_FILE=$dir/$run.report \
            "$bin" $rounds >"$dir/$run.out"
    done
    bad=""
    local conf
    conf=$(awk 'BEGIN { printf "%.10f", 1 - 0.001 / 16 }')
    while read -r _ thread _ samples; do
        "$statcheck" binom $rounds "$samples" 1/100 "$conf" >/dev/null ||
            bad="$bad thread $thread: $samples of $rounds;"
    done <"$dir/first.out"
    if [ -z "$bad" ]; then
        pass "threads $label sp=100: each thread's samples within binomial bounds"
    else
        fail_with "threads $label sp=100: binomial bounds" "$bad"
    fi
    local sum
    sum=$(awk '{ s += $4 } END { print s }' "$dir/first.out")
    same "threads $label sp=100: report total is the threads' sum" "check $sum" \
        "$(checks "$dir/first.report" --binary "$bin")"
    if cmp -s "$dir/first.out" "$dir/again.out"; then
        pass "threads $label sp=100: same seed, same samples in every thread"
    else
        fail_with "threads $label sp=100: same seed, other samples" \
            "$(diff "$dir/first.out" "$dir/again.out" | head -n 6)"
    fi
}

# ---------------------------------------------------------------------------
going_threaded_test() {   # LABEL BINARY
    local label=$1 bin=$2 dir=$scratch/going-threaded-$1 rounds=1000000
    mkdir -p "$dir"
    SAMPLER_SPARSITY=1 SAMPLER_FILE=$dir/exact.report "$bin" $rounds >"$dir/exact.out"
    same "going-threaded $label sp=1: every call ran, and the report counts all 11 x $rounds" \
        "ran $((11 * rounds))|check $((11 * rounds))" \
        "$(cat "$dir/exact.out")|$(checks "$dir/exact.report" --binary "$bin")"
}

# ---------------------------------------------------------------------------
forkexec_test() {   # LABEL BINARY HOW
    local label=$1 bin=$2 how=$3 dir=$scratch/forkexec-$1-$3 out parent child
    mkdir -p "$dir"
    out=$(SAMPLER_SPARSITY=1 SAMPLER_SEED=3 SAMPLER_FILE=$dir/r-%p REPORT_DIRECTORY=$dir/ \
          PATH=/usr/bin:/bin "$bin" "$how" 2>"$dir.err")
    local rc=$?
    parent=$(ls "$dir" | sed -n 's/^r-\([0-9]*\)$/\1/p' | head -n 1)
    child=$(printf '%s\n' "$out" | sed -n 's/^child \([0-9]*\) status 0$/\1/p')
    if [ $rc != 0 ] || [ -z "$child" ]; then
        fail_with "forkexec $label $how: runs" "exit $rc, stdout: $out" "$(cat "$dir.err")"
        return
    fi
    [ "$parent" = "$child" ] && parent=$(ls "$dir" | sed -n 's/^r-\([0-9]*\)$/\1/p' | sed -n 2p)
    local files expected_files
    files=$(cd "$dir" && ls | sed "s/$parent/PARENT/; s/$child/CHILD/" | sort | tr '\n' ' ')
    case $how in
        vfork) expected_files="r-CHILD r-PARENT " ;;
        *) expected_files="r-CHILD r-CHILD.1 r-PARENT " ;;
    esac
    same "forkexec $label $how: the reports' files" "$expected_files" "$files"
    # The "parent" record comes first: the fork child's names $parent.
    same "forkexec $label $how: parent reports its own counts, and no parent" \
        "|status 0|after_failure 0 child_work 0 image_work 0 parent_work 1500" \
        "$(record "$dir/r-$parent" parent)|$(record "$dir/r-$parent" exit)|$(checks "$dir/r-$parent" --binary "$bin" | tr '\n' ' ' | sed 's/ $//')"
    case $how in
        vfork)
            same "forkexec $label $how: no report from the vfork child, the new image's, no parent" \
                "|status 0|after_failure 0 child_work 0 image_work 70 parent_work 0" \
                "$(record "$dir/r-$child" parent)|$(record "$dir/r-$child" exit)|$(checks "$dir/r-$child" --binary "$bin" | tr '\n' ' ' | sed 's/ $//')" ;;
        fail)
            same "forkexec $label $how: report before the exec, the parent named" \
                "$parent|exec|after_failure 0 child_work 300 image_work 0 parent_work 0" \
                "$(record "$dir/r-$child" parent)|$(record "$dir/r-$child" exit)|$(checks "$dir/r-$child" --binary "$bin" | tr '\n' ' ' | sed 's/ $//')"
            same "forkexec $label $how: after the failed exec, counts from zero, still the parent's child" \
                "$parent|1|status 0|after_failure 40 child_work 0 image_work 0 parent_work 0" \
                "$(record "$dir/r-$child.1" parent)|$(record "$dir/r-$child.1" reset)|$(record "$dir/r-$child.1" exit)|$(checks "$dir/r-$child.1" --binary "$bin" | tr '\n' ' ' | sed 's/ $//')" ;;
        *)
            same "forkexec $label $how: child's report before the exec, the parent named" \
                "$parent|exec|after_failure 0 child_work 300 image_work 0 parent_work 0" \
                "$(record "$dir/r-$child" parent)|$(record "$dir/r-$child" exit)|$(checks "$dir/r-$child" --binary "$bin" | tr '\n' ' ' | sed 's/ $//')"
            same "forkexec $label $how: the new image's report, no parent" \
                "|status 0|after_failure 0 child_work 0 image_work 70 parent_work 0" \
                "$(record "$dir/r-$child.1" parent)|$(record "$dir/r-$child.1" exit)|$(checks "$dir/r-$child.1" --binary "$bin" | tr '\n' ' ' | sed 's/ $//')" ;;
    esac
}

spawn_test() {   # LABEL BINARY
    local label=$1 bin=$2 dir=$scratch/spawn-$1 out
    mkdir -p "$dir"
    out=$(SAMPLER_SPARSITY=1 SAMPLER_SEED=3 SAMPLER_FILE=$dir/r-%p REPORT_DIRECTORY=$dir/ \
          "$bin" spawn 2>"$dir.err")
    same "forkexec $label spawn: no new image got a report's descriptor" \
        "spawned 40 failed 0" "$out"
    local summary
    summary=$(for report in "$dir"/r-*; do
                  echo "$(record "$report" parent)|$(record "$report" exit)|$(checks "$report" \
                      --binary "$bin" | tr '\n' ' ' | sed 's/ $//')"
              done | sort | uniq -c | sed 's/^ *//')
    same "forkexec $label spawn: the parent's final report replaced its dumps; 40 images, none a fork child" \
        "1 |status 0|after_failure 0 child_work 0 image_work 0 parent_work 1500
40 |status 0|after_failure 0 child_work 0 image_work 70 parent_work 0" "$summary"
}

daemon_test() {   # LABEL BINARY
    local label=$1 bin=$2 dir=$scratch/daemon-$1 daemon waited=0
    mkdir -p "$dir"
    SAMPLER_SPARSITY=1 SAMPLER_SEED=3 SAMPLER_FILE=$dir/r-%p "$bin" daemon >"$dir.out" 2>&1
    # The daemon goes on alone: wait (5 s at most) for its report.
    while ! daemon=$(sed -n 's/^daemon \([0-9]*\)$/\1/p' "$dir.out" | grep .) ||
          [ ! -f "$dir/r-$daemon" ]; do
        [ $waited -ge 50 ] && break
        sleep 0.1
        waited=$((waited + 1))
    done
    local summary original
    # The process that called daemon(): the one that wrote an interim report.
    original=$(grep -l '^interim' "$dir"/r-* | sed 's|.*/r-||')
    summary=$(for report in "$dir"/r-*; do
                  echo "$(record "$report" exit)$(record "$report" interim)|$(record "$report" \
                      parent | sed "s/^$original\$/ORIGINAL/")|$(checks "$report" \
                      --binary "$bin" | tr '\n' ' ' | sed 's/ $//')"
              done | sort)
    same "forkexec $label daemon: the parent's counts before daemon(), the daemon's own, its parent" \
        "1||after_failure 0 child_work 0 image_work 0 parent_work 1000
status 0|ORIGINAL|after_failure 0 child_work 300 image_work 0 parent_work 0" "$summary"
}

# ---------------------------------------------------------------------------
core_files_kept=no
case $(cat /proc/sys/kernel/core_pattern 2>/dev/null) in
    '|'* | '') echo "NOTE: core_pattern pipes cores to a program: core dumps not compared" ;;
    *) core_files_kept=yes ;;
esac

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

# ---------------------------------------------------------------------------
dso_tests() {
    local dir=$scratch/dso
    mkdir -p "$dir"
    local a=$dir/libplugin-a.so b=$dir/libplugin-b.so main=$dir/dso-main
    if ! "$sgcc" -O2 -fPIC -shared -fplugin-arg-sampler-schemes=checks -I"$build/include" "$here/dso-plugin.c" \
             -o "$a" >"$dir/build" 2>&1 ||
       ! "$sgcc" -O2 -fPIC -shared -fplugin-arg-sampler-schemes=checks -I"$build/include" "$here/dso-plugin.c" \
             -o "$b" >>"$dir/build" 2>&1 ||
       ! "$sgcc" -O2 -fplugin-arg-sampler-schemes=checks -I"$build/include" "$here/dso-main.c" -o "$main" -ldl \
             >>"$dir/build" 2>&1; then
        fail_with "dso: build" "$(cat "$dir/build")"
        return
    fi
    pass "dso: build a program and two libraries from one source"
    (cd "$dir" && SAMPLER_SPARSITY=1 SAMPLER_FILE=$dir/r.report "$main" "$a" "$b" >"$dir/out")
    same "dso: runs" "$a 100|$a 10|$b 7" "$(tr '\n' '|' <"$dir/out" | sed 's/|$//')"
    # OBJECT SOURCE SITE COUNT for each site line.
    local sites
    sites=$(awk -F'\t' '$1 == "object" { object = $2; sub(".*/", "", object) }
                        $1 == "unit" { source = $5; sub(".*/", "", source); signature = $2 }
                        $1 ~ /^[0-9]+$/ { print object, source, $1, $2 }' "$dir/r.report")
    same "dso: one report; the unloaded library's counts kept; objects told apart" \
        "dso-main dso-main.c 0 5|libplugin-a.so dso-plugin.c 0 100|libplugin-a.so dso-plugin.c 0 10|libplugin-b.so dso-plugin.c 0 7" \
        "$(printf '%s\n' "$sites" | tr '\n' '|' | sed 's/|$//')"
    same "dso: the two libraries' units have one signature" 1 \
        "$(awk -F'\t' '$1 == "unit" && $5 ~ /dso-plugin/ { print $2 }' "$dir/r.report" | sort -u | wc -l)"
    same "dso: sampler-report adds the unit's occurrences up" "main_check 5 plugin_check 117" \
        "$(checks "$dir/r.report" --binary "$main" --binary "$a" | tr '\n' ' ' | sed 's/ $//')"
}

# ---------------------------------------------------------------------------
interval_tests() {
    local dir=$scratch/interval bin=$scratch/bin/interval
    mkdir -p "$dir"
    build interval "$bin" || return
    # To a descriptor: every report follows the last.
    SAMPLER_SPARSITY=1 SAMPLER_INTERVAL=1 SAMPLER_REPORT_FD=3 "$bin" 25 \
        >"$dir/fd.out" 3>"$dir/stream"
    if "$report_tool" show "$dir/stream" --binary "$bin" >/dev/null 2>"$dir/show.err"; then
        pass "interval: sampler-report reads every report of the stream"
    else
        fail_with "interval: sampler-report reads the stream" "$(cat "$dir/show.err")"
    fi
    # Per report: its interim number (or its exit) and tick's count.
    local summary
    summary=$(awk -F'\t' '$1 == "sampler-report" { if (n++) print kind, count; count = 0 }
                          $1 == "interim" { kind = "interim " $2 }
                          $1 == "exit" { kind = "exit " $2 " " $3 }
                          $1 ~ /^[0-9]+$/ { count = $2 }
                          END { print kind, count }' "$dir/stream")
    if printf '%s\n' "$summary" | awk '
            { n++ }
            $1 == "interim" { if ($2 != n || $3 < last || $3 > 2500) bad = 1; last = $3; interims++ }
            $1 == "exit" { if (NR != n || $3 != 0 || $4 != 2500) bad = 1 }
            END { exit bad || interims < 2 }'; then
        pass "interval: interim reports 1, 2, ... with growing counts, then the final one"
    else
        fail_with "interval: reports on the descriptor" "$summary"
    fi
    # To a file: the file is there, interim, while the program runs; then
    # the final report replaces it.
    SAMPLER_SPARSITY=1 SAMPLER_INTERVAL=1 SAMPLER_FILE=$dir/i.report REPORT_FILE=$dir/i.report \
        "$bin" 25 >"$dir/file.out"
    same "interval: an interim report, complete, while the program runs" \
        "interim seen|ticks 2500" "$(tr '\n' '|' <"$dir/file.out" | sed 's/|$//')"
    same "interval: one file at the end, the final report" "i.report|status 0|tick 2500" \
        "$(ls "$dir" | grep '^i\.' | tr '\n' ' ' | sed 's/ $//')|$(record "$dir/i.report" exit)|$(checks "$dir/i.report" --binary "$bin")"
}

# ---------------------------------------------------------------------------
api_tests() {
    local dir=$scratch/api bin=$scratch/bin/api
    mkdir -p "$dir"
    if ! "$sgcc" -O2 -Wall -Wextra -fplugin-arg-sampler-schemes=checks -I"$build/include" \
            "$here/api.c" -o "$bin" >"$dir/build" 2>&1; then
        fail_with "api: build" "$(cat "$dir/build")"
        return
    fi
    SAMPLER_SPARSITY=1 SAMPLER_SEED=8 SAMPLER_FILE=$dir/a.report "$bin" >"$dir/out"
    same "api: return values" \
        "dump 0|reset 0|sparsity 0: -1 EINVAL|sparsity 1000000001: -1 EINVAL|sparsity 1000000000: 0|now 1000000000|sparsity 1: 0|done 2511" \
        "$(tr '\n' '|' <"$dir/out" | sed 's/|$//')"
    same "api: the dump is kept, the report after the reset is a new file" "a.report a.report.1" \
        "$(ls "$dir" | grep '^a\.' | tr '\n' ' ' | sed 's/ $//')"
    same "api: the dump holds what was counted before it" \
        "1|phase_a 1000 phase_b 0 phase_c 0 phase_d 0 phase_e 0 phase_f 0" \
        "$(record "$dir/a.report" interim)|$(checks "$dir/a.report" --binary "$bin" | tr '\n' ' ' | sed 's/ $//')"
    same "api: after the reset, sparsity 10^9 (in every thread) then 1: counts from zero" \
        "1|status 0|1|phase_a 0 phase_b 0 phase_c 0 phase_d 1000 phase_e 10 phase_f 1" \
        "$(record "$dir/a.report.1" reset)|$(record "$dir/a.report.1" exit)|$(record "$dir/a.report.1" sparsity)|$(checks "$dir/a.report.1" --binary "$bin" | tr '\n' ' ' | sed 's/ $//')"
}

# ---------------------------------------------------------------------------
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

# ---------------------------------------------------------------------------
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

# ---------------------------------------------------------------------------
# Something at the temporary name: only a leftover of the user's own is
# removed; another user's file (root ignores the sticky bit) and a link
# are left alone, and nothing is written through the link.
leftover_tests() {   # BINARY
    local bin=$1 dir=$scratch/leftover mode out
    mkdir -p "$dir"
    for mode in own other link; do
        if [ $mode = other ] && [ "$(id -u)" != 0 ]; then
            skip "leftover other" "needs root to leave a file of another user"
            continue
        fi
        rm -rf "${dir:?}"/*
        echo "target" >"$dir/target"
        out=$(SAMPLER_SPARSITY=1 SAMPLER_FILE=$dir/r.report "$bin" $mode "$dir/target" 2>&1; echo "|status $?")
        if [ $mode = own ]; then
            same "leftover own: removed, the report written" \
                "|status 0|r.report target|100" \
                "$(echo $out)|$(ls "$dir" | tr '\n' ' ' | sed 's/ $//')|$(checks "$dir/r.report" --binary "$bin" | awk '{print $2}')"
            continue
        fi
        local left
        left=$(ls "$dir"/r.report.tmp.* 2>/dev/null)
        same "leftover $mode: left alone, nothing written through it, a warning" \
            "1|target|sampler: cannot write report to '$dir/r.report': File exists |status 0" \
            "$(echo "$left" | grep -c .)|$(cat "$dir/target")|$(echo $out)"
        if [ $mode = other ]; then
            same "leftover other: still the other user's, unchanged" \
                "65534 not a report" "$(stat -c %u "$left") $(cat "$left")"
        else
            same "leftover link: still a link to the target" "$dir/target" "$(readlink "$left")"
        fi
    done
}

# ---------------------------------------------------------------------------
# Secure mode: a set-user-ID (or set-group-ID) root program, run by nobody
# with every SAMPLER_* variable pointing at root's places, creates and
# changes nothing anywhere and runs as its plain build does.  Needs root
# (to install the program and to become nobody).
secure_tests() {
    local name
    if [ "$(id -u)" != 0 ]; then
        skip "secure mode" "needs root to install a set-user-ID program and run it as nobody"
        return
    fi
    if ! getent passwd nobody >/dev/null || ! getent group nogroup >/dev/null; then
        skip "secure mode" "no user nobody or group nogroup to run the program as"
        return
    fi
    # Outside $scratch (root's, 0700): nobody must reach the program.
    local installed secret
    installed=$(mktemp -d "${TMPDIR:-/tmp}/sampler-secure.XXXXXX") || { fail "secure: mktemp"; return; }
    secret=$(mktemp -d "${TMPDIR:-/tmp}/sampler-secret.XXXXXX") || { fail "secure: mktemp"; return; }
    # shellcheck disable=SC2064
    trap "rm -rf '$scratch' '$installed' '$secret'" EXIT
    if findmnt -no OPTIONS -T "$installed" | tr , '\n' | grep -qx nosuid; then
        skip "secure mode" "$installed is on a nosuid mount: set-user-ID bits do not work there"
        return
    fi
    chmod 755 "$installed"
    build secure "$installed/secure" || return
    chmod 755 "$installed/secure" "$installed/secure.plain"
    echo "root's report" >"$secret/existing"
    : >"$secret/descriptor"
    chmod 600 "$secret/existing" "$secret/descriptor"

    # The control: the same binary without the set-user-ID bit, run by
    # nobody, honours the variables (this is what the test would miss).
    local open=$installed/open
    mkdir "$open" && chmod 777 "$open"
    (cd "$installed" && env -i PATH="$PATH" SAMPLER_SPARSITY=1 SAMPLER_FILE="$open/r-%p" \
        setpriv --reuid=nobody --regid=nogroup --clear-groups ./secure 0 >/dev/null 2>&1)
    same "secure: control: not set-user-ID, nobody's variables are honoured (parent and _exit child)" \
        "2" "$(find "$open" -name 'r-*' -user nobody | wc -l)"

    # Everything under the directories a report could go to, with checksums.
    snapshot() {
        find "$secret" "$installed" -printf '%p %y %s %m %u %g %T@\n' | sort
        find "$secret" "$installed" -type f -exec sha256sum {} + | sort
    }
    local mode variables setting
    for mode in 4755:setuid 2755:setgid; do
        chmod "${mode%%:*}" "$installed/secure" "$installed/secure.plain"
        for setting in "file:SAMPLER_FILE=$secret/new/sub/r-%p SAMPLER_INTERVAL=1" \
                       "existing:SAMPLER_FILE=$secret/existing SAMPLER_INTERVAL=1" \
                       "descriptor:SAMPLER_REPORT_FD=9 SAMPLER_INTERVAL=1" \
                       "default:SAMPLER_INTERVAL=1" \
                       "bad values:SAMPLER_SEED=x SAMPLER_FILE=%q SAMPLER_REPORT_FD=-1"; do
            name="secure ${mode#*:} ${setting%%:*}"
            read -r -a variables <<<"${setting#*:}"
            local before after plain instrumented
            before=$(snapshot)
            for build_name in secure.plain secure; do
                (cd "$installed" && env -i PATH="$PATH" SAMPLER_SPARSITY=1 SAMPLER_SEED=1 \
                    "${variables[@]}" setpriv --reuid=nobody --regid=nogroup --clear-groups \
                    "./$build_name" 12 >"$scratch/$build_name.out" 2>&1 \
                    9>>"$secret/descriptor"; echo "status $?" >>"$scratch/$build_name.out")
            done
            after=$(snapshot)
            plain=$(cat "$scratch/secure.plain.out") instrumented=$(cat "$scratch/secure.out")
            case $plain in
                "ruid 65534 euid "*" child 4"*"status 3") ;;
                *) fail_with "$name: the plain build runs as nobody" "$plain"; continue ;;
            esac
            # The set-user-ID or set-group-ID bit took effect.
            case ${mode#*:}:$plain in
                setuid:*"euid 0 "*|setgid:*"egid 0 "*) ;;
                *) fail_with "$name: the program is privileged" "$plain"; continue ;;
            esac
            same "$name: output and status are plain's" "$plain" "$instrumented"
            same "$name: nothing created or changed" "$before" "$after"
        done
    done
}

# ---------------------------------------------------------------------------
mkdir -p "$scratch/bin"
for link in dynamic static; do
    flags=()
    [ $link = static ] && flags=(-static)
    bin=$scratch/bin/threads-$link
    build threads "$bin" "${flags[@]}" && threads_tests $link "$bin"
    bin=$scratch/bin/going-threaded-$link
    build going-threaded "$bin" "${flags[@]}" && going_threaded_test $link "$bin"
    bin=$scratch/bin/forkexec-$link
    if build forkexec "$bin" "${flags[@]}"; then
        for how in execl execle execlp execv execve execvp execvpe vfork fail; do
            forkexec_test $link "$bin" $how
        done
        spawn_test $link "$bin"
        daemon_test $link "$bin"
    fi
    bin=$scratch/bin/crash-$link
    build crash "$bin" "${flags[@]}" && crash_tests $link "$bin"
    bin=$scratch/bin/terminate-$link
    build terminate "$bin" "${flags[@]}" && terminate_tests $link "$bin"
    bin=$scratch/bin/exits-$link
    if build exits "$bin" "${flags[@]}"; then
        for how in _exit _Exit quick_exit builtin vfork; do
            exits_test $link "$bin" $how
        done
    fi
done
dso_tests
interval_tests
api_tests
build leftover "$scratch/bin/leftover" && leftover_tests "$scratch/bin/leftover"
secure_tests

finish
