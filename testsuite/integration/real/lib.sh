# lib.sh: helpers for the recipes of testsuite/integration/real/ and the phases that
# run them; sourced by run-real.sh, and by the shell that runs a phase as the
# unprivileged user.

# Helpers for recipes.

# automake_results: one line per test from the automake test driver's .trs
# files under the current directory.
automake_results () {
  local trs result
  while IFS= read -r trs; do
    result=$(sed -n 's/^:test-result: //p' "$trs" | head -n 1)
    case $result in
      PASS|XFAIL) echo "PASS ${trs%.trs}" ;;
      SKIP) echo "SKIP ${trs%.trs}" ;;
      *) echo "FAIL ${trs%.trs}" ;;
    esac
  done < <(find . -name '*.trs' | sort) >> "$RESULTS"
}

# run_case NAME COMMAND...: one test that passes when COMMAND succeeds; its
# output goes to NAME.case.log.
run_case () {
  local name=$1; shift
  if "$@" > "$name.case.log" 2>&1; then echo "PASS $name" >> "$RESULTS"
  else echo "FAIL $name" >> "$RESULTS"; fi
}

# One phase of one package, in a subshell so recipes cannot disturb the
# driver.  $1 = recipe, $2 = what (build|test|dso), rest: VAR=value settings.

phase () {
  local recipe=$1 what=$2; shift 2
  (
    for kv in "$@"; do export "${kv?}"; done
    # shellcheck source=/dev/null
    . "$recipe"
    set +e
    case $what in
      build) pkg_build ;;
      test) pkg_test ;;
      dso) pkg_dso_test ;;
    esac
  )
}


# autotools_build [CONFIGURE-ARGUMENTS...]: configure with $CC, $CFLAGS and
# $LDFLAGS (autotools_configure), then make (autotools_make).
# The generated files of a Debian source tree stand as shipped: Debian's
# patches may leave Makefile.am or aclocal.m4 newer than what was generated
# from them, and make would then run the autotools (of other versions than
# bookworm's: grep, bc).  Both builds use the same files either way.
KEEP_GENERATED=(ACLOCAL=true AUTOMAKE=true AUTOCONF=true AUTOHEADER=true MAKEINFO=true)

autotools_configure () {
  ./configure CC="$CC" CFLAGS="$CFLAGS" LDFLAGS="$LDFLAGS" "$@"
}

autotools_make () {
  make -j"$JOBS" "${KEEP_GENERATED[@]}" "$@"
}

autotools_build () {
  autotools_configure "$@" && autotools_make
}

# automake_check: `make check` (which stops at the first directory that
# fails, so -k), then the results of every test the automake driver ran.
# At sparsity 1 the test scripts in $PKG_TOO_SLOW_AT_1 (e.g. tests/list-big)
# are stood in for by a script that skips: every site visit runs its
# instrumentation there, and a test that pushes gigabytes through a
# compressor would take an hour.  They are reported as NOTRUN.
automake_check () {
  local slow
  local -a stubbed=()
  if [ "${SAMPLER_SPARSITY-}" = 1 ]; then
    for slow in ${PKG_TOO_SLOW_AT_1-}; do
      mv "$slow" "$slow.real" && printf '#!/bin/sh\nexit 77\n' > "$slow" &&
        chmod +x "$slow" && stubbed+=("$slow")
    done
  fi
  make -k -j"$JOBS" "${KEEP_GENERATED[@]}" check > check.log 2>&1
  for slow in ${stubbed[@]+"${stubbed[@]}"}; do
    mv "$slow.real" "$slow"
  done
  automake_results
  # (Rewritten in place: the results file is in a folder of the driver's.)
  local results
  for slow in ${stubbed[@]+"${stubbed[@]}"}; do
    results=$(sed "s|^SKIP ./$slow\$|NOTRUN ./$slow|" "$RESULTS") &&
      printf '%s\n' "$results" > "$RESULTS"
  done
}

# run_compared NAME COMMAND...: for suites without expected outputs, a test
# that passes when COMMAND succeeds and, in an instrumented copy, prints
# what it printed in the plain copy ($PLAIN_DIR).  Outputs are kept in
# compared-outputs/NAME.
run_compared () {
  local name=$1; shift
  mkdir -p compared-outputs
  if "$@" > "compared-outputs/$name" 2> "compared-outputs/$name.err" < /dev/null &&
     { [ "$PWD" = "$PLAIN_DIR" ] || cmp -s "compared-outputs/$name" "$PLAIN_DIR/compared-outputs/$name"; }; then
    echo "PASS $name" >> "$RESULTS"
  else
    echo "FAIL $name" >> "$RESULTS"
  fi
}
