#!/bin/bash
# run-remote-tests.sh: the field side of remote sampling (docs/remote.md)
# with a small program of a release and a stand-in collector on loopback
# (collector.py).
#
# Usage: testsuite/remote/run-remote-tests.sh BUILD_DIR   (prints "N passed, N failed")
#
#   config    sampler-release and sampler-gcc --sampler-release: a good file
#             is carried by the program (also once stripped); every kind of
#             bad file stops a compile and a link, naming the file and line.
#   reader    sampler-report shows the run-id, release, withheld and dropped
#             records, and refuses malformed ones naming the line.
#   field     runs of field-prog.c's release: without consent nothing is
#             written anywhere; with it, one report per run in the store
#             (0700 directories, 0600 files), none in the working
#             directory, in the form that leaves the machine
#             (check-field-reports.py: no host, user or path, only the
#             schemes sent); SAMPLER_FILE gives the whole local report;
#             exit statuses and crashes as the plain build's; the bound in
#             reports and in bytes, every report accounted for (kept, or
#             counted as dropped); XDG_STATE_HOME, its fallback, the cache
#             store; consent by the system (as root), withdrawal; secure
#             mode writes nothing (as root); an interim report waits for
#             its run's end.
#   protocol  sampler-submit against the collector: --dry-run shows what
#             is then stored, byte for byte, and changes nothing; offline,
#             garbage, a redirect, a slow drip, a hang, TLS failures, a
#             captive portal's page, 503 with Retry-After and a wrong key
#             lose nothing and say why; a refused report goes aside; a
#             duplicate is stored once; the rate limit and --force; 410
#             retires the release.
#   at-exit   sampler-submit started by the runtime at exit: the report
#             arrives, and a hanging collector delays neither the
#             program's exit nor its caller (stdout is not held), nor
#             changes its status.
#   units     the systemd user units pass systemd-analyze verify.
#
# Every collector and program here is bounded in time (timeout).  Scratch
# files go to a temporary directory, kept on failure or with KEEP_SCRATCH=1.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:?usage: run-remote-tests.sh BUILD_DIR}" && pwd) || exit 2
. "$HERE/../tools/tally.sh"

GCC=$build/bin/sampler-gcc
SUBMIT=$build/bin/sampler-submit
RELEASE=$build/bin/sampler-release
REPORT=$build/bin/sampler-report
PRODUCT=sampler-test-$$
KEY=test-upload-key-0123456789
SCHEMES=branches,returns,values,indirect-calls
SENT=branches,returns
scratch=$(mktemp -d "${TMPDIR:-/tmp}/sampler-remote.XXXXXX") || exit 2
collectors=()

cleanup () {
    for pid in ${collectors[@]+"${collectors[@]}"}; do kill "$pid" 2>/dev/null; done
    rm -f "/etc/sampler/consent/$PRODUCT"
    if [ "$failed" = 0 ] && [ -z "${KEEP_SCRATCH-}" ]; then rm -rf "$scratch"
    else echo "scratch kept in $scratch"; fi
}
trap cleanup EXIT

# ---------------------------------------------------------------------------
# Helpers.

# conf NAME [KEY=VALUE]...: $scratch/NAME.conf, the test release with these
# settings over the defaults below.
conf () {
    local name=$1 kv key
    shift
    declare -A settings=([product]=$PRODUCT [version]=1.0 [sparsity]=1 [upload-key]=$KEY
                         [collector]=http://127.0.0.1:9/ [send-schemes]=$SENT)
    for kv in "$@"; do settings[${kv%%=*}]=${kv#*=}; done
    for key in "${!settings[@]}"; do echo "$key = ${settings[$key]}"; done > "$scratch/$name.conf"
}

# link NAME: field-prog linked with the release $scratch/NAME.conf.
link () {
    "$GCC" --sampler-release="$scratch/$1.conf" "$scratch/field-prog.o" -o "$scratch/$1" \
        > "$scratch/$1.link.log" 2>&1
}

# as_user HOME COMMAND...: runs COMMAND as a user whose home is HOME, with
# nothing else of the test's environment (no SAMPLER_* variable), in
# $scratch/cwd, bounded in time.
as_user () {
    local home=$1
    shift
    mkdir -p "$home" "$scratch/cwd"
    (cd "$scratch/cwd" && env -i PATH="$PATH" HOME="$home" LC_ALL=C ${EXTRA_ENV-} \
        timeout 60 "$@")
}

store_of () { echo "$1/.local/state/sampler/$PRODUCT/${2:-1.0}"; }
pending_count () { find "$(store_of "$@")/pending" -maxdepth 1 -type f ! -name '*.tmp.*' 2>/dev/null | wc -l; }
consent () { as_user "$1" "$SUBMIT" consent "$PRODUCT" "$2" > /dev/null; }

# A listing of a directory's files with their checksums: what "nothing
# lost, nothing changed" compares.
fingerprint () { (cd "$1" && find . -type f ! -name '*.lock' ! -name submit.log -print0 | sort -z | xargs -0 -r sha1sum); }

# start_collector MODE [OPTIONS]: a collector.py in the background; sets
# $port and $col_store (its store).
start_collector () {
    local mode=$1
    shift
    col_store=$scratch/collector-$((${#collectors[@]} + 1))
    rm -f "$col_store.port"
    timeout 600 python3 "$HERE/collector.py" --port-file "$col_store.port" --store "$col_store" \
        --key "$KEY" --product "$PRODUCT" --version 1.0 --mode "$mode" "$@" \
        2> "$col_store.err" &
    collectors+=($!)
    for _ in $(seq 100); do [ -s "$col_store.port" ] && break; sleep 0.1; done
    port=$(cat "$col_store.port" 2>/dev/null)
    [ -n "$port" ] || { echo "collector.py did not start:"; cat "$col_store.err"; exit 2; }
}
stop_collector () { kill "${collectors[-1]}" 2>/dev/null; wait "${collectors[-1]}" 2>/dev/null; }
stored_count () { find "$1" -maxdepth 1 -name '*.report' | wc -l; }

# submit HOME ARGS...: sampler-submit as that user; output in $scratch/submit.out
submit () {
    local home=$1
    shift
    as_user "$home" "$SUBMIT" "$@" > "$scratch/submit.out" 2>&1
}

"$GCC" -O2 -I"$build/include" -fplugin-arg-sampler-schemes=$SCHEMES -c "$HERE/field-prog.c" -o "$scratch/field-prog.o" ||
    { echo "cannot build field-prog.c"; exit 2; }
gcc -O2 "$HERE/field-prog.c" -o "$scratch/plain" ||
    { echo "cannot build field-prog.c plainly"; exit 2; }
host=$(uname -n)

# ---------------------------------------------------------------------------
# config: release configurations.

conf good sparsity=50 store-max-bytes=2M
if "$RELEASE" check "$scratch/good.conf" > "$scratch/good.out" 2>&1 &&
   [ "$(grep -c ' = ' "$scratch/good.out")" = 13 ] &&
   grep -qx 'store-max-bytes = 2097152' "$scratch/good.out" &&
   grep -qx 'consent = user, system' "$scratch/good.out" &&
   grep -qx 'send-schemes = branches, returns' "$scratch/good.out"; then
    pass "config: a good file, every setting with its default"
else fail "config: a good file, every setting with its default" "$scratch/good.out"; fi

# bad_case NAME LINE-PREFIX EXPECTED CONTENT: the file is refused by
# sampler-release, by a compile and by a link, with the same message.
bad_case () {
    local name=$1 where=$2 expected=$3 file=$scratch/bad.conf
    printf '%b' "$4" > "$file"
    rm -f "$scratch/bad.o" "$scratch/bad"
    local message="$file$where: error: $expected" ok=yes
    "$RELEASE" check "$file" > /dev/null 2> "$scratch/bad.err" && ok=no
    grep -qF -- "$message" "$scratch/bad.err" || ok=no
    "$GCC" --sampler-release="$file" -c "$HERE/field-prog.c" -o "$scratch/bad.o" 2> "$scratch/bad-compile.err" && ok=no
    grep -qF -- "$message" "$scratch/bad-compile.err" || ok=no
    SAMPLER_RELEASE=$file "$GCC" "$scratch/field-prog.o" -o "$scratch/bad" 2> "$scratch/bad-link.err" && ok=no
    grep -qF -- "$message" "$scratch/bad-link.err" || ok=no
    [ ! -e "$scratch/bad.o" ] && [ ! -e "$scratch/bad" ] || ok=no
    if [ $ok = yes ]; then pass "config: $name"
    else
        { echo "expected: $message"; cat "$scratch/bad.err" "$scratch/bad-compile.err" "$scratch/bad-link.err"; } > "$scratch/bad.why"
        fail "config: $name" "$scratch/bad.why"
    fi
}
base="product = p\nversion = 1\nupload-key = 0123456789abcdef\n"
bad_case "no product" "" "'product' is not set" "version = 1\nupload-key = 0123456789abcdef\ncollector = https://c.example/\n"
bad_case "unknown setting" ":4" "unknown setting 'colector'" "${base}colector = https://c.example/\n"
bad_case "not a URL" ":4" "bad collector 'c.example': expected an https:// URL" "${base}collector = c.example\n"
bad_case "plain http off the machine" ":4" "bad collector 'http://c.example/': plain http:// is for localhost" "${base}collector = http://c.example/\n"
bad_case "a user in the URL" ":4" "bad collector 'https://ann@c.example/': a user name in the URL" "${base}collector = https://ann@c.example/\n"
bad_case "a query in the URL" ":4" "bad collector 'https://c.example/x?a=1': a query or fragment" "${base}collector = https://c.example/x?a=1\n"
bad_case "a port out of range" ":4" "bad collector 'https://c.example:70000/': expected a port from 1 to 65535" "${base}collector = https://c.example:70000/\n"
bad_case "a space in the URL" ":4" "bad collector 'https://c.example/a b': a character" "${base}collector = https://c.example/a b\n"
bad_case "a short key" ":3" "bad upload-key 'short'" "product = p\nversion = 1\nupload-key = short\ncollector = https://c.example/\n"
bad_case "a setting twice" ":5" "'product' is set twice" "${base}collector = https://c.example/\nproduct = q\n"
bad_case "sparsity 0" ":5" "bad sparsity '0': expected a whole number from 1 to 1000000000" "${base}collector = https://c.example/\nsparsity = 0\n"
bad_case "an unknown scheme" ":5" "bad send-schemes 'branches, valuez': unknown scheme 'valuez'" "${base}collector = https://c.example/\nsend-schemes = branches, valuez\n"
bad_case "a scheme twice" ":5" "bad send-schemes 'branches,branches': scheme 'branches' is named twice" "${base}collector = https://c.example/\nsend-schemes = branches,branches\n"
bad_case "a line without =" ":5" "expected 'key = value' or a # comment" "${base}collector = https://c.example/\njust words\n"
bad_case "CRLF line ends" ":1" "a control character (byte 13)" "product = p\r\n"
bad_case "a bound too small" ":5" "bad store-max-bytes '100'" "${base}collector = https://c.example/\nstore-max-bytes = 100\n"
bad_case "a relative submitter" ":5" "bad submit-at-exit 'sampler-submit'" "${base}collector = https://c.example/\nsubmit-at-exit = sampler-submit\n"
bad_case "a version with a slash" ":2" "bad version '1/2'" "product = p\nversion = 1/2\n"
bad_case "an empty value" ":5" "'consent' has no value" "${base}collector = https://c.example/\nconsent =\n"
bad_case "an unknown consent place" ":5" "bad consent 'everyone'" "${base}collector = https://c.example/\nconsent = everyone\n"
if ! "$GCC" --sampler-release="$scratch/missing.conf" -c "$HERE/field-prog.c" -o "$scratch/bad.o" 2> "$scratch/bad.err" &&
   grep -qF "$scratch/missing.conf: error: cannot read the release configuration" "$scratch/bad.err"; then
    pass "config: a missing file"
else fail "config: a missing file" "$scratch/bad.err"; fi

conf main store-max-reports=5
if link main && readelf -p .sampler_release "$scratch/main" | grep -q "product = $PRODUCT" &&
   cp "$scratch/main" "$scratch/stripped" && strip "$scratch/stripped" &&
   readelf -p .sampler_release "$scratch/stripped" | grep -q "upload-key = $KEY"; then
    pass "config: the program carries its release, also stripped"
else fail "config: the program carries its release, also stripped" "$scratch/main.link.log"; fi

# ---------------------------------------------------------------------------
# reader: sampler-report reads the records of docs/remote.md strictly.

# reader_case NAME RECORDS EXPECTED: a report with RECORDS after its seed.
reader_case () {
    printf 'sampler-report\t1\nprogram\tp\npid\t1\nsparsity\t1\nseed\t2\n%bexit\tstatus\t0\nend\n' \
        "$2" > "$scratch/r.report"
    "$REPORT" show "$scratch/r.report" > "$scratch/r.out" 2> "$scratch/r.err"
    local status=$?
    if [ -z "$3" ]; then
        if [ $status = 0 ] && grep -qx "run id    0123456789abcdef0123456789abcdef" "$scratch/r.out" &&
           grep -qx "release   p v" "$scratch/r.out" && grep -q "^withheld  values: " "$scratch/r.out" &&
           grep -q "^dropped   4 earlier reports" "$scratch/r.out"; then pass "reader: $1"
        else fail "reader: $1" "$scratch/r.out"; fi
    elif [ $status = 2 ] && [ "$(cat "$scratch/r.err")" = "sampler-report: $scratch/r.report:$3" ]; then
        pass "reader: $1"
    else fail_with "reader: $1" "exit status $status, expected 2 and: $3" "$(cat "$scratch/r.err")"; fi
}
id=0123456789abcdef0123456789abcdef
reader_case "every record shown" "run-id\t$id\nrelease\tp\tv\nwithheld\tvalues\ndropped\t4\n" ""
reader_case "a short run id" "run-id\t${id%f}\n" "6: bad run id '${id%f}' (expected 32 lowercase hex digits)"
reader_case "an uppercase run id" "run-id\t0123456789ABCDEF0123456789abcdef\n" "6: bad run id '0123456789ABCDEF0123456789abcdef' (expected 32 lowercase hex digits)"
reader_case "two run ids" "run-id\t$id\nrun-id\t$id\n" "7: duplicate 'run-id' record"
reader_case "a release without a version" "release\tp\n" "6: 'release' record has 2 fields, expected 3"
reader_case "a release with an empty product" "release\t\t1\n" "6: 'release' record without a product or a version"
reader_case "an unknown scheme withheld" "withheld\tvaluez\n" "6: unknown scheme 'valuez' in the 'withheld' record"
reader_case "a scheme withheld twice" "withheld\tvalues,values\n" "6: repeated scheme 'values' in the 'withheld' record"
reader_case "a count of drops that is no number" "dropped\tx\n" "6: bad number 'x' for dropped reports"

# ---------------------------------------------------------------------------
# field: runs of the release.

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
    home_n=$scratch/home-nobody
    mkdir -p "$home_n" && chown nobody "$home_n" && chmod 755 "$scratch"
    cp "$scratch/main" "$scratch/setuid" && chmod 4755 "$scratch/setuid"
    setpriv --reuid=nobody --regid=nogroup --clear-groups env -i HOME="$home_n" \
        sh -c '"$0" consent "$1" yes > /dev/null && "$2" > /dev/null' "$SUBMIT" "$PRODUCT" "$scratch/setuid"
    secure=$(find "$home_n/.local" -type f 2>/dev/null | wc -l)
    setpriv --reuid=nobody --regid=nogroup --clear-groups env -i HOME="$home_n" "$scratch/main" > /dev/null
    control=$(pending_count "$home_n")
    check "field: secure mode (set-user-ID) writes nothing; the same program without the bit does" \
        test "$secure $control" = "0 1"
else
    skip "field: consent=system" "not root"
    skip "field: secure mode" "not root"
fi

# ---------------------------------------------------------------------------
# protocol: sampler-submit against collectors that answer well and badly.

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

# ---------------------------------------------------------------------------
# at-exit: the runtime starts sampler-submit.

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

# ---------------------------------------------------------------------------
# units: the systemd user units.

if command -v systemd-analyze > /dev/null; then
    if systemd-analyze verify "$build/lib/systemd/user/sampler-submit.service" \
           "$build/lib/systemd/user/sampler-submit.timer" > "$scratch/units.log" 2>&1 &&
       [ ! -s "$scratch/units.log" ] &&
       grep -qx "ExecStart=$build/bin/sampler-submit" "$build/lib/systemd/user/sampler-submit.service"; then
        pass "units: the service and the timer verify"
    else fail "units: the service and the timer verify" "$scratch/units.log"; fi
else
    skip "units" "no systemd-analyze"
fi

finish
