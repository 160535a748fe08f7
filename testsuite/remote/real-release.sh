#!/bin/bash
# real-release.sh: an instrumented release of a real Debian package, zlib,
# built with a release configuration and run as its users run it
# (docs/remote.md), with the stand-in collector on loopback.
#
# Usage: testsuite/remote/real-release.sh BUILD_DIR   (prints "N passed, N failed";
# testsuite/tools/run-cases runs it as a case)
# CHECKS: bash $SRC $BUILD
# TIMEOUT: 1800
#
# zlib's Debian source (fetched once into the cache, as testsuite/integration/real/
# does) is built with CC="sampler-gcc --sampler-release=FILE": libz.so and
# the programs minigzipsh and examplesh, with branches, returns,
# function-entries, values and indirect-calls; the release sends branches,
# returns and function-entries, keeps 8 reports, and starts sampler-submit
# at exit.  A user (an unprivileged one when this runs as root) then:
#
#   1. runs `minigzipsh | minigzipsh -d' pipelines and examplesh without
#      consent: right output, nothing written in the home directory or the
#      working directory;
#   2. gives consent and runs them offline (no collector): the reports go
#      to ~/.local/state/sampler/<product>/<version>/pending, the store
#      keeps its bound of 8, the submitter started at exit fails and keeps
#      them;
#   3. the collector comes up; sampler-submit sends them; more runs, sent
#      again (with --force: the rate limit would wait an hour);
#   4. withdraws consent: nothing more is written.
#
# Then: every report that left the machine arrived exactly once (the run
# ids sent are the run ids stored, none stored twice); the reports that
# arrived and the drops they count add up to every run made with consent;
# none holds the host name, the user name, the home directory or a path,
# nor a site of a scheme kept on the machine; and an exit status of a
# failing run is the program's own.  A SETUP line and status 2 when zlib
# cannot be fetched or built.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:?usage: real-release.sh BUILD_DIR}" && pwd) || exit 2
. "$HERE/../tools/tally.sh"

GCC=$build/bin/sampler-gcc
SUBMIT=$build/bin/sampler-submit
REPORT=$build/bin/sampler-report
REAL_USER=${REAL_USER:-sampler-tests}
PRODUCT=zlib-field-$$
KEY=zlib-field-test-key-0123456789
SCHEMES=branches,returns,function-entries,values,indirect-calls
SENT=branches,returns,function-entries
scratch=$(mktemp -d "${TMPDIR:-/tmp}/sampler-real-release.XXXXXX") || exit 2
collector_pid=

cleanup () {
    [ -z "$collector_pid" ] || kill "$collector_pid" 2>/dev/null
    if [ "$failed" = 0 ] && [ -z "${KEEP_SCRATCH-}" ]; then rm -rf "$scratch"
    else echo "scratch kept in $scratch"; fi
}
trap cleanup EXIT

setup_error () { echo "SETUP: $*"; exit 2; }

# The user: unprivileged when we are root.
if [ "$(id -u)" = 0 ]; then
    id "$REAL_USER" > /dev/null 2>&1 ||
        useradd --system --no-create-home --shell /bin/sh "$REAL_USER" ||
        setup_error "cannot create the user $REAL_USER"
    user=$REAL_USER
    chmod 755 "$scratch"
else
    user=$(id -un)
fi
home=$scratch/home
work=$scratch/work
mkdir -p "$home" "$work" "$scratch/example"
[ "$(id -u)" = 0 ] && chown "$user" "$home" "$work" "$scratch/example"

# as_user COMMAND...: as the user, in $work, with a clean environment.
as_user () {
    if [ "$(id -u)" = 0 ]; then
        (cd "$work" && setpriv --reuid="$user" --regid="$user" --init-groups \
            env -i PATH="$PATH" HOME="$home" USER="$user" LOGNAME="$user" LC_ALL=C \
            LD_LIBRARY_PATH="$scratch/zlib" timeout 120 "$@")
    else
        (cd "$work" && env -i PATH="$PATH" HOME="$home" USER="$user" LC_ALL=C \
            LD_LIBRARY_PATH="$scratch/zlib" timeout 120 "$@")
    fi
}

store=$home/.local/state/sampler/$PRODUCT/1.2.13-field
pending_count () { find "$store/pending" -maxdepth 1 -type f ! -name '*.tmp.*' 2>/dev/null | wc -l; }

# start_collector [PORT]: the collector on PORT (or any free port).
start_collector () {
    rm -f "$scratch/port"
    timeout 900 python3 "$HERE/collector.py" --port-file "$scratch/port" --port "${1:-0}" \
        --store "$scratch/collected" --key "$KEY" --product "$PRODUCT" --version 1.2.13-field \
        2>> "$scratch/collector.err" &
    collector_pid=$!
    for _ in $(seq 100); do [ -s "$scratch/port" ] && break; sleep 0.1; done
    port=$(cat "$scratch/port" 2>/dev/null)
    [ -n "$port" ] || setup_error "the collector did not start: $(cat "$scratch/collector.err")"
}
stop_collector () { kill "$collector_pid"; wait "$collector_pid" 2>/dev/null; collector_pid=; }

# ---------------------------------------------------------------------------
# The release.

src=$("$HERE/../tools/fetch-debian-source.sh" zlib 2> "$scratch/fetch.log") ||
    setup_error "cannot fetch zlib: $(tail -n 3 "$scratch/fetch.log")"
# A port for the collector, free now; it is offline until step 3.
start_collector
release_port=$port
stop_collector
cat > "$scratch/release.conf" <<EOF
# zlib's field release, for the tests of docs/remote.md
product = $PRODUCT
version = 1.2.13-field
sparsity = 10
send-schemes = $SENT
collector = http://127.0.0.1:$release_port/
upload-key = $KEY
consent = user
store-max-reports = 8
submit-at-exit = $SUBMIT
EOF
cp -a "$src" "$scratch/zlib"
(cd "$scratch/zlib" &&
 CC="$GCC --sampler-release=$scratch/release.conf" \
 CFLAGS="-O2 -fplugin-arg-sampler-schemes=$SCHEMES" ./configure --shared &&
 make -j2 minigzipsh examplesh) > "$scratch/build.log" 2>&1 ||
    setup_error "zlib does not build: $(tail -n 5 "$scratch/build.log")"
for binary in libz.so minigzipsh examplesh; do
    readelf -p .sampler_release "$scratch/zlib/$binary" | grep -q "product = $PRODUCT" ||
        setup_error "$binary does not carry the release"
done
head -c 200000 "$scratch/zlib/zlib.h" > "$work/input"
[ "$(id -u)" = 0 ] && chown "$user" "$work/input"

runs=0     # instrumented processes run with consent: each writes one report
failures=0
# use: one pipeline (two processes) and one examplesh run, as a user would.
use () {
    as_user sh -c '"$0"/minigzipsh < input | "$0"/minigzipsh -d | cmp -s - input' "$scratch/zlib" ||
        failures=$((failures + 1))
    as_user "$scratch/zlib/examplesh" "$scratch/example/foo.gz" > /dev/null ||
        failures=$((failures + 1))
}

# 1. No consent.
use; use
files=$(cd "$home" && find . -mindepth 1 | wc -l):$(cd "$work" && find . -mindepth 1 ! -name input | wc -l)
check "zlib: without consent the programs work and write nothing" test "$failures $files" = "0 0:0"

# 2. Consent, offline.
as_user "$SUBMIT" consent "$PRODUCT" yes > /dev/null
for i in 1 2 3 4; do use; runs=$((runs + 3)); done
# A damaged gzip stream: minigzip says so and exits with 1.
bad_status=$(printf '\037\213\010\000garbagegarbage' | as_user "$scratch/zlib/minigzipsh" -d > /dev/null 2>&1; echo $?)
runs=$((runs + 1))
sleep 2   # the submitters started at exit give up (nothing listens)
modes=$(find "$store/pending" -type f -printf '%m\n' | sort -u | tr '\n' ' ')
strays=$(cd "$work" && find . -mindepth 1 ! -name input | wc -l):$(find "$home" -name '*.report' ! -path "$store/pending/*" | wc -l)
if [ "$failures" = 0 ] && [ "$(pending_count)" = 8 ] && [ "$modes" = "600 " ] && [ "$strays" = "0:0" ]; then
    pass "zlib: offline, the store holds its bound of 8 private reports, nowhere else"
else fail_with "zlib: offline, the store holds its bound of 8 private reports, nowhere else" "failures $failures, $(pending_count) pending, modes $modes, strays $strays"; fi
check "zlib: a failing run's exit status is the program's own" test "$bad_status" = 1
if grep -q "cannot reach the collector at http://127.0.0.1:$release_port/v1/reports" "$store/submit.log" 2>/dev/null; then
    pass "zlib: the submitter started at exit, offline, said why and kept the reports"
else fail "zlib: the submitter started at exit, offline, said why and kept the reports" "$store/submit.log"; fi

# 3. Online.  Waiting out the backoff is the timer's business: --force.
offered=$(sed -n 's/^run-id\t//p' "$store"/pending/*)
start_collector "$release_port"
as_user "$SUBMIT" --force > "$scratch/submit1.out" 2>&1; first=$?
for i in 1 2; do use; runs=$((runs + 3)); done
offered="$offered
$(sed -n 's/^run-id\t//p' "$store"/pending/*)"
as_user "$SUBMIT" --force > "$scratch/submit2.out" 2>&1; second=$?
# Once more: nothing is left, nothing goes twice.
as_user "$SUBMIT" --force > "$scratch/submit3.out" 2>&1
stop_collector
if [ $first = 0 ] && [ $second = 0 ] && [ "$(pending_count)" = 0 ] && [ "$failures" = 0 ]; then
    pass "zlib: online, sampler-submit sends every pending report"
else fail "zlib: online, sampler-submit sends every pending report" "$scratch/submit1.out"; fi

stored_ids=$(cd "$scratch/collected" && ls *.report 2>/dev/null | sed 's/\.report$//' | sort)
twice=$(awk '$2 == "stored" { n[$1]++ } END { for (id in n) if (n[id] > 1) print id }' "$scratch/collected/requests.log")
if [ "$stored_ids" = "$(echo "$offered" | sort -u)" ] &&
   [ "$(echo "$offered" | sort | uniq -d)" = "" ] && [ -z "$twice" ]; then
    pass "zlib: every report sent arrived exactly once ($(echo "$stored_ids" | wc -l) reports)"
else fail_with "zlib: every report sent arrived exactly once" "stored: $stored_ids" "offered: $offered" "twice: $twice"; fi

carried=$(cat "$scratch/collected"/*.report | awk -F'\t' '$1 == "dropped" { n += $2 } END { print n + 0 }')
waiting=$(cat "$store/dropped" 2>/dev/null || echo 0)
arrived=$(echo "$stored_ids" | wc -l)
check "zlib: arrived ($arrived) and counted as dropped ($carried + $waiting) make every run ($runs)" \
    test $((arrived + carried + waiting)) = "$runs"

forbid=(--forbid "$(uname -n)" --forbid "$scratch" --forbid "$home")
[ "$user" = root ] || forbid+=(--forbid "$user")
if python3 "$HERE/check-field-reports.py" --product "$PRODUCT" --version 1.2.13-field \
       --send "$SENT" "${forbid[@]}" --tool "$REPORT" --binary "$scratch/zlib/minigzipsh" \
       --binary "$scratch/zlib/examplesh" --binary "$scratch/zlib/libz.so" \
       "$scratch/collected"/*.report > "$scratch/privacy.out" 2>&1; then
    pass "zlib: the reports hold no host, user, home or path, and only the schemes sent"
else fail "zlib: the reports hold no host, user, home or path, and only the schemes sent" "$scratch/privacy.out"; fi

# 4. Consent withdrawn.
as_user "$SUBMIT" consent "$PRODUCT" no > /dev/null
use
check "zlib: consent withdrawn, runs write nothing" test "$(pending_count):$failures" = "0:0"

finish
