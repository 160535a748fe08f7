# sed: autotools and gnulib; the regex engine is glibc's (Debian configures
# --without-included-regex), the suite is sed's testsuite/ plus gnulib's
# unit tests.  Known failure: gnulib's test-explicit_bzero reads a dead
# stack frame, which the runtime's calls overwrite at sparsity 1.
PKG_OPT=-O2
PKG_DEPS=""
pkg_build () { autotools_build --without-included-regex; }
pkg_test () { automake_check; }
