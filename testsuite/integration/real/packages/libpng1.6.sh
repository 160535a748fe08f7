# libpng: autotools and libtool, shared libpng16.so; its tests drive pngtest,
# pngvalid, pngstest, pngunknown and pngimage over the contrib/ images.
PKG_OPT=-O2
PKG_DEPS="zlib1g-dev"
pkg_build () { autotools_build; }
pkg_test () { automake_check; }

# The plain pngtest (libtool's real binary) with the instrumented
# libpng16.so.
pkg_dso_test () {
  local pngtest=$PLAIN_DIR/.libs/pngtest lib=$INST_DIR/.libs
  cd "$HOME" || return
  run_case plain-pngtest-with-instrumented-libpng \
    env LD_LIBRARY_PATH="$lib" "$pngtest" "$INST_DIR/pngtest.png" "$HOME/pngout.png"
  local f
  for f in "$INST_DIR"/contrib/pngsuite/basn*.png; do
    run_case "plain-pngtest-with-instrumented-libpng-$(basename "$f" .png)" \
      env LD_LIBRARY_PATH="$lib" "$pngtest" "$f" "$HOME/pngout.png"
  done
}
PKG_TOO_SLOW_AT_1="tests/pngimage-full"
