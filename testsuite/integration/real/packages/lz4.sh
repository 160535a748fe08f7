# lz4: plain Makefiles.  The lz4 tool links lz4's objects in statically;
# programs/Makefile's lz4-wlib is the same tool linked against liblz4.so,
# which the DSO test runs (it needs the static-only functions exported).
# Tests: the parts of lz4's tests/Makefile that run in minutes (`make
# check` is test-lz4-essentials; multi-gigabyte files are left out), the
# frame and block fuzzers for 15 s each, fullbench once.
PKG_OPT=-O2
PKG_DEPS=""
LZ4_TESTS="test-lz4-basic test-lz4-multiple test-lz4-multiple-legacy
  test-lz4-frame-concatenation test-lz4-testmode test-lz4-contentSize
  test-lz4-dict test-lz4-opt-parser test-lz4-sparse test-lz4-skippable"

pkg_build () {
  local flags="$CFLAGS -DLZ4F_PUBLISH_STATIC_FUNCTIONS -DLZ4_PUBLISH_STATIC_FUNCTIONS"
  make -j"$JOBS" lib lz4 CC="$CC" CFLAGS="$flags" LDFLAGS="$LDFLAGS" &&
    make -j"$JOBS" -C programs lz4-wlib CC="$CC" CFLAGS="$flags" LDFLAGS="$LDFLAGS -L$PWD/lib" &&
    make -j"$JOBS" -C tests datagen frametest fuzzer fullbench CC="$CC" CFLAGS="$flags" LDFLAGS="$LDFLAGS"
}

pkg_test () {
  export LD_LIBRARY_PATH=$PWD/lib
  local t
  for t in $LZ4_TESTS; do
    run_case "$t" make -C tests "$t"
  done
  run_case test-frametest make -C tests test-frametest FUZZER_TIME=-T15s
  run_case test-fuzzer make -C tests test-fuzzer FUZZER_TIME=-T15s
  run_case test-fullbench make -C tests test-fullbench
}

# The plain lz4 (lz4-wlib) with the instrumented liblz4.so.
pkg_dso_test () {
  local lz4=$PLAIN_DIR/programs/lz4-wlib lib=$INST_DIR/lib
  cd "$HOME" || return
  run_case plain-lz4-with-instrumented-liblz4 sh -c \
    'for level in 1 9 12; do LD_LIBRARY_PATH="$2" "$1" -$level -c < "$3" | LD_LIBRARY_PATH="$2" "$1" -dc | cmp - "$3" || exit 1; done' \
    sh "$lz4" "$lib" "$INST_DIR/lib/lz4hc.c"
}
