# lib.sh, sourced by the cases of this folder (bash): the field side of
# remote sampling (docs/remote.md) with a small program of a release
# (field-prog.c) and a stand-in collector on loopback (collector.py).
# Every collector and program here is bounded in time (timeout); the
# collectors a case started are stopped when it ends.
#   build_field_prog  field-prog.c instrumented into $scratch/field-prog.o,
#                     and plainly into $scratch/plain
#   conf NAME [KEY=VALUE]...   $scratch/NAME.conf, the test release
#   link NAME         field-prog.o linked with the release NAME.conf
#   link_main         the release most cases run: $scratch/main, its
#                     store bounded to 5 reports
#   as_user HOME COMMAND...    COMMAND as a user whose home is HOME
#   start_collector MODE [OPTIONS], stop_collector, submit HOME ARGS...
. "$TOOLS/tally.sh"
set -u
scratch=$T
HERE=$SRCDIR
build=$BUILD
GCC=$WRAPPER
SUBMIT=$build/bin/sampler-submit
RELEASE=$build/bin/sampler-release
PRODUCT=sampler-test-$$
KEY=test-upload-key-0123456789
SCHEMES=branches,returns,values,indirect-calls
SENT=branches,returns
host=$(uname -n)
collectors=()

cleanup () {
    for pid in ${collectors[@]+"${collectors[@]}"}; do kill "$pid" 2>/dev/null; done
    rm -f "/etc/sampler/consent/$PRODUCT"
    [ -z "${reachable-}" ] || rm -rf "$reachable"
}
trap cleanup EXIT

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

build_field_prog () {
    "$GCC" -O2 -I"$build/include" -fplugin-arg-sampler-schemes=$SCHEMES -c "$HERE/field-prog.c" -o "$scratch/field-prog.o" ||
        { echo "cannot build field-prog.c"; exit 2; }
    gcc -O2 "$HERE/field-prog.c" -o "$scratch/plain" ||
        { echo "cannot build field-prog.c plainly"; exit 2; }
}

link_main () { conf main store-max-reports=5; link main; }
