# bzip2: plain Makefile (LDFLAGS before the objects); Debian's patch links
# bzip2 against the shared libbz2.so, so the suite goes through the DSO.
# Tests: the six compress/decompress comparisons of `make test`, each a test.
PKG_OPT=-O2
PKG_DEPS=""

pkg_build () {
  make -j"$JOBS" libbz2.a bzip2 bzip2recover CC="$CC" CFLAGS="$CFLAGS -D_FILE_OFFSET_BITS=64" LDFLAGS="$LDFLAGS"
}

bzip2_cases () {   # $1 = directory of the bzip2 to run, $2 = library directory
  local n
  for n in 1 2 3; do
    run_case "compress-sample$n" sh -c 'LD_LIBRARY_PATH="$2" "$1"/bzip2 -$3 < sample$3.ref | cmp - sample$3.bz2' sh "$1" "$2" "$n"
  done
  run_case decompress-sample1 sh -c 'LD_LIBRARY_PATH="$2" "$1"/bzip2 -d < sample1.bz2 | cmp - sample1.ref' sh "$1" "$2"
  run_case decompress-sample2 sh -c 'LD_LIBRARY_PATH="$2" "$1"/bzip2 -d < sample2.bz2 | cmp - sample2.ref' sh "$1" "$2"
  run_case decompress-sample3-small sh -c 'LD_LIBRARY_PATH="$2" "$1"/bzip2 -ds < sample3.bz2 | cmp - sample3.ref' sh "$1" "$2"
}

pkg_test () {
  bzip2_cases "$PWD" "$PWD"
}

# The plain bzip2 with the instrumented libbz2.so.
pkg_dso_test () {
  cd "$INST_DIR" && bzip2_cases "$PLAIN_DIR" "$INST_DIR"
}
