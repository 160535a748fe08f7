#!/bin/sh
# compare-reports.sh OLD_BUILD NEW_BUILD [OPTIONS...]
# Shows that a change of the plugin or the runtime leaves reports alone:
# compiles testsuite programs with every scheme in the registry, with the
# plugin of each build directory (each a `make` of its own checkout), and
# checks that the objects are byte-identical; then links them once and
# runs each with each build's libsampler.so at fixed seeds, sparsities 1
# and 100, and compares the reports byte for byte.  OPTIONS (default -O2)
# are more compiler options.
#
# The compiles run without address-space randomisation (setarch -R): at
# -O0 the plugin's code for a few functions depends on where GCC's
# objects are in memory (two compiles of testsuite/schemes/counts.c at
# -O0 with randomisation differ).
#
# So that nothing but the runtime's code differs between the two runs of a
# program: address-space randomisation is off (setarch -R), the library is
# copied to one path for both, and libc and libm are preloaded, so that
# they are mapped where they are whatever the size of libsampler.so.  The
# `pid' and `parent' records differ from run to run and are left out, and
# so are the addresses in the `loaded' record of libsampler.so itself and
# the random number of the `run-id' record.
# Then the last program runs with bad settings, and each build's warnings
# are compared.
# Prints IDENTICAL and the counts, or what differs (exit 1).
set -eu
usage="usage: compare-reports.sh OLD_BUILD NEW_BUILD [OPTIONS...]"
old=$(cd "${1:?$usage}" && pwd)
new=$(cd "${2:?$usage}" && pwd)
shift 2
options=${*:--O2}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
schemes=$("$top/testsuite/tools/scheme-names.sh")

# Programs that do the same thing every run: no threads racing for one
# hot-list, no time or pid observed.  PROGRAM[@FUNCTIONS][:ARGUMENTS]:
# only FUNCTIONS instrumented (where the others observe pids); @LIB@ in
# the arguments is values/indirect-lib.c, a library the program loads.
programs="schemes/counts schemes/kinds schemes/loops schemes/constants
values/exact values/sizes values/zipf values/fork@assign
values/indirect:@LIB@
subpaths/loop subpaths/nested subpaths/interp
paths/shapes paths/edges paths/inlined paths/tailcall paths/ppp
run/recursion run/switch run/nested run/mutual run/longjmp run/varargs
runtime/exits@parent_work,child_work:_exit
runtime/exits@parent_work,child_work:quick_exit"

library=$scratch/lib/indirect-lib.so
mkdir -p "$scratch/lib"
gcc -shared -fPIC -O2 "$top/testsuite/values/indirect-lib.c" -o "$library"
preload="$(gcc -print-file-name=libc.so.6) $(gcc -print-file-name=libm.so.6) $library"
differ=0
for entry in $programs; do
    program=${entry%%[@:]*}
    arguments=
    case $entry in *:*) arguments=$(echo "${entry#*:}" | sed "s|@LIB@|$library|") ;; esac
    only=
    case ${entry%%:*} in
        *@*) for function in $(echo "${entry#*@}" | sed 's/:.*//' | tr , ' '); do
                 only="$only -fplugin-arg-sampler-include-function=$function"
             done
             only="$only -fplugin-arg-sampler-exclude-function=*" ;;
    esac
    count=$((${count:-0} + 1))
    name=$count-$(echo "$program" | tr / -)
    source=$top/testsuite/$program.c
    for build in old new; do
        eval dir=\$$build
        setarch "$(uname -m)" -R \
        "$dir/bin/sampler-gcc" $options -I"$top/testsuite/run" -I"$dir/include" \
            -fplugin-arg-sampler-schemes="$schemes" $only -c "$source" \
            -o "$scratch/$name.$build.o" 2>"$scratch/$name.$build.log" \
            || { echo "compare-reports.sh: $program does not build with $dir:" >&2
                 cat "$scratch/$name.$build.log" >&2; exit 2; }
    done
    if ! cmp -s "$scratch/$name.old.o" "$scratch/$name.new.o"; then
        echo "$program: the objects differ"
        differ=1
        continue
    fi
    gcc "$scratch/$name.new.o" -o "$scratch/$name" -L"$new/lib" -lsampler -lm -ldl -pthread
    for build in old new; do
        eval dir=\$$build
        cp "$dir/lib/libsampler.so.0" "$scratch/lib/libsampler.so.0"
        mkdir -p "$scratch/$build/$name"
        for sparsity in 1 100; do
            for seed in 1 7; do
                (cd "$scratch" && LD_LIBRARY_PATH="$scratch/lib" LD_PRELOAD="$preload" \
                    SAMPLER_SPARSITY=$sparsity SAMPLER_SEED=$seed \
                    SAMPLER_FILE="$scratch/$build/$name/$sparsity-$seed-%p.report" \
                    setarch "$(uname -m)" -R "./$name" $arguments >/dev/null 2>&1) || true
            done
        done
        # The pids name the files and fill two records: numbered in order
        # instead.
        (cd "$scratch/$build/$name" && n=0 &&
            for f in $(ls | sort -t- -k1,1n -k2,2n -k3,3n); do
                n=$((n + 1))
                grep -v -e '^pid	' -e '^parent	' "$f" \
                    | sed -e 's|^loaded	[0-9]*	[0-9]*	[0-9]*	\(.*/libsampler\.so\.0\)$|loaded	-	-	-	\1|' \
                          -e 's|^run-id	[0-9a-f]*$|run-id	-|' \
                    >"run-$n"
                rm "$f"
            done)
    done
    reports=$((${reports:-0} + $(ls "$scratch/old/$name" | wc -l)))
    if [ -z "$(ls "$scratch/old/$name")" ]; then
        echo "$program: no reports"
        differ=1
    elif ! diff -r -q "$scratch/old/$name" "$scratch/new/$name" >/dev/null; then
        echo "$program: the reports differ"
        diff -r "$scratch/old/$name" "$scratch/new/$name" | head -20
        differ=1
    fi
done
# The warnings for bad settings, with each build's library.
long=$(printf '9%.0s' $(seq 300))
warnings=0
for setting in SAMPLER_SPARSITY=-1 SAMPLER_SPARSITY=1000000001 SAMPLER_SPARSITY=$long \
        "SAMPLER_SPARSITY=1 2" SAMPLER_SEED=x SAMPLER_SEED=18446744073709551616 \
        SAMPLER_FILE=%x SAMPLER_FILE=/tmp/$long/$long/$long/$long/$long/$long/$long/$long/$long/$long/$long/$long/$long/$long \
        SAMPLER_REPORT_FD=-3 SAMPLER_REPORT_FD=2147483648 SAMPLER_REPORT_FD=99 \
        SAMPLER_INTERVAL=1.5 SAMPLER_INTERVAL=31536001 SAMPLER_SUBPATH_MEMORY=16383 \
        SAMPLER_SUBPATH_MAX=3 SAMPLER_SUBPATH_MAX=2048 SAMPLER_SUBPATH_LENGTHS=OSP \
        SAMPLER_SUBPATH_TRACE=/tmp/$long$long$long$long$long$long$long$long$long$long$long$long$long$long; do
    for build in old new; do
        eval dir=\$$build
        cp "$dir/lib/libsampler.so.0" "$scratch/lib/libsampler.so.0"
        (cd "$scratch" && env LD_LIBRARY_PATH="$scratch/lib" SAMPLER_SPARSITY=10 \
             SAMPLER_FILE="$scratch/w-%p.report" SAMPLER_SEED=1 "$setting" \
             "./$name" $arguments >/dev/null 2>"$scratch/warning.$build") || true
    done
    warnings=$((warnings + 1))
    if ! cmp -s "$scratch/warning.old" "$scratch/warning.new" || [ ! -s "$scratch/warning.new" ]; then
        echo "${setting%%=*}: the warnings differ"
        diff "$scratch/warning.old" "$scratch/warning.new" | head -5
        differ=1
    fi
done
[ $differ = 0 ] || exit 1
echo "IDENTICAL ($count programs, ${reports:-0} reports, $warnings warnings)"
