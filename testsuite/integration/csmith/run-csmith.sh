#!/bin/bash
# run-csmith.sh: random-program differential testing.  csmith generates a
# program per seed; it is built plainly and with sampler and every scheme,
# at -O0 and -O2; the instrumented builds, run at SAMPLER_SPARSITY=1 and
# 100, must print what the plain build prints (csmith's checksum) and exit
# the same way.
#
# Usage: testsuite/integration/csmith/run-csmith.sh BUILD_DIR [OPTIONS]
#
#   BUILD_DIR        has bin/sampler-gcc (with lib/ beside it)
#   --count N        programs to test (default 20)
#   --first-seed S   seeds S, S+1, ..., S+N-1 (default 1)
#   --jobs J         programs tested in parallel (default 2)
#   --save DIR       where reproducers go (default BUILD_DIR/csmith-failures)
#   --levels "L..."  optimisation levels (default "-O0 -O2")
#   --csmith-options "O..."  options for csmith (default "--max-funcs 5": half
#                    csmith's default program size, which keeps an
#                    instrumented -O2 compile to seconds; "" for csmith's own
#                    defaults)
#   --checking       add -fchecking to the instrumented compiles (GCC's IL
#                    verifiers; they make the compiles about 1.5 times slower)
#   --plugin-args "A" added to the instrumented compiles (e.g.
#                    -fplugin-arg-sampler-outline-entry)
#
# Per program and level:
#   plain    gcc -OL -w -I/usr/include/csmith prog.c
#   sampler  sampler-gcc -OL -w ALL -I/usr/include/csmith prog.c
# (ALL = -fplugin-arg-sampler-schemes=checks,branches,returns,scalar-pairs,
# float-kinds,function-entries,bounds,values,sizes,indirect-calls,paths,subpaths).  csmith's runtime header comes with
# -I, not -isystem, so its safe-math functions are instrumented as well.
# The plain run has CSMITH_RUN_TIMEOUT seconds (default 5); a program whose
# plain build or run fails or times out is skipped (csmith sometimes writes
# programs that run for very long).  Each instrumented run gets 10 s plus
# 40 times the plain run's time.  Every report the instrumented runs write
# must be read back by sampler-report.
#
# A failure is an instrumented compile that fails (internal compiler error,
# error, timeout), a different output or exit status, a timeout of an
# instrumented run, or a report sampler-report rejects.  Each failed program
# is saved as DIR/seed-S/: prog.c, the commands (commands.sh), the outputs
# and a note of what differed, so `sh commands.sh` reproduces it.
#
# Output: a FAIL line per failed program, then
# "csmith: N passed, N failed, N skipped" and the time.  Exit status 1 when
# anything failed, 2 on a usage or setup error.

set -u

ALL_SCHEMES=$("$(dirname "$0")/../../tools/scheme-names.sh")
CSMITH_INCLUDE=${CSMITH_INCLUDE:-/usr/include/csmith}

# ---------------------------------------------------------------------------
# Worker: one seed.  Environment from the driver (exported C_*).  Writes
# $C_RES/SEED: PASS, SKIP <why> or FAIL <why>.

run_timed () {   # $1 timeout, $2 out, $3 err, rest: command; prints "status ms"
  local t=$1 o=$2 e=$3; shift 3
  local start end rc
  start=$(date +%s%N)
  timeout -k 2 "$t" "$@" < /dev/null > "$o" 2> "$e"
  rc=$?
  end=$(date +%s%N)
  echo "$rc $(( (end - start) / 1000000 ))"
}

worker_one () {
  local seed=$1
  local w="$C_SCRATCH/seed-$seed" res="$C_RES/$seed"
  rm -rf "$w"; mkdir -p "$w"; cd "$w" || return
  ulimit -v 8000000 2>/dev/null
  local -a why=()
  # Commands, kept for the reproducer.
  {
    echo "# csmith seed $seed ($(csmith --version 2>/dev/null | head -n 1))"
    echo "csmith $C_CSMITH_OPTIONS --seed $seed -o prog.c"
  } > commands.sh
  if ! timeout 60 csmith $C_CSMITH_OPTIONS --seed "$seed" -o prog.c > /dev/null 2>&1; then
    echo "SKIP csmith failed" > "$res"; rm -rf "$w"; return
  fi
  local level lv rc ms plain_rc plain_ms st irt
  for level in $C_LEVELS; do
    lv=${level#-}
    local plain=(gcc "$level" -w -I"$CSMITH_INCLUDE" prog.c -o "plain$lv")
    local inst=("$C_WRAPPER" "$level" -w $C_CHECKING "-fplugin-arg-sampler-schemes=$ALL_SCHEMES" $C_PLUGIN_ARGS
                -I"$CSMITH_INCLUDE" prog.c -o "inst$lv")
    printf '%s\n' "${plain[*]}" "${inst[*]}" >> commands.sh
    read -r rc ms < <(run_timed 120 /dev/null "plain$lv.log" "${plain[@]}")
    if [ "$rc" != 0 ]; then
      echo "SKIP plain compile fails at $level" > "$res"; rm -rf "$w"; return
    fi
    read -r plain_rc plain_ms < <(run_timed "$C_RUN_TIMEOUT" "plain$lv.out" "plain$lv.err" "./plain$lv")
    if [ "$plain_rc" = 124 ] || [ "$plain_rc" = 137 ]; then
      echo "SKIP plain run times out at $level" > "$res"; rm -rf "$w"; return
    fi
    read -r rc ms < <(run_timed 600 /dev/null "inst$lv.log" "${inst[@]}")
    if [ "$rc" != 0 ]; then
      if grep -q 'internal compiler error' "inst$lv.log"; then why+=("$level: ICE")
      elif [ "$rc" = 124 ] || [ "$rc" = 137 ]; then why+=("$level: compile timeout")
      else why+=("$level: compile fails ($(grep -m1 -E 'error|undefined' "inst$lv.log" | cut -c1-200))"); fi
      continue
    fi
    irt=$(( 10 + 40 * plain_ms / 1000 ))
    for st in $C_SPARSITIES; do
      echo "SAMPLER_SPARSITY=$st SAMPLER_SEED=$C_SAMPLER_SEED SAMPLER_FILE=inst$lv-$st.report ./inst$lv" >> commands.sh
      read -r rc ms < <(SAMPLER_SPARSITY=$st SAMPLER_SEED=$C_SAMPLER_SEED \
                        SAMPLER_FILE="$w/inst$lv-$st.report" \
                        run_timed "$irt" "inst$lv-$st.out" "inst$lv-$st.err" "./inst$lv")
      if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
        why+=("$level sparsity $st: run times out after $irt s (plain $plain_ms ms)")
      elif [ "$rc" != "$plain_rc" ]; then
        why+=("$level sparsity $st: exit status $rc, plain $plain_rc")
      elif ! cmp -s "inst$lv-$st.out" "plain$lv.out"; then
        why+=("$level sparsity $st: output differs")
      elif ! "$C_REPORT" show "inst$lv-$st.report" --binary "./inst$lv" > "inst$lv-$st.show" 2>&1; then
        why+=("$level sparsity $st: sampler-report rejects the report ($(head -c 200 "inst$lv-$st.show"))")
      fi
    done
  done
  if [ ${#why[@]} -eq 0 ]; then
    echo PASS > "$res"; rm -rf "$w"; return
  fi
  printf 'FAIL %s\n' "${why[@]}" > "$res"
  local keep="$C_SAVE/seed-$seed"
  rm -rf "$keep"; mkdir -p "$keep"
  cp -a prog.c commands.sh ./*.log ./*.out ./*.err "$keep"/ 2>/dev/null
  printf '%s\n' "${why[@]}" > "$keep/what-differs.txt"
  rm -rf "$w"
  printf 'FAIL: seed %s: %s (saved in %s)\n' "$seed" "$(IFS=';'; echo "${why[*]}")" "$keep"
}

if [ "${1-}" = --worker ]; then
  shift
  for seed in "$@"; do worker_one "$seed"; done
  exit 0
fi

# ---------------------------------------------------------------------------
# Driver.

usage () { sed -n '2,/^$/s/^# \{0,1\}//p' "$0" >&2; exit 2; }
[ $# -ge 1 ] || usage
BUILD=$(cd "$1" 2>/dev/null && pwd) || { echo "run-csmith.sh: no build directory '$1'" >&2; exit 2; }
shift
COUNT=20 FIRST=1 JOBS=2 SAVE=$BUILD/csmith-failures LEVELS="-O0 -O2" CHECKING= PLUGIN_ARGS=
CSMITH_OPTIONS="--max-funcs 5"
while [ $# -gt 0 ]; do
  case $1 in
    --count) COUNT=${2-}; shift 2 ;;
    --first-seed) FIRST=${2-}; shift 2 ;;
    --jobs) JOBS=${2-}; shift 2 ;;
    --save) SAVE=${2-}; shift 2 ;;
    --levels) LEVELS=${2-}; shift 2 ;;
    --checking) CHECKING=-fchecking; shift ;;
    --plugin-args) PLUGIN_ARGS=${2-}; shift 2 ;;
    --csmith-options) CSMITH_OPTIONS=${2-}; shift 2 ;;
    *) echo "run-csmith.sh: unknown option '$1'" >&2; usage ;;
  esac
done
for v in "$COUNT" "$FIRST" "$JOBS"; do
  case $v in ''|*[!0-9]*) echo "run-csmith.sh: --count, --first-seed and --jobs take whole numbers, not '$v'" >&2; exit 2 ;; esac
done
[ "$JOBS" -ge 1 ] || JOBS=1
command -v csmith > /dev/null || { echo "run-csmith.sh: csmith is not installed (apt-get install csmith libcsmith-dev)" >&2; exit 2; }
[ -f "$CSMITH_INCLUDE/csmith.h" ] || { echo "run-csmith.sh: no $CSMITH_INCLUDE/csmith.h (apt-get install libcsmith-dev)" >&2; exit 2; }
[ -x "$BUILD/bin/sampler-gcc" ] || { echo "run-csmith.sh: no $BUILD/bin/sampler-gcc (run make)" >&2; exit 2; }

SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/sampler-csmith.XXXXXX") || exit 2
trap 'rm -rf "$SCRATCH"' EXIT
# A private copy of the build, so a `make` meanwhile does not change it.
cp -a "$BUILD/bin" "$BUILD/lib" "$SCRATCH/" || exit 2
mkdir -p "$SCRATCH/res" "$SCRATCH/work" "$SAVE"
export C_WRAPPER=$SCRATCH/bin/sampler-gcc C_REPORT=$SCRATCH/bin/sampler-report
export C_RES=$SCRATCH/res C_SCRATCH=$SCRATCH/work C_SAVE=$(cd "$SAVE" && pwd)
export C_CSMITH_OPTIONS=$CSMITH_OPTIONS C_LEVELS=$LEVELS C_CHECKING=$CHECKING C_PLUGIN_ARGS=$PLUGIN_ARGS C_RUN_TIMEOUT=${CSMITH_RUN_TIMEOUT:-5}
export C_SPARSITIES="1 100" C_SAMPLER_SEED=${CSMITH_SAMPLER_SEED:-4242}
export CSMITH_INCLUDE LC_ALL=C

echo "run-csmith.sh: $COUNT programs (csmith $CSMITH_OPTIONS), seeds $FIRST..$((FIRST + COUNT - 1)), levels $LEVELS${CHECKING:+ $CHECKING}${PLUGIN_ARGS:+ $PLUGIN_ARGS}, $JOBS jobs" >&2
start=$(date +%s)
seq "$FIRST" $((FIRST + COUNT - 1)) | xargs -P "$JOBS" -n 4 "$BASH" "$0" --worker
end=$(date +%s)

pass=0 failn=0 skipn=0
for seed in $(seq "$FIRST" $((FIRST + COUNT - 1))); do
  r=$C_RES/$seed
  if [ ! -s "$r" ]; then echo "FAIL: seed $seed: no result (runner error)"; failn=$((failn + 1))
  elif grep -q '^FAIL' "$r"; then failn=$((failn + 1))
  elif grep -q '^SKIP' "$r"; then skipn=$((skipn + 1))
  else pass=$((pass + 1)); fi
done
if [ "$skipn" -gt 0 ]; then
  echo "skipped, by reason:"
  cat "$C_RES"/* | grep '^SKIP' | cut -c6- | sort | uniq -c | sort -rn | sed 's/^/  /'
fi
echo "time: $((end - start)) s"
echo "csmith: $pass passed, $failn failed, $skipn skipped"
[ "$failn" -gt 0 ] && echo "reproducers: $C_SAVE" && exit 1
exit 0
