#!/bin/bash
# fetch-debian-source.sh: a Debian bookworm source package, unpacked once
# into a cache outside the repository; prints the unpacked directory.
#
# Usage: testsuite/tools/fetch-debian-source.sh PACKAGE
#
# Used by testsuite/integration/real/, testsuite/remote/real-release.sh and bench/.  Third-party sources are never
# committed: they live in ${SAMPLER_CACHE:-$HOME/.cache/sampler}/src/PACKAGE/.
# apt runs with a private source list (a deb-src line for bookworm) and
# private state, so the machine's own apt configuration is left alone.
# Needs apt-get and dpkg-source (dpkg-dev); exit status 1 with a message
# naming the package when it cannot be fetched or unpacked.
set -euo pipefail

[ $# -eq 1 ] && [ -n "$1" ] || { echo "usage: $0 PACKAGE" >&2; exit 2; }
pkg=$1
case $pkg in
  *[!a-z0-9.+-]*) echo "fetch-debian-source.sh: not a Debian package name: '$pkg'" >&2; exit 2 ;;
esac

cache=${SAMPLER_CACHE:-$HOME/.cache/sampler}
apt_dir=$cache/apt
dest=$cache/src/$pkg
mkdir -p "$apt_dir/lists/partial" "$dest"

# A finished unpack leaves its directory's name in .unpacked.
if [ -s "$dest/.unpacked" ] && [ -d "$dest/$(cat "$dest/.unpacked")" ]; then
  echo "$dest/$(cat "$dest/.unpacked")"
  exit 0
fi

sources=$apt_dir/sources.list
printf '%s\n' "deb-src http://deb.debian.org/debian bookworm main" \
              "deb-src http://deb.debian.org/debian bookworm-updates main" > "$sources"
apt_opts=(-o "Dir::Etc::SourceList=$sources" -o "Dir::Etc::SourceParts=-"
          -o "Dir::State::Lists=$apt_dir/lists" -o "APT::Sandbox::User=root"
          -o "Debug::NoLocking=1" -qq)

# One index download per day is plenty.
stamp=$apt_dir/lists/.updated
if [ -z "$(find "$stamp" -mmin -1440 2>/dev/null)" ]; then
  apt-get "${apt_opts[@]}" update >&2 ||
    { echo "fetch-debian-source.sh: cannot download the source index for $pkg" >&2; exit 1; }
  touch "$stamp"
fi

work=$dest/download
rm -rf "$work"; mkdir -p "$work"
(cd "$work" && apt-get "${apt_opts[@]}" source --download-only "$pkg" >&2) ||
  { echo "fetch-debian-source.sh: apt-get source $pkg failed" >&2; exit 1; }
dsc=$(ls "$work"/*.dsc 2>/dev/null | head -n 1)
[ -n "$dsc" ] || { echo "fetch-debian-source.sh: no .dsc downloaded for $pkg" >&2; exit 1; }
(cd "$dest" && find . -mindepth 1 -maxdepth 1 ! -name download -exec rm -rf {} + &&
 dpkg-source --no-check -x "$dsc" >&2) ||
  { echo "fetch-debian-source.sh: dpkg-source cannot unpack $dsc" >&2; exit 1; }
dir=$(cd "$dest" && find . -mindepth 1 -maxdepth 1 -type d ! -name download -printf '%f\n' | head -n 1)
[ -n "$dir" ] || { echo "fetch-debian-source.sh: nothing unpacked for $pkg" >&2; exit 1; }
echo "$dir" > "$dest/.unpacked"
echo "$dest/$dir"
