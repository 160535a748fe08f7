#!/bin/bash
# sampler-submit started by the runtime at exit: the report arrives, and a
# hanging collector delays neither the program's exit nor its caller
# (stdout is not held), nor changes its status.
# CHECKS: bash $SRC
. "$SRCDIR/lib.sh"
build_field_prog

start_collector normal
conf exit "collector=http://127.0.0.1:$port/" "submit-at-exit=$SUBMIT"
link exit
home_e=$scratch/home-exit
consent "$home_e" yes
as_user "$home_e" "$scratch/exit" status > /dev/null; status=$?
for _ in $(seq 100); do [ "$(stored_count "$col_store")" = 1 ] && break; sleep 0.1; done
if [ $status = 3 ] && [ "$(stored_count "$col_store")" = 1 ] && [ "$(pending_count "$home_e")" = 0 ]; then
    pass "at-exit: the report of a run is sent by the submitter it started"
else fail_with "at-exit: the report of a run is sent by the submitter it started" "status $status" "$(find "$home_e" -name submit.log -exec cat {} +)"; fi
stop_collector

start_collector hang
conf exit-hang "collector=http://127.0.0.1:$port/" "submit-at-exit=$SUBMIT"
link exit-hang
home_h=$scratch/home-exit-hang
consent "$home_h" yes
started=$(date +%s%N)
out=$(as_user "$home_h" "$scratch/exit-hang" status); status=$?
elapsed_ms=$(( ($(date +%s%N) - started) / 1000000 ))
for _ in $(seq 50); do [ -s "$col_store/requests.log" ] && break; sleep 0.1; done
if [ $status = 3 ] && [ "$out" = "$("$scratch/plain" status)" ] && [ $elapsed_ms -lt 3000 ] &&
   [ -s "$col_store/requests.log" ]; then
    pass "at-exit: a hanging collector delays neither the program nor its caller ($elapsed_ms ms)"
else fail_with "at-exit: a hanging collector delays neither the program nor its caller" "status $status after $elapsed_ms ms"; fi
stop_collector
check "at-exit: the hung round kept the report" test "$(pending_count "$home_h")" = 1
finish
