#!/bin/bash
# cross-load.sh: plugins in the wrong GCC.  gcc-VERSION must refuse the
# plugin of each OTHER version, given with -fplugin, with a message naming
# both versions (plugin/loader.cc); sampler-gcc of BUILD, run with each
# OTHER GCC installed here (SAMPLER_GCC), must refuse for want of that
# version's plugin, naming it, the plugins it has and how to build one.
#
# Usage: cross-load.sh VERSION BUILD OTHER...
#   BUILD    the build directory of VERSION (bin/sampler-gcc, lib/sampler/)
#   OTHER    other versions; each one's plugin is looked for in
#            build/gcc-versions/gcc-OTHER of the repository, then in the
#            repository's own build/ (the machine's GCC); a version with
#            neither a plugin nor a compiler here is skipped
# Prints PASS/FAIL lines and "N passed, N failed".

[ $# -ge 2 ] || { echo "usage: $0 VERSION BUILD OTHER..." >&2; exit 2; }
version=$1 build=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
. "$here/../tools/tally.sh"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/sampler-cross.XXXXXX") || exit 2
trap 'rm -rf "$scratch"' EXIT
echo 'int main (void) { return 0; }' > "$scratch/x.c"

# refused NAME PATTERN COMMAND...: COMMAND must fail with PATTERN (grep)
# in what it prints.
refused () {
  local name=$1 pattern=$2
  shift 2
  if "$@" -c "$scratch/x.c" -o "$scratch/x.o" > "$scratch/err" 2>&1; then
    fail_with "$name: accepted"
  elif grep -q -- "$pattern" "$scratch/err"; then
    pass "$name"
  else
    fail "$name: refused without the message" "$scratch/err"
  fi
}

for other in "$@"; do
  [ "$other" != "$version" ] || continue
  plugin=$repo/build/gcc-versions/gcc-$other/lib/sampler/gcc-$other/sampler.so
  [ -f "$plugin" ] || plugin=$repo/build/lib/sampler/gcc-$other/sampler.so
  [ -f "$plugin" ] &&
    refused "gcc-$version refuses the plugin of GCC $other" \
      "built for GCC $other[. ].*cannot be loaded by GCC $version[. ]" \
      "gcc-$version" -fplugin="$plugin"
  command -v "gcc-$other" > /dev/null &&
    refused "sampler-gcc of GCC $version refuses gcc-$other" \
      "no plugin for GCC $other .*built for: gcc-$version .*make GCC=gcc-$other" \
      env SAMPLER_GCC="gcc-$other" "$build/bin/sampler-gcc"
done
# The loader without the plugin proper beside it says which file it lacks.
cp "$build/lib/sampler/gcc-$version/sampler.so" "$scratch/"
refused "gcc-$version: the loader alone names the missing sampler-main.so" \
  "cannot load $scratch/sampler-main.so" "gcc-$version" -fplugin="$scratch/sampler.so"
finish
