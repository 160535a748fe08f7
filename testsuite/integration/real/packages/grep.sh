# grep: autotools and gnulib, with its own DFA matcher and PCRE2; Debian
# builds it at -O3.  Tests: grep's tests/ and gnulib's unit tests.
PKG_OPT=-O3
PKG_DEPS="libpcre2-dev"
pkg_build () { autotools_build; }
pkg_test () { automake_check; }
