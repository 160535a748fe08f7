# gawk: an interpreter (bison grammar, its own regex and DFA matchers, MPFR
# arithmetic, dynamic extensions loaded with dlopen).  Its suite is not
# automake's: each test prints its name, and a failed one leaves test/_NAME.
PKG_OPT=-O2
PKG_DEPS="libmpfr-dev libgmp-dev libreadline-dev"
# Debian's source has no manual sources (doc/gawktexi.in), from which doc/
# and awklib/ (the manual's example programs) are made: the top-level make
# leaves them out.
pkg_build () {
  autotools_configure --disable-rpath &&
    sed -i 's/^\(SUBDIRS = .*\) doc awklib /\1 /' Makefile && autotools_make
}
pkg_test () {
  make -k "${KEEP_GENERATED[@]}" check > check.log 2>&1
  local name
  # Test names are printed alone on a line; anything else is other output.
  grep -E '^[A-Za-z][A-Za-z0-9_+.-]*$' check.log | sort -u | while IFS= read -r name; do
    case $name in make|Makefile|ALL|PASSED) continue ;; esac
    [ -f "test/$name.awk" ] || [ -f "test/$name.ok" ] || [ -f "test/$name.sh" ] || continue
    if [ -e "test/_$name" ]; then echo "FAIL $name"; else echo "PASS $name"; fi
  done >> "$RESULTS"
}
