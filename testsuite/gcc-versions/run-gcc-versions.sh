#!/bin/bash
# run-gcc-versions.sh: the plugin and runtime built and tested with each GCC
# version, 12 on this (Debian bookworm) machine, the others in Debian chroots
# (chroot.sh): 14 in trixie, 13, 15 and 16 in forky.
#
# Usage: testsuite/gcc-versions/run-gcc-versions.sh [OPTIONS]
#
#   --versions "V..."  GCC major versions (default "12 13 14 15 16")
#   --suites "S..."    suites run for each version, in this order (default
#                      all of them): schemes, unit, run, torture, csmith,
#                      real, cross
#   --csmith N         csmith programs (default 50)
#   --torture-sample N every Nth torture execute test (default 10)
#
# For each version N, everything happens in build/gcc-versions/gcc-N of the
# repository (the chroots see it at the same path): `make GCC=gcc-N` builds
# the plugin, runtime and tools there, and each suite is the project's own
# make target with that GCC, whose g++, gcc and cc are first on PATH
# (Makefile, TOOLCHAIN):
#
#   schemes  make check-schemes      every predicate counter, hot-lists,
#                                     hot subpaths: exact and binomial checks
#   unit     make check-unit         Check unit tests (the countdown's
#                                     statistics, the report tool's scores)
#   run      make check-run          compile-and-run, sampling fairness
#   torture  run-torture.sh          every Nth execute test at -O0 and -O2
#                                     (GCC 12's torture tests, from the host's
#                                     gcc-12-source, with -fpermissive from
#                                     GCC 14 on: see docs/gcc-versions.md)
#   csmith   make check-csmith       N random programs
#   real     make check-real         zlib's own suite, instrumented
#   cross    cross-load.sh           each other version's plugin (of this
#                                     run, an earlier one, or the machine's
#                                     own build/), loaded by this GCC, and
#                                     sampler-gcc run with another GCC,
#                                     refuse with a message
#
# Output: per version and suite "gcc-N SUITE: N passed, N failed (T s)", per
# version "gcc-N: N passed, N failed (build T s, tests T s)", and at the end
# "gcc-versions: N passed, N failed".  A suite that stops without its count
# (a setup error) counts as one failure.  Each suite's full output is in
# build/gcc-versions/gcc-N/logs/SUITE.log.  Exit status 1 when anything
# failed, 2 on a usage error.  Needs root for the chroots.

set -u

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
versions="12 13 14 15 16"
suites="schemes unit run torture csmith real cross"
csmith_count=50
torture_sample=10

while [ $# -gt 0 ]; do
  case $1 in
    --versions) versions=${2:?}; shift 2 ;;
    --suites) suites=${2:?}; shift 2 ;;
    --csmith) csmith_count=${2:?}; shift 2 ;;
    --torture-sample) torture_sample=${2:?}; shift 2 ;;
    *) sed -n '6,14p' "$0" | sed 's/^# //' >&2; exit 2 ;;
  esac
done
for n in $csmith_count $torture_sample; do
  case $n in ''|*[!0-9]*) echo "run-gcc-versions.sh: not a number: '$n'" >&2; exit 2 ;; esac
done
for s in $suites; do
  case " schemes unit run torture csmith real cross " in
    *" $s "*) ;;
    *) echo "run-gcc-versions.sh: unknown suite '$s'" >&2; exit 2 ;;
  esac
done

# The Debian suite that has each version; 12 is this machine's own.
suite_of () {
  case $1 in
    12) echo host ;;
    14) echo trixie ;;
    13|15|16) echo forky ;;
    *) return 1 ;;
  esac
}
for v in $versions; do
  suite_of "$v" > /dev/null || { echo "run-gcc-versions.sh: unsupported GCC version '$v' (12 to 16)" >&2; exit 2; }
done

# What the suites need inside a chroot, besides each version's compilers
# and plugin headers.
# (libc6-dbg: the symbols that name the libc functions an IFUNC chose, for
# the values suite's indirect calls; libcurl and zlib: sampler-submit;
# libmicrohttpd, libpq and SQLite: sampler-collect and sampler-report --store.)
common_packages="make libgsl-dev check pkg-config python3 csmith libcsmith-dev file xz-utils libc6-dbg libcurl4-openssl-dev zlib1g-dev libmicrohttpd-dev libpq-dev libsqlite3-dev"

# in_place VERSION COMMAND: COMMAND (a shell command line) in the repository,
# on this machine or in VERSION's chroot.
in_place () {
  local suite
  suite=$(suite_of "$1")
  if [ "$suite" = host ]; then
    (cd "$repo" && sh -c "$2")
  else
    "$here/chroot.sh" run "$suite" sh -c "cd '$repo' && $2"
  fi
}

now () { date +%s; }

# CPU seconds used so far by the commands this script ran (user and
# system): on a shared machine, a measure of the work that the wall-clock
# time is not.  Read from /proc (cutime and cstime, fields 16 and 17),
# since $(cpu) is a subshell, whose own `times` would count nothing.
ticks=$(getconf CLK_TCK)
cpu () {
  local stat
  stat=$(cat /proc/$$/stat)
  set -- ${stat##*) }
  echo $(( (${14} + ${15}) / ticks ))
}

# count LOG: "PASSED FAILED" from a suite's output.  Compile-and-run suites
# end with "N passed, N failed" lines (summed: check-schemes runs three
# scripts); check-real also prints one per package, so only its "real:"
# total counts; Check prints "P%: Checks: N, Failures: F, Errors: E".
count () {
  if grep -q '^real: [0-9]* passed, [0-9]* failed' "$1"; then
    sed -n 's/^real: \([0-9]*\) passed, \([0-9]*\) failed.*/\1 \2/p' "$1" | tail -1
    return
  fi
  {
    sed -n 's/^\(csmith: \)\{0,1\}\([0-9]*\) passed, \([0-9]*\) failed.*/\2 \3/p' "$1"
    sed -n 's/^[0-9]*%: Checks: \([0-9]*\), Failures: \([0-9]*\), Errors: \([0-9]*\).*/\1 \2 \3/p' "$1" |
      awk '{ print $1 - $2 - $3, $2 + $3 }'
  } | awk '{ p += $1; f += $2; n++ } END { if (n) print p, f }'
}

# suite_command VERSION B SUITE: the suite's command line.
suite_command () {
  local v=$1 b=$2 make="nice make GCC=gcc-$1 B=$2"
  case $3 in
    schemes) echo "$make check-schemes" ;;
    unit) echo "$make check-unit" ;;
    run) echo "$make check-run" ;;
    torture)
      local extra=
      [ "$v" -ge 14 ] && extra="--extra -fpermissive"
      echo "$make all && PATH=$b/toolchain-gcc-$v:\$PATH nice testsuite/integration/torture/run-torture.sh $b --set execute --levels '-O0 -O2' --o3-every 0 --sample $torture_sample $extra" ;;
    csmith) echo "$make check-csmith N=$csmith_count" ;;
    real) echo "$make check-real REAL_PACKAGES=zlib" ;;
    cross) echo "testsuite/gcc-versions/cross-load.sh $v $b 12 13 14 15 16" ;;
  esac
}

# Sources the chroots read from the shared cache, fetched here, where apt
# has the bookworm sources: zlib for the real suite.
case " $suites " in
  *" real "*) "$repo/testsuite/tools/fetch-debian-source.sh" zlib > /dev/null ||
                echo "run-gcc-versions.sh: cannot fetch zlib's source; the real suite will fail" >&2 ;;
esac

# The chroots, each once, with every requested version of theirs.
for suite in trixie forky; do
  packages=
  for v in $versions; do
    [ "$(suite_of "$v")" = $suite ] && packages="$packages gcc-$v g++-$v gcc-$v-plugin-dev"
  done
  [ -n "$packages" ] || continue
  start=$(now)
  if ! "$here/chroot.sh" ensure $suite $common_packages $packages > /dev/null; then
    echo "run-gcc-versions.sh: the $suite chroot could not be made" >&2
    exit 1
  fi
  echo "chroot $suite: ready ($(( $(now) - start )) s)"
done

# Every version is built before any is tested, so that each one's cross
# test finds the others' plugins of this run.
declare -A build_time
for v in $versions; do
  b=build/gcc-versions/gcc-$v
  mkdir -p "$repo/$b/logs"
  start=$(now) start_cpu=$(cpu)
  if in_place "$v" "nice make -j2 GCC=gcc-$v B=$b all" > "$repo/$b/logs/build.log" 2>&1; then
    build_time[$v]=$(( $(now) - start ))
    echo "gcc-$v build: ok (${build_time[$v]} s, CPU $(( $(cpu) - start_cpu )) s)"
  else
    tail -20 "$repo/$b/logs/build.log"
    echo "gcc-$v build: FAILED; see $repo/$b/logs/build.log"
  fi
done

total_pass=0 total_fail=0
for v in $versions; do
  b=build/gcc-versions/gcc-$v
  logs=$repo/$b/logs
  if [ -z "${build_time[$v]:-}" ]; then
    echo "gcc-$v: 0 passed, 1 failed (the build failed)"
    total_fail=$((total_fail + 1))
    continue
  fi
  pass=0 fail=0
  tests_start=$(now) tests_cpu=$(cpu)
  for s in $suites; do
    start=$(now) start_cpu=$(cpu)
    in_place "$v" "$(suite_command "$v" "$b" $s)" > "$logs/$s.log" 2>&1
    status=$?
    read -r p f <<< "$(count "$logs/$s.log")"
    if [ -z "${p:-}" ]; then
      p=0 f=1
      echo "FAIL: gcc-$v $s stopped without a count (status $status); see $logs/$s.log"
    elif [ "$status" != 0 ] && [ "$f" = 0 ]; then
      f=1
      echo "FAIL: gcc-$v $s exited with status $status; see $logs/$s.log"
    fi
    grep '^FAIL' "$logs/$s.log" | head -20
    echo "gcc-$v $s: $p passed, $f failed ($(( $(now) - start )) s, CPU $(( $(cpu) - start_cpu )) s)"
    pass=$((pass + p)) fail=$((fail + f))
  done
  echo "gcc-$v: $pass passed, $fail failed (build ${build_time[$v]} s, tests $(( $(now) - tests_start )) s, CPU $(( $(cpu) - tests_cpu )) s)"
  total_pass=$((total_pass + pass)) total_fail=$((total_fail + fail))
done

echo "gcc-versions: $total_pass passed, $total_fail failed"
[ $total_fail = 0 ]
