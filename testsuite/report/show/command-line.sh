#!/bin/sh
# The command line: no command, unknown commands and options, show's and
# values' bad options, each with its usage line; help in every spelling.
# Every run repeated under ASan and UBSan.
# CHECKS: sh $SRC
. "$SRCDIR/fixtures.sh"

top_usage="usage: sampler-report COMMAND [ARGUMENT]... (commands: show, merge, rank, export, values, rates, paths, subpaths, help; see sampler-report --help)"
show_usage="usage: sampler-report show REPORT [--binary FILE]... [--sites FILE]... [--format=text|csv|jsonl] [--all]"
expect_error "no command" 2 "sampler-report: no command given
$top_usage"
expect_error "unknown command" 2 "sampler-report: unknown command 'rnak'
$top_usage" rnak
expect_error "unknown top-level option" 2 "sampler-report: unknown option '--colour'
$top_usage" --colour
expect_error "show: unknown option" 2 "sampler-report: unknown option '--colour' for 'show'
$show_usage" show "$scratch/run.report" --colour
expect_error "show: no report" 2 "sampler-report: 'show' needs a report file
$show_usage" show --all
expect_error "show: two reports" 2 "sampler-report: 'show' takes one report; 'b' is a second one
$show_usage" show a b
values_usage="usage: sampler-report values (INPUT... | --store URL --release R) [--binary FILE]... [--sites FILE]... [--min-share=P] [--top=N] [--fold-below=S] [--max-sites=N|all] [--raw-pointers] [--format=text|csv|jsonl|html]"
expect_error "values: --top 0" 2 "sampler-report: --top wants a whole number from 1 to 1024, not '0'
$values_usage" values "$scratch/run.report" --top=0
expect_error "values: --min-share 1.5" 2 "sampler-report: --min-share wants a number above 0 and at most 1, not '1.5'
$values_usage" values "$scratch/run.report" --min-share=1.5
expect_error "values: --min-share text" 2 "sampler-report: --min-share wants a number above 0 and at most 1, not 'most'
$values_usage" values "$scratch/run.report" --min-share most
expect_error "values: unknown format" 2 "sampler-report: unknown format 'xml' (text, csv, jsonl or html)
$values_usage" values "$scratch/run.report" --format=xml
expect_error "values: no input" 2 "sampler-report: 'values' needs reports
$values_usage" values --top=3
expect_error "show: unknown format" 2 "sampler-report: unknown format 'xml' (expected text, csv or jsonl)
$show_usage" show "$scratch/run.report" --format=xml
expect_error "show: --binary without file" 2 "sampler-report: option '--binary' needs a file
$show_usage" show "$scratch/run.report" --binary
expect_error "help: unknown command" 2 "sampler-report: unknown command 'rnak'
$top_usage" help rnak
for args in "--help" "help" "help show" "show --help"; do
    # shellcheck disable=SC2086
    if "$tool" $args >"$scratch/help" 2>&1 && grep -q '^usage: sampler-report ' "$scratch/help" &&
       grep -q -- '--binary FILE' "$scratch/help"; then
        pass "help: $args"
    else
        fail "help: $args" "$scratch/help"
    fi
done

sanitizer_check
finish
