# bc: an arbitrary-precision calculator (a yacc grammar, a bytecode
# interpreter); its build runs the freshly built fbc to compile the math
# library, which must print nothing but the library when sampling.  bc has
# no `make check`: its Test/ programs (the math library's functions over
# ranges of arguments) and Examples/ run under bc -l, and each must print
# what the plain build prints.
PKG_OPT=-O2
PKG_DEPS="flex bison texinfo libreadline-dev"
BC_TESTS="exp ln sine atan jn sqrt sqrt1 sqrt2 fact div mul raise array arrayp aryprm signum testfn"

# Debian's patches leave Makefile.am newer than Makefile.in (make would run
# automake-1.14, which bookworm lacks): autotools_build keeps the generated
# files.
pkg_build () { autotools_build --with-readline; }

pkg_test () {
  local t
  for t in $BC_TESTS; do
    [ -f "Test/$t.b" ] && run_compared "Test-$t" ./bc/bc -l "Test/$t.b"
  done
  # The examples define functions; call each.
  run_compared Examples-pi sh -c '{ cat Examples/pi.b; echo "scale = 300; pi(); digits[7]; quit"; } | ./bc/bc -l'
  run_compared Examples-primes sh -c '{ cat Examples/primes.b; echo "primes(2000); quit"; } | ./bc/bc -l'
  run_compared Examples-twins sh -c '{ cat Examples/twins.b; echo "primes(2000); quit"; } | ./bc/bc -l'
  run_compared dc-arithmetic sh -c 'echo "20k 2v p 3 7/ p 2 100^ p 17 5% p _3 4* p" | ./dc/dc'
}
