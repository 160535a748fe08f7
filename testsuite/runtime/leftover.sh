#!/bin/bash
# Something at a report's temporary name (leftover.c): a leftover file of
# the user's own is replaced; another user's file (as root) and a symbolic
# link are left alone, nothing written through the link, one warning.
# CHECKS: bash $SRC
. "$SRCDIR/lib.sh"
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

build leftover "$scratch/bin/leftover" && leftover_tests "$scratch/bin/leftover"
finish
