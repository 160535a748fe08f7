#!/bin/bash
# run-real.sh: real programs built with sampler pass their own test suites.
#
# Usage: testsuite/integration/real/run-real.sh BUILD_DIR [OPTIONS]
#
#   BUILD_DIR          has bin/sampler-gcc (with lib/ beside it)
#   --packages "P..."  packages to test (default: every recipe in
#                      testsuite/integration/real/packages/, sorted)
#   --jobs J           make -j J for the builds (default 2)
#   --schemes LIST     the schemes of the instrumented build, comma-separated
#                      (default: every scheme of the registry, in its order,
#                      from testsuite/tools/scheme-names.sh)
#   --rates            also train rates on the reports of the sparsity-100
#                      runs (sampler-report rates), build a third copy with
#                      -fplugin-arg-sampler-rates=FILE and run its suite at
#                      sparsity 100 (step 8)
#   --flags NAME       build both copies with a distribution's flags as a
#                      whole instead of the usual -g PKG_OPT and hardening:
#                      fedora (Fedora's optflags and build_ldflags, LTO
#                      included; without its gcc specs files and annobin,
#                      which only Fedora has) or debian (dpkg-buildflags
#                      with DEB_BUILD_MAINT_OPTIONS=hardening=+all:
#                      CPPFLAGS and CFLAGS, LDFLAGS) (docs/distributions.md)
#   --keep             keep the scratch directory (default: kept only when
#                      something failed)
#   --deps             print the Debian packages the recipes need to build and
#                      test (for `make deps`) and exit
#
# For each package (a recipe testsuite/integration/real/packages/PKG.sh, see below):
#   1. the Debian bookworm source is fetched and unpacked once into the cache
#      (testsuite/tools/fetch-debian-source.sh);
#   2. plain: a copy is built with gcc and the package's usual flags, and its
#      own test suite runs: the baseline;
#   3. sampler: another copy is built with CC=sampler-gcc and the schemes
#      (-fplugin-arg-sampler-schemes=LIST in CFLAGS, as a user would; every
#      scheme by default) at the same -O level, with SAMPLER_SPARSITY=1 during the build, so that the
#      instrumented tools a build runs (bc's fbc, sqlite's lemon) sample too;
#   4. the test suite runs on it at SAMPLER_SPARSITY=0 (sampling off: the
#      unsampled clones run), at 1 and at 100 (fixed SAMPLER_SEED), each
#      sampling run of an instrumented program writing its report into the
#      scratch directory;
#   5. recipes with shared libraries also run plain programs against the
#      instrumented libraries (pkg_dso_test), at the three sparsities;
#   6. every report is read back by sampler-report, and reports written at
#      sparsity 1 must be plausible (testsuite/integration/real/check-reports.py);
#   7. the instrumented build must give no compiler or linker warning that
#      the plain build does not (they would break -Werror builds), and
#      configure must write the same config.h (its probes, built with the
#      wrapper and run sampling, must find what they find plainly);
#   8. with --rates, rates are trained on the sparsity-100 runs' reports and
#      the package built again with them: that build must give no new
#      warning, pass the suite at sparsity 100 (and pkg_dso_test), and its
#      reports must read and show sites at rates other than 1/100.
# The suites run as an unprivileged user when the script runs as root (some
# suites refuse root, sqlite3's among them, and others skip the tests of
# permissions); that user owns the working copies and the report folders.
#
# Every test that passes plainly must pass instrumented at every sparsity;
# tests that fail or are skipped plainly are left out.  Output per package:
#   PKG: N passed, N failed (plain baseline: N passed, N failed, N skipped; ...)
# where N passed and N failed count (test, sparsity) pairs of the tests that
# pass plainly, plus the report, config.h and warning checks; then FAIL lines, and at the end
# "real: N passed, N failed".  Exit status 1 when anything failed, 2 on a
# setup error (a package that cannot be fetched or whose plain build fails).
#
# A recipe defines, running in the unpacked copy's top directory:
#   PKG_OPT          the package's usual optimisation level (e.g. -O2)
#   PKG_DEPS         Debian packages needed to build and test it
#   pkg_build        configure and build with $CC, $CFLAGS, $LDFLAGS, $JOBS
#   pkg_test         run the suite; write one line per test to $RESULTS:
#                    "PASS name", "FAIL name" or "SKIP name", or "NOTRUN
#                    name" for a test left out at sparsity 1 as too slow
#                    (PKG_TOO_SLOW_AT_1, see automake_check in lib.sh)
#                    ($PLAIN_DIR is the plain copy, after its own suite ran:
#                    suites without expected outputs compare with it)
#   pkg_dso_test     (optional) given the plain copy in $PLAIN_DIR and the
#                    instrumented one in $INST_DIR, run plain programs with
#                    the instrumented shared libraries; write results the
#                    same way
# Helpers for recipes: automake_results (reads *.trs files), run_case.
#
# Environment (optional):
#   SAMPLER_CACHE    cache root (default $HOME/.cache/sampler)
#   REAL_SCRATCH     scratch dir (default a fresh ${TMPDIR:-/tmp}/sampler-real.*)
#   REAL_USER        the unprivileged user (default sampler-tests; created
#                    when missing)

set -u

HERE=$(cd "$(dirname "$0")" && pwd)
ALL_SCHEMES=$("$HERE/../../tools/scheme-names.sh")
RECIPES=$HERE/packages
FETCH=$HERE/../../tools/fetch-debian-source.sh
SAMPLER_SEED_FIXED=2718

usage () { sed -n '2,/^$/s/^# \{0,1\}//p' "$0" >&2; exit 2; }

. "$HERE/lib.sh"

# ---------------------------------------------------------------------------
# Running as the unprivileged user.

as_tester () {
  if [ "$(id -u)" = 0 ]; then
    setpriv --reuid="$REAL_USER" --regid="$REAL_USER" --init-groups \
      env HOME="$SCRATCH/home" USER="$REAL_USER" LOGNAME="$REAL_USER" "$@"
  else
    "$@"
  fi
}

ensure_tester () {
  [ "$(id -u)" = 0 ] || return 0
  id "$REAL_USER" > /dev/null 2>&1 ||
    useradd --system --no-create-home --shell /bin/sh "$REAL_USER" ||
    { echo "run-real.sh: cannot create the user $REAL_USER" >&2; exit 2; }
}

give_to_tester () {
  [ "$(id -u)" = 0 ] && chown -R "$REAL_USER:$REAL_USER" "$@"
  return 0
}

count () {   # $1 = word, $2 = file
  grep -c "^$1 " "$2" 2>/dev/null || true
}

warnings () {   # $1 = build log, $2 = its tree: its warnings, sorted, paths relative
  grep -E 'warning:' "$1" | sed "s|$2/||g; s|^\./||" | sort -u
}

# no_new_warnings COPY WHAT: the build of copy COPY ($w/COPY, its log
# $w/COPY-build.log) must give no warning the plain build does not: they
# would break -Werror builds.  Counts a pass or a failure.
no_new_warnings () {
  local copy=$1 what=$2 new_warnings
  new_warnings=$(comm -13 <(warnings "$w/plain-build.log" "$w/plain") \
                          <(warnings "$w/$copy-build.log" "$w/$copy"))
  if [ -z "$new_warnings" ]; then npass=$((npass + 1))
  else
    nfail=$((nfail + 1))
    printf '%s\n' "$new_warnings" | head -n 5 | sed "s/^/FAIL: $pkg: a warning only $what gives: /"
  fi
}

outcome () {   # $1 = test name, $2 = results: its result word, or "missing"
  awk -v n="$1" '{ w = $1; sub(/^[A-Z]+ /, ""); if ($0 == n) { print w; found = 1; exit } }
                 END { if (!found) print "missing" }' "$2"
}

# ---------------------------------------------------------------------------
# One package.

# The test suite of the working copy $w/COPY at sparsity SP, and its plain
# programs with COPY's shared libraries (pkg_dso_test); reports go to
# $reports/TAGsSP and TAGdso-sSP, results to $w/TAGinst-sSP.results.
# Counts into test_package's npass, nfail and notrun; NOTE ends FAIL lines.
run_suite () {   # $1 = SP, $2 = COPY, $3 = TAG, $4 = NOTE
  local sp=$1 copy=$2 tag=$3 note=$4 name
  mkdir -p "$reports/${tag}s$sp" "$reports/${tag}dso-s$sp"
  give_to_tester "$reports"
  : > "$w/${tag}inst-s$sp.results"; chmod 666 "$w/${tag}inst-s$sp.results"
  (cd "$w/$copy" && as_tester env SAMPLER_SPARSITY=$sp SAMPLER_SEED=$SAMPLER_SEED_FIXED \
     SAMPLER_FILE="$reports/${tag}s$sp/%p.report" \
     bash -c '. "$0"; phase "$@"' \
     "$HERE/lib.sh" "$recipe" test RESULTS="$w/${tag}inst-s$sp.results" JOBS="$JOBS" PLAIN_DIR="$w/plain") > "$w/${tag}inst-s$sp-test.log" 2>&1
  while read -r name; do
    if grep -qxF "PASS $name" "$w/${tag}inst-s$sp.results"; then npass=$((npass + 1))
    elif grep -qxF "NOTRUN $name" "$w/${tag}inst-s$sp.results"; then notrun=$((notrun + 1))
    else
      nfail=$((nfail + 1))
      echo "FAIL: $pkg: $name at sparsity $sp$note ($(outcome "$name" "$w/${tag}inst-s$sp.results"))"
    fi
  done < <(sed -n 's/^PASS //p' "$w/plain.results")
  if [ "$has_dso" = yes ]; then
    : > "$w/${tag}dso-s$sp.results"; chmod 666 "$w/${tag}dso-s$sp.results"
    (cd "$w" && as_tester env SAMPLER_SPARSITY=$sp SAMPLER_SEED=$SAMPLER_SEED_FIXED \
       SAMPLER_FILE="$reports/${tag}dso-s$sp/%p.report" \
       bash -c '. "$0"; phase "$@"' \
       "$HERE/lib.sh" "$recipe" dso RESULTS="$w/${tag}dso-s$sp.results" PLAIN_DIR="$w/plain" INST_DIR="$w/$copy") > "$w/${tag}dso-s$sp.log" 2>&1
    local dpass dfail
    dpass=$(count PASS "$w/${tag}dso-s$sp.results"); dfail=$(( $(count FAIL "$w/${tag}dso-s$sp.results") + $(count SKIP "$w/${tag}dso-s$sp.results") ))
    [ "$dpass" -gt 0 ] || dfail=$((dfail + 1))
    # The reports prove that the instrumented library was the one loaded.
    if [ "$sp" != 0 ] && [ -z "$(ls -A "$reports/${tag}dso-s$sp")" ]; then
      dfail=$((dfail + 1))
      echo "FAIL: $pkg: plain programs with the instrumented library wrote no report at sparsity $sp$note"
    fi
    npass=$((npass + dpass)); nfail=$((nfail + dfail))
    grep -E '^(FAIL|SKIP) ' "$w/${tag}dso-s$sp.results" | sed "s/^[A-Z]* /FAIL: $pkg: plain program with instrumented library: /; s/\$/ at sparsity $sp$note/"
    [ "$dpass" -gt 0 ] || echo "FAIL: $pkg: no plain program ran with the instrumented library at sparsity $sp$note"
  fi
}

# --rates: rates trained on the reports of the suite's sparsity-100 runs
# (the instrumented build's), a third copy built with them, and its suite
# run at sparsity 100.  Counts into test_package's npass and nfail.
trained_rates () {
  local rates=$w/rates r program
  local -a training=() binaries=()
  # A report is trained on when its program is still there; sampler-report,
  # given --binary, reads the site tables of those files only: the
  # instrumented programs the reports name and the package's libraries.
  for r in "$reports/s100"/* "$reports/dso-s100"/*; do
    [ -f "$r" ] || continue
    program=$(sed -n '1,3s/^program\t//p' "$r")
    [ -f "$program" ] || continue
    training+=("$r")
    if readelf -SW "$program" 2> /dev/null | grep -q debug_sampler_sites; then
      case " ${binaries[*]-} " in *" --binary $program "*) ;; *) binaries+=(--binary "$program") ;; esac
    fi
  done
  for r in ${dsos[@]+"${dsos[@]}"}; do binaries+=(--binary "$r"); done
  if [ ${#training[@]} = 0 ] ||
     ! "$REPORT_TOOL" rates "${training[@]}" ${binaries[@]+"${binaries[@]}"} \
         --output "$rates" > "$w/rates.log" 2>&1; then
    echo "FAIL: $pkg: no rates trained on the ${#training[@]} reports at sparsity 100 (see $w/rates.log)"
    nfail=$((nfail + 1)); return
  fi
  npass=$((npass + 1))
  rm -rf "$w/rated"
  cp -a "$src" "$w/rated" || { echo "FAIL: $pkg: cannot copy the source for the trained build"; nfail=$((nfail + 1)); return; }
  mkdir -p "$reports/rated-build"
  local t0=$(date +%s)
  if ! (cd "$w/rated" && SAMPLER_SPARSITY=100 SAMPLER_SEED=$SAMPLER_SEED_FIXED \
        SAMPLER_FILE="$reports/rated-build/%p.report" \
        phase "$recipe" build "CC=$WRAPPER" \
          "CFLAGS=$cflags $scheme_flag -fplugin-arg-sampler-rates=$rates" \
          "LDFLAGS=$ldflags" "JOBS=$JOBS") > "$w/rated-build.log" 2>&1; then
    echo "FAIL: $pkg: the build with trained rates fails (see $w/rated-build.log)"
    nfail=$((nfail + 1)); return
  fi
  rated_time=$(( $(date +%s) - t0 ))
  no_new_warnings rated "the build with trained rates"
  give_to_tester "$w/rated"
  run_suite 100 rated rated- " with trained rates"
  # The reports read, and show rates other than the default.
  local -a rated_dsos=()
  while IFS= read -r r; do
    readelf -SW "$r" 2> /dev/null | grep -q debug_sampler_sites && rated_dsos+=("$r")
  done < <(find "$w/rated" -name '*.so*' -type f)
  rated_checks=$(python3 "$HERE/check-reports.py" --report-tool "$REPORT_TOOL" \
                   --binary ${rated_dsos[@]+"${rated_dsos[@]}"} \
                   --readable "$reports/rated-build" \
                   --trained "$reports/rated-s100" "$reports/rated-dso-s100" 2> "$w/rated-reports.log")
  local rstatus=$?
  sed "s/^/FAIL: $pkg: with trained rates: /" "$w/rated-reports.log"
  if [ $rstatus -eq 0 ]; then npass=$((npass + 1)); else nfail=$((nfail + 1)); fi
}

test_package () {
  local pkg=$1 recipe=$RECIPES/$1.sh
  local w=$SCRATCH/$pkg log
  mkdir -p "$w"
  log=$w/log
  echo "== $pkg" >&2

  local src
  src=$("$FETCH" "$pkg" 2>> "$log") ||
    { echo "SETUP: $pkg: cannot fetch the source (see $log)"; setup_errors=$((setup_errors + 1)); keep_scratch=1; return; }
  local opt deps
  opt=$(. "$recipe"; echo "$PKG_OPT")
  local cflags="-g $opt -fstack-protector-strong -Wformat -Werror=format-security"
  local ldflags="-Wl,-z,relro"
  case $FLAGS in
    fedora) cflags=$FEDORA_CFLAGS; ldflags=$FEDORA_LDFLAGS ;;
    debian)
      # -ffile-prefix-map maps the current directory: both copies' parent.
      cflags="$(cd "$w" && DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags --get CPPFLAGS) $(cd "$w" && DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags --get CFLAGS)"
      ldflags=$(DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags --get LDFLAGS) ;;
  esac
  [ -z "$FLAGS" ] || echo "$pkg: $FLAGS flags: CFLAGS=$cflags LDFLAGS=$ldflags" >&2
  local scheme_flag="-fplugin-arg-sampler-schemes=$SCHEMES"

  # Plain build and baseline.
  rm -rf "$w/plain" "$w/inst"
  cp -a "$src" "$w/plain" && cp -a "$src" "$w/inst" || { echo "SETUP: $pkg: cannot copy the source"; setup_errors=$((setup_errors + 1)); keep_scratch=1; return; }
  local t0 t1 t2 t3
  t0=$(date +%s)
  if ! (cd "$w/plain" && phase "$recipe" build CC=gcc "CFLAGS=$cflags" "LDFLAGS=$ldflags" "JOBS=$JOBS") > "$w/plain-build.log" 2>&1; then
    echo "SETUP: $pkg: the plain build fails (see $w/plain-build.log)"
    setup_errors=$((setup_errors + 1)); keep_scratch=1; return
  fi
  t1=$(date +%s)
  give_to_tester "$w/plain"
  : > "$w/plain.results"; chmod 666 "$w/plain.results"
  (cd "$w/plain" && as_tester bash -c '. "$0"; phase "$@"' \
     "$HERE/lib.sh" "$recipe" test RESULTS="$w/plain.results" JOBS="$JOBS" PLAIN_DIR="$w/plain") > "$w/plain-test.log" 2>&1
  local ppass pfail pskip
  ppass=$(count PASS "$w/plain.results"); pfail=$(count FAIL "$w/plain.results"); pskip=$(count SKIP "$w/plain.results")
  if [ "$ppass" = 0 ]; then
    echo "SETUP: $pkg: no test passes in the plain build (see $w/plain-test.log)"
    setup_errors=$((setup_errors + 1)); keep_scratch=1; return
  fi

  # Instrumented build, sampling its own tools.
  t2=$(date +%s)
  local reports=$w/reports
  mkdir -p "$reports/build"
  if ! (cd "$w/inst" && SAMPLER_SPARSITY=1 SAMPLER_SEED=$SAMPLER_SEED_FIXED \
        SAMPLER_FILE="$reports/build/%p.report" \
        phase "$recipe" build "CC=$WRAPPER" "CFLAGS=$cflags $scheme_flag" \
          "LDFLAGS=$ldflags" "JOBS=$JOBS") > "$w/inst-build.log" 2>&1; then
    echo "FAIL: $pkg: the instrumented build fails (see $w/inst-build.log)"
    echo "$pkg: 0 passed, 1 failed (plain baseline: $ppass passed, $pfail failed, $pskip skipped)"
    total_fail=$((total_fail + 1)); keep_scratch=1; return
  fi
  t3=$(date +%s)
  give_to_tester "$w/inst" "$reports"

  local npass=0 nfail=0 notrun=0 sp name
  # configure must find the same things: instrumented probes that behave
  # differently (or a wrapper that confuses them) would change config.h.
  local header differs=""
  while IFS= read -r header; do
    [ -f "$w/inst/$header" ] || { differs+=" $header (missing)"; continue; }
    # Lines naming the compiler or its flags may differ, nothing else.
    diff -q <(grep -v -e "$w/" -e sampler "$w/plain/$header") \
            <(grep -v -e "$w/" -e sampler "$w/inst/$header") > /dev/null ||
      differs+=" $header"
  done < <(cd "$w/plain" && find . -name config.h | sort | while read -r header; do
             [ -e "$src/$header" ] || echo "$header"; done)
  if [ -z "$differs" ]; then npass=$((npass + 1))
  else
    nfail=$((nfail + 1))
    echo "FAIL: $pkg: configure found something else in the instrumented build:$differs"
  fi
  # Instrumenting must not add warnings: they break -Werror builds.
  no_new_warnings inst "the instrumented build"
  local has_dso
  has_dso=$(. "$recipe"; declare -F pkg_dso_test > /dev/null && echo yes)
  # Sparsity 0 runs the unsampled clones.
  for sp in 0 1 100; do
    run_suite "$sp" inst "" ""
  done

  # Reports: all read back; sparsity 1 ones plausible.
  # A report names its program, not the shared libraries its units came
  # from: sampler-report gets the package's instrumented libraries.
  local -a dsos=()
  local f
  while IFS= read -r f; do
    readelf -SW "$f" 2> /dev/null | grep -q debug_sampler_sites && dsos+=("$f")
  done < <(find "$w/inst" -name '*.so*' -type f)
  local checks
  checks=$(python3 "$HERE/check-reports.py" --report-tool "$REPORT_TOOL" \
             --binary ${dsos[@]+"${dsos[@]}"} \
             --plausible "$reports/build" "$reports/s1" "$reports/dso-s1" \
             --readable "$reports/s100" "$reports/dso-s100" 2> "$w/reports.log")
  local rstatus=$?
  cat "$w/reports.log" | sed "s/^/FAIL: $pkg: /"
  if [ $rstatus -eq 0 ]; then npass=$((npass + 1)); else nfail=$((nfail + 1)); fi

  local rated_time="" rated_checks="" rates_note=""
  if [ "$RATES" = 1 ]; then
    trained_rates
    rates_note="; trained rates: ${rated_checks:-not built}${rated_time:+, build $rated_time s}"
  fi

  local slow_note=""
  [ "$notrun" -gt 0 ] && slow_note=" $notrun not run at sparsity 1 (too slow);"
  echo "$pkg: $npass passed, $nfail failed (plain baseline: $ppass passed, $pfail failed, $pskip skipped;$slow_note reports: $checks; build plain $((t1 - t0)) s, sampler $((t3 - t2)) s$rates_note)"
  total_pass=$((total_pass + npass)); total_fail=$((total_fail + nfail))
  [ "$nfail" -gt 0 ] && keep_scratch=1
  # Working copies are large: keep them only for failures.
  [ "$nfail" -gt 0 ] || [ "$KEEP" = 1 ] || rm -rf "$w/plain" "$w/inst" "$w/rated"
}

# ---------------------------------------------------------------------------
# Driver.

[ $# -ge 1 ] || usage
if [ "$1" = --deps ]; then
  for r in "$RECIPES"/*.sh; do (. "$r"; echo "$PKG_DEPS"); done | tr ' ' '\n' | sed '/^$/d' | sort -u | tr '\n' ' '
  echo
  exit 0
fi
BUILD=$(cd "$1" 2>/dev/null && pwd) || { echo "run-real.sh: no build directory '$1'" >&2; exit 2; }
shift
PACKAGES="" JOBS=2 KEEP=0 RATES=0 SCHEMES=$ALL_SCHEMES FLAGS=""
# Fedora 41's %optflags (redhat-rpm-config) and %build_ldflags on x86-64.
FEDORA_CFLAGS="-O2 -flto=auto -ffat-lto-objects -fexceptions -g -grecord-gcc-switches -pipe -Wall -Werror=format-security -Wp,-D_FORTIFY_SOURCE=3 -Wp,-D_GLIBCXX_ASSERTIONS -fstack-protector-strong -m64 -mtune=generic -fasynchronous-unwind-tables -fstack-clash-protection -fcf-protection -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer"
FEDORA_LDFLAGS="-Wl,-z,relro -Wl,--as-needed -Wl,-z,pack-relative-relocs -Wl,-z,now -Wl,--build-id=sha1 -flto=auto -ffat-lto-objects -fcf-protection"
while [ $# -gt 0 ]; do
  case $1 in
    --packages) PACKAGES=${2-}; shift 2 ;;
    --jobs) JOBS=${2-}; shift 2 ;;
    --schemes) SCHEMES=${2-}; shift 2 ;;
    --keep) KEEP=1; shift ;;
    --rates) RATES=1; shift ;;
    --flags)
      FLAGS=${2-}; shift 2
      case $FLAGS in
        fedora|debian) ;;
        *) echo "run-real.sh: --flags takes fedora or debian, not '$FLAGS'" >&2; exit 2 ;;
      esac ;;
    *) echo "run-real.sh: unknown option '$1'" >&2; usage ;;
  esac
done
case $JOBS in ''|*[!0-9]*) echo "run-real.sh: --jobs takes a whole number, not '$JOBS'" >&2; exit 2 ;; esac
# Scheme names are checked here, so that a typo is not taken for a failing build.
IFS=, read -r -a scheme_list <<< "$SCHEMES"
[ ${#scheme_list[@]} -gt 0 ] || { echo "run-real.sh: --schemes takes a comma-separated list of schemes" >&2; exit 2; }
for s in "${scheme_list[@]}"; do
  case ",$ALL_SCHEMES," in
    *",$s,"*) ;;
    *) echo "run-real.sh: --schemes: unknown scheme '$s' (known: $ALL_SCHEMES)" >&2; exit 2 ;;
  esac
done
[ -n "$PACKAGES" ] || PACKAGES=$(cd "$RECIPES" && ls *.sh | sed 's/\.sh$//' | tr '\n' ' ')
for pkg in $PACKAGES; do
  [ -f "$RECIPES/$pkg.sh" ] || { echo "run-real.sh: no recipe $RECIPES/$pkg.sh" >&2; exit 2; }
done
[ -x "$BUILD/bin/sampler-gcc" ] || { echo "run-real.sh: no $BUILD/bin/sampler-gcc (run make)" >&2; exit 2; }

REAL_USER=${REAL_USER:-sampler-tests}
SCRATCH=${REAL_SCRATCH:-$(mktemp -d "${TMPDIR:-/tmp}/sampler-real.XXXXXX")} || exit 2
mkdir -p "$SCRATCH/home" && chmod 755 "$SCRATCH"
ensure_tester
give_to_tester "$SCRATCH/home"
# A private copy of the build, so a `make` meanwhile does not change it.
cp -a "$BUILD/bin" "$BUILD/lib" "$BUILD/include" "$SCRATCH/" || exit 2
WRAPPER=$SCRATCH/bin/sampler-gcc
REPORT_TOOL=$SCRATCH/bin/sampler-report
export LC_ALL=C

total_pass=0 total_fail=0 setup_errors=0 keep_scratch=0
start=$(date +%s)
for pkg in $PACKAGES; do
  test_package "$pkg"
done
end=$(date +%s)
echo "time: $((end - start)) s"
echo "real: $total_pass passed, $total_fail failed"
if [ "$keep_scratch" = 1 ] || [ "$KEEP" = 1 ]; then echo "scratch: $SCRATCH"
else rm -rf "$SCRATCH"; fi
[ "$total_fail" -gt 0 ] && exit 1
[ "$setup_errors" -gt 0 ] && exit 2
exit 0
