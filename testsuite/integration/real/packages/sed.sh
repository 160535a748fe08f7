# sed: autotools and gnulib; the regex engine is glibc's (Debian configures
# --without-included-regex), the suite is sed's testsuite/ plus gnulib's
# unit tests.
PKG_OPT=-O2
PKG_DEPS=""
pkg_build () { autotools_build --without-included-regex; }
pkg_test () { automake_check; }
