#!/bin/sh
# Runs two builds of sampler-report, OLD and NEW, on the same inputs and
# says where they differ: standard output, standard error, exit status and
# the files a command writes (merge's aggregate, export's tables, rates'
# file, paths' interesting-paths file), byte for byte.  For a change that
# must not change what the tool says (a restructuring): every command in
# every format and its main options, usage errors, help, and bad inputs.
#
# The inputs are built here with BUILD_DIR's sampler-gcc: the fuzz corpus's
# seed program with every scheme (a shared library, exits, signals, a
# fork, an on-demand and an interim report, two reports in one file),
# testsuite/values' indirect.c (dlopen'ed targets) and sizes.c,
# testsuite/paths' shapes.c and testsuite/subpaths' interp.c; plus the
# fuzz corpus and its regressions as they are.
#
# Usage: compare-report-tool.sh OLD_TOOL NEW_TOOL BUILD_DIR
# Prints one line per case that differs, then "N identical, N differ";
# exits 0 when none differs.  KEEP=1 keeps the work directory.
set -u
old=$(realpath "${1:?usage: compare-report-tool.sh OLD_TOOL NEW_TOOL BUILD_DIR}")
new=$(realpath "${2:?usage: compare-report-tool.sh OLD_TOOL NEW_TOOL BUILD_DIR}")
build=$(cd "${3:?usage: compare-report-tool.sh OLD_TOOL NEW_TOOL BUILD_DIR}" && pwd)
top=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/compare-report.XXXXXX")
[ "${KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
cc="$build/bin/sampler-gcc"
all_schemes=$("$top/testsuite/tools/scheme-names.sh")

# ---- Inputs -------------------------------------------------------------------
in=$work/in
mkdir -p "$in/src" "$in/seed" "$in/values" "$in/paths" "$in/subpaths"
cp "$top"/testsuite/fuzz/seed-program/*.c "$top"/testsuite/values/indirect*.c \
   "$top/testsuite/values/sizes.c" "$top/testsuite/paths/shapes.c" \
   "$top/testsuite/subpaths/interp.c" "$in/src/"
built () {   # built WHAT COMMAND...: runs the compile, stops the script if it fails
    what=$1; shift
    if ! "$@" >"$work/build.log" 2>&1; then
        echo "compare-report-tool.sh: cannot build $what:" >&2
        cat "$work/build.log" >&2
        exit 2
    fi
}
cd "$in/src" || exit 2
every="-fplugin-arg-sampler-schemes=$all_schemes"
built lib.o "$cc" -O1 -fPIC "$every" -fplugin-arg-sampler-site-table="$in/seed/sites" \
    -c lib.c -o "$in/seed/lib.o"
built prog.o "$cc" -O1 -I"$build/include" "$every" -fplugin-arg-sampler-site-table="$in/seed/sites" \
    -c prog.c -o "$in/seed/prog.o"
built libseed.so "$cc" -shared -o "$in/seed/libseed.so" "$in/seed/lib.o"
built prog "$cc" -o "$in/seed/prog" "$in/seed/prog.o" -L"$in/seed" \
    -Wl,-rpath,"$in/seed" -lseed
built indirect-lib.so gcc -shared -fPIC -O2 indirect-lib.c -o "$in/values/indirect-lib.so"
built indirect "$cc" -O2 -fplugin-arg-sampler-schemes=indirect-calls,values,returns \
    indirect.c -o "$in/values/indirect" -ldl
built sizes "$cc" -O2 -fplugin-arg-sampler-schemes=sizes,values sizes.c -o "$in/values/sizes"
built shapes "$cc" -O2 -fplugin-arg-sampler-schemes=paths,branches \
    -fplugin-arg-sampler-site-table="$in/paths/sites" shapes.c -o "$in/paths/shapes"
built interp "$cc" -O2 -fplugin-arg-sampler-schemes=subpaths interp.c -o "$in/subpaths/interp"

seed=$in/seed
cd "$seed" || exit 2
seed_run () {   # seed_run NAME SPARSITY SEED N MODE
    SAMPLER_SPARSITY=$2 SAMPLER_SEED=$3 SAMPLER_FILE="$seed/$1.report" ./prog "$4" "$5" \
        >/dev/null 2>&1
}
for s in 1 2 3 4 5 6; do
    seed_run "exit$s" $((s % 3 + 1)) "$s" $((20 + 7 * s)) exit
    seed_run "crash$s" $((s % 2 + 1)) "$((s + 10))" $((15 + 5 * s)) signal
done
seed_run sparse 50 7 300 exit
SAMPLER_SPARSITY=1 SAMPLER_SEED=3 SAMPLER_REPORT_FD=3 ./prog 20 demand \
    >/dev/null 2>&1 3>"$seed/demand.report"
SAMPLER_SPARSITY=1 SAMPLER_SEED=9 SAMPLER_FILE="$seed/fork-%p.report" ./prog 30 fork \
    >/dev/null 2>&1
SAMPLER_SPARSITY=2 SAMPLER_SEED=5 SAMPLER_REPORT_FD=3 ./prog 16 fork \
    >/dev/null 2>&1 3>"$seed/shared.report"
sed 's/^exit\t.*/interim\t2/' "$seed/exit1.report" >"$seed/interim.report"
mkdir -p "$seed/runs"
cp "$seed"/exit*.report "$seed"/crash*.report "$seed/runs/"
: >"$seed/runs/.hidden"
cp "$seed/exit1.report" "$seed/runs/exit1.report.tmp.123"
printf 'success\t%s\nfailure\t%s\n' "$seed/exit1.report" "$seed/crash1.report" >"$seed/labels"
for r in "$seed"/exit*.report "$seed"/crash*.report; do
    case $r in *crash*) printf 'failure\t%s\n' "$r" ;; *) printf 'success\t%s\n' "$r" ;; esac
done >"$seed/labels-all"
"$old" merge "$seed/runs" --sites "$seed/sites" -o "$seed/all.agg" 2>/dev/null

v=$in/values-runs
mkdir -p "$v" "$in/paths-runs" "$in/subpaths-runs"
for s in 1 3; do
    SAMPLER_SPARSITY=$s SAMPLER_SEED=$s SAMPLER_FILE="$v/indirect$s.report" \
        "$in/values/indirect" "$in/values/indirect-lib.so" >/dev/null 2>&1
    SAMPLER_SPARSITY=$s SAMPLER_SEED=$s SAMPLER_FILE="$v/sizes$s.report" \
        "$in/values/sizes" 40 >/dev/null 2>&1
done
p=$in/paths-runs
for s in 1 2 5; do
    SAMPLER_SPARSITY=$s SAMPLER_SEED=$s SAMPLER_FILE="$p/shapes$s.report" "$in/paths/shapes" 30 \
        >/dev/null 2>&1
done
sp=$in/subpaths-runs
SAMPLER_SPARSITY=1 SAMPLER_SUBPATH_LENGTHS=all SAMPLER_SUBPATH_MAX=8 \
    SAMPLER_FILE="$sp/all.report" "$in/subpaths/interp" 200 >/dev/null 2>&1
for s in 2 7; do
    SAMPLER_SPARSITY=$s SAMPLER_SEED=$s SAMPLER_FILE="$sp/osp$s.report" "$in/subpaths/interp" 3000 \
        >/dev/null 2>&1
done

# Synthetic runs with planted bugs, for rank to find predicates.
python3 "$top/testsuite/report/make-runs.py" "$in/syn" --runs 300 --sites 400 --units 3 \
    --observed 0.3 --bugs 3 --seed 5 >/dev/null

# Bad inputs: files of every other kind given as reports, and broken copies.
bad=$in/bad
mkdir -p "$bad"
head -n 5 "$seed/exit1.report" >"$bad/truncated.report"
sed 's/^sparsity\t.*/sparsity\tmany/' "$seed/exit1.report" >"$bad/sparsity.report"
sed '$d' "$sp/all.report" | sed 's/^subpath\t\([0-9]*\)\t/subpath\t0\t/' \
    >"$bad/subpath-count.report"
awk '/^subpaths\t/ && !done { print "unit\tx"; done = 1 } { print }' "$sp/all.report" \
    >"$bad/unit-after-subpaths.report"
grep -v '^subpaths' "$sp/all.report" >"$bad/subpath-alone.report"
sed 's/^unit\t\([0-9a-f]*\)\t\([0-9]*\)\t/unit\t\1\t9\t/' "$seed/exit1.report" \
    >"$bad/unit-shape.report"
sed 's/\tvalues\t/\tvalue\t/' "$seed/sites" >"$bad/sites-scheme"
bad_inputs="$bad/* $seed/sites $seed/labels $seed/all.agg $seed/prog.o
            $top/testsuite/fuzz/regressions/*/* $top/testsuite/fuzz/corpus/*/*"

# ---- Running both -------------------------------------------------------------
out=$work/out            # where a case's command writes; the same for both tools
n_same=0
n_differ=0
compare () {   # compare NAME ARGUMENT...: both tools, one case
    name=$1; shift
    for which in old new; do
        eval tool=\$$which
        rm -rf "$out" "$work/$which"
        mkdir -p "$work/$which"
        (cd "$in" && "$tool" "$@") >"$work/$which/stdout" 2>"$work/$which/stderr" \
            <"${stdin:-/dev/null}"
        echo $? >"$work/$which/status"
        if [ -e "$out" ]; then mv "$out" "$work/$which/out"; fi
    done
    if diff -r "$work/old" "$work/new" >"$work/diff" 2>&1; then
        n_same=$((n_same + 1))
    else
        n_differ=$((n_differ + 1))
        echo "DIFFERS: $name: $*"
        sed -n '1,12s/^/    /p' "$work/diff"
    fi
}

# Every format of every command that has --format, with and without the
# options that change what it writes.
for f in text csv jsonl; do
    for r in exit1 crash2 sparse demand shared interim fork-*; do
        for report in "$seed"/$r.report; do
            compare "show $f" show "$report" --format=$f
            compare "show $f --all" show "$report" --format=$f --all --sites "$seed/sites"
        done
    done
    compare "show binaries" show "$seed/exit2.report" --binary "$seed/prog" \
        --binary "$seed/libseed.so" --format=$f
    compare "show no tables" show "$seed/exit2.report" --binary "$seed/lib.o" --format=$f
    stdin=$seed/shared.report; compare "show stdin" show - --format=$f; stdin=
    for r in "$v"/*.report "$p"/*.report "$sp"/*.report; do
        compare "show profiles" show "$r" --format=$f --all
    done
    for r in "$top"/testsuite/fuzz/corpus/report/*; do
        compare "show corpus" show "$r" --sites "$top/testsuite/fuzz/corpus/sites/program" \
            --format=$f
    done
done
for f in text csv jsonl html; do
    compare "rank $f, the reports' programs" rank "$seed/runs" --format=$f
    compare "rank $f" rank "$seed/runs" --sites "$seed/sites" --format=$f
    compare "rank $f signal" rank "$seed/runs" --sites "$seed/sites" --fail-if=signal --format=$f --top=0 \
        --min-failing=1
    compare "rank $f labels" rank "$seed"/exit*.report "$seed"/crash*.report \
        --binary "$seed/prog" --binary "$seed/libseed.so" --labels "$seed/labels-all" --format=$f --interval=normal --confidence=90
    compare "rank $f aggregate" rank "$seed/all.agg" --fail-if=signal,status=1-2 --format=$f \
        --source-dir "$in/src"
    compare "rank $f paths" rank "$p" --format=$f --min-failing=1
    compare "rank $f planted" rank "$in/syn/runs" --sites "$in/syn/sites.txt" --format=$f
    compare "rank $f planted, all" rank "$in/syn/runs" --sites "$in/syn/sites.txt" --format=$f \
        --top=0 --min-failing=2 --interval=normal --fail-if=signal=11
    compare "values $f" values "$seed/runs" --sites "$seed/sites" --format=$f
    compare "values $f top" values "$seed/runs" --sites "$seed/sites" "$v" --format=$f --top=2 --min-share=0.5
    compare "values $f sizes" values "$v/sizes1.report" "$v/sizes3.report" --format=$f --top=20
    compare "values $f indirect" values "$v/indirect1.report" "$v/indirect3.report" \
        --format=$f
    compare "paths $f" paths "$p" --format=$f --source-dir "$in/src"
    compare "paths $f function" paths "$p/shapes2.report" "$p/shapes5.report" --format=$f \
        --function=nested --top=3
    compare "paths $f sites" paths "$p/shapes1.report" --sites "$in/paths/sites" --format=$f
    compare "paths $f no table" paths "$p/shapes1.report" --sites "$in/seed/sites" \
        --sites "$in/paths/sites" --binary "$seed/prog" --format=$f
    compare "paths $f seed" paths "$seed/runs" --sites "$seed/sites" --format=$f --source-dir "$in/src"
    compare "subpaths $f" subpaths "$sp" --format=$f --source-dir "$in/src"
    compare "subpaths $f length" subpaths "$sp/osp2.report" "$sp/osp7.report" --format=$f \
        --length=4 --top=5 --confidence=0.5
    compare "subpaths $f exact" subpaths "$sp/all.report" --format=$f --top=100000
    compare "subpaths $f seed" subpaths "$seed/runs" "$seed/fork-"*.report --binary "$seed/prog" \
        --binary "$seed/libseed.so" --format=$f
done
compare "paths interesting" paths "$p" --write-interesting "$out"
compare "paths interesting hot" paths "$p" --write-interesting="$out" --hot=2 --function=loops
compare "paths interesting, no table" paths "$p/shapes1.report" --write-interesting "$out" \
    --binary "$seed/prog"
for inputs in "$seed/runs --sites $seed/sites" "$seed/all.agg" "$v $p $sp" \
              "$in/syn/runs --sites $in/syn/sites.txt" \
              "$seed/shared.report $seed/demand.report --sites $seed/sites"; do
    # shellcheck disable=SC2086
    compare "merge" merge $inputs -o "$out"
    # shellcheck disable=SC2086
    compare "export" export $inputs --output "$out" --format=csv
    # shellcheck disable=SC2086
    compare "export labels" export $inputs --output="$out" --fail-if=signal
    # shellcheck disable=SC2086
    compare "rates" rates $inputs -o "$out"
done
compare "merge of an aggregate and reports" merge "$seed/all.agg" "$seed/sparse.report" -o "$out"
compare "merge binaries" merge "$seed/runs" --binary "$seed/prog" --binary "$seed/lib.o" \
    --output="$out"
compare "export counts, release" export "$seed/runs" --sites "$seed/sites" -o "$out" --counts \
    --release=seed --release-id=7
# A field run's report (docs/remote.md): its run id names the run in export.
field=$top/testsuite/fuzz/corpus/report/field.report-10
compare "export field report" export "$field" -o "$out"
compare "merge field report" merge "$field" "$seed/exit1.report" -o "$out"
compare "export labels file" export "$seed"/exit*.report "$seed"/crash*.report --sites "$seed/sites" \
    --labels "$seed/labels-all" -o "$out"
compare "rates options" rates "$seed/runs" --sites "$seed/sites" -o "$out" --budget=50 --sparsity=10 --unit=3 \
    --min-rate=0.01
compare "rates budget" rates "$seed/runs" --sites "$seed/sites" "$v" -o "$out" --budget=1e3 --sparsity=100
compare "rates mixed" rates "$p" -o "$out"
compare "rates paths" rates "$p/shapes2.report" -o "$out"

# Help.
compare "help" help
compare "--help" --help
compare "-h" -h
for c in show merge rank export values rates paths subpaths; do
    compare "help $c" help $c
    compare "$c --help" $c --help
    compare "$c -h after an input" $c "$seed/exit1.report" -h
done

# Usage errors: every option's bad values, missing values and misplaced
# options, one argument at a time.
compare "no command" 
compare "unknown command" rnak
compare "unknown option" --colour
compare "help extra" help show rank
compare "help unknown" help rnak
r=$seed/exit1.report
for c in show merge rank export values rates paths subpaths; do
    case $c in merge|export|rates) o="-o $out" ;; *) o= ;; esac
    compare "$c alone" $c
    compare "$c unknown option" $c "$r" --colour
    compare "$c --binary" $c "$r" --binary
    compare "$c --binary=" $c "$r" --binary=
    compare "$c --sites" $c "$r" --sites
    compare "$c --format" $c "$r" --format
    compare "$c --format=xml" $c "$r" --format=xml
    compare "$c --format=html" $c "$r" --format=html
    compare "$c --fail-if" $c "$r" --fail-if
    # main's values, paths and subpaths took --output and -o, and crashed
    # (they have no file to write), and took --fail-if and --labels and
    # ignored them; they refuse them now, as show does (run-rank-tests.sh).
    if [ "$c" != values ] && [ "$c" != paths ] && [ "$c" != subpaths ]; then
        # shellcheck disable=SC2086
        compare "$c --fail-if=signal" $c "$r" --fail-if=signal $o
        compare "$c --labels" $c "$r" --labels "$seed/labels"
        compare "$c -o" $c "$r" -o
        compare "$c --output" $c "$r" --output="$out"
    fi
    compare "$c both" $c "$r" --labels "$seed/labels" --fail-if=signal
    # With both mistakes every command now names the two options first;
    # main's rank named the missing input first.
    if [ "$c" != rank ]; then
        compare "$c both, no input" $c --labels "$seed/labels" --fail-if=signal
    fi
    compare "$c --source-dir" $c "$r" --source-dir
    compare "$c --source-dir=" $c "$r" --source-dir=
    compare "$c -" $c -
    # `--' ends the options of every command since they share one runner;
    # main's tool took it in show only (the others: "unknown option '--'").
    if [ "$c" = show ]; then compare "$c --" $c -- "$r"; fi
    compare "$c --all" $c "$r" --all
    # shellcheck disable=SC2086
    compare "$c missing input" $c "$seed/nothing.report" $o
    # shellcheck disable=SC2086
    compare "$c directory without reports" $c "$in/src" $o
    for option in --top --min-share --confidence --interval --min-failing --length \
                  --function --write-interesting --hot --budget --sparsity --unit --min-rate \
                  --release --release-id --counts; do
        for value in "" 0 -1 1.5 100 abc 3 2048 1e99; do
            compare "$c $option=$value" $c "$r" "$option=$value"
        done
        compare "$c $option" $c "$r" "$option"
    done
done
compare "show two reports" show "$r" "$seed/exit2.report"
compare "paths --hot alone" paths "$r" --hot=3
compare "rank bad rule" rank "$seed/runs" --sites "$seed/sites" --fail-if=crash
compare "rank bad labels" rank "$seed/runs" --sites "$seed/sites" --labels "$seed/labels"
compare "rank missing labels" rank "$seed/runs" --sites "$seed/sites" --labels "$seed/nothing"

# Bad inputs, as reports and as tables.
for file in $bad_inputs; do
    compare "show bad input" show "$file" --sites "$seed/sites"
    compare "show bad tables" show "$r" --sites "$file"
    compare "rank bad input" rank "$file" --sites "$seed/sites"
    compare "merge bad input" merge "$file" --sites "$seed/sites" -o "$out"
    compare "subpaths bad input" subpaths "$file"
done

echo "$n_same identical, $n_differ differ"
[ "$n_differ" = 0 ]
