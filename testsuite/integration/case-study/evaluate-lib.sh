# evaluate-lib.sh: what evaluate-ranking.sh and evaluate-rates.sh share,
# sourced by them after they set `build' (the build tree), `here' (this
# directory) and `work' (where builds, inputs and reports go):
#   build_bc NAME CC CFLAGS [PATCH]   bc's source, patched, built in WORK/NAME
#   inputs UPTO                       programs 1 .. UPTO and the reference
#                                     bc's answers (REFERENCE, a bc binary)
#   run_chunk DIR BINARY SPARSITY FIRST LAST
#                                     runs of seeds FIRST .. LAST, reports in
#                                     DIR, labels in DIR.labels
#   found CSV FUNCTIONS               "STEP RANK" of a bug in rank's CSV
#   bug_function BUG                  the functions where BUG's steps lie
# Both scripts use the case study's schemes and bc's random programs
# (bc-inputs.py), seed i for run i.  The functions set the globals tree,
# chunk, seed and report.
top=$(cd "$here/../../.." && pwd)
schemes=returns,branches,scalar-pairs
tool=$build/bin/sampler-report
mkdir -p "$work" || exit 2

source=$("$top/testsuite/tools/fetch-debian-source.sh" bc) || { echo "cannot fetch bc's source" >&2; exit 1; }

build_bc () {   # NAME CC CFLAGS [PATCH]
    tree=$work/$1
    [ -x "$tree/bc/bc" ] && return 0
    rm -rf "$tree"
    cp -a "$source" "$tree" &&
    { [ -z "$4" ] || patch -s -d "$tree" -p1 <"$4"; } &&
    (cd "$tree" && ./configure CC="$2" CFLAGS="$3" && \
     make -j2 ACLOCAL=true AUTOMAKE=true AUTOCONF=true MAKEINFO=true) \
        >"$work/$1.log" 2>&1 && [ -x "$tree/bc/bc" ]
}

# inputs UPTO: programs and the reference bc's answers for seeds 1 .. UPTO.
mkdir -p "$work/inputs" "$work/expected"
have_inputs=$(ls "$work/inputs" | wc -l)
inputs () {
    [ "$1" -le "$have_inputs" ] && return
    python3 "$here/bc-inputs.py" $((have_inputs + 1)) "$1" "$work/inputs"
    seed=$((have_inputs + 1))
    while [ $seed -le "$1" ]; do
        "$reference" -q "$work/inputs/$seed.bc" >"$work/expected/$seed.out" 2>/dev/null </dev/null
        echo $? >"$work/expected/$seed.status"
        seed=$((seed + 1))
    done
    have_inputs=$1
}

# run_chunk DIR BINARY SPARSITY FIRST LAST: runs of seeds FIRST .. LAST,
# their reports in DIR and their labels in DIR.labels (a run failed when
# its output or exit status differs from the reference bc's).
run_chunk () {
    chunk=$1
    [ -s "$chunk.labels" ] && return
    mkdir -p "$chunk"
    : >"$chunk.labels.tmp"
    seed=$4
    while [ $seed -le "$5" ]; do
        report=$chunk/run-$seed.report
        SAMPLER_SPARSITY=$3 SAMPLER_SEED=$seed SAMPLER_FILE=$report \
            timeout 20 "$2" -q "$work/inputs/$seed.bc" >"$work/got.out" 2>/dev/null </dev/null
        status=$?
        if [ -s "$report" ]; then
            if [ "$status" = "$(cat "$work/expected/$seed.status")" ] &&
               cmp -s "$work/expected/$seed.out" "$work/got.out"; then
                printf 'success\t%s\n' "$report"
            else
                printf 'failure\t%s\n' "$report"
            fi >>"$chunk.labels.tmp"
        fi
        seed=$((seed + 1))
    done
    mv "$chunk.labels.tmp" "$chunk.labels"
}

# found CSV FUNCTIONS: "STEP RANK" of the bug (first elimination step in
# one of the FUNCTIONS, first position in the ranking), "-" for none.
found () {
    python3 "$here/bug-position.py" "$1" "$2"
}

# bug_function BUG: the functions where the bug's predicates lie: for the
# line-wrap bug, out_char or bc_out_num, which prints the long numbers that
# out_char breaks (the bug's own predicate, a line break, is true in every
# run that prints a number longer than a line, and only numbers of three
# lines or more come out wrong).
bug_function () {
    case $1 in
        more-arrays) echo more_arrays ;;
        line-wrap) echo "out_char bc_out_num" ;;
        *) echo "unknown bug '$1' (expected more-arrays or line-wrap)" >&2; return 1 ;;
    esac
}
