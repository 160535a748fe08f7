#!/bin/bash
# chroot.sh: Debian chroots with other GCC versions, built by debootstrap
# from Debian's packages and cached outside the repository.
#
# Usage: testsuite/gcc-versions/chroot.sh path SUITE
#        testsuite/gcc-versions/chroot.sh ensure SUITE PACKAGE...
#        testsuite/gcc-versions/chroot.sh run SUITE COMMAND [ARG...]
#
#   path     prints where SUITE's chroot lives (whether built or not)
#   ensure   builds SUITE's chroot if it is missing (debootstrap, minbase)
#            and installs the PACKAGEs it lacks; prints its path
#   run      runs COMMAND as root inside the chroot, in a mount namespace of
#            its own (the mounts vanish with it, however it ends), with
#            /proc, /dev, the repository and the cache at the same paths as
#            outside, and /usr/src/gcc-12 (GCC 12's torture tests) read-only
#
# SUITE is a Debian suite: trixie, or forky (Debian testing as of 2026;
# bookworm's debootstrap has no script named forky, so its sid script
# builds it).  The chroot lives in
# ${SAMPLER_CACHE:-$HOME/.cache/sampler}/chroots/SUITE; it is built in
# SUITE.partial and renamed when complete, so an interrupted build is never
# used.  Delete the directory to build it afresh.  The packages a chroot has
# been given are listed in its /.sampler-packages.
#
# Environment: SAMPLER_CACHE (cache root), SAMPLER_DEBIAN_MIRROR (default
# http://deb.debian.org/debian).  Needs root, debootstrap and unshare.
# Exit status: COMMAND's for run; 2 on a usage or setup error.
set -euo pipefail

usage () { sed -n '3,5p' "$0" | sed 's/^# //' >&2; exit 2; }
die () { echo "chroot.sh: $*" >&2; exit 2; }

[ $# -ge 2 ] || usage
action=$1 suite=$2
shift 2
case $suite in
  trixie|forky) ;;
  *) die "unknown suite '$suite' (known: trixie, forky)" ;;
esac

cache=${SAMPLER_CACHE:-$HOME/.cache/sampler}
root=$cache/chroots/$suite
mirror=${SAMPLER_DEBIAN_MIRROR:-http://deb.debian.org/debian}
repo=$(cd "$(dirname "$0")/../.." && pwd)

# in_chroot DIR COMMAND...: COMMAND inside DIR with the mounts above.
in_chroot () {
  local dir=$1
  shift
  [ "$(id -u)" = 0 ] || die "must run as root (chroot, mounts)"
  mkdir -p "$dir$repo" "$dir$cache" "$dir/usr/src/gcc-12"
  # The mounts and the chroot happen in a private mount namespace.
  unshare --mount --propagation private -- /bin/sh -eu -c '
    dir=$1 repo=$2 cache=$3
    shift 3
    mount -t proc proc "$dir/proc"
    mount --rbind /dev "$dir/dev"
    mount --bind "$repo" "$dir$repo"
    mount --bind "$cache" "$dir$cache"
    if [ -d /usr/src/gcc-12 ]; then
      mount --bind /usr/src/gcc-12 "$dir/usr/src/gcc-12"
      mount -o remount,bind,ro "$dir/usr/src/gcc-12"
    fi
    exec chroot "$dir" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
      PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
      SAMPLER_CACHE="$cache" "$@"' sh "$dir" "$repo" "$cache" "$@"
}

# install_missing DIR PACKAGE...: apt-get install those not yet given.
install_missing () {
  local dir=$1 missing=() p
  shift
  touch "$dir/.sampler-packages"
  for p in "$@"; do
    grep -qxF "$p" "$dir/.sampler-packages" || missing+=("$p")
  done
  [ ${#missing[@]} -gt 0 ] || return 0
  echo "chroot.sh: $suite: installing ${missing[*]}" >&2
  cp /etc/resolv.conf "$dir/etc/resolv.conf"
  in_chroot "$dir" /bin/sh -c 'apt-get -q update >/dev/null &&
    DEBIAN_FRONTEND=noninteractive apt-get install -q -y --no-install-recommends "$@" >/dev/null' \
    sh "${missing[@]}" || die "$suite: apt-get install ${missing[*]} failed"
  printf '%s\n' "${missing[@]}" >> "$dir/.sampler-packages"
}

build_chroot () {
  local partial=$root.partial script=$suite
  command -v debootstrap >/dev/null || die "debootstrap missing (make deps)"
  # bookworm's debootstrap knows trixie; forky is Debian testing, which
  # the sid script builds.
  [ -e "/usr/share/debootstrap/scripts/$suite" ] || script=/usr/share/debootstrap/scripts/sid
  rm -rf "$partial"
  mkdir -p "$cache/chroots"
  echo "chroot.sh: debootstrap $suite into $partial" >&2
  debootstrap --variant=minbase "$suite" "$partial" "$mirror" "$script" \
    > "$cache/chroots/$suite.debootstrap.log" 2>&1 \
    || die "debootstrap $suite failed; see $cache/chroots/$suite.debootstrap.log"
  echo "deb $mirror $suite main" > "$partial/etc/apt/sources.list"
  # The mirror's Release files have a Valid-Until date; a chroot kept in a
  # cache must still install from them after it passes.
  echo 'Acquire::Check-Valid-Until "false";' > "$partial/etc/apt/apt.conf.d/99sampler"
  : > "$partial/.sampler-packages"
  mv "$partial" "$root"
}

case $action in
  path)
    echo "$root" ;;
  ensure)
    [ -x "$root/bin/sh" ] || build_chroot
    install_missing "$root" "$@"
    echo "$root" ;;
  run)
    [ $# -ge 1 ] || usage
    [ -x "$root/bin/sh" ] || die "no $suite chroot at $root (chroot.sh ensure $suite first)"
    in_chroot "$root" "$@" ;;
  *) usage ;;
esac
