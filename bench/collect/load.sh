#!/bin/bash
# load.sh: sampler-collect under load and faults, on loopback, bounded in
# count and time (bench/HISTORY.md has the figures; not a test).
#
# Usage: bench/collect/load.sh BUILD_DIR [SECONDS] [CLIENTS] [SCENARIO...]
#
# ccrypt's Debian source is built as a release at sparsity 10 with
# branches, returns and scalar-pairs (the reports of ccrypt-sized runs,
# about 4 KB); a few developer runs of it give the reports that load.c's
# clients send again and again, each with a new run id.  Against a
# PostgreSQL server of its own (testsuite/sql/pg-server.sh) and then an
# SQLite store, each a sampler-collect on loopback:
#   load        CLIENTS clients (default 50) for SECONDS (default 20):
#               reports acknowledged per second, latency percentiles;
#   kill-9      the same, the collector killed with SIGKILL a third of
#               the way in and started again a second later;
#   pg-restart  the same, PostgreSQL stopped in immediate mode (a crash:
#               no shutdown checkpoint) and started again;
#   disk-full   (SQLite, as root) the store on a tmpfs of 6 MB that the
#               load fills, made 256 MB (one command: mount -o remount)
#               two thirds of the way in.
# The SCENARIOs given (default: all) run, each on both stores where it
# applies.
# After every run: each report acknowledged is stored, none twice, none
# is left pending on its client (the clients resend until acknowledged),
# and the store has no report no client sent.  One line per run:
#   ENGINE SCENARIO clients N reports N acknowledged N pending N ... p99_ms X
#   ... exactly-once yes|NO (stored N, distinct N, acknowledged-not-stored N,
#   stored-not-sent N)
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
build=$(cd "${1:?usage: load.sh BUILD_DIR [SECONDS] [CLIENTS]}" && pwd) || exit 2
seconds=${2:-20}
clients=${3:-50}
shift $(($# < 3 ? $# : 3))
scenarios=${*:-load kill-9 pg-restart disk-full}
wanted () { [[ " $scenarios " == *" $1 "* ]]; }
GCC=$build/bin/sampler-gcc
COLLECT=$build/bin/sampler-collect
KEY=bench-collect-key-0123456789
scratch=$(mktemp -d "${TMPDIR:-/tmp}/sampler-collect-bench.XXXXXX") || exit 2
chmod 711 "$scratch"
. "$TOP/testsuite/sql/pg-server.sh"
service_pid=

stop_service () {
    [ -z "$service_pid" ] || { kill -TERM "$service_pid"; wait "$service_pid"; } 2>/dev/null
    service_pid=
}
cleanup () {
    stop_service
    pg_server_stop
    ! mountpoint -q "$scratch/full" || umount "$scratch/full"
    [ -n "${KEEP_SCRATCH-}" ] && echo "scratch kept in $scratch" || rm -rf "$scratch"
}
trap cleanup EXIT
die () { echo "load.sh: $*" >&2; exit 2; }

gcc -std=c11 -O2 -Wall -Wextra -o "$scratch/load" "$HERE/load.c" -lcurl -lz -pthread ||
    die "load.c does not build"

# The release and its reports.
# The upstream tarball fetch-debian-source.sh leaves in its cache is enough
# (Debian's patches do not matter here).
orig=${SAMPLER_CACHE:-$HOME/.cache/sampler}/src/ccrypt/download/ccrypt_1.11.orig.tar.gz
if [ -f "$orig" ]; then
    tar -xzf "$orig" -C "$scratch" && src=$scratch/ccrypt-1.11 || die "cannot unpack $orig"
else
    src=$("$TOP/testsuite/tools/fetch-debian-source.sh" ccrypt 2>"$scratch/fetch.log") ||
        die "cannot fetch ccrypt: $(tail -n 3 "$scratch/fetch.log")"
fi
cat >"$scratch/release.conf" <<EOF
product = ccrypt-bench
version = 1.11
sparsity = 10
send-schemes = branches, returns, scalar-pairs
collector = http://127.0.0.1:1/
upload-key = $KEY
consent = user
EOF
cp -a "$src" "$scratch/ccrypt"
(cd "$scratch/ccrypt" &&
 CC="$GCC --sampler-release=$scratch/release.conf" \
 CFLAGS="-O2 -fplugin-arg-sampler-schemes=branches,returns,scalar-pairs" \
 ./configure --disable-emacs --disable-libcrypt && make -j2 -C src ccrypt) \
    >"$scratch/build.log" 2>&1 || die "ccrypt does not build: $(tail -n 5 "$scratch/build.log")"
binary=$scratch/ccrypt/src/ccrypt
mkdir "$scratch/reports"
head -c 300000 /dev/urandom >"$scratch/plain"
for i in $(seq 1 8); do
    head -c $((i * 30000)) "$scratch/plain" >"$scratch/in-$i"
    SAMPLER_SPARSITY=10 SAMPLER_FILE="$scratch/reports/$i.report" \
        "$binary" -e -f -K "key $i" "$scratch/in-$i" >/dev/null 2>&1
done
sizes=$(wc -c "$scratch"/reports/* | awk '$2 != "total" { s += $1; n++ } END { printf "%d reports of %.1f KB on average", n, s / n / 1024 }')
echo "ccrypt's release: $sizes (before gzip)"

# run ENGINE SCENARIO URL: one bounded run against a new store.
run () {
    local engine=$1 scenario=$2 url=$3
    "$COLLECT" register-release --store "$url" --binary "$binary" --key "$KEY" \
        --fail-if status=1-255 >"$scratch/register.log" 2>&1 ||
        die "register-release: $(cat "$scratch/register.log")"
    rm -f "$scratch/port"
    "$COLLECT" serve --store "$url" --listen 127.0.0.1:0 --port-file "$scratch/port" \
        --address-quota 0 --key-quota 0 --address-connections 1000 \
        >"$scratch/service-$engine-$scenario.log" 2>&1 &
    service_pid=$!
    for _ in $(seq 100); do [ -s "$scratch/port" ] && break; sleep 0.1; done
    local port
    port=$(head -n 1 "$scratch/port" 2>/dev/null)
    [ -n "$port" ] || die "sampler-collect does not start: $(cat "$scratch/service-$engine-$scenario.log")"
    "$scratch/load" --url "http://127.0.0.1:$port/v1/reports" --key "$KEY" \
        --reports "$scratch/reports" --clients "$clients" --seconds "$seconds" --deadline 60 \
        --log "$scratch/load-$engine-$scenario.log" >"$scratch/load.out" 2>"$scratch/load.err" &
    local load_pid=$!
    sleep $((seconds / 3))
    case $scenario in
        kill-9)
            kill -KILL "$service_pid"; wait "$service_pid" 2>/dev/null
            sleep 1
            "$COLLECT" serve --store "$url" --listen "127.0.0.1:$port" --address-quota 0 \
                --key-quota 0 --address-connections 1000 \
                >>"$scratch/service-$engine-$scenario.log" 2>&1 &
            service_pid=$! ;;
        pg-restart)
            pg_as_server "$pg_bin/pg_ctl" -D "$pg_dir" -m immediate -w stop >/dev/null 2>&1
            sleep 1
            pg_as_server "$pg_bin/pg_ctl" -D "$pg_dir" -l "$pg_dir/server.log" -w -t 120 \
                -o "-p $pg_port -c listen_addresses=127.0.0.1 -k $pg_dir" start >/dev/null 2>&1 ||
                die "PostgreSQL does not start again" ;;
        disk-full)
            sleep $((seconds / 3))
            mount -o remount,size=256m "$scratch/full" || die "cannot enlarge the tmpfs" ;;
    esac
    wait "$load_pid"
    stop_service
    local query="SELECT run_id FROM reports"
    if [ "$engine" = postgresql ]; then psql -X -A -t -d "$url" -c "$query"
    else sqlite3 "${url#sqlite:}" "$query"; fi | sort >"$scratch/stored"
    local log=$scratch/load-$engine-$scenario.log
    awk '{ print $1 }' "$log" | sort >"$scratch/sent"
    awk '$2 == "acknowledged" { print $1 }' "$log" | sort >"$scratch/acknowledged"
    local stored distinct lost extra verdict=NO
    stored=$(wc -l <"$scratch/stored")
    distinct=$(sort -u "$scratch/stored" | wc -l)
    lost=$(comm -23 "$scratch/acknowledged" "$scratch/stored" | wc -l)
    extra=$(comm -13 "$scratch/sent" "$scratch/stored" | wc -l)
    [ "$stored" = "$distinct" ] && [ "$lost" = 0 ] && [ "$extra" = 0 ] &&
        [ "$(wc -l <"$scratch/acknowledged")" = "$(wc -l <"$scratch/sent")" ] && verdict=yes
    echo "$engine $scenario $(cat "$scratch/load.out") exactly-once $verdict (stored $stored," \
         "distinct $distinct, acknowledged-not-stored $lost, stored-not-sent $extra)"
    head -n 3 "$scratch/load.err" | sed 's/^/  /'
}

mkdir "$scratch/pg"
pg_server_start "$scratch/pg" || die "PostgreSQL does not start: $(tail -n 5 "$scratch/pg/server.log")"
n=0
for scenario in load kill-9 pg-restart; do
    wanted "$scenario" || continue
    n=$((n + 1))
    psql -X -q -d "$pg_url/postgres" -c "CREATE DATABASE bench$n" >/dev/null || die "createdb"
    run postgresql "$scenario" "$pg_url/bench$n"
done
for scenario in load kill-9; do
    wanted "$scenario" && run sqlite "$scenario" "sqlite:$scratch/$scenario.db"
done
if wanted disk-full; then
    mkdir "$scratch/full"
    if mount -t tmpfs -o size=6m sampler-bench "$scratch/full" 2>/dev/null; then
        run sqlite disk-full "sqlite:$scratch/full/store.db"
    else
        echo "sqlite disk-full: not run (mounting a tmpfs needs root)"
    fi
fi
