#!/bin/bash
# run-torture.sh: GCC's own C torture tests, built with sampler and every
# scheme, must compile without ICE or new errors and behave exactly like the
# plain build.
#
# Usage: testsuite/integration/torture/run-torture.sh BUILD_DIR [OPTIONS]
#
#   BUILD_DIR        has bin/sampler-gcc (with lib/ beside it)
#   --sample N       every N-th test of each set (sorted by name, first,
#                    N+1-th, ...; deterministic), for CI
#   --jobs J         tests run in parallel (default: nproc)
#   --set "S..."     sets among execute, compile, ieee, or all (default all)
#   --only GLOB      only tests whose name (no .c) matches GLOB, e.g. 'pr4*'
#   --o3-every M     execute tests whose index is a multiple of M are also
#                    tested at -O3 (default 4; 1: all; 0: none)
#   --levels "L..."  optimisation levels instead of the default (execute:
#                    "-O2 -O0", compile: "-O2"), for both sets, e.g.
#                    --levels "-O1 -Os -Og" --o3-every 0
#   --extra "FLAGS"  added to every compile, plain and instrumented (-g,
#                    -fPIC, ...)
#   --plugin-args "A" added to every instrumented compile only (e.g.
#                    -fplugin-arg-sampler-outline-entry)
#   --keep           keep the scratch directory even when everything passed
#   --verbose        print a line for every test, not only failures
#
# Sources.  The tests come from Debian's gcc-12-source package, which puts
# GCC's source tarball in /usr/src/gcc-12/ (installed with apt-get if missing
# and we are root).  Only gcc.c-torture/execute and gcc.c-torture/compile are
# extracted, once, into ${SAMPLER_CACHE:-$HOME/.cache/sampler}/torture/
# (about 5 s); they never go into the repository.
#
# What is tested (ALL = -fplugin-arg-sampler-schemes=checks,branches,returns,
# scalar-pairs,float-kinds,function-entries,bounds,values,sizes,indirect-calls,paths,subpaths):
#
#   execute/*.c  plain      gcc -OL -w OPTS T.c -lm, run
#                sampler    sampler-gcc -OL -w -fchecking ALL OPTS T.c -lm,
#                           run with SAMPLER_SPARSITY=0 (the unsampled
#                           clones), =1 and =100 (fixed SAMPLER_SEED,
#                           SAMPLER_FILE in the scratch dir)
#                for L = 2, 0 (and 3 for every M-th test): the exit status
#                and stdout of every sampler run must equal the plain run's
#                at the same level.  A test whose plain build or run fails
#                at the first level is skipped (not our concern); at a
#                later level, that level is skipped.
#   compile/*.c  plain      gcc -O2 -w OPTS -c T.c
#                sampler    sampler-gcc -O2 -w -fchecking ALL OPTS -c T.c
#                any "internal compiler error", any error line the plain
#                compile does not give, or a failure where plain succeeds
#                fails the test (tests that expect errors pass when the
#                instrumented compile gives exactly the plain errors).
#
# OPTS come from the test's own DejaGnu lines, honoured simply, for an
# x86_64-linux-gnu LP64 target: dg-options and dg-additional-options (with
# their { target ... } selectors), dg-do with a target selector (compile
# tests for other targets are skipped), dg-skip-if (whole test or one -O
# level), dg-require-effective-target (a few that are false here, such as
# ia32, ilp32 or run_expensive_tests, skip the test), dg-timeout-factor.
# dg-add-options stack_size and ieee add nothing on this target; dg-final,
# dg-error, dg-warning and friends are ignored (the plain build is the
# reference).  -w always stays.  testsuite/integration/torture/skip.txt lists tests that
# cannot work for reasons unrelated to the plugin, one "NAME reason" per
# line (NAME as execute/foo or compile/foo); it must never hide a plugin bug.
#
# Output: one "FAIL: ..." line per failed configuration with the exact
# commands (the scratch directory of a failed test is kept), then
# "N passed, N failed, N skipped" with the skip reasons counted.  Exit status
# 1 when anything failed, 2 on a usage or setup error.
#
# Environment (optional):
#   SAMPLER_CACHE        cache root (default $HOME/.cache/sampler)
#   TORTURE_SCRATCH      scratch dir (default a fresh ${TMPDIR:-/tmp}/sampler-torture.*)
#   TORTURE_SEED         SAMPLER_SEED of the runs (default 12345)
#   TORTURE_SPARSITIES   default "1 100"
#   TORTURE_RUN_TIMEOUT  seconds per plain run (default 10; sampler runs get
#                        3 times as much, compiles 12 and 36 times as much)
#   TORTURE_EXTRA_LINK   extra objects/libraries for the instrumented links
#                        (e.g. a stand-in for runtime symbols in progress)
#   SAMPLER_GCC          the compiler, plain and under sampler-gcc (default gcc)
#
# Notes:
#   * Timing on the 2-core development machine (--jobs 2): the full run
#     (1592 execute + 1903 compile tests) about 28 min; --sample 10 about
#     3 min.  Roughly 2/3 of the time is the execute set.
#   * The build directory is copied into the scratch directory first, so a
#     `make` during the run does not change the plugin under the tests; the
#     commands in FAIL lines name that copy (kept on failure).
#   * Sets: execute/*.c, compile/*.c and execute/ieee/*.c (the "ieee" set:
#     run like execute, plus -fno-inline as ieee.exp adds; its .x files only
#     concern other targets).  execute/builtins is not run: it needs
#     DejaGnu's lib/ helpers linked in.
#   * A failure line names the configuration, what differed, and the command
#     lines; re-run one test with --only NAME --keep.

set -u
shopt -s nullglob

# This script's folder, before a worker changes directory.
TORTURE_DIR=$(cd "$(dirname "$0")" && pwd)
ALL_SCHEMES=$("$TORTURE_DIR/../../tools/scheme-names.sh")

dg_parse () { awk -f "$TORTURE_DIR/dg-directives.awk" "$1"; }

# The worker: torture-test.sh.
. "$TORTURE_DIR/torture-test.sh"

if [ "${1:-}" = --worker ]; then
  shift
  while [ $# -ge 3 ]; do
    worker "$1" "$2" "$3" > "$T_RES/.out.$$" 2>&1
    cat "$T_RES/.out.$$"; rm -f "$T_RES/.out.$$"
    if [ "${T_VERBOSE:-0}" = 1 ]; then
      r=$(grep -m1 -v '^NOTE' "$T_RES/${1}__$3.res")
      printf '%s/%s: %s\n' "$1" "$3" "${r%% *}"
    fi
    shift 3
  done
  exit 0
fi

# ---------------------------------------------------------------------------
# Driver.

usage () { sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

BUILD=""
SAMPLE=1
JOBS=$(nproc 2>/dev/null || echo 2)
SETS="execute compile ieee"
ONLY="*"
O3EVERY=4
LEVELS=""
EXTRA=""
PLUGIN_ARGS=""
KEEP=0
VERBOSE=0
while [ $# -gt 0 ]; do
  case $1 in
    --sample) SAMPLE=$2; shift 2 ;;
    --sample=*) SAMPLE=${1#*=}; shift ;;
    --jobs|-j) JOBS=$2; shift 2 ;;
    --jobs=*) JOBS=${1#*=}; shift ;;
    --set) SETS=$2; shift 2 ;;
    --set=*) SETS=${1#*=}; shift ;;
    --only) ONLY=$2; shift 2 ;;
    --only=*) ONLY=${1#*=}; shift ;;
    --o3-every) O3EVERY=$2; shift 2 ;;
    --o3-every=*) O3EVERY=${1#*=}; shift ;;
    --levels) LEVELS=$2; shift 2 ;;
    --levels=*) LEVELS=${1#*=}; shift ;;
    --extra) EXTRA=$2; shift 2 ;;
    --extra=*) EXTRA=${1#*=}; shift ;;
    --plugin-args) PLUGIN_ARGS=$2; shift 2 ;;
    --plugin-args=*) PLUGIN_ARGS=${1#*=}; shift ;;
    --keep) KEEP=1; shift ;;
    --verbose) VERBOSE=1; shift ;;
    -h|--help) usage ;;
    -*) echo "run-torture.sh: unknown option $1" >&2; usage ;;
    *) [ -z "$BUILD" ] || usage; BUILD=$1; shift ;;
  esac
done
[ -n "$BUILD" ] || usage
[ "$SETS" = all ] && SETS="execute compile ieee"
case "$SAMPLE$JOBS$O3EVERY" in *[!0-9]*) echo "run-torture.sh: --sample, --jobs and --o3-every take numbers" >&2; exit 2 ;; esac
[ "$SAMPLE" -ge 1 ] && [ "$JOBS" -ge 1 ] || { echo "run-torture.sh: --sample and --jobs must be >= 1" >&2; exit 2; }
for s in $SETS; do case $s in execute|compile|ieee) ;; *) echo "run-torture.sh: unknown set $s" >&2; exit 2 ;; esac; done

BUILD=$(cd "$BUILD" 2>/dev/null && pwd) || { echo "run-torture.sh: no build directory" >&2; exit 2; }
WRAPPER=$BUILD/bin/sampler-gcc
[ -x "$WRAPPER" ] || { echo "run-torture.sh: $WRAPPER not found (run make)" >&2; exit 2; }
"$WRAPPER" -print-sampler-plugin >/dev/null || exit 2
HERE=$TORTURE_DIR

# --- the torture sources -----------------------------------------------------
TARBALL=$(ls /usr/src/gcc-12/gcc-12*.tar.xz 2>/dev/null | grep -v gm2 | head -1)
if [ -z "$TARBALL" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get > /dev/null; then
    echo "run-torture.sh: installing gcc-12-source" >&2
    { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y gcc-12-source; } > /dev/null 2>&1
    TARBALL=$(ls /usr/src/gcc-12/gcc-12*.tar.xz 2>/dev/null | grep -v gm2 | head -1)
  fi
  [ -n "$TARBALL" ] || { echo "run-torture.sh: /usr/src/gcc-12/gcc-*.tar.xz missing; apt-get install gcc-12-source" >&2; exit 2; }
fi
TOP=$(basename "$TARBALL" .tar.xz)          # gcc-12.2.0-dfsg
CACHE=${SAMPLER_CACHE:-$HOME/.cache/sampler}/torture/$TOP
if [ ! -f "$CACHE/.complete" ]; then
  echo "run-torture.sh: extracting the torture tests into $CACHE" >&2
  rm -rf "$CACHE"; mkdir -p "$CACHE"
  inner=$(tar -tJf "$TARBALL" | head -1); inner=${inner%%/*}
  tar -xJf "$TARBALL" -C "$CACHE" --strip-components=3 --wildcards \
      "$inner/gcc/testsuite/gcc.c-torture/execute/*" "$inner/gcc/testsuite/gcc.c-torture/compile/*" \
    || { echo "run-torture.sh: extraction failed" >&2; exit 2; }
  touch "$CACHE/.complete"
fi
SRC=$CACHE/gcc.c-torture

# --- scratch -----------------------------------------------------------------
if [ -n "${TORTURE_SCRATCH:-}" ]; then
  SCRATCH=$TORTURE_SCRATCH; rm -rf "$SCRATCH"; mkdir -p "$SCRATCH"
else
  SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/sampler-torture.XXXXXX")
fi
SCRATCH=$(cd "$SCRATCH" && pwd)
mkdir -p "$SCRATCH/results"

# A snapshot of the build, so that a `make` elsewhere during the run cannot
# change the plugin or runtime under the tests (the wrapper finds lib/ beside
# its bin/).
mkdir -p "$SCRATCH/build"
cp -a "$BUILD/bin" "$BUILD/lib" "$SCRATCH/build/" || { echo "run-torture.sh: cannot copy $BUILD" >&2; exit 2; }
WRAPPER=$SCRATCH/build/bin/sampler-gcc

export T_SRC=$SRC T_SCRATCH=$SCRATCH T_RES=$SCRATCH/results T_WRAPPER=$WRAPPER
export T_CC=${SAMPLER_GCC:-gcc} T_SKIPFILE=$HERE/skip.txt T_O3EVERY=$O3EVERY T_VERBOSE=$VERBOSE
if [ -n "$LEVELS" ]; then export T_LEVELS=$LEVELS T_CLEVELS=$LEVELS
else export T_LEVELS="-O2 -O0" T_CLEVELS="-O2"; fi
export T_EXTRA=$EXTRA T_PLUGIN_ARGS=$PLUGIN_ARGS
export T_SEED=${TORTURE_SEED:-12345} T_SPARSITIES=${TORTURE_SPARSITIES:-0 1 100}
export T_RUN_TIMEOUT=${TORTURE_RUN_TIMEOUT:-10} T_EXTRA_LINK=${TORTURE_EXTRA_LINK:-}
export LC_ALL=C
unset SAMPLER_SPARSITY SAMPLER_SEED SAMPLER_FILE

# --- the test list: "set index name" triples ---------------------------------
LIST=$SCRATCH/list
: > "$LIST"
for s in $SETS; do
  i=0
  for f in $(cd "$SRC/$(set_dir "$s")" && ls *.c | sort); do
    n=${f%.c}
    if [ $(( i % SAMPLE )) -eq 0 ]; then
      # shellcheck disable=SC2254
      case $n in $ONLY) printf '%s %s %s\n' "$s" "$i" "$n" >> "$LIST" ;; esac
    fi
    i=$((i + 1))
  done
done
total=$(wc -l < "$LIST")
echo "run-torture.sh: $total tests ($SETS; sample 1/$SAMPLE; levels $T_LEVELS${T_EXTRA:+; extra $T_EXTRA}${T_PLUGIN_ARGS:+; plugin $T_PLUGIN_ARGS}; $JOBS jobs), scratch $SCRATCH" >&2

start=$(date +%s)
# Interleave so that slow tests spread out; 4 tests per worker process.
xargs -P "$JOBS" -n 12 "$BASH" "$0" --worker < "$LIST"
end=$(date +%s)

# --- summary -----------------------------------------------------------------
pass=0; failn=0; skipn=0
: > "$SCRATCH/skips"
while read -r s i n; do
  r=$T_RES/${s}__$n.res
  if [ ! -s "$r" ]; then
    echo "FAIL: $s/$n: no result (runner error)"; failn=$((failn + 1)); continue
  fi
  if grep -q '^FAIL' "$r"; then failn=$((failn + 1))
  elif grep -q '^SKIP' "$r"; then skipn=$((skipn + 1)); grep -m1 '^SKIP' "$r" | cut -c6- >> "$SCRATCH/skips"
  else pass=$((pass + 1)); fi
done < "$LIST"

if [ "$skipn" -gt 0 ]; then
  echo "skipped, by reason:"
  sort "$SCRATCH/skips" | uniq -c | sort -rn | sed 's/^/  /'
fi
levelnotes=$(cat "$T_RES"/*.res 2>/dev/null | grep -c '^NOTE -O' || true)
[ "$levelnotes" -gt 0 ] && echo "($levelnotes single -O levels skipped because their plain build or run fails or dg-skip-if)"
# Per configuration: passed / total; text growth, instrumented over plain.
cat "$T_RES"/*.res 2>/dev/null | awk '
  $1 == "CONF" { k = $2 " " $3 (NF > 4 ? " " $4 : ""); tot[k]++; if ($NF == "pass") ok[k]++ }
  $1 == "SIZE" && $4 > 0 { k = $2 " " $3; p[k] += $4; i[k] += $5; n[k]++ }
  END {
    for (k in tot) printf "  %-32s %5d / %5d passed\n", k, ok[k], tot[k] | "sort"
    close("sort")
    for (k in p) printf "  text %-27s %5.2fx plain (%d binaries, %d -> %d bytes)\n", k, i[k] / p[k], n[k], p[k], i[k] | "sort"
  }'
echo "time: $((end - start)) s"
echo "$pass passed, $failn failed, $skipn skipped"
if [ "$failn" -gt 0 ]; then
  echo "scratch (failed tests' files): $SCRATCH"
  exit 1
fi
[ "$KEEP" = 1 ] && echo "scratch: $SCRATCH" || rm -rf "$SCRATCH"
exit 0
