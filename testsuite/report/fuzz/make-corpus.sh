#!/bin/sh
# Regenerates the seed corpus of the fuzz targets (testsuite/report/fuzz/corpus/)
# from a real program: seed-program/ built with the plugin (every scheme, a
# shared library), run at a few sparsities and endings; its reports, an
# aggregate of them, a label file, its site tables as a file, and its
# objects (stripped to keep the corpus small).  The corpus is committed;
# run this only to refresh it.
# Usage: make-corpus.sh BUILD_DIR CORPUS_DIR
set -eu
build=$(cd "${1:?usage: make-corpus.sh BUILD_DIR CORPUS_DIR}" && pwd)
corpus=${2:?usage: make-corpus.sh BUILD_DIR CORPUS_DIR}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/sampler-corpus.XXXXXX")
trap 'rm -rf "$work"' EXIT

cc="$build/bin/sampler-gcc"
tool="$build/bin/sampler-report"
schemes=checks,branches,returns,scalar-pairs,float-kinds,function-entries,bounds
plugin_args="-fplugin-arg-sampler-schemes=$schemes -fplugin-arg-sampler-site-table=$work/sites"

mkdir -p "$corpus" && corpus=$(cd "$corpus" && pwd)
mkdir -p "$corpus/report" "$corpus/aggregate" "$corpus/sites" "$corpus/labels" "$corpus/elf"
# Relative source names, so that the tables do not depend on the checkout.
cd "$here"
"$cc" -O1 -fPIC $plugin_args -c seed-program/lib.c -o "$work/lib.o"
"$cc" -O1 -I"$build/include" $plugin_args -c seed-program/prog.c -o "$work/prog.o"
cd "$work"
"$cc" -shared -o libseed.so lib.o
"$cc" -o prog prog.o -L. -Wl,-rpath,"$work" -lseed

run () {   # run NAME SPARSITY N MODE
    SAMPLER_SPARSITY=$2 SAMPLER_SEED=7 SAMPLER_FILE="$work/$1.report" ./prog "$3" "$4" \
        >/dev/null 2>&1 || true
}
run dense 1 40 exit
run sparse 100 200 exit
run signal 3 30 signal
# A report written on demand, then the one at exit, to one descriptor.
SAMPLER_SPARSITY=1 SAMPLER_SEED=3 SAMPLER_REPORT_FD=3 ./prog 20 demand \
    >/dev/null 2>&1 3>"$work/demand.report" || true
# A fork child writes its own report, named by its pid.
SAMPLER_SPARSITY=1 SAMPLER_SEED=9 SAMPLER_FILE="$work/fork-%p.report" ./prog 30 fork \
    >/dev/null 2>&1 || true
# Two processes sharing one descriptor: reports back to back in one file.
SAMPLER_SPARSITY=2 SAMPLER_SEED=5 SAMPLER_REPORT_FD=3 ./prog 16 fork \
    >/dev/null 2>&1 3>"$work/shared.report" || true
# An interim report (SAMPLER_INTERVAL) has an 'interim' record instead of
# 'exit'; the seed program ends too soon to write one, so one is derived.
sed 's/^exit\t.*/interim\t2/' "$work/dense.report" >"$work/interim.report"
# The loaded objects a run lists once indirect calls were sampled (a path
# with an escape among them), derived likewise.
awk '{ print } /^exit\t/ { print "loaded\t0\t4194304\t4211192\t/tmp/prog"
                           print "loaded\t139931305041920\t139931305041920\t139931305058320\t/tmp/lib\\tx.so" }' \
    "$work/dense.report" >"$work/loaded.report"

i=0
for report in "$work"/*.report*; do
    i=$((i + 1))
    cp "$report" "$corpus/report/$(basename "$report" | sed 's/[0-9][0-9]*/N/g')-$i"
done

# Aggregates: all runs, and a small one.
"$tool" merge "$work"/dense.report "$work"/signal.report "$work"/fork-*.report \
    --sites "$work/sites" -o "$corpus/aggregate/all"
"$tool" merge "$work/sparse.report" --sites "$work/sites" -o "$corpus/aggregate/one"

printf 'success\t%s\nfailure\t%s\n' "$work/dense.report" "$work/signal.report" \
    >"$corpus/labels/two"
printf 'failure\truns/with\\ttab\\nand newline\nsuccess\t./relative.report\n' \
    >"$corpus/labels/escapes"
printf 'signal,status=1-255\n' >"$corpus/labels/rule"

cp "$work/sites" "$corpus/sites/program"
"$tool" merge "$work/sparse.report" --sites "$work/sites" -o "$work/agg"

strip --strip-unneeded --keep-section=.debug_sampler_sites -o "$corpus/elf/lib-object" lib.o
strip --strip-unneeded --keep-section=.debug_sampler_sites -o "$corpus/elf/prog-object" prog.o
strip --keep-section=.debug_sampler_sites -o "$corpus/elf/libseed-shared" libseed.so
echo "corpus in $corpus:"
du -a "$corpus" | sort -k2
