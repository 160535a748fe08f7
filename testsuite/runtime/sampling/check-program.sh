#!/bin/bash
# check-program.sh [PLUGIN-ARGS...]: the compile-and-run tests of a program
# of this folder (the case $SRC), "checks" scheme (and PLUGIN-ARGS); each
# program runs it from its CHECKS directive.
#
# What a test program is (see harness.h): a deterministic C program that
# prints its real results on stdout, and counts, at every call of a sampled
# function, the visit (VISIT, outside the call) and, inside the sampled
# function, the sample (h_sample).  The OUTPUT CONVENTION: stdout and the
# exit status are the program's behaviour and are compared with the plain
# build's byte for byte; the site counts go to the file named by
# SAMPLER_TEST_OUT ("site NAME visits V samples S fails F bad B", plus
# "gaps" and "pair" lines when SAMPLER_TEST_RECORD=1), which the runner sets
# for every run; stderr is kept ($T/cN/*.err) but not compared.
#
# For each configuration:
#   build plain           gcc -Wall -Wextra OPTS: succeeds with no warning
#   build instrumented    sampler-gcc ... -fplugin-arg-sampler-schemes=checks
#   no new warnings       every "warning:" of the instrumented build is also
#                         in the plain build's (notes are allowed)
#   plain run             runs; per site samples == visits >= MIN_VISITS
#   sp=unset, sp=0        output as plain; per site visits as plain, 0 samples
#   sp=1                  output as plain; per site samples == visits
#   sp=100 seed=S         output as plain; visits as plain, samples <= visits
#   (all runs)            no failed check (fails 0), no sample without a
#                         visit (bad 0)
#   sp=100 repeatable     the same seed again gives the same samples
#   sp=100 seeds differ   two seeds give different samples
#   sp=100 same samples   each seed gives the same samples with -g as
#                         without (debugging information must not change
#                         the code; across -O levels the checks and their
#                         weights differ, so the same seed samples other
#                         visits, as fairly)
#   sp=100 binom(SITE)    samples of all seeds together within the two-sided
#                         STAT_CONF bounds of Binomial(visits, 1/SPARSITY)
#   sp=100 gaps(SITE)     the gaps between samples (all seeds) pass the
#                         chi-square test against the geometric law
#   sp=100 joint(A,B)     for sites visited in lockstep, the iterations where
#                         both were sampled within the bounds of
#                         Binomial(iterations, 1/SPARSITY^2)
# Every assertion prints one line, "PASS: PROGRAM [OPTS] ASSERTION -- detail"
# or "FAIL: ..." followed by "    | " detail lines.
#
# Statistical levels.  STAT_CONF and STAT_ALPHA hold for all of one
# program's statistical assertions together (in one configuration): with M
# of them (two per site, one per pair), each binom and joint line uses
# bounds at confidence 1-(1-STAT_CONF)/M and each gaps line fails below
# STAT_ALPHA/M (Bonferroni; STAT_BONFERRONI=0 applies STAT_CONF and
# STAT_ALPHA to each line instead).  So a correct sampler fails a program's
# statistics with probability at most 0.1%, about 2% for the whole suite.
# The seeds are fixed, so the data are deterministic and such a fluke would
# repeat: rerun with other SEEDS before believing a lone marginal failure.
# A real bug usually fails by far, in many places.
#
# Environment (all optional):
#   TEST_OPTS     optimisation configurations, separated by ';'
#                 (default "-O0;-O2;-O3;-O2 -g;-O0 -g")
#   SEEDS         SAMPLER_SEED values for the sparse runs (default "11 23 37")
#   SPARSITY      the sparse SAMPLER_SPARSITY (default 100)
#   STAT_CONF     confidence of the binomial bounds (default 0.999)
#   STAT_ALPHA    p-value below which the gaps chi-square fails (default 0.001)
#   STAT_BONFERRONI  1 (default): the two above are per program, see above
#   TEST_TIMEOUT  seconds per run (default 10)
#   MIN_VISITS    least visits per site in a test program (default 20000)
#   EXTRA_CFLAGS  added to every compile, plain and instrumented
#   SAMPLER_GCC   the compiler (as for sampler-gcc; default gcc)
#
# Testing the suite itself: with a stand-in compiler whose sampled calls
# toss a fair coin, everything passes:
#   testsuite/tools/run-cases --build testsuite/tools/mock testsuite/runtime/sampling
# (STAT_CHECK=build/testsuite/stat-check); with SAMPLER_TEST_MOCK=2 they
# follow a periodic counter, and the statistical assertions must fail (the
# periodic trap of Liblit et al., PLDI 2003).
set -u
export LC_ALL=C
here=$SRCDIR
name=$NAME
sgcc=$WRAPPER
statcheck=$STAT_CHECK
out=$T
plain_cc=${SAMPLER_GCC:-gcc}
# Compile flags: warnings, the harness, and EXTRA_CFLAGS split into words.
read -r -a extra_cflags <<<"${EXTRA_CFLAGS:-}"
cflags=(-Wall -Wextra "-I$here" "${extra_cflags[@]}")
plugin_args="-fplugin-arg-sampler-schemes=checks $*"
sparsity=${SPARSITY:-100}
seeds=${SEEDS:-"11 23 37"}
conf=${STAT_CONF:-0.999}
alpha=${STAT_ALPHA:-0.001}
bonferroni=${STAT_BONFERRONI:-1}
tmo=${TEST_TIMEOUT:-10}
min_visits=${MIN_VISITS:-20000}
IFS=';' read -r -a configs <<<"${TEST_OPTS:--O0;-O2;-O3;-O2 -g;-O0 -g}"
read -r -a seed_list <<<"$seeds"
[ ${#seed_list[@]} -ge 1 ] || { echo "$0: SEEDS is empty" >&2; exit 2; }
[ ${#configs[@]} -ge 1 ] || { echo "$0: TEST_OPTS is empty" >&2; exit 2; }

# The runs set these themselves.
unset SAMPLER_TEST_OUT SAMPLER_TEST_RECORD

# ---------------------------------------------------------------------------
# Result lines.  $prefix names the program and configuration.

prefix=""

pass() {   # pass WHAT [DETAIL]
    if [ $# -ge 2 ] && [ -n "$2" ]; then
        echo "PASS: $prefix$1 -- $2"
    else
        echo "PASS: $prefix$1"
    fi
}

fail() {   # fail WHAT DETAIL...  (each DETAIL may span lines)
    local what=$1 first=1 d
    shift
    for d in "$@"; do
        if [ $first = 1 ]; then
            echo "FAIL: $prefix$what -- ${d%%$'\n'*}"
            case $d in *$'\n'*) printf '%s\n' "${d#*$'\n'}" | sed 's/^/    | /' ;; esac
            first=0
        else
            printf '%s\n' "$d" | sed 's/^/    | /'
        fi
    done
    [ $first = 1 ] && echo "FAIL: $prefix$what"
    return 0
}

# The last lines of a file, for failure details.
tail_of() {   # tail_of FILE LINES
    if [ -s "$1" ]; then
        tail -n "$2" "$1"
    else
        echo "(${1##*/} is empty)"
    fi
}

# The errors of a failed compile, then its last lines (an ICE's backtrace).
build_errors() {   # build_errors FILE
    grep -m 5 -E 'error|internal compiler' "$1"
    echo "..."
    tail_of "$1" 8
}

# ---------------------------------------------------------------------------
# Site counts.

# awk program: compare the site lines of a run (second file) with the plain
# run's (first file).  mode: plain (the plain run itself: samples == visits
# >= min), none (0 samples), all (samples == visits), some (samples <=
# visits).  Prints "ok: ..." or one line per problem.
# shellcheck disable=SC2016
compare_awk='
FNR == NR { if ($1 == "site") { ref[$2] = $4; order[++n] = $2 } next }
$1 == "site" {
    name = $2; v = $4 + 0; s = $6 + 0; f = $8 + 0; b = $10 + 0
    if (name in seen) { print "site " name ": reported twice"; bad++; next }
    seen[name] = 1; nsites++; visits += v; samples += s
    if (!(name in ref)) { print "site " name ": not in the plain run"; bad++; next }
    msg = ""
    if (mode != "plain" && v != ref[name])
        msg = msg sprintf("; %d visits, plain run %d", v, ref[name])
    if (mode == "plain" && v < min)
        msg = msg sprintf("; only %d visits (test needs >= %d)", v, min)
    if ((mode == "plain" || mode == "all") && s != v)
        msg = msg sprintf("; %d samples of %d visits, expected all", s, v)
    if (mode == "none" && s != 0)
        msg = msg sprintf("; %d samples of %d visits, expected none", s, v)
    if (mode == "some" && s > v)
        msg = msg sprintf("; %d samples of %d visits: more than visits", s, v)
    if (f != 0)
        msg = msg sprintf("; %d sampled calls got a false argument", f)
    if (b != 0)
        msg = msg sprintf("; %d samples without a visit since the previous one", b)
    if (msg != "") { print "site " name substr(msg, 2); bad++ }
}
END {
    for (i = 1; i <= n; i++)
        if (!(order[i] in seen)) { print "site " order[i] ": missing"; bad++ }
    if (n == 0) { print "no site lines"; bad++ }
    if (!bad) printf "ok: %d sites, %d visits, %d samples\n", nsites, visits, samples
}'

# awk program: how the samples of two runs (two site files) differ, per site.
# shellcheck disable=SC2016
samples_diff_awk='
FNR == NR { if ($1 == "site") { s[$2] = $6; order[++n] = $2 } else if ($1 == "gaps") g[$2] = $0
            next }
$1 == "site" { t[$2] = $6 }
$1 == "gaps" { h[$2] = $0 }
END {
    for (i = 1; i <= n; i++) {
        k = order[i]
        if (!(k in t)) out = out sprintf(", %s missing", k)
        else if (s[k] != t[k]) out = out sprintf(", %s %d samples (was %d)", k, t[k], s[k])
        else if (g[k] != h[k]) out = out sprintf(", %s other visits", k)
    }
    print (out == "" ? "site files differ" : substr(out, 3))
}'

# check_sites WHAT MODE SITES_FILE
check_sites() {
    local what=$1 mode=$2 file=$3 res
    if [ ! -s "$file" ]; then
        fail "$what" "no site counts written to SAMPLER_TEST_OUT (did the atexit printer run?)"
        return
    fi
    res=$(awk -v mode="$mode" -v min="$min_visits" "$compare_awk" "$cfgdir/plain.sites" "$file")
    case $res in
        ok:*) pass "$what" "${res#ok: }" ;;
        *) fail "$what" "$res" ;;
    esac
}

# ---------------------------------------------------------------------------
# Runs.

# run_bin BIN BASE [VAR=VALUE...]: runs BIN in the configuration directory
# (where a runtime report would land) with the given environment; leaves
# BASE.out (stdout), BASE.err, BASE.sites and BASE.rc.
run_bin() {
    local bin=$1 base=$2
    shift 2
    rm -f "$base.sites"
    (cd "$cfgdir" && env "$@" SAMPLER_TEST_OUT="$base.sites" \
        timeout -k 5 "$tmo" "$bin" >"$base.out" 2>"$base.err" </dev/null)
    echo $? >"$base.rc"
}

# check_output WHAT BASE: stdout and exit status as the plain run's.
check_output() {
    local what=$1 base=$2 rc prc
    rc=$(cat "$base.rc")
    prc=$(cat "$cfgdir/plain.rc")
    if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
        fail "$what" "timed out after ${tmo}s (exit $rc)" "stderr:" "$(tail_of "$base.err" 5)"
    elif [ "$rc" != "$prc" ]; then
        fail "$what" "exit status $rc, plain build $prc" "stderr:" "$(tail_of "$base.err" 5)"
    elif ! cmp -s "$base.out" "$cfgdir/plain.out"; then
        fail "$what" "stdout differs from the plain build's" \
            "$(diff "$cfgdir/plain.out" "$base.out" | head -n 10)"
    else
        pass "$what" "exit $rc, stdout as plain"
    fi
}

# ---------------------------------------------------------------------------
# Statistics over the sparse runs of all seeds.

check_statistics() {
    local files=() seed site v s res rc p p2 a b va vb both sites pairs m conf1 alpha1
    for seed in "${seed_list[@]}"; do
        [ -s "$cfgdir/sp-$seed.sites" ] && files+=("$cfgdir/sp-$seed.sites")
    done
    if [ ${#files[@]} -ne ${#seed_list[@]} ]; then
        fail "sp=$sparsity statistics" "site counts missing for some seeds"
        return
    fi
    # Per site: name, visits and samples of all seeds together.
    sites=$(awk '$1 == "site" {
                     if (!($2 in v)) order[++n] = $2
                     v[$2] += $4; s[$2] += $6 }
                 END { for (i = 1; i <= n; i++) print order[i], v[order[i]], s[order[i]] }' \
                "${files[@]}")
    # Per pair: names, visits of each, iterations where both were sampled.
    pairs=$(awk '$1 == "pair" {
                     k = $2 " " $3
                     if (!(k in va)) order[++n] = k
                     va[k] += $5; vb[k] += $6; both[k] += $8 }
                 END { for (i = 1; i <= n; i++)
                           print order[i], va[order[i]], vb[order[i]], both[order[i]] }' \
                "${files[@]}")
    # The level of each assertion: STAT_CONF and STAT_ALPHA are for all of
    # the program's statistical assertions together (Bonferroni).
    m=$(( $(printf '%s\n' "$sites" | grep -c .) * 2 + $(printf '%s\n' "$pairs" | grep -c .) ))
    [ "$bonferroni" = 1 ] && [ $m -gt 0 ] || m=1
    conf1=$(awk -v c="$conf" -v m=$m 'BEGIN { printf "%.12g", 1 - (1 - c) / m }')
    alpha1=$(awk -v a="$alpha" -v m=$m 'BEGIN { printf "%.12g", a / m }')

    p="1/$sparsity"
    while read -r site v s; do
        res=$("$statcheck" binom "$v" "$s" "$p" "$conf1" 2>&1)
        rc=$?
        if [ $rc = 0 ]; then
            pass "sp=$sparsity binom($site)" "${res#binom: }"
        else
            fail "sp=$sparsity binom($site)" "${res#binom: }"
        fi
        awk -v n="$site" '$1 == "gaps" && $2 == n { for (i = 3; i <= NF; i++) print $i }' \
            "${files[@]}" >"$cfgdir/gaps-$site"
        res=$("$statcheck" gaps "$p" "$alpha1" <"$cfgdir/gaps-$site" 2>&1)
        rc=$?
        res=${res#gaps: }
        if [ $rc = 0 ]; then
            pass "sp=$sparsity gaps($site)" "$res"
        else
            fail "sp=$sparsity gaps($site)" "$res"
        fi
    done <<<"$sites"

    p2=$(awk -v n="$sparsity" 'BEGIN { printf "%.17g", 1 / (n * n) }')
    [ -n "$pairs" ] || return 0
    while read -r a b va vb both; do
        if [ "$va" != "$vb" ]; then
            fail "sp=$sparsity joint($a,$b)" "not visited in lockstep: $va and $vb visits"
            continue
        fi
        res=$("$statcheck" binom "$va" "$both" "$p2" "$conf1" 2>&1)
        rc=$?
        res="both sampled in $both of $va iterations, expected ${res#*: expected }"
        if [ $rc = 0 ]; then
            pass "sp=$sparsity joint($a,$b)" "$res"
        else
            fail "sp=$sparsity joint($a,$b)" "$res"
        fi
    done <<<"$pairs"
}

# ---------------------------------------------------------------------------
# One program in one configuration.

test_config() {   # test_config NAME INDEX OPTS
    local name=$1 index=$2 opts=$3 src=$here/$1.c base seed sp first res
    local w_plain w_new args=$plugin_args
    cfgdir=$out/$name/c$index
    mkdir -p "$cfgdir"
    prefix="$name [$opts] "

    # Builds.  $opts is split into words on purpose.
    # shellcheck disable=SC2086
    if "$plain_cc" "${cflags[@]}" $opts "$src" -o "$cfgdir/plain" >"$cfgdir/plain.build" 2>&1; then
        if grep -q 'warning:' "$cfgdir/plain.build"; then
            fail "build plain" "warnings (the test program must build cleanly):" \
                "$(grep 'warning:' "$cfgdir/plain.build" | head -n 5)"
        else
            pass "build plain"
        fi
    else
        fail "build plain" "compile failed:" "$(build_errors "$cfgdir/plain.build")"
        return
    fi
    # shellcheck disable=SC2086
    if "$sgcc" "${cflags[@]}" $opts $args "$src" -o "$cfgdir/instr" >"$cfgdir/instr.build" 2>&1; then
        pass "build instrumented"
    else
        fail "build instrumented" "compile failed:" "$(build_errors "$cfgdir/instr.build")"
        return
    fi
    w_plain=$(grep 'warning:' "$cfgdir/plain.build" | sort -u)
    w_new=$(grep 'warning:' "$cfgdir/instr.build" | sort -u | comm -23 - <(printf '%s\n' "$w_plain"))
    if [ -z "$w_new" ]; then
        pass "no new warnings"
    else
        fail "no new warnings" "the instrumented build warns where the plain one does not:" \
            "$(printf '%s\n' "$w_new" | head -n 10)"
    fi

    # The plain run is the reference.
    run_bin "$cfgdir/plain" "$cfgdir/plain"
    case $(cat "$cfgdir/plain.rc") in
        124 | 137)
            fail "plain run" "timed out after ${tmo}s"
            return ;;
    esac
    if [ ! -s "$cfgdir/plain.sites" ]; then
        fail "plain run" "exit $(cat "$cfgdir/plain.rc"), no site counts written" \
            "stderr:" "$(tail_of "$cfgdir/plain.err" 5)"
        return
    fi
    check_sites "plain run" plain "$cfgdir/plain.sites"

    # Sampling off, and every visit sampled.
    for sp in unset 0 1; do
        base=$cfgdir/sp-$sp
        if [ $sp = unset ]; then
            run_bin "$cfgdir/instr" "$base" SAMPLER_SEED="${seed_list[0]}"
        else
            run_bin "$cfgdir/instr" "$base" SAMPLER_SPARSITY=$sp SAMPLER_SEED="${seed_list[0]}"
        fi
        check_output "sp=$sp output" "$base"
        if [ $sp = 1 ]; then
            check_sites "sp=$sp sites" all "$base.sites"
        else
            check_sites "sp=$sp sites" none "$base.sites"
        fi
    done

    # Sparse runs, recording the samples.
    for seed in "${seed_list[@]}"; do
        base=$cfgdir/sp-$seed
        run_bin "$cfgdir/instr" "$base" SAMPLER_SPARSITY="$sparsity" \
            SAMPLER_SEED="$seed" SAMPLER_TEST_RECORD=1
        check_output "sp=$sparsity seed=$seed output" "$base"
        check_sites "sp=$sparsity seed=$seed sites" some "$base.sites"
    done

    # Determinism.
    first=${seed_list[0]}
    run_bin "$cfgdir/instr" "$cfgdir/again" SAMPLER_SPARSITY="$sparsity" \
        SAMPLER_SEED="$first" SAMPLER_TEST_RECORD=1
    if [ -s "$cfgdir/again.sites" ] && cmp -s "$cfgdir/again.sites" "$cfgdir/sp-$first.sites"; then
        pass "sp=$sparsity repeatable" "seed $first twice: same samples"
    else
        fail "sp=$sparsity repeatable" "seed $first twice: different samples" \
            "$(diff "$cfgdir/sp-$first.sites" "$cfgdir/again.sites" 2>&1 | cut -c1-160 | head -n 6)"
    fi
    if [ ${#seed_list[@]} -ge 2 ]; then
        if [ -s "$cfgdir/sp-$first.sites" ] &&
            ! cmp -s "$cfgdir/sp-$first.sites" "$cfgdir/sp-${seed_list[1]}.sites"; then
            pass "sp=$sparsity seeds differ" "seeds $first and ${seed_list[1]}"
        else
            fail "sp=$sparsity seeds differ" "seeds $first and ${seed_list[1]} give the same samples"
        fi
    fi
    # The reference: the first configuration with these options but -g.
    local level ref
    level=$(printf '%s\n' $opts | grep -vx -- '-g' | tr '\n' ' ')
    ref=$out/$name/ref-$(printf '%s' "$level" | tr -c 'A-Za-z0-9' '_')
    if [ -d "$ref" ]; then
        res=""
        for seed in "${seed_list[@]}"; do
            if ! cmp -s "$cfgdir/sp-$seed.sites" "$ref/sp-$seed.sites"; then
                res="$res${res:+$'\n'}seed $seed: $(awk "$samples_diff_awk" \
                    "$ref/sp-$seed.sites" "$cfgdir/sp-$seed.sites" 2>&1)"
            fi
        done
        if [ -z "$res" ]; then
            pass "sp=$sparsity same samples as [$(cat "$ref/opts")]"
        else
            fail "sp=$sparsity same samples as [$(cat "$ref/opts")]" \
                "the same seeds sampled other visits:" "$res"
        fi
    else
        mkdir -p "$ref"
        printf '%s\n' "$opts" >"$ref/opts"
        for seed in "${seed_list[@]}"; do
            cp "$cfgdir/sp-$seed.sites" "$ref/" 2>/dev/null
        done
    fi

    check_statistics
}

test_program() {   # test_program NAME
    local i
    for i in "${!configs[@]}"; do
        test_config "$1" "$i" "${configs[$i]}"
    done
}

test_program "$name"
