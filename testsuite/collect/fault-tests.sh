# fault-tests.sh: faults under load, sourced by run-collect-tests.sh, which
# sets what the functions below use.
#   fault_tests ENGINE   8 clients of bench/collect/load.c (each keeps a
#       report pending until the service acknowledges it) send 400 reports
#       while the service is killed with SIGKILL and started again, and, on
#       PostgreSQL, while the server crashes (an immediate stop) and starts
#       again.  Then: no report is left pending, every report acknowledged
#       is stored, none twice, none that was not sent, and the release's
#       aggregate counts every stored run once (what the crash left queued
#       is folded after it).  Bounded: 60 s of sending and 30 s more
#       for what is pending at most.  bench/collect/load.sh does the same at 50
#       clients for figures.

# restart_service URL: the service again on the same port.
restart_service () {
    rm -f "$scratch/port"
    "$COLLECT" serve --store "$1" --listen "127.0.0.1:$port" --port-file "$scratch/port" \
        --fold-interval 100 --elimination-interval 1 --address-quota 0 --key-quota 0 \
        --address-connections 1000 >>"$scratch/service.log" 2>&1 &
    service_pid=$!
    for _ in $(seq 100); do [ -s "$scratch/port" ] && break; sleep 0.1; done
    [ -s "$scratch/port" ]
}

# wait_stored N: until the service has stored N reports since it started.
wait_stored () {
    for _ in $(seq 300); do
        [ "$(status_of stored)" -ge "$1" ] 2>/dev/null && return 0
        sleep 0.1
    done
    return 1
}

# fault_run ENGINE FAULT: one run of the load with FAULT (kill-9, pg-crash).
fault_run () {
    local engine=$1 fault=$2 url log=$scratch/load-$1-$2.log
    url=$(new_store "$engine" "faults_${fault//-/_}")
    "$COLLECT" register-release --store "$url" --binary "$program" >/dev/null 2>&1
    start_service "$url" --address-quota 0 --key-quota 0 --address-connections 1000 ||
        { fail "$engine: $fault: the service starts" "$scratch/service.log"; return; }
    "$LOAD" --url "http://127.0.0.1:$port/v1/reports" --key "$KEY" --reports "$scratch/files" \
        --clients 8 --count 400 --seconds 60 --deadline 30 --log "$log" \
        >"$scratch/load.out" 2>"$scratch/load.err" &
    local load_pid=$!
    wait_stored 100
    case $fault in
        kill-9)
            kill -KILL "$service_pid"
            wait "$service_pid" 2>/dev/null
            sleep 0.5
            restart_service "$url" ;;
        pg-crash)
            pg_as_server "$pg_bin/pg_ctl" -D "$pg_dir" -m immediate -w stop >/dev/null 2>&1
            sleep 1
            pg_as_server "$pg_bin/pg_ctl" -D "$pg_dir" -l "$pg_dir/server.log" -w -t 120 \
                -o "-p $pg_port -c listen_addresses=127.0.0.1 -k $pg_dir" start >/dev/null 2>&1 ;;
    esac
    wait "$load_pid"
    query "$engine" "$url" "SELECT run_id FROM reports" | sort >"$scratch/stored"
    awk '{ print $1 }' "$log" | sort >"$scratch/sent"
    awk '$2 == "acknowledged" { print $1 }' "$log" | sort >"$scratch/acknowledged"
    local sent stored distinct pending lost extra
    sent=$(wc -l <"$scratch/sent")
    stored=$(wc -l <"$scratch/stored")
    distinct=$(sort -u "$scratch/stored" | wc -l)
    pending=$(grep -c ' pending ' "$log")
    lost=$(comm -23 "$scratch/acknowledged" "$scratch/stored" | wc -l)
    extra=$(comm -13 "$scratch/sent" "$scratch/stored" | wc -l)
    check "$engine: $fault under load: $sent reports sent, none pending, every acknowledged one stored once ($(cat "$scratch/load.out"))" \
        test "$pending:$lost:$extra:$stored:$distinct" = "0:0:0:$sent:$sent"
    # The aggregate counts each run once: what was queued when the service
    # or the server died is folded after, and nothing twice.
    local counted queued
    for _ in $(seq 300); do
        counted=$(query "$engine" "$url" "SELECT failing + successful FROM release_counts")
        queued=$(query "$engine" "$url" "SELECT count(*) FROM fold_queue")
        [ "$counted:$queued" = "$sent:0" ] && break
        sleep 0.1
    done
    check "$engine: $fault: every stored run is folded once ($counted runs counted, $queued queued)" \
        test "$counted:$queued" = "$sent:0"
    stop_service
}

fault_tests () {
    fault_run "$1" kill-9
    [ "$1" != postgresql ] || fault_run "$1" pg-crash
}
