#!/bin/bash
# Runs of field-prog.c's release: without consent nothing is written
# anywhere; with it, one report per run in the store (0700 directories,
# 0600 files), none in the working directory, in the form that leaves the
# machine (check-field-reports.py: no host, user or path, only the schemes
# sent); SAMPLER_FILE gives the whole local report; exit statuses and
# crashes as the plain build's; the bound in reports and in bytes, every
# report accounted for (kept, or counted as dropped); XDG_STATE_HOME, its
# fallback, the cache store; consent by the system (as root); secure mode
# writes nothing (as root).
# CHECKS: bash $SRC
. "$SRCDIR/lib.sh"
build_field_prog
link_main

home=$scratch/home-field
plain_out=$("$scratch/plain" 2>/dev/null)
out=$(as_user "$home" "$scratch/main")
if [ "$out" = "$plain_out" ] && [ ! -e "$home/.local" ] && [ -z "$(ls -A "$scratch/cwd")" ]; then
    pass "field: no consent, nothing written anywhere"
else fail_with "field: no consent, nothing written anywhere" "output '$out', plain '$plain_out'" "$(find "$home" "$scratch/cwd")"; fi

consent "$home" yes
out=$(as_user "$home" "$scratch/main")
store=$(store_of "$home")
report=$(find "$store/pending" -type f | head -n 1)
modes=$(stat -c '%a' "$home/.local/state" "$home/.local/state/sampler" "$store" "$store/pending" "$report" | tr '\n' ' ')
if [ "$out" = "$plain_out" ] && [ "$(pending_count "$home")" = 1 ] && [ -z "$(ls -A "$scratch/cwd")" ] &&
   [ "$modes" = "700 700 700 700 600 " ]; then
    pass "field: with consent, one private report in the store, none in the working directory"
else fail_with "field: with consent, one private report in the store, none in the working directory" "modes $modes" "$(find "$home" "$scratch/cwd" -ls)"; fi

if python3 "$HERE/check-field-reports.py" --product "$PRODUCT" --version 1.0 --send "$SENT" \
       --forbid "$host" --forbid "$scratch" --tool "$REPORT" --binary "$scratch/main" \
       "$report" > "$scratch/check.out" 2>&1 &&
   grep -q "^withheld	.*values.*indirect-calls" "$report" && ! grep -q '^loaded' "$report"; then
    pass "field: the report holds no host, user or path, and only the schemes sent"
else fail "field: the report holds no host, user or path, and only the schemes sent" "$scratch/check.out"; fi

EXTRA_ENV="SAMPLER_FILE=$scratch/local.report" as_user "$home" "$scratch/main" > /dev/null
if [ "$(sed -n 2p "$scratch/local.report")" = "program	$scratch/main" ] &&
   "$REPORT" show "$scratch/local.report" 2>&1 | grep -q ' values ' &&
   grep -q "^release	$PRODUCT	1.0" "$scratch/local.report" &&
   ! grep -q '^withheld' "$scratch/local.report" && [ "$(pending_count "$home")" = 1 ]; then
    pass "field: SAMPLER_FILE gets the whole report, at the release's sparsity"
else fail "field: SAMPLER_FILE gets the whole report, at the release's sparsity" "$scratch/local.report"; fi

EXTRA_ENV="SAMPLER_SPARSITY=0" as_user "$home" "$scratch/main" > /dev/null
check "field: SAMPLER_SPARSITY=0 samples nothing" test "$(pending_count "$home")" = 1

as_user "$home" "$scratch/main" status > /dev/null; status=$?
as_user "$home" "$scratch/main" crash > /dev/null 2>&1; crash=$?
(timeout 60 "$scratch/plain" crash) > /dev/null 2>&1; plain_crash=$?
if [ $status = 3 ] && [ $crash = "$plain_crash" ] &&
   grep -lq '^exit	status	3$' "$store"/pending/* && grep -lq '^exit	signal	11$' "$store"/pending/*; then
    pass "field: an exit status and a crash as the plain build's, each reported"
else fail_with "field: an exit status and a crash as the plain build's, each reported" "status $status, crash $crash (plain $plain_crash)"; fi

# The bound: 5 reports.  Every report written is either pending, or
# counted as dropped (in the store's count, or in a pending report).
written=$(( $(pending_count "$home") ))
for i in $(seq 12); do as_user "$home" sh -c 'echo $$; exec "$0"' "$scratch/main" > "$scratch/last.out"; done
written=$((written + 12))
last_pid=$(head -n 1 "$scratch/last.out")
carried=$(cat "$store"/pending/* | awk -F'\t' '$1 == "dropped" { n += $2 } END { print n + 0 }')
waiting=$(cat "$store/dropped" 2>/dev/null || echo 0)
if [ "$(pending_count "$home")" = 5 ] && [ $((5 + carried + waiting)) = "$written" ] &&
   grep -lq "^pid	$last_pid$" "$store"/pending/*; then
    pass "field: the store keeps 5 reports, the newest; the dropped ones are counted"
else fail_with "field: the store keeps 5 reports, the newest; the dropped ones are counted" "$(pending_count "$home") pending, $carried carried, $waiting waiting, $written written"; fi

conf bytes store-max-bytes=4096
link bytes
home_b=$scratch/home-bytes
consent "$home_b" yes
for i in $(seq 12); do as_user "$home_b" "$scratch/bytes" > /dev/null; done
bytes=$(cat "$(store_of "$home_b")"/pending/* | wc -c)
n=$(pending_count "$home_b")
if [ "$bytes" -le 4096 ] && [ "$n" -ge 2 ] && [ "$n" -lt 12 ]; then
    pass "field: the store keeps within its bound in bytes ($n reports, $bytes bytes)"
else fail_with "field: the store keeps within its bound in bytes" "$n reports, $bytes bytes"; fi

home_x=$scratch/home-xdg
consent "$home_x" yes
EXTRA_ENV="XDG_STATE_HOME=$scratch/xdg-state" as_user "$home_x" "$scratch/main" > /dev/null
EXTRA_ENV="XDG_STATE_HOME=relative/state" as_user "$home_x" "$scratch/main" > /dev/null
conf cache store=cache
link cache
EXTRA_ENV="XDG_CACHE_HOME=$scratch/xdg-cache" as_user "$home_x" "$scratch/cache" > /dev/null
if [ "$(ls "$scratch/xdg-state/sampler/$PRODUCT/1.0/pending" | wc -l)" = 1 ] &&
   [ "$(pending_count "$home_x")" = 1 ] && [ ! -e "$scratch/cwd/relative" ] &&
   [ "$(ls "$scratch/xdg-cache/sampler/$PRODUCT/1.0/pending" | wc -l)" = 1 ]; then
    pass "field: XDG_STATE_HOME, its fallback for a relative value, and the cache store"
else fail_with "field: XDG_STATE_HOME, its fallback for a relative value, and the cache store" "$(find "$scratch/xdg-state" "$scratch/xdg-cache" "$home_x" "$scratch/cwd")"; fi

if [ "$(id -u)" = 0 ]; then
    conf system consent=system
    link system
    home_s=$scratch/home-system
    consent "$home_s" yes
    as_user "$home_s" "$scratch/system" > /dev/null
    user_only=$(pending_count "$home_s")
    "$SUBMIT" consent "$PRODUCT" yes --system > /dev/null
    as_user "$home_s" "$scratch/system" > /dev/null
    with_system=$(pending_count "$home_s")
    consent "$home_s" no
    as_user "$home_s" "$scratch/system" > /dev/null
    withdrawn=$(pending_count "$home_s")
    rm -f "/etc/sampler/consent/$PRODUCT"
    check "field: consent=system: the user's yes is not enough, the system's is, the user's no withdraws" \
        test "$user_only $with_system $withdrawn" = "0 1 0"

    # Secure mode: a set-user-ID copy run by nobody writes nothing, not
    # even with consent in its (untrusted) environment.
    # (The case's scratch directory is private: nobody's home and programs
    # go to a directory that nobody can reach, removed at the end.)
    reachable=$(mktemp -d "${TMPDIR:-/tmp}/sampler-remote-nobody.XXXXXX") && chmod 711 "$reachable"
    home_n=$reachable/home-nobody
    mkdir -p "$home_n" && chown nobody "$home_n"
    cp "$scratch/main" "$reachable/main" && chmod 755 "$reachable/main"
    cp "$scratch/main" "$reachable/setuid" && chmod 4755 "$reachable/setuid"
    setpriv --reuid=nobody --regid=nogroup --clear-groups env -i HOME="$home_n" \
        sh -c '"$0" consent "$1" yes > /dev/null && "$2" > /dev/null' "$SUBMIT" "$PRODUCT" "$reachable/setuid"
    secure=$(find "$home_n/.local" -type f 2>/dev/null | wc -l)
    setpriv --reuid=nobody --regid=nogroup --clear-groups env -i HOME="$home_n" "$reachable/main" > /dev/null
    control=$(pending_count "$home_n")
    check "field: secure mode (set-user-ID) writes nothing; the same program without the bit does" \
        test "$secure $control" = "0 1"
else
    skip "field: consent=system" "not root"
    skip "field: secure mode" "not root"
fi
finish
