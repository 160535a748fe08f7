# fixtures.sh, sourced by the cases of this folder: synthetic site tables (as
# files, and as ELF sections assembled with plain gcc, so that the plugin is
# not needed) and synthetic reports, written into the case's scratch
# directory $T; and the ways the cases run sampler-report:
#   run_tool NAME ARGS...   runs the tool into $T/NAME.raw (stdout), .out (the
#                           same, with $T written @SCRATCH@), .err, .status;
#                           then the sanitized build, which must do exactly
#                           the same (sanitizer_check says whether it did)
#   expect_output NAME EXPECTED-FILE STATUS ARGS...
#   expect_error NAME STATUS MESSAGE ARGS...
#   expect_messages NAME STATUS MESSAGE ARGS...
#   build_fixtures          the binaries with site-table sections
. "$TOOLS/tally.sh"
scratch=$T
tool=$REPORT
expected=$TESTSUITE/report/show/expected
sanitized_tool=$SANITIZED_REPORT
sanitized_runs=0

# record FIELD...: one record, fields joined by TABs.
record () {
    printf '%s' "$1"
    shift
    for field in "$@"; do
        printf '\t%s' "$field"
    done
    printf '\n'
}

# --- Site tables ------------------------------------------------------------
MAIN=0123456789abcdef0123456789abcdef   # demo/main.c, in the program
UTIL=5555aaaa5555aaaa5555aaaa5555aaaa   # demo/util.c, in the program
LIB=fedcba9876543210fedcba9876543210    # lib/size.c, in the shared library
GONE=00000000000000000000000000000001   # in no binary at all

main_table () {
    record unit $MAIN demo/main.c 9 20
    record site 0 function-entries demo/main.c 10 1 main 1 main entered
    record site 1 branches demo/main.c 12 7 main 2 'argc > 1' false,true
    record site 2 returns demo/main.c 14 13 main 3 'parse (argv[1])' '<0,==0,>0'
    record site 3 scalar-pairs demo/main.c 15 9 main 3 'n ? limit' '<,==,>'
    record site 4 branches demo/main.c 17 5 main 3 'switch (mode)' 'case 1,case 2,default'
    record site 5 bounds demo/main.c 21 9 main 3 'n (signed)' count,min,max
    record site 6 checks demo/main.c 23 5 main 1 'check_invariant ("a,b")' sampled
    # Escapes: a backslash from the source, and a TAB.
    record site 7 branches demo/main.c 25 11 main 2 "c == '\\\\t'" false,true
    record site 8 branches demo/main.c 27 7 main 2 'flags\tmask' false,true
    record end
}

util_table () {
    record unit $UTIL demo/util.c 3 15
    record site 0 float-kinds demo/util.c 4 12 scale 9 'x * factor' \
        'nan,-inf,-normal,-subnormal,-0,+0,+subnormal,+normal,+inf'
    record site 1 bounds demo/util.c 6 5 scale 3 'x (double)' count,min,max
    record site 2 bounds demo/util.c 7 5 scale 3 'ratio (double)' count,min,max
    record end
}

lib_table () {
    record unit $LIB lib/size.c 4 10
    record site 0 function-entries lib/size.c 3 1 größe 1 größe entered
    record site 1 bounds lib/size.c 5 5 größe 3 'len (unsigned)' count,min,max
    record site 2 returns lib/size.c 8 10 größe 3 'strlen (s)' '<0,==0,>0'
    record site 3 bounds lib/size.c 9 7 größe 3 'total (double)' count,min,max
    record end
}

main_table >"$scratch/main.sites"
util_table >"$scratch/util.sites"
lib_table >"$scratch/lib.sites"

# A C file carrying a site table in .debug_sampler_sites, the way the
# plugin's objects do; EXTRA is more assembly after it (padding).
object_source () {
    printf '__asm__ (".pushsection .debug_sampler_sites,\\"\\",@progbits\\n"\n'
    printf '         ".incbin \\"%s\\"\\n%s"\n' "$1" "$2"
    printf '         ".popsection");\n'
    printf '%s\n' "$3"
}

build_binaries () {
    object_source "$scratch/main.sites" "" 'int main (void) { return 0; }' >"$scratch/main.c"
    # NUL bytes after a table: what a linker's alignment padding looks like.
    object_source "$scratch/util.sites" '.byte 0, 0, 0\n' 'int scale (int x) { return 2 * x; }' \
        >"$scratch/util.c"
    # The same unit again: one object linked twice, through an archive and a library, say.
    object_source "$scratch/main.sites" "" 'int again (void) { return 1; }' >"$scratch/again.c"
    object_source "$scratch/lib.sites" "" 'int size (void) { return 3; }' >"$scratch/lib.c"
    gcc -c "$scratch/main.c" -o "$scratch/main.o" &&
    gcc -c "$scratch/util.c" -o "$scratch/util.o" &&
    gcc -c "$scratch/again.c" -o "$scratch/again.o" &&
    gcc -shared -fPIC "$scratch/lib.c" -o "$scratch/libsize.so" &&
    gcc "$scratch/main.o" "$scratch/util.o" "$scratch/again.o" "$scratch/libsize.so" \
        -o "$scratch/demo-prog"
}
build_fixtures () { build_binaries >"$scratch/build.log" 2>&1; }

# --- Reports ------------------------------------------------------------------
# header PROGRAM [EXIT-KIND CODE]
header () {
    record sampler-report 1
    record program "$1"
    record pid 4242
    record sparsity 100
    record seed 7
    record exit "${2:-status}" "${3:-0}"
}

main_counts () {
    record unit $MAIN 9 20 demo/main.c
    record 0 1
    record 1 0 1
    record 2 0 0 1
    record 4 2 1 0
    record 5 3 18446744073709551609 42
    record 6 1
    record 8 4 0
}

util_counts () {
    # -2.5, 0.001; then a NaN minimum and an infinite maximum.
    record unit $UTIL 3 15 demo/util.c
    record 0 0 0 3 0 0 1 0 5 0
    record 1 9 13836183955189006336 4562254508917369340
    record 2 2 9221120237041090560 9218868437227405312
}

lib_counts () {
    # Sites out of order: the reader sorts them.
    record unit $LIB 4 10 lib/size.c
    record 2 0 0 2
    record 1 2 0 18446744073709551615
    record 0 1
}

{ header "$scratch/demo-prog"; main_counts; util_counts; lib_counts; record end; } \
    >"$scratch/run.report"
{ header "$scratch/demo-prog"; main_counts; record unit $GONE 4 6 gone.c; record 3 5 6; \
  record end; } >"$scratch/unknown.report"
{ header /nonexistent/prog signal 11; record end; } >"$scratch/empty.report"
# One unit twice (linked into two objects): the occurrences add up.  A
# bounds count of 2^64-1 is a first observation under way: it counts 0.
{ header "$scratch/demo-prog"; main_counts; util_counts; lib_counts
  record unit $MAIN 9 20 demo/main.c
  record 1 2 0
  record 5 2 18446744073709551607 10
  record 8 1 1
  record unit $UTIL 3 15 demo/util.c
  record 1 1 13837309855095848960 4620130267728707584
  record 2 1 4607182418800017408 4607182418800017408
  record unit $LIB 4 10 lib/size.c
  record 1 18446744073709551615 0 0
  record 3 18446744073709551615 0 0
  record end; } >"$scratch/twice.report"
# Two reports in one file (a descriptor shared by a process and its
# child); the second written on demand, with no exit record.
{ header "$scratch/demo-prog" status 3; util_counts; record end
  record sampler-report 1; record program "$scratch/demo-prog"; record pid 4243
  record sparsity 100; record seed 8; lib_counts; record end; } >"$scratch/two.report"

# The records the runtime writes for a run that goes on: three reports of
# one process, a fork child of 4241, on one descriptor (an interim one after
# two resets, the one written before an exec, and the new program's, no
# longer a fork child), units under the objects they were in.
{ record sampler-report 1; record program "$scratch/demo-prog"; record pid 4242
  record sparsity 100; record seed 7; record parent 4241; record reset 2; record interim 3
  record object "$scratch/demo-prog"; util_counts; record object "$scratch/libsize.so"; lib_counts
  record end
  record sampler-report 1; record program "$scratch/demo-prog"; record pid 4242
  record sparsity 100; record seed 7; record parent 4241; record exit exec
  record object "$scratch/demo-prog"; util_counts; record end
  record sampler-report 1; record program "$scratch/demo-prog"; record pid 4242
  record sparsity 100; record seed 7; record exit status 0; record end; } >"$scratch/stream.report"

# run_tool NAME ARGS...: runs the tool into $scratch/NAME.raw (stdout),
# .out (the same, with the scratch directory written @SCRATCH@), .err and
# .status; then the sanitized build, which must do exactly the same.
run_tool () {
    # Not "name": sh has no local variables, and callers use that one.
    run=$1
    shift
    "$tool" "$@" >"$scratch/$run.raw" 2>"$scratch/$run.err"
    echo $? >"$scratch/$run.status"
    sed "s|$scratch|@SCRATCH@|g" "$scratch/$run.raw" >"$scratch/$run.out"
    # Standard input can be read only once.
    for argument; do
        [ "$argument" = - ] && return
    done
    [ -n "$sanitized_tool" ] || return
    sanitized_runs=$((sanitized_runs + 1))
    "$sanitized_tool" "$@" >"$scratch/sanitized.out" 2>"$scratch/sanitized.err" </dev/null
    echo $? >"$scratch/sanitized.status"
    if ! cmp -s "$scratch/sanitized.out" "$scratch/$run.raw" ||
       ! cmp -s "$scratch/sanitized.err" "$scratch/$run.err" ||
       ! cmp -s "$scratch/sanitized.status" "$scratch/$run.status"; then
        {
            echo "$run: sampler-report $*"
            echo "exit status $(cat "$scratch/sanitized.status"), stderr:"
            sed 's/^/    /' "$scratch/sanitized.err"
        } >>"$scratch/sanitizer-failures"
    fi
}

# expect_output NAME EXPECTED-FILE STATUS ARGS...
expect_output () {
    name=$1 file=$2 status=$3
    shift 3
    run_tool "$name" "$@"
    if [ "$(cat "$scratch/$name.status")" != "$status" ]; then
        echo "exit status $(cat "$scratch/$name.status"), expected $status" >"$scratch/$name.why"
        cat "$scratch/$name.err" >>"$scratch/$name.why"
        fail "$name" "$scratch/$name.why"
    elif ! diff -u "$expected/$file" "$scratch/$name.out" >"$scratch/$name.diff"; then
        fail "$name: output differs from expected/$file" "$scratch/$name.diff"
    elif [ "$status" = 0 ] && [ -s "$scratch/$name.err" ]; then
        fail "$name: unexpected messages" "$scratch/$name.err"
    else
        pass "$name"
    fi
}

both="--binary $scratch/demo-prog --binary $scratch/libsize.so"

# expect_error NAME STATUS MESSAGE ARGS...: the tool fails with STATUS, writes
# nothing on stdout and exactly MESSAGE (lines) on stderr.
expect_error () { check_messages no-output "$@"; }
# expect_messages: the same, but the tool may write output.
expect_messages () { check_messages output "$@"; }
check_messages () {
    output=$1 name=$2 status=$3 message=$4
    shift 4
    run_tool err "$@"
    got=$(cat "$scratch/err.status")
    printf '%s\n' "$message" >"$scratch/err.expected"
    if [ $got != "$status" ]; then
        echo "exit status $got, expected $status" >"$scratch/err.why"
        cat "$scratch/err.err" >>"$scratch/err.why"
        fail "$name" "$scratch/err.why"
    elif [ "$output" = no-output ] && [ -s "$scratch/err.raw" ]; then
        fail "$name: wrote output" "$scratch/err.raw"
    elif ! diff -u "$scratch/err.expected" "$scratch/err.err" >"$scratch/err.diff"; then
        fail "$name: message" "$scratch/err.diff"
    else
        pass "$name"
    fi
}

# sanitizer_check: the runs of run_tool did the same under ASan, LSan and
# UBSan, and reported nothing.
sanitizer_check () {
    if [ -s "$scratch/sanitizer-failures" ]; then
        fail "the same $sanitized_runs runs under ASan, LSan and UBSan" "$scratch/sanitizer-failures"
    else
        pass "the same $sanitized_runs runs under ASan, LSan and UBSan"
    fi
}
