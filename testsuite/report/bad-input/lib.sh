# lib.sh, sourced by the cases of this folder: bad input given to
# sampler-report, each kind damaged one way each from real output of an
# instrumented program (the fuzz corpus: a report, its site table, an
# aggregate, ELF objects).  sampler-report must exit 2 with one line on
# standard error naming the file and line, print nothing on standard output
# and write no output file.  The rows go to the table of bad input
# (testsuite/tools/bad-input-table.sh), in the section "Files given to
# sampler-report".
#   tool_case INPUT-KIND WHAT PATTERN COMMAND-ARGUMENTS...
#   bad NAME            a file to damage, in the scratch directory
. "$TOOLS/tally.sh"
. "$TOOLS/bad-input-table.sh"
scratch=$T
tool=$REPORT
corpus=$TESTSUITE/report/fuzz/corpus    # real reports, tables and objects
last_what=
mkdir -p "$scratch/a-directory"
report="$scratch/good.report"
cp "$corpus/report/dense.report-2" "$report"
sites="$corpus/sites/program"
aggregate="$scratch/good.aggregate"
cp "$corpus/aggregate/one" "$aggregate"
# tool_case INPUT-KIND WHAT PATTERN COMMAND-ARGUMENTS...: sampler-report
# exits 2 with one line on stderr matching PATTERN, nothing on stdout, and
# writes no output (the arguments may name $scratch/out as --output).
tool_case () {
    kind=$1 what=$2 pattern=$3
    shift 3
    rm -rf "$scratch/out"
    "$tool" "$@" >"$scratch/tool.out" 2>"$scratch/tool.err"
    status=$?
    name="$kind: $what ($1)"
    if [ $status != 2 ]; then
        fail "$name: exit status $status, expected 2" "$scratch/tool.err"
    elif [ "$(wc -l <"$scratch/tool.err")" != 1 ] || ! grep -Eq -- "$pattern" "$scratch/tool.err"; then
        fail "$name: message does not match '$pattern'" "$scratch/tool.err"
    elif [ -s "$scratch/tool.out" ] || [ -e "$scratch/out" ] || ls "$scratch" | grep -q '^out\.tmp'; then
        fail "$name: output was written"
    else
        pass "$name"
        message=$(sed "s|$scratch/||g; s|$corpus/||g" "$scratch/tool.err")
        if [ "$what" != "$last_what" ]; then
            row "$kind" "$what" "\`$message\`; exit 2, nothing written"
        fi
        last_what=$what
    fi
}
# bad NAME: a file to damage, in the scratch directory.
bad () { printf '%s' "$scratch/$1"; }
# A report, damaged one way each; show and merge must both refuse it.
report_case () {
    what=$1 pattern=$2 file=$3
    tool_case Report "$what" "$pattern" show "$file" --sites "$sites"
    tool_case Report "$what" "$pattern" merge "$file" --sites "$sites" -o "$scratch/out"
}
