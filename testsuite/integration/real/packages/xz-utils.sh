# xz-utils: liblzma (shared, through libtool) and the xz tool; the tests
# link liblzma.so.
PKG_OPT=-O2
PKG_DEPS=""
pkg_build () { autotools_build --disable-doc; }
pkg_test () { automake_check; }

# The plain xz (a libtool-built program whose real binary is in
# src/xz/.libs) with the instrumented liblzma.so.
pkg_dso_test () {
  local xz=$PLAIN_DIR/src/xz/.libs/xz lib=$INST_DIR/src/liblzma/.libs
  [ -x "$xz" ] || xz=$PLAIN_DIR/src/xz/xz
  cd "$HOME" || return
  local f
  for f in "$INST_DIR"/tests/files/good-*.xz; do
    run_case "plain-xz-with-instrumented-liblzma-$(basename "$f")" \
      env LD_LIBRARY_PATH="$lib" "$xz" -t "$f"
  done
  run_case plain-xz-roundtrip-with-instrumented-liblzma sh -c \
    'LD_LIBRARY_PATH="$2" "$1" -6e -c < "$3" | LD_LIBRARY_PATH="$2" "$1" -dc | cmp - "$3"' \
    sh "$xz" "$lib" "$INST_DIR/src/liblzma/lzma/lzma_encoder.c"
}
