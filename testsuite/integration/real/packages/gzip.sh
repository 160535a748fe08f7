# gzip: autotools and gnulib; its tests are shell scripts driving gzip,
# gunzip, zgrep, zdiff, znew.
PKG_OPT=-O2
PKG_DEPS="texinfo"
pkg_build () { autotools_build; }
pkg_test () { automake_check; }
PKG_TOO_SLOW_AT_1="tests/list-big"
