# lib.sh, sourced by the cases of values/, sizes/ and indirect-calls/
# (bash): the hot-list schemes end to end (plugin, runtime, sampler-report
# values and export).
#   build_program NAME OPT [OUTPUT [EXTRA ARGS...]]   $here/NAME.c, built
#                     with $here/NAME.args at OPT, into $scratch/NAMEOPT or
#                     OUTPUT ($here: the case's folder unless set)
#   value_rows BINARY REPORT...   "LINE:COLUMN OBSERVED VALUE VISITS FLAG"
#                     for every value of every site, sorted
#   exact_values NAME   NAME.c at sparsity 1, -O0 and -O2 (2 rounds): every
#                     value's visits as NAME.expected (two checks)
set -u
. "$TOOLS/tally.sh"
here=${here:-$SRCDIR}
scratch=$T
report=$REPORT

build_program() {   # NAME OPT [OUTPUT [EXTRA ARGS...]]: into $scratch/NAMEOPT or OUTPUT
    local name=$1 opt=$2 output=${3:-$scratch/$1$2}
    shift 2
    [ $# -gt 0 ] && shift
    (cd "$here" && "$WRAPPER" $opt -fchecking $(cat "$name.args") "$@" \
        "$name.c" -o "$output") 2>"$scratch/build.err"
}

value_rows() {   # BINARY REPORT...
    local binary=$1
    shift
    "$report" values "$@" --binary "$binary" --top=1024 --format=csv |
    python3 "$TOOLS/csv-fields.py" line:column observed value visits 'flag|-' | sort
}

exact_values() {   # NAME
    local name=$1 opt
    for opt in -O0 -O2; do
        if ! build_program $name $opt; then
            fail "build($name $opt)" "$scratch/build.err"
            continue
        fi
        if SAMPLER_SPARSITY=1 SAMPLER_FILE=$scratch/$name$opt.report "$scratch/$name$opt" 2 &&
           value_rows "$scratch/$name$opt" "$scratch/$name$opt.report" >"$scratch/$name$opt.rows" &&
           diff -u "$here/$name.expected" "$scratch/$name$opt.rows" >"$scratch/diff"; then
            pass "$name($opt): $(wc -l <"$scratch/$name$opt.rows") values as $name.expected"
        else
            fail "$name($opt)" "$scratch/diff"
        fi
    done
}
