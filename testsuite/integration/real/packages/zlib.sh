# zlib: the compression library; its own configure and Makefile.  Tests:
# the static and shared example/minigzip pairs, the 64-bit offset build and
# infcover (inflate's coverage test).  Debian builds it at -O3.
PKG_OPT=-O3
PKG_DEPS=""

pkg_build () {
  ./configure --shared && make -j"$JOBS" all all64 infcover
}

pkg_test () {
  run_case teststatic make teststatic
  run_case testshared make testshared
  run_case test64 make test64
  run_case infcover ./infcover
}

# The plain build's shared-library programs with the instrumented libz.so.
pkg_dso_test () {
  cd "$PLAIN_DIR" || return
  run_case plain-minigzipsh-with-instrumented-libz \
    sh -c 'echo hello world | LD_LIBRARY_PATH="$1" ./minigzipsh | LD_LIBRARY_PATH="$1" ./minigzipsh -d | grep -qx "hello world"' sh "$INST_DIR"
  run_case plain-examplesh-with-instrumented-libz \
    env LD_LIBRARY_PATH="$INST_DIR" ./examplesh "$HOME/zlib-example.$$"
}
