#!/bin/bash
# sampler-release and sampler-gcc --sampler-release: a good file is
# carried by the program (also once stripped); every kind of bad file
# stops a compile and a link, naming the file and line.
# CHECKS: bash $SRC
. "$SRCDIR/lib.sh"
build_field_prog

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
finish
