#!/bin/bash
# Secure mode (secure.c; as root, skipped otherwise): a set-user-ID and a
# set-group-ID root program run by nobody with SAMPLER_FILE,
# SAMPLER_REPORT_FD and SAMPLER_INTERVAL at root's places: no file created
# or changed, output and status plain's.
# CHECKS: bash $SRC
. "$SRCDIR/lib.sh"
# Secure mode: a set-user-ID (or set-group-ID) root program, run by nobody
# with every SAMPLER_* variable pointing at root's places, creates and
# changes nothing anywhere and runs as its plain build does.  Needs root
# (to install the program and to become nobody).
secure_tests() {
    local name
    if [ "$(id -u)" != 0 ]; then
        skip "secure mode" "needs root to install a set-user-ID program and run it as nobody"
        return
    fi
    if ! getent passwd nobody >/dev/null || ! getent group nogroup >/dev/null; then
        skip "secure mode" "no user nobody or group nogroup to run the program as"
        return
    fi
    # Outside $scratch (root's, 0700): nobody must reach the program.
    local installed secret
    installed=$(mktemp -d "${TMPDIR:-/tmp}/sampler-secure.XXXXXX") || { fail "secure: mktemp"; return; }
    secret=$(mktemp -d "${TMPDIR:-/tmp}/sampler-secret.XXXXXX") || { fail "secure: mktemp"; return; }
    # shellcheck disable=SC2064
    trap "rm -rf '$installed' '$secret'" EXIT
    if findmnt -no OPTIONS -T "$installed" | tr , '\n' | grep -qx nosuid; then
        skip "secure mode" "$installed is on a nosuid mount: set-user-ID bits do not work there"
        return
    fi
    chmod 755 "$installed"
    build secure "$installed/secure" || return
    chmod 755 "$installed/secure" "$installed/secure.plain"
    echo "root's report" >"$secret/existing"
    : >"$secret/descriptor"
    chmod 600 "$secret/existing" "$secret/descriptor"

    # The control: the same binary without the set-user-ID bit, run by
    # nobody, honours the variables (this is what the test would miss).
    local open=$installed/open
    mkdir "$open" && chmod 777 "$open"
    (cd "$installed" && env -i PATH="$PATH" SAMPLER_SPARSITY=1 SAMPLER_FILE="$open/r-%p" \
        setpriv --reuid=nobody --regid=nogroup --clear-groups ./secure 0 >/dev/null 2>&1)
    same "secure: control: not set-user-ID, nobody's variables are honoured (parent and _exit child)" \
        "2" "$(find "$open" -name 'r-*' -user nobody | wc -l)"

    # Everything under the directories a report could go to, with checksums.
    snapshot() {
        find "$secret" "$installed" -printf '%p %y %s %m %u %g %T@\n' | sort
        find "$secret" "$installed" -type f -exec sha256sum {} + | sort
    }
    local mode variables setting
    for mode in 4755:setuid 2755:setgid; do
        chmod "${mode%%:*}" "$installed/secure" "$installed/secure.plain"
        for setting in "file:SAMPLER_FILE=$secret/new/sub/r-%p SAMPLER_INTERVAL=1" \
                       "existing:SAMPLER_FILE=$secret/existing SAMPLER_INTERVAL=1" \
                       "descriptor:SAMPLER_REPORT_FD=9 SAMPLER_INTERVAL=1" \
                       "default:SAMPLER_INTERVAL=1" \
                       "bad values:SAMPLER_SEED=x SAMPLER_FILE=%q SAMPLER_REPORT_FD=-1"; do
            name="secure ${mode#*:} ${setting%%:*}"
            read -r -a variables <<<"${setting#*:}"
            local before after plain instrumented
            before=$(snapshot)
            for build_name in secure.plain secure; do
                (cd "$installed" && env -i PATH="$PATH" SAMPLER_SPARSITY=1 SAMPLER_SEED=1 \
                    "${variables[@]}" setpriv --reuid=nobody --regid=nogroup --clear-groups \
                    "./$build_name" 12 >"$scratch/$build_name.out" 2>&1 \
                    9>>"$secret/descriptor"; echo "status $?" >>"$scratch/$build_name.out")
            done
            after=$(snapshot)
            plain=$(cat "$scratch/secure.plain.out") instrumented=$(cat "$scratch/secure.out")
            case $plain in
                "ruid 65534 euid "*" child 4"*"status 3") ;;
                *) fail_with "$name: the plain build runs as nobody" "$plain"; continue ;;
            esac
            # The set-user-ID or set-group-ID bit took effect.
            case ${mode#*:}:$plain in
                setuid:*"euid 0 "*|setgid:*"egid 0 "*) ;;
                *) fail_with "$name: the program is privileged" "$plain"; continue ;;
            esac
            same "$name: output and status are plain's" "$plain" "$instrumented"
            same "$name: nothing created or changed" "$before" "$after"
        done
    done
}

secure_tests
finish
