#!/bin/bash
# sampler-report shows the run-id, release, withheld and dropped records
# of docs/remote.md, and refuses malformed ones naming the line.
# CHECKS: bash $SRC
. "$SRCDIR/lib.sh"

# reader_case NAME RECORDS EXPECTED: a report with RECORDS after its seed.
reader_case () {
    printf 'sampler-report\t1\nprogram\tp\npid\t1\nsparsity\t1\nseed\t2\n%bexit\tstatus\t0\nend\n' \
        "$2" > "$scratch/r.report"
    "$REPORT" show "$scratch/r.report" > "$scratch/r.out" 2> "$scratch/r.err"
    local status=$?
    if [ -z "$3" ]; then
        if [ $status = 0 ] && grep -qx "run id    0123456789abcdef0123456789abcdef" "$scratch/r.out" &&
           grep -qx "release   p v" "$scratch/r.out" && grep -q "^withheld  values: " "$scratch/r.out" &&
           grep -q "^dropped   4 earlier reports" "$scratch/r.out"; then pass "reader: $1"
        else fail "reader: $1" "$scratch/r.out"; fi
    elif [ $status = 2 ] && [ "$(cat "$scratch/r.err")" = "sampler-report: $scratch/r.report:$3" ]; then
        pass "reader: $1"
    else fail_with "reader: $1" "exit status $status, expected 2 and: $3" "$(cat "$scratch/r.err")"; fi
}
id=0123456789abcdef0123456789abcdef
reader_case "every record shown" "run-id\t$id\nrelease\tp\tv\nwithheld\tvalues\ndropped\t4\n" ""
reader_case "a short run id" "run-id\t${id%f}\n" "6: bad run id '${id%f}' (expected 32 lowercase hex digits)"
reader_case "an uppercase run id" "run-id\t0123456789ABCDEF0123456789abcdef\n" "6: bad run id '0123456789ABCDEF0123456789abcdef' (expected 32 lowercase hex digits)"
reader_case "two run ids" "run-id\t$id\nrun-id\t$id\n" "7: duplicate 'run-id' record"
reader_case "a release without a version" "release\tp\n" "6: 'release' record has 2 fields, expected 3"
reader_case "a release with an empty product" "release\t\t1\n" "6: 'release' record without a product or a version"
reader_case "an unknown scheme withheld" "withheld\tvaluez\n" "6: unknown scheme 'valuez' in the 'withheld' record"
reader_case "a scheme withheld twice" "withheld\tvalues,values\n" "6: repeated scheme 'values' in the 'withheld' record"
reader_case "a count of drops that is no number" "dropped\tx\n" "6: bad number 'x' for dropped reports"
finish
