#!/bin/bash
# real-release.sh: a real package's instrumented release uploading to
# sampler-collect on PostgreSQL, and its pages in headless Chromium.
#
# Usage: testsuite/collect/real-release.sh BUILD_DIR   (prints "N passed, N failed";
# testsuite/tools/run-cases runs it as a case)
# CHECKS: bash $SRC $BUILD
# TIMEOUT: 1800
#
# zlib's Debian source (the cache testsuite/remote/real-release.sh uses) is
# built as a release whose collector is a sampler-collect started here on
# loopback, with a PostgreSQL server of its own (testsuite/sql/
# pg-server.sh); the CI step registers the release from its binaries
# (libz.so, minigzipsh, examplesh).  A user (unprivileged when this runs as
# root) gives consent and runs `minigzipsh | minigzipsh -d' pipelines,
# examplesh, and minigzipsh -d on damaged input (exit status 1: the
# failure; the release samples at sparsity 1, so that so few runs have a
# ranking for the pages to show); sampler-submit sends the reports.  Then:
#   - every report arrived exactly once (the run ids sent are the runs
#     stored, none twice);
#   - `sampler-report rank --store' ranks as rank does on the reports as
#     the user had them;
#   - Chromium (headless) renders the release's page: it shows the runs and
#     the failure rate; and its ranking page, whose rows are those of
#     `sampler-report rank --format=html' on the same runs.
# A SETUP line and status 2 when zlib, PostgreSQL or Chromium is missing.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
build=$(cd "${1:?usage: real-release.sh BUILD_DIR}" && pwd) || exit 2
. "$HERE/../tools/tally.sh"

GCC=$build/bin/sampler-gcc
SUBMIT=$build/bin/sampler-submit
REPORT=$build/bin/sampler-report
COLLECT=$build/bin/sampler-collect
REAL_USER=${REAL_USER:-sampler-tests}
PRODUCT=zlib-collect
VERSION=1.2.13-collect
KEY=zlib-collect-key-0123456789
scratch=$(mktemp -d "${TMPDIR:-/tmp}/sampler-collect-release.XXXXXX") || exit 2
chmod 711 "$scratch"
. "$TOP/testsuite/sql/pg-server.sh"
service_pid=

cleanup () {
    [ -z "$service_pid" ] || { kill -TERM "$service_pid"; wait "$service_pid"; } 2>/dev/null
    pg_server_stop
    if [ "$failed" = 0 ] && [ -z "${KEEP_SCRATCH-}" ]; then rm -rf "$scratch"
    else echo "scratch kept in $scratch"; fi
}
trap cleanup EXIT
setup_error () { echo "SETUP: $*"; exit 2; }

CHROMIUM=$(command -v chromium || command -v chromium-browser) ||
    setup_error "no chromium (make deps installs it)"
# chromium_dom URL OUT: the page's DOM once Chromium has loaded it, and a
# screenshot (OUT.png) as it renders.
chromium_dom () {
    local flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
                 --disable-background-networking --disable-component-update --disable-sync
                 --user-data-dir="$scratch/chromium")
    rm -rf "$scratch/chromium"
    timeout 120 "$CHROMIUM" "${flags[@]}" --dump-dom "$1" >"$2" 2>"$scratch/chromium.log" &&
    rm -rf "$scratch/chromium" &&
    timeout 120 "$CHROMIUM" "${flags[@]}" --window-size=1200,2000 --screenshot="$2.png" "$1" \
        >/dev/null 2>>"$scratch/chromium.log"
}

# The user: unprivileged when we are root.
if [ "$(id -u)" = 0 ]; then
    id "$REAL_USER" >/dev/null 2>&1 ||
        useradd --system --no-create-home --shell /bin/sh "$REAL_USER" ||
        setup_error "cannot create the user $REAL_USER"
    user=$REAL_USER
else
    user=$(id -un)
fi
home=$scratch/home
work=$scratch/work
mkdir -p "$home" "$work"
[ "$(id -u)" = 0 ] && chown "$user" "$home" "$work"
as_user () {
    if [ "$(id -u)" = 0 ]; then
        (cd "$work" && setpriv --reuid="$user" --regid="$user" --init-groups \
            env -i PATH="$PATH" HOME="$home" USER="$user" LC_ALL=C \
            LD_LIBRARY_PATH="$scratch/zlib" timeout 120 "$@")
    else
        (cd "$work" && env -i PATH="$PATH" HOME="$home" USER="$user" LC_ALL=C \
            LD_LIBRARY_PATH="$scratch/zlib" timeout 120 "$@")
    fi
}

# ---------------------------------------------------------------------------
# The store and the service, then the release that sends to it.

mkdir "$scratch/pg"
pg_server_start "$scratch/pg" || setup_error "PostgreSQL does not start: $(tail -n 5 "$scratch/pg/server.log")"
psql -X -q -d "$pg_url/postgres" -c "CREATE DATABASE zlib" >/dev/null || setup_error "createdb"
url=$pg_url/zlib
"$COLLECT" serve --store "$url" --listen 127.0.0.1:0 --port-file "$scratch/port" \
    --fold-interval 200 --elimination-interval 1 >"$scratch/service.log" 2>&1 &
service_pid=$!
for _ in $(seq 100); do [ -s "$scratch/port" ] && break; sleep 0.1; done
port=$(head -n 1 "$scratch/port" 2>/dev/null)
[ -n "$port" ] || setup_error "sampler-collect does not start: $(cat "$scratch/service.log")"

src=$("$TOP/testsuite/tools/fetch-debian-source.sh" zlib 2>"$scratch/fetch.log") ||
    setup_error "cannot fetch zlib: $(tail -n 3 "$scratch/fetch.log")"
cat >"$scratch/release.conf" <<EOF
product = $PRODUCT
version = $VERSION
sparsity = 1
send-schemes = branches, returns, function-entries
collector = http://127.0.0.1:$port/
upload-key = $KEY
consent = user
store-max-reports = 1000
EOF
cp -a "$src" "$scratch/zlib"
(cd "$scratch/zlib" &&
 CC="$GCC --sampler-release=$scratch/release.conf" \
 CFLAGS="-O2 -fplugin-arg-sampler-schemes=branches,returns,function-entries" \
 ./configure --shared && make -j2 minigzipsh examplesh) >"$scratch/build.log" 2>&1 ||
    setup_error "zlib does not build: $(tail -n 5 "$scratch/build.log")"
binaries=(--binary "$scratch/zlib/libz.so" --binary "$scratch/zlib/minigzipsh"
          --binary "$scratch/zlib/examplesh")

# The release job's step: register the release's tables (the running
# service learns of it at the first report with its key).
"$COLLECT" register-release --store "$url" "${binaries[@]}" --fail-if status=1-255 \
    >"$scratch/register.out" 2>&1
check "zlib: the release job registers the release from libz.so and two programs" \
    grep -q "registered release 1, $PRODUCT/$VERSION" "$scratch/register.out"

# ---------------------------------------------------------------------------
# A user's runs, sent.

head -c 200000 "$scratch/zlib/zlib.h" >"$work/input"
[ "$(id -u)" = 0 ] && chown "$user" "$work/input"
as_user "$SUBMIT" consent "$PRODUCT" yes >/dev/null
runs=0
damaged=0
for i in $(seq 1 12); do
    as_user sh -c 'head -c $(( $1 * 9000 )) input | "$0"/minigzipsh | "$0"/minigzipsh -d >/dev/null' \
        "$scratch/zlib" "$i"
    as_user "$scratch/zlib/examplesh" "$work/foo-$i.gz" >/dev/null 2>&1
    runs=$((runs + 3))
    if [ $((i % 2)) = 0 ]; then
        printf '\037\213\010\000garbage%s' "$i" | as_user "$scratch/zlib/minigzipsh" -d \
            >/dev/null 2>&1
        runs=$((runs + 1))
        damaged=$((damaged + 1))
    fi
done
store=$home/.local/state/sampler/$PRODUCT/$VERSION
mkdir "$scratch/reports"
for report in "$store"/pending/*; do
    cp "$report" "$scratch/reports/$(sed -n 's/^run-id\t//p' "$report").report"
done
offered=$(ls "$scratch/reports" | sed 's/\.report$//' | sort)
as_user "$SUBMIT" --force >"$scratch/submit.out" 2>&1
sent=$?
check "zlib: sampler-submit sends the user's $runs reports" \
    test "$sent:$(ls "$store/pending" | wc -l):$(echo "$offered" | wc -l)" = "0:0:$runs"
stored=$(psql -X -A -t -d "$url" -c "SELECT run_id FROM reports ORDER BY run_id")
check "zlib: every report arrived exactly once" test "$stored" = "$offered"
for _ in $(seq 300); do
    folded=$(curl -s "http://127.0.0.1:$port/v1/status" | sed -n 's/^folded-runs //p')
    eliminated=$(curl -s "http://127.0.0.1:$port/v1/status" | sed -n 's/^eliminated-runs //p')
    [ "${folded:-0}" -ge "$runs" ] && [ "${eliminated:-0}" -ge "$runs" ] && break
    sleep 0.2
done
failing=$(psql -X -A -t -d "$url" -c "SELECT failing FROM release_counts WHERE release = 1")
check "zlib: the runs are folded, the damaged inputs' runs failing ($folded runs, $failing failing)" \
    test "$folded:$failing" = "$runs:$damaged"

# ---------------------------------------------------------------------------
# Reading the store, and the pages in Chromium.

"$REPORT" rank "$scratch/reports" "${binaries[@]}" --fail-if=status=1-255 \
    >"$scratch/rank-files.txt" 2>&1
"$REPORT" rank --store "$url" --release "$PRODUCT/$VERSION" >"$scratch/rank-store.txt" 2>&1
check "zlib: rank --store ranks as rank on the user's reports" \
    diff "$scratch/rank-files.txt" "$scratch/rank-store.txt"
"$REPORT" rank --store "$url" --release 1 --format=html >"$scratch/rank-store.html" 2>&1

if chromium_dom "http://127.0.0.1:$port/releases/1/" "$scratch/release-dom.html"; then
    pass "zlib: Chromium renders the release's page ($(wc -c <"$scratch/release-dom.html.png") bytes of screenshot)"
else
    fail "zlib: Chromium renders the release's page" "$scratch/chromium.log"
fi
rate=$(python3 -c "print('%.1f' % (100 * $damaged / $runs))")
check "zlib: the page shows the runs and the failure rate" \
    grep -q "<span class=\"runs\">$runs runs</span> analysed, <span class=\"failing\">$damaged failing</span>: a failure rate of <span class=\"rate\">$rate%</span>" \
    "$scratch/release-dom.html"
chromium_dom "http://127.0.0.1:$port/releases/1/ranking.html" "$scratch/ranking-dom.html"
python3 "$HERE/ranking-rows.py" "$scratch/ranking-dom.html" >"$scratch/ranking-page.rows"
python3 "$HERE/ranking-rows.py" "$scratch/rank-store.html" >"$scratch/ranking-report.rows"
check "zlib: the ranking Chromium shows is sampler-report's ($(wc -l <"$scratch/ranking-page.rows") rows)" sh -c "
    [ \$(wc -l <'$scratch/ranking-page.rows') -gt 2 ] &&
    diff '$scratch/ranking-report.rows' '$scratch/ranking-page.rows'"

finish
