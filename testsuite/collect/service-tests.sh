# service-tests.sh: the service on one store, sourced by
# run-collect-tests.sh, which sets what the functions below use.
#   service_tests ENGINE    everything run-collect-tests.sh says, on ENGINE

# fresh_report SOURCE DEST [SED-EXPRESSION]: SOURCE under a new run id
# (and edited by the expression).
fresh_report () {
    local id
    id=$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')
    sed -e "s/^run-id\t.*/run-id\t$id/" ${3:+-e "$3"} "$1" > "$2"
}

# refused NAME EXPECTED CLIENT-ARGUMENTS...: a bad upload gets EXPECTED
# (a status, or "closed"), as the first word of client.py's answer.
refused () {
    local name=$1 expected=$2
    shift 2
    answer=$($CLIENT upload "$port" "$@" 2>&1)
    if [ "${answer%% *}" = "$expected" ]; then
        pass "$engine: bad input: $name: $answer"
    else
        fail_with "$engine: bad input: $name: expected $expected" "$answer"
    fi
}

# The stored runs' rows as the files' export has them: observations by
# run id, site, word and truths; runs by run id and label.
rows_of_store () {
    query "$engine" "$url" "SELECT r.run_id || ',' || o.site || ',' || o.word || ',' || o.truths FROM observations o JOIN runs r ON r.release = o.release AND r.run = o.run ORDER BY 1"
    query "$engine" "$url" "SELECT run_id || ',' || failed || ',' || exit_kind || ',' || exit_code FROM runs ORDER BY 1"
    query "$engine" "$url" "SELECT r.run_id || ',' || h.site || ',' || h.hot_value || ',' || h.count FROM hot_values h JOIN runs r ON r.release = h.release AND r.run = h.run ORDER BY 1"
    query "$engine" "$url" "SELECT r.run_id || ',' || p.site || ',' || p.path || ',' || p.count FROM path_counts p JOIN runs r ON r.release = p.release AND r.run = p.run ORDER BY 1"
}

rows_of_export () {
    python3 - "$scratch/export" <<'EOF'
import csv, os, sys
d = sys.argv[1]
def rows(name):
    return list(csv.DictReader(open(os.path.join(d, name + ".csv"))))
ids = {r["run"]: r["run_id"] for r in rows("runs")}
for table, keys in (("observations", ("site", "word", "truths")),):
    for line in sorted(",".join([ids[r["run"]]] + [r[k] for k in keys]) for r in rows(table)):
        print(line)
for line in sorted("%s,%s,%s,%s" % (r["run_id"], r["failed"], r["exit_kind"], r["exit_code"])
                   for r in rows("runs")):
    print(line)
for table, keys in (("hot_values", ("site", "hot_value", "count")),
                    ("path_counts", ("site", "path", "count"))):
    for line in sorted(",".join([ids[r["run"]]] + [r[k] for k in keys]) for r in rows(table)):
        print(line)
EOF
}

service_tests () {
    engine=$1
    url=$(new_store "$engine" collect_service)
    : >"$scratch/service.log"

    # --- Registering ------------------------------------------------------------
    "$COLLECT" register-release --store "$url" --binary "$program" --fail-if status=3 \
        >"$scratch/register.out" 2>&1
    check "$engine: register-release reads the tables and key from the binary" \
        grep -q "registered release 1, collect-test/1.0: 1 units" "$scratch/register.out"
    "$COLLECT" register-release --store "$url" --binary "$program" --fail-if status=3 \
        >"$scratch/register.out" 2>&1
    check "$engine: registering it again changes nothing" \
        grep -q "registered already with these tables" "$scratch/register.out"
    if "$COLLECT" register-release --store "$url" --binary "$scratch/bin/other" \
           >"$scratch/register.out" 2>&1; then
        fail "$engine: another build of the same release is refused" "$scratch/register.out"
    else
        check "$engine: another build of the same release is refused" \
            grep -q "registered with other site tables" "$scratch/register.out"
    fi
    start_service "$url" --address-quota 0 || {
        fail "$engine: the service starts" "$scratch/service.log"
        return
    }

    # --- Uploads by sampler-submit ----------------------------------------------
    rm -rf "$store_dir/pending"
    cp -a "$scratch/pending" "$store_dir/pending"
    HOME=$scratch/home "$SUBMIT" --force --collector "http://127.0.0.1:$port/" \
        >"$scratch/submit.out" 2>&1
    sent=$?
    left=$(ls "$store_dir/pending" | wc -l)
    if [ $sent = 0 ] && [ "$left" = 0 ] && [ "$(status_of stored)" = 14 ]; then
        pass "$engine: sampler-submit sends the user's 14 reports; each is stored"
    else
        fail "$engine: sampler-submit sends the user's 14 reports; each is stored" "$scratch/submit.out"
    fi
    answer=$($CLIENT upload "$port" "$KEY" "$scratch/files/$one")
    check "$engine: a report sent again is a duplicate ($answer)" \
        test "$answer" = "200 duplicate $one_id"
    if wait_folded 14; then
        pass "$engine: the folder analyses and folds the 14 runs"
    else
        fail "$engine: the folder analyses and folds the 14 runs" "$scratch/service.log"
    fi
    counted=$(query "$engine" "$url" "SELECT count(*) || ' ' || sum(failed) || ' ' || count(DISTINCT run_id) FROM runs")
    check "$engine: the runs are stored once each, labelled by the release's rule ($counted)" \
        test "$counted" = "14 3 14"
    "$REPORT" export $files -o "$scratch/export" >/dev/null 2>&1
    rows_of_store >"$scratch/rows-store.txt"
    rows_of_export >"$scratch/rows-export.txt"
    check "$engine: the stored runs' rows are those export makes of the same files" \
        diff "$scratch/rows-export.txt" "$scratch/rows-store.txt"

    # --- Reading the store ------------------------------------------------------
    stored="--store $url --release collect-test/1.0"
    "$REPORT" rank $stored >"$scratch/rank-store.txt" 2>&1
    check "$engine: rank --store gives rank's output on the files" \
        diff "$scratch/rank-files.txt" "$scratch/rank-store.txt"
    for list in values paths subpaths; do
        "$REPORT" "$list" $stored --format=jsonl >"$scratch/$list-store.jsonl" 2>&1
        check "$engine: $list --store gives $list's output on the files" \
            diff "$scratch/$list-files.jsonl" "$scratch/$list-store.jsonl"
    done

    # --- Pages --------------------------------------------------------------------
    curl -s "http://127.0.0.1:$port/" >"$scratch/index.html"
    check "$engine: the index lists the release" \
        grep -q '<a href="/releases/1/">collect-test/1.0</a>' "$scratch/index.html"
    curl -s "http://127.0.0.1:$port/releases/1/" >"$scratch/release.html"
    check "$engine: the release's page counts its runs and failures" \
        grep -q '<span class=runs>14 runs</span> analysed, <span class=failing>3 failing</span>: a failure rate of <span class=rate>21.4%</span>' "$scratch/release.html"
    check "$engine: names with HTML's metacharacters are escaped on the page" sh -c "
        grep -q \"weigh'&lt;b&gt;&amp;&quot;x&quot;.c\" '$scratch/release.html' &&
        ! grep -q \"weigh'<b>\" '$scratch/release.html'"
    check "$engine: the page lists hot values and paths" sh -c "
        grep -A3 '<table class=values>' '$scratch/release.html' | grep -q '<td class=n>1<td>' &&
        grep -A3 '<table class=paths>' '$scratch/release.html' | grep -q '<td class=n>1<td>'"
    curl -s "http://127.0.0.1:$port/releases/1/ranking.html" >"$scratch/ranking.html"
    "$REPORT" rank $stored --format=html >"$scratch/rank-store.html" 2>&1
    check "$engine: the ranking page is rank --format=html's page of the same runs" \
        diff "$scratch/rank-store.html" "$scratch/ranking.html"

    # --- Bad input --------------------------------------------------------------------
    stored_before=$(status_of stored)
    fresh_report "$scratch/files/$one" "$scratch/good.report"
    fresh_report "$scratch/files/$one" "$scratch/other-release.report" \
        's/^release\tcollect-test\t1.0$/release\tcollect-test\t2.0/'
    fresh_report "$scratch/files/$one" "$scratch/unfit.report" \
        's/^\(unit\t[0-9a-f]*\t\)\([0-9]*\)/\1999/'
    HOME=$scratch/home2 SAMPLER_FILE="$scratch/another-build.report" "$scratch/bin/other" 1 >/dev/null
    head -c 120 "$scratch/good.report" >"$scratch/cut.report"
    gzip -c "$scratch/good.report" | head -c 150 >"$scratch/truncated.gz"
    { gzip -c "$scratch/good.report"; echo trailing; } >"$scratch/trailing.gz"
    head -c $((70 << 20)) /dev/zero | gzip -c >"$scratch/bomb.gz"
    refused "a path that is not the protocol's" 404 "$KEY" "$scratch/good.report" --path /v2/reports
    refused "GET of the endpoint" 405 "$KEY" "$scratch/good.report" --method GET
    refused "no key" 401 "$KEY" "$scratch/good.report" --no-key
    refused "an unknown key" 401 wrong-key-0123456789abcdef "$scratch/good.report"
    refused "another content type" 415 "$KEY" "$scratch/good.report" --type text/plain
    refused "not gzip'ed" 415 "$KEY" "$scratch/good.report" --encoding identity --raw
    refused "a run id header that is none" 400 "$KEY" "$scratch/good.report" --header-id xyz
    refused "another run id in the header" 400 "$KEY" "$scratch/good.report" \
        --header-id 0123456789abcdef0123456789abcdef
    refused "a body said to be too long" 413 "$KEY" "$scratch/good.report" --length 17000000
    refused "a truncated gzip stream" 400 "$KEY" "$scratch/truncated.gz" --raw \
        --header-id "$(sed -n 's/^run-id\t//p' "$scratch/good.report")"
    refused "gzip followed by more" 400 "$KEY" "$scratch/trailing.gz" --raw \
        --header-id "$(sed -n 's/^run-id\t//p' "$scratch/good.report")"
    refused "the body not gzip" 400 "$KEY" "$scratch/good.report" --raw
    refused "a decompression bomb (70 MiB of zeros in $(($(wc -c <"$scratch/bomb.gz") / 1024)) KiB)" \
        413 "$KEY" "$scratch/bomb.gz" --raw --header-id 00112233445566778899aabbccddeeff
    refused "a truncated report" 400 "$KEY" "$scratch/cut.report"
    refused "a report of another release" 422 "$KEY" "$scratch/other-release.report"
    refused "a report of another build (its unit's signature)" 422 "$KEY" \
        "$scratch/another-build.report" --header-id "$(sed -n 's/^run-id\t//p' "$scratch/another-build.report")"
    refused "a unit that does not fit the site table" 422 "$KEY" "$scratch/unfit.report"
    check "$engine: nothing of the bad uploads is stored" \
        test "$(status_of stored):$(query "$engine" "$url" "SELECT count(*) FROM reports")" = "$stored_before:14"
    # Names with metacharacters and bytes that are not UTF-8: data, stored as it came.
    fresh_report "$scratch/files/$one" "$scratch/names.report" \
        "s/^program\t.*/program\tx'; DROP TABLE runs; -- <script>\xe9/"
    answer=$($CLIENT upload "$port" "$KEY" "$scratch/names.report")
    wait_folded 15
    named=$(query "$engine" "$url" "SELECT program FROM runs WHERE program LIKE 'x''; DROP TABLE runs%'")
    check "$engine: a program named with SQL, HTML and a byte not UTF-8 is stored as data ($named)" \
        test "${answer%% *}:$named" = "201:x'; DROP TABLE runs; -- <script>\\xe9"
    # Slow clients: headers a byte a second hold their connection (MHD
    # waits while bytes come: the address's connection limit and a
    # reverse proxy bound them); a body a byte a second is cut at the
    # request's time limit.  Others are served meanwhile.
    $CLIENT slow "$port" 8 >"$scratch/slow-headers.out" 2>&1 &
    slow_headers=$!
    fresh_report "$scratch/files/$one" "$scratch/slow.report"
    $CLIENT slow "$port" 20 --body "$KEY" "$scratch/slow.report" >"$scratch/slow-body.out" 2>&1 &
    slow_body=$!
    sleep 1
    answer=$($CLIENT upload "$port" "$KEY" "$scratch/good.report")
    wait "$slow_headers" "$slow_body"
    slow_outcome="$(cat "$scratch/slow-headers.out"); $(cat "$scratch/slow-body.out")"
    if [ "${answer%% *}" = 201 ] && [[ $slow_outcome == "open after 8 s; closed after "[3-6]" s" ]]; then
        pass "$engine: slow clients: headers held, a body cut at the request's limit (3 s), others served ($slow_outcome)"
    else
        fail_with "$engine: slow clients: headers held, a body cut at the request's limit (3 s), others served" "$answer" "$slow_outcome"
    fi
    $CLIENT many "$port" 2000 4 >"$scratch/many.out" 2>&1 &
    many_pid=$!
    for _ in $(seq 50); do grep -q holding "$scratch/many.out" 2>/dev/null && break; sleep 0.1; done
    fresh_report "$scratch/files/$one" "$scratch/meanwhile.report"
    answer=$($CLIENT upload "$port" "$KEY" "$scratch/meanwhile.report" --source 127.0.0.2)
    wait "$many_pid"
    check "$engine: 2000 connections from one address, another client served ($(tr '\n' ' ' <"$scratch/many.out"))" \
        test "${answer%% *}" = 201

    # --- Keys and quotas ------------------------------------------------------------
    "$COLLECT" register-release --store "$url" --binary "$program" --fail-if status=3 \
        --key quota-key-0123456789abc --hourly-quota 2 >/dev/null 2>&1
    for i in 1 2 3; do
        fresh_report "$scratch/files/$one" "$scratch/quota-$i.report"
        answers[$i]=$($CLIENT upload "$port" quota-key-0123456789abc "$scratch/quota-$i.report")
    done
    if [ "${answers[1]%% *} ${answers[2]%% *} ${answers[3]%% *}" = "201 201 429" ] &&
       [[ ${answers[3]} == *"Retry-After: 1"[0-9][0-9][0-9]"]" ]]; then
        pass "$engine: a key's quota of 2 an hour: the third is 429 with Retry-After (${answers[3]})"
    else
        fail_with "$engine: a key's quota of 2 an hour: the third is 429 with Retry-After" "${answers[@]}"
    fi
    "$COLLECT" revoke-key --store "$url" quota-key-0123456789abc >/dev/null
    "$COLLECT" retire-release --store "$url" collect-test/1.0 >/dev/null
    kill -HUP "$service_pid"
    sleep 1
    refused "a revoked key" 403 quota-key-0123456789abc "$scratch/quota-3.report"
    refused "a retired release" 410 "$KEY" "$scratch/quota-3.report"

    # --- Stopping and starting ------------------------------------------------------------
    stop_service
    start_service "$url" --address-quota 0
    curl -s "http://127.0.0.1:$port/releases/1/" >"$scratch/release.html"
    check "$engine: stopped and started again, the service has every run" \
        grep -q '<span class=runs>19 runs</span>' "$scratch/release.html"
    stop_service
}
