#!/bin/bash
# run-collect-tests.sh: sampler-collect (docs/collect.md) with its real
# parts on loopback: the service on SQLite and on a PostgreSQL server this
# script starts (initdb and pg_ctl in a temporary directory, testsuite/sql/
# pg-server.sh), sampler-submit sending a user's reports of a release built
# here (collect-prog.c), bad clients (client.py), TLS, and a store of
# version 1 migrated by the service.
#
# Usage: testsuite/collect/run-collect-tests.sh BUILD_DIR   (prints "N passed, N failed";
# testsuite/tools/run-cases runs it as a case)
# CHECKS: bash $SRC $BUILD
# TIMEOUT: 1800
#
# For each store: the release registered from its binary (again: the same;
# with other tables: refused); the user's 14 runs sent by sampler-submit and
# stored once each (a report sent again is a duplicate); the runs folded
# and their rows those of `sampler-report export' of the same files;
# `sampler-report rank|values|paths|subpaths --store' the same output as
# from the files; the pages (the index, the release's, its ranking: the
# page of rank --format=html); every case of the bad-input table that is
# cheap to run, each refused with its status, nothing stored, and a good
# client served after it; quotas, a revoked key, a retired release; the
# service stopped and started again; the service killed and PostgreSQL
# crashed under load (fault-tests.sh).  zlib's release: real-release.sh.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
build=$(cd "${1:?usage: run-collect-tests.sh BUILD_DIR}" && pwd) || exit 2
. "$HERE/../tools/tally.sh"

COLLECT=$build/bin/sampler-collect
SUBMIT=$build/bin/sampler-submit
REPORT=$build/bin/sampler-report
GCC=$build/bin/sampler-gcc
SQL=$TOP/tools/sql/sampler-sql
CLIENT="python3 $HERE/client.py"
LOAD=$build/bench/collect-load
KEY=collect-test-key-0123456789
scratch=$(mktemp -d "${TMPDIR:-/tmp}/sampler-collect-tests.XXXXXX") || exit 2
# PostgreSQL runs as postgres when this runs as root: it must reach its directory.
chmod 711 "$scratch"
. "$TOP/testsuite/sql/pg-server.sh"
service_pid=

stop_service () {
    if [ -n "$service_pid" ]; then
        kill -TERM "$service_pid" 2>/dev/null
        wait "$service_pid" 2>/dev/null
        service_pid=
    fi
}

cleanup () {
    stop_service
    pg_server_stop
    if [ "$failed" = 0 ] && [ -z "${KEEP_SCRATCH-}" ]; then rm -rf "$scratch"
    else echo "scratch kept in $scratch"; fi
}
trap cleanup EXIT

setup_error () { echo "SETUP: $*"; exit 2; }

# start_service URL [OPTION...]: the service on a free loopback port; sets
# service_pid and port.
start_service () {
    local url=$1
    shift
    rm -f "$scratch/port"
    "$COLLECT" serve --store "$url" --listen 127.0.0.1:0 --port-file "$scratch/port" \
        --fold-interval 100 --elimination-interval 1 --idle-timeout 3 --request-timeout 3 "$@" \
        >>"$scratch/service.log" 2>&1 &
    service_pid=$!
    for _ in $(seq 100); do [ -s "$scratch/port" ] && break; sleep 0.1; done
    port=$(head -n 1 "$scratch/port" 2>/dev/null)
    [ -n "$port" ]
}

status_of () { curl -s "http://127.0.0.1:$port/v1/status" | sed -n "s/^$1 //p"; }

# wait_folded N: until the service has folded N runs (since it started)
# and an elimination has seen them.
wait_folded () {
    for _ in $(seq 300); do
        folded=$(status_of folded-runs)
        eliminated=$(status_of eliminated-runs)
        if [ "${folded:-0}" -ge "$1" ] && [ "${eliminated:-0}" -ge "$1" ]; then
            return 0
        fi
        sleep 0.1
    done
    return 1
}

# ---------------------------------------------------------------------------
# The release and its user's reports.

mkdir -p "$scratch/src" "$scratch/bin" "$scratch/home" "$scratch/files"
cat > "$scratch/release.conf" <<EOF
product = collect-test
version = 1.0
sparsity = 1
send-schemes = branches, returns, function-entries, values, paths, subpaths
collector = http://127.0.0.1:1/
upload-key = $KEY
consent = user
store-max-reports = 100
EOF
# SQL's and HTML's metacharacters in the names the site tables carry.
source_file="$scratch/src/weigh'<b>&\"x\".c"
cp "$HERE/collect-prog.c" "$source_file"
program="$scratch/bin/prog'<i>"
"$GCC" --sampler-release="$scratch/release.conf" -O1 \
    -fplugin-arg-sampler-schemes=branches,returns,function-entries,values,paths,subpaths \
    "$source_file" -o "$program" 2>"$scratch/build.log" ||
    setup_error "collect-prog.c does not build: $(tail -n 3 "$scratch/build.log")"
store_dir=$scratch/home/.local/state/sampler/collect-test/1.0
HOME=$scratch/home "$SUBMIT" consent collect-test yes >/dev/null
texts=("plain" "it's" "a<b" "x&y" "\"quoted\"" "plain" "<&'\">")
for n in $(seq 1 14); do
    HOME=$scratch/home "$program" "$n" "${texts[$((n % 7))]}" >/dev/null
done
for report in "$store_dir"/pending/*; do
    id=$(sed -n 's/^run-id\t//p' "$report")
    cp "$report" "$scratch/files/$id.report"
done
cp -a "$store_dir/pending" "$scratch/pending"
n_runs=$(ls "$scratch/files" | wc -l)
[ "$n_runs" = 14 ] || setup_error "14 runs should leave 14 reports, not $n_runs"
one=$(ls "$scratch/files" | head -n 1)
one_id=${one%.report}

# A second build of the same release with other tables: refused.
sed 's/n % 50/n % 51/' "$source_file" > "$scratch/src/other.c"
"$GCC" --sampler-release="$scratch/release.conf" -O1 \
    -fplugin-arg-sampler-schemes=branches,returns,function-entries,values,paths,subpaths \
    "$scratch/src/other.c" -o "$scratch/bin/other" 2>>"$scratch/build.log"
# What the files say, for the store to say the same (the lists use every
# run alike: no failure rule).
files="$scratch/files --binary $program --fail-if=status=3"
list_files="$scratch/files --binary $program"
"$REPORT" rank $files >"$scratch/rank-files.txt" 2>&1
"$REPORT" rank $files --format=html >"$scratch/rank-files.html" 2>&1
for list in values paths subpaths; do
    "$REPORT" "$list" $list_files --format=jsonl >"$scratch/$list-files.jsonl" 2>&1
done

# ---------------------------------------------------------------------------
# The stores.

engines=sqlite
if [ -n "$pg_bin" ] && command -v psql >/dev/null; then
    mkdir "$scratch/pg"
    if pg_server_start "$scratch/pg"; then
        pass "PostgreSQL started on 127.0.0.1:$pg_port"
        engines="sqlite postgresql"
    else
        fail "initdb and pg_ctl start" "$scratch/pg/server.log"
    fi
else
    fail "PostgreSQL 15 is not installed (make deps installs postgresql)"
fi

# new_store ENGINE NAME: an empty store; prints its URL.
new_store () {
    case $1 in
        sqlite) rm -f "$scratch/$2.db"*; echo "sqlite:$scratch/$2.db" ;;
        postgresql)
            psql -X -q -d "$pg_url/postgres" -c "DROP DATABASE IF EXISTS $2" \
                -c "CREATE DATABASE $2" >/dev/null 2>&1
            echo "$pg_url/$2" ;;
    esac
}

# query ENGINE URL SQL: one value.
query () {
    case $1 in
        sqlite) sqlite3 "${2#sqlite:}" "$3" ;;
        postgresql) psql -X -A -t -q -d "$2" -c "$3" ;;
    esac
}

. "$HERE/service-tests.sh"
for engine in $engines; do
    service_tests "$engine"
done
. "$HERE/fault-tests.sh"
for engine in $engines; do
    fault_tests "$engine"
done
. "$HERE/migration-tests.sh"
for engine in $engines; do
    migration_tests "$engine"
done

# ---------------------------------------------------------------------------
# TLS with libmicrohttpd's GnuTLS: sampler-submit trusts the service's own
# certificate; a plain HTTP client gets no answer.
engine=sqlite
url=$(new_store sqlite collect_tls)
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=127.0.0.1 \
    -addext subjectAltName=IP:127.0.0.1 -keyout "$scratch/key.pem" -out "$scratch/cert.pem" \
    >"$scratch/openssl.log" 2>&1 || setup_error "openssl cannot make a certificate"
"$COLLECT" register-release --store "$url" --binary "$program" >/dev/null 2>&1
if start_service "$url" --tls-cert "$scratch/cert.pem" --tls-key "$scratch/key.pem"; then
    rm -rf "$store_dir/pending"
    mkdir "$store_dir/pending"
    cp "$scratch/pending/$(ls "$scratch/pending" | head -n 1)" "$store_dir/pending/"
    HOME=$scratch/home "$SUBMIT" --force --collector "https://127.0.0.1:$port/" \
        --ca-file "$scratch/cert.pem" >"$scratch/submit.out" 2>&1
    sent=$?
    plain=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/v1/status")
    untrusted=$(curl -s -o /dev/null -w '%{http_code}' "https://127.0.0.1:$port/v1/status")
    trusted=$(curl -s --cacert "$scratch/cert.pem" "https://127.0.0.1:$port/v1/status" |
              sed -n 's/^stored //p')
    check "TLS: sampler-submit sends over HTTPS ($trusted stored); plain HTTP and an untrusted certificate get no answer ($plain, $untrusted)" \
        test "$sent:$(ls "$store_dir/pending" | wc -l):$trusted:$plain:$untrusted" = "0:0:1:000:000"
    stop_service
else
    fail "TLS: the service starts with a certificate" "$scratch/service.log"
fi

finish
