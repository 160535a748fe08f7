# pg-server.sh: a PostgreSQL 15 server of our own, for testsuite/sql and
# bench/fleet, sourced by them:
#   pg_server_start DIR [SETTING...]  initdb in DIR (an empty directory
#                  the server's user can reach), start it on a free loopback
#                  port with its socket in DIR, each SETTING (name=value)
#                  given to the server; sets pg_url (postgresql://...) and
#                  pg_port; false, with the log in DIR/server.log, on failure
#   pg_server_stop   stop it (fast), if started
#   pg_as_server COMMAND...  COMMAND as the server's user: postgres when
#                  run as root (initdb refuses root), else ourselves
pg_bin=$(ls -d /usr/lib/postgresql/15/bin 2>/dev/null)
pg_url=
pg_port=
pg_dir=

pg_as_server () {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

pg_server_start () {
    pg_dir=$1
    shift
    [ -n "$pg_bin" ] || return 1
    [ "$(id -u)" != 0 ] || chown postgres "$pg_dir"
    pg_as_server "$pg_bin/initdb" -D "$pg_dir" -A trust -U sampler --locale=C -E UTF8 \
        >"$pg_dir.initdb.log" 2>&1 || return 1
    settings="-c listen_addresses=127.0.0.1 -k $pg_dir"
    for setting in "$@"; do settings="$settings -c $setting"; done
    for try in 1 2 3 4 5; do
        pg_port=$((20000 + ($$ * 7 + try * 1009) % 20000))
        if pg_as_server "$pg_bin/pg_ctl" -D "$pg_dir" -l "$pg_dir/server.log" -w -t 120 \
               -o "-p $pg_port $settings" start >/dev/null 2>&1; then
            pg_url="postgresql://sampler@127.0.0.1:$pg_port"
            return 0
        fi
    done
    return 1
}

pg_server_stop () {
    [ -z "$pg_url" ] || pg_as_server "$pg_bin/pg_ctl" -D "$pg_dir" -m fast -w stop >/dev/null 2>&1
    pg_url=
}
