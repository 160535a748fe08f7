#!/bin/bash
# Shared libraries (dso-main.c, dso-plugin.c): an instrumented library
# loaded, unloaded (its counts kept), loaded again, and a second library
# from the same source: one report, the units told apart by their objects.
# CHECKS: bash $SRC
. "$SRCDIR/lib.sh"
dso_tests() {
    local dir=$scratch/dso
    mkdir -p "$dir"
    local a=$dir/libplugin-a.so b=$dir/libplugin-b.so main=$dir/dso-main
    if ! "$sgcc" -O2 -fPIC -shared -fplugin-arg-sampler-schemes=checks -I"$build/include" "$here/dso-plugin.c" \
             -o "$a" >"$dir/build" 2>&1 ||
       ! "$sgcc" -O2 -fPIC -shared -fplugin-arg-sampler-schemes=checks -I"$build/include" "$here/dso-plugin.c" \
             -o "$b" >>"$dir/build" 2>&1 ||
       ! "$sgcc" -O2 -fplugin-arg-sampler-schemes=checks -I"$build/include" "$here/dso-main.c" -o "$main" -ldl \
             >>"$dir/build" 2>&1; then
        fail_with "dso: build" "$(cat "$dir/build")"
        return
    fi
    pass "dso: build a program and two libraries from one source"
    (cd "$dir" && SAMPLER_SPARSITY=1 SAMPLER_FILE=$dir/r.report "$main" "$a" "$b" >"$dir/out")
    same "dso: runs" "$a 100|$a 10|$b 7" "$(tr '\n' '|' <"$dir/out" | sed 's/|$//')"
    # OBJECT SOURCE SITE COUNT for each site line.
    local sites
    sites=$(awk -F'\t' '$1 == "object" { object = $2; sub(".*/", "", object) }
                        $1 == "unit" { source = $5; sub(".*/", "", source); signature = $2 }
                        $1 ~ /^[0-9]+$/ { print object, source, $1, $2 }' "$dir/r.report")
    same "dso: one report; the unloaded library's counts kept; objects told apart" \
        "dso-main dso-main.c 0 5|libplugin-a.so dso-plugin.c 0 100|libplugin-a.so dso-plugin.c 0 10|libplugin-b.so dso-plugin.c 0 7" \
        "$(printf '%s\n' "$sites" | tr '\n' '|' | sed 's/|$//')"
    same "dso: the two libraries' units have one signature" 1 \
        "$(awk -F'\t' '$1 == "unit" && $5 ~ /dso-plugin/ { print $2 }' "$dir/r.report" | sort -u | wc -l)"
    same "dso: sampler-report adds the unit's occurrences up" "main_check 5 plugin_check 117" \
        "$(checks "$dir/r.report" --binary "$main" --binary "$a" | tr '\n' ' ' | sed 's/ $//')"
}

dso_tests
finish
