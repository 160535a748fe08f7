#!/bin/bash
# sampler-submit against the collector: --dry-run shows what is then
# stored, byte for byte, and changes nothing; offline, garbage, a
# redirect, a slow drip, a hang, TLS failures, a captive portal's page,
# 503 with Retry-After and a wrong key lose nothing and say why; a refused
# report goes aside; a duplicate is stored once; the rate limit and
# --force; 410 retires the release; withdrawal deletes what is pending; an
# interim report waits for its run's end.
# CHECKS: bash $SRC
. "$SRCDIR/lib.sh"
build_field_prog
link_main

home_p=$scratch/home-protocol
store_p=$(store_of "$home_p")
consent "$home_p" yes
for i in 1 2 3; do as_user "$home_p" "$scratch/main" > /dev/null; done
before=$(fingerprint "$store_p")
submit "$home_p" --dry-run
first=$(find "$store_p/pending" -type f -printf '%T@ %p\n' | sort -n | head -n 1 | cut -d' ' -f2)
run_id=$(sed -n 's/^run-id	//p' "$first")
awk -v id="$run_id" '$0 == "Sampler-Run-Id: " id { found = 1; next }
     found && /^Content-Length/ { getline; body = 1; next }
     body && /^POST / { exit } body { print }' "$scratch/submit.out" | sed '$d' > "$scratch/dry-body"
if [ "$(grep -c '^POST http://127.0.0.1:9/v1/reports$' "$scratch/submit.out")" = 3 ] &&
   grep -qx "Authorization: Bearer $KEY" "$scratch/submit.out" &&
   cmp -s "$scratch/dry-body" "$first" && [ "$before" = "$(fingerprint "$store_p")" ]; then
    pass "protocol: --dry-run shows each request and report, and changes nothing"
else fail "protocol: --dry-run shows each request and report, and changes nothing" "$scratch/submit.out"; fi

# An unused port: a collector's, once it is gone.
start_collector normal; dead_port=$port; stop_collector
started=$(date +%s)
submit "$home_p" --collector "http://127.0.0.1:$dead_port/"; status=$?
next=$(stat -c %Y "$store_p/next-attempt" 2>/dev/null || echo 0)
if [ $status = 1 ] && grep -q "cannot reach the collector at http://127.0.0.1:$dead_port/v1/reports" "$scratch/submit.out" &&
   [ "$(pending_count "$home_p")" = 3 ] && [ "$next" -ge $((started + 55)) ] &&
   grep -qx 'failures 1' "$store_p/next-attempt"; then
    pass "protocol: offline, the reports are kept and the next round backs off"
else fail "protocol: offline, the reports are kept and the next round backs off" "$scratch/submit.out"; fi

start_collector normal
submit "$home_p" --collector "http://127.0.0.1:$port/"; status=$?
if [ $status = 0 ] && grep -q 'the next round is due in' "$scratch/submit.out" &&
   [ ! -e "$col_store/requests.log" ]; then
    pass "protocol: no round before its time (without --force)"
else fail "protocol: no round before its time (without --force)" "$scratch/submit.out"; fi
stop_collector

# bad_answer NAME MODE SCHEME EXPECTED [COLLECTOR OPTIONS]: a round
# against a collector answering in MODE, over http or https: an error that
# says EXPECTED, soon, and nothing lost.
bad_answer () {
    local name=$1 mode=$2 scheme=$3 expected=$4 before started elapsed status
    shift 4
    start_collector "$mode" "$@"
    before=$(fingerprint "$store_p/pending")
    started=$(date +%s)
    submit "$home_p" --force --timeout 3 --collector="$scheme://127.0.0.1:$port/" ${CA_OPTION-}
    status=$?
    elapsed=$(( $(date +%s) - started ))
    stop_collector
    if [ $status = 1 ] && grep -q -- "$expected" "$scratch/submit.out" &&
       [ "$before" = "$(fingerprint "$store_p/pending")" ] && [ $elapsed -le 20 ]; then
        pass "protocol: $name: an error, nothing lost"
    else
        echo "exit status $status after $elapsed s" >> "$scratch/submit.out"
        fail "protocol: $name: an error, nothing lost" "$scratch/submit.out"
    fi
}
bad_answer "garbage" garbage http "the answer is not HTTP"
bad_answer "a redirect elsewhere" redirect http "a redirect to 'http://elsewhere.invalid/v1/reports'"
bad_answer "a slow drip" drip http "the collector is too slow"
bad_answer "a collector that never answers" hang http "the collector is too slow"
bad_answer "a captive portal's page" portal http "HTTP 200, but the answer '<html>.*' does not say that run [0-9a-f]* is stored"
bad_answer "503 with Retry-After" busy http "HTTP 503: busy; the report is kept"
next=$(stat -c %Y "$store_p/next-attempt")
check "protocol: Retry-After: 120 puts the next round at least 120 s away" \
    test "$next" -ge $(( $(date +%s) + 100 ))
KEY_SAVED=$KEY; KEY=another-key-0123456789
bad_answer "a key the collector does not know" normal http "HTTP 401: unknown upload key"
KEY=$KEY_SAVED
bad_answer "TLS spoken to a plain HTTP server" normal https "TLS failure at https://127.0.0.1"
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=127.0.0.1 \
    -addext subjectAltName=IP:127.0.0.1 -keyout "$scratch/key.pem" -out "$scratch/cert.pem" \
    > "$scratch/openssl.log" 2>&1 || { echo "openssl cannot make a certificate"; cat "$scratch/openssl.log"; exit 2; }
bad_answer "a certificate nobody vouches for" normal https "TLS failure" --tls "$scratch/cert.pem" "$scratch/key.pem"

# refused: one report goes aside, and is not offered again.
start_collector refuse
submit "$home_p" --force --collector="http://127.0.0.1:$port/"; status=$?
stop_collector
if [ $status = 0 ] && [ "$(pending_count "$home_p")" = 0 ] && [ "$(ls "$store_p/refused" | wc -l)" = 3 ] &&
   [ "$(wc -l < "$col_store/requests.log")" = 3 ] && grep -q 'refuses this report for good' "$store_p/submit.log"; then
    pass "protocol: reports refused for good go aside to refused/"
else fail "protocol: reports refused for good go aside to refused/" "$scratch/submit.out"; fi

# Over TLS, trusted: every report stored once, as --dry-run showed it.
for i in 1 2 3 4; do as_user "$home_p" "$scratch/main" > /dev/null; done
submit "$home_p" --dry-run
first=$(find "$store_p/pending" -type f -printf '%T@ %p\n' | sort -n | head -n 1 | cut -d' ' -f2)
run_id=$(sed -n 's/^run-id	//p' "$first")
ids=$(sed -n 's/^run-id	//p' "$store_p"/pending/* | sort)
awk -v id="$run_id" '$0 == "Sampler-Run-Id: " id { found = 1; next }
     found && /^Content-Length/ { getline; body = 1; next }
     body && /^POST / { exit } body { print }' "$scratch/submit.out" | sed '$d' > "$scratch/dry-body"
start_collector normal --tls "$scratch/cert.pem" "$scratch/key.pem"
submit "$home_p" --force --ca-file "$scratch/cert.pem" --collector="https://127.0.0.1:$port/"; status=$?
if [ $status = 0 ] && [ "$(pending_count "$home_p")" = 0 ] &&
   [ "$(cd "$col_store" && ls *.report | sed 's/\.report$//' | sort)" = "$ids" ] &&
   cmp -s "$scratch/dry-body" "$col_store/$run_id.report"; then
    pass "protocol: over trusted TLS every report is stored once, as --dry-run showed it"
else fail "protocol: over trusted TLS every report is stored once, as --dry-run showed it" "$scratch/submit.out"; fi

# A report sent again (a copy restored from a backup) is stored once.
cp "$col_store/$run_id.report" "$store_p/pending/again.report"
submit "$home_p" --force --ca-file "$scratch/cert.pem" --collector="https://127.0.0.1:$port/"; status=$?
if [ $status = 0 ] && [ "$(pending_count "$home_p")" = 0 ] &&
   [ "$(grep -c "^$run_id " "$col_store/requests.log")" = 2 ] &&
   [ "$(grep "^$run_id " "$col_store/requests.log" | tail -n 1)" = "$run_id duplicate" ] &&
   [ "$(stored_count "$col_store")" = 4 ]; then
    pass "protocol: a report sent twice is stored once, and deleted here"
else fail "protocol: a report sent twice is stored once, and deleted here" "$col_store/requests.log"; fi
stop_collector

# The rate limit: at most submit-batch reports a round, one round per
# submit-interval.
conf batch submit-batch=2
link batch
home_r=$scratch/home-rate
consent "$home_r" yes
for i in 1 2 3 4 5; do as_user "$home_r" "$scratch/batch" > /dev/null; done
start_collector normal
submit "$home_r" --collector="http://127.0.0.1:$port/"; first_round=$(pending_count "$home_r")
submit "$home_r" --collector="http://127.0.0.1:$port/"; second_round=$(pending_count "$home_r")
next=$(stat -c %Y "$(store_of "$home_r")/next-attempt")
submit "$home_r" --force --collector="http://127.0.0.1:$port/"; forced=$(pending_count "$home_r")
stop_collector
check "protocol: 2 reports a round, the next round an interval away, --force sends now" \
    test "$first_round $second_round $forced $(stored_count "$col_store")" = "3 3 1 4" -a "$next" -ge $(( $(date +%s) + 3000 ))

# 410: the release is retired: pending reports deleted, sampling stops.
start_collector gone
submit "$home_r" --force --collector="http://127.0.0.1:$port/"; status=$?
stop_collector
as_user "$home_r" "$scratch/batch" > /dev/null
if [ $status = 0 ] && [ -e "$(store_of "$home_r")/retired" ] && [ "$(pending_count "$home_r")" = 0 ]; then
    pass "protocol: 410 retires the release: nothing pending, nothing sampled"
else fail "protocol: 410 retires the release: nothing pending, nothing sampled" "$scratch/submit.out"; fi

# Withdrawing consent deletes what is pending and stops sampling and sending.
home_w=$scratch/home-withdraw
consent "$home_w" yes
for i in 1 2; do as_user "$home_w" "$scratch/main" > /dev/null; done
as_user "$home_w" "$SUBMIT" consent "$PRODUCT" no > "$scratch/withdraw.out"
as_user "$home_w" "$scratch/main" > /dev/null
start_collector normal
submit "$home_w" --force --collector="http://127.0.0.1:$port/"
stop_collector
if grep -q '^2 pending reports deleted' "$scratch/withdraw.out" && [ "$(pending_count "$home_w")" = 0 ] &&
   [ ! -e "$col_store/requests.log" ] && grep -q 'consent is withdrawn' "$scratch/submit.out"; then
    pass "protocol: withdrawn consent: pending reports deleted, nothing sampled or sent"
else fail "protocol: withdrawn consent: pending reports deleted, nothing sampled or sent" "$scratch/withdraw.out"; fi

# An interim report waits while its process lives; the run's last report
# takes its place and is sent once.
home_i=$scratch/home-interim
consent "$home_i" yes
# (The collector starts first: it must not hold the pipe open too.)
start_collector normal
mkfifo "$scratch/hold"
as_user "$home_i" "$scratch/main" interim < "$scratch/hold" > "$scratch/interim.out" &
interim_pid=$!
exec 7> "$scratch/hold"
for _ in $(seq 100); do grep -q dumped "$scratch/interim.out" 2>/dev/null && break; sleep 0.1; done
submit "$home_i" --force --collector="http://127.0.0.1:$port/"
interim_id=$(sed -n 's/^run-id\t//p' "$(store_of "$home_i")"/pending/*)
while_running=$(stored_count "$col_store"):$(grep -l '^interim' "$(store_of "$home_i")"/pending/* 2>/dev/null | wc -l)
exec 7>&-
wait $interim_pid
submit "$home_i" --force --collector="http://127.0.0.1:$port/"
stop_collector
if [ "$while_running" = "0:1" ] && [ "$(stored_count "$col_store")" = 1 ] &&
   grep -q '^exit	status	0' "$col_store/$interim_id.report" && [ "$(pending_count "$home_i")" = 0 ]; then
    pass "protocol: an interim report waits for its run's last, which is sent once"
else fail_with "protocol: an interim report waits for its run's last, which is sent once" "while running: $while_running" "$(cat "$col_store/requests.log" 2>/dev/null)"; fi
finish
