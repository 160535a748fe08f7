#!/bin/bash
# fork, then exec through each of the exec family, vfork, and an exec that
# fails (forkexec.c): the parent, the child before exec and the new image
# each report their own counts exactly once ("exit exec" before the exec),
# under their own names; the fork child's reports (also after a failed
# exec) name the parent's pid in a "parent" record, the others have none;
# no report descriptor reaches the new image, even when it is started by
# posix_spawn while another thread writes reports; daemon(): the parent's
# counts before it are kept, and the daemon's report names the parent.
# Dynamic and -static.
# CHECKS: bash $SRC dynamic
# CHECKS: bash $SRC static
. "$SRCDIR/lib.sh"
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

bin=$scratch/bin/forkexec-$link
if build forkexec "$bin" "${flags[@]}"; then
    for how in execl execle execlp execv execve execvp execvpe vfork fail; do
        forkexec_test $link "$bin" $how
    done
    spawn_test $link "$bin"
    daemon_test $link "$bin"
fi
finish
