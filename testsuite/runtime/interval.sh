#!/bin/bash
# SAMPLER_INTERVAL=1 (interval.c): interim reports while the program runs,
# numbered, each complete, counts growing, then the final one; to a file,
# the final report replaces them.
# CHECKS: bash $SRC
. "$SRCDIR/lib.sh"
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

interval_tests
finish
