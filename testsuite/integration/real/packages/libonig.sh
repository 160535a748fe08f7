# libonig (Oniguruma): a regex engine; the source has no configure, so it is
# bootstrapped with autoreconf; its test programs link libonig.so through
# libtool.  Known failure: with every scheme, the build gives a
# -Wmaybe-uninitialized warning the plain build does not (regcomp.c, where
# the value really can be unset).
PKG_OPT=-O2
PKG_DEPS="autoconf automake libtool"
pkg_build () {
  autoreconf -fi > /dev/null 2>&1 &&
    autotools_build --enable-binary-compatible-posix-api=yes
}
pkg_test () { automake_check; }
