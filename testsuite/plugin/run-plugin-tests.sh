#!/bin/sh
# Tests of the plugin as a compiler component: check placement and weights
# on known CFG shapes, strict arguments, the `sampled' attribute, the
# __SAMPLER__ macro, and the sampler-gcc wrapper's modes.
# Usage: run-plugin-tests.sh BUILD_DIR   (prints "N passed, N failed")

build=$(cd "${1:?usage: run-plugin-tests.sh BUILD_DIR}" && pwd) || exit 2
here=$(cd "$(dirname "$0")" && pwd)
plugin=$("$build/bin/sampler-gcc" -print-sampler-plugin) || exit 2
wrapper="$build/bin/sampler-gcc"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/sampler-plugin-tests.XXXXXX") || exit 2
trap 'rm -rf "$scratch"' EXIT
# tally.sh sets the C locale: GCC quotes with plain ASCII there, which the
# patterns expect.
. "$here/../tools/tally.sh"

# --- Check placement and weights ----------------------------------------
# Each shapes/NAME.c has NAME.expected, the dump its checks must produce,
# and may have NAME.args, more plugin arguments.  The transformation runs
# after GCC's optimisers, on the CFG they leave: where a level gives other
# checks, NAME.O2.expected holds them for -O2 (and -O3, unless
# NAME.O3.expected does).  `check' is asserted weightless, so that its
# calls are sites and nothing else: an unknown function would end a region
# at each call.  NAME.cc is C++, compiled with g++.
for src in "$here"/shapes/*.c "$here"/shapes/*.cc; do
    name=$(basename "$src"); name=${name%.*}
    case $src in *.cc) compiler=g++ ;; *) compiler=gcc ;; esac
    args="$(cat "$here/shapes/$name.args" 2>/dev/null) -fplugin-arg-sampler-weightless=check"
    for opt in -O0 -O2 "-O3 -g"; do
        expected=$here/shapes/$name.expected
        for level in O2 O3; do
            case $opt in -O0) break ;; -O2) [ $level = O3 ] && break ;; esac
            [ -f "$here/shapes/$name.$level.expected" ] && expected=$here/shapes/$name.$level.expected
        done
        rm -f "$scratch/dump"
        if ! $compiler $opt -fchecking -fplugin="$plugin" $args \
                -fplugin-arg-sampler-dump="$scratch/dump" \
                -c "$src" -o "$scratch/$name.o" 2>"$scratch/err"; then
            fail "shape $name $opt: compile" "$scratch/err"
        elif diff -u "$expected" "$scratch/dump" >"$scratch/diff"; then
            pass "shape $name $opt"
        else
            fail "shape $name $opt: checks and weights differ" "$scratch/diff"
        fi
    done
done

# --- Predicate text -------------------------------------------------------
# Branch predicates' text, compiled back as C, means what the condition
# means, over every pair of C operators (predicate-text.py).
mkdir -p "$scratch/predicate-text"
check "predicate text keeps the meaning of every operator pair" \
    python3 "$here/predicate-text.py" "$plugin" "$scratch/predicate-text"

# --- Site tables ----------------------------------------------------------
# schemes/NAME.c compiled with the arguments in NAME.args must give the site
# table NAME.expected: sites, predicate text, counters, signature.  Compiled
# from inside the folder so file names (and so signatures) do not depend on
# where the checkout is.  NAME.cc is C++, compiled with g++.
for src in "$here"/schemes/*.c "$here"/schemes/*.cc; do
    file=$(basename "$src"); name=${file%.*}
    case $src in *.cc) compiler=g++ ;; *) compiler=gcc ;; esac
    args=$(cat "$here/schemes/$name.args")
    rm -f "$scratch/table"
    if ! (cd "$here/schemes" && $compiler -O2 -fchecking -fplugin="$plugin" $args \
            -fplugin-arg-sampler-site-table="$scratch/table" \
            -c "$file" -o "$scratch/$name.o") 2>"$scratch/err"; then
        fail "site table $name: compile" "$scratch/err"
    elif diff -u "$here/schemes/$name.expected" "$scratch/table" >"$scratch/diff"; then
        pass "site table $name"
    else
        fail "site table $name: differs" "$scratch/diff"
    fi
    # The object carries the same table in a section that strip removes.
    objcopy --dump-section .debug_sampler_sites="$scratch/section" \
        "$scratch/$name.o" "$scratch/copy.o" 2>/dev/null
    if cmp -s "$scratch/section" "$here/schemes/$name.expected"; then
        pass "site table $name: in the object's section"
    else
        fail "site table $name: in the object's section"
    fi
    strip "$scratch/$name.o" -o "$scratch/stripped.o"
    if readelf -S "$scratch/stripped.o" | grep -q debug_sampler_sites; then
        fail "site table $name: strip removes it"
    else
        pass "site table $name: strip removes it"
    fi
done

# The signature: the same for the same code, different for different code.
signature () {
    rm -f "$scratch/sig"
    (cd "$scratch" && gcc -O2 -fplugin="$plugin" -fplugin-arg-sampler-schemes=branches \
        -fplugin-arg-sampler-site-table=sig -c sig.c -o sig.o) && cut -f2 "$scratch/sig" | head -1
}
printf 'int f (int x) { if (x > 1) return 2; return 3; }\n' >"$scratch/sig.c"
first=$(signature)
second=$(signature)
printf 'int f (int x) { if (x > 1) return 2; return 4; }\n' >"$scratch/sig.c"
changed=$(signature)
if [ -n "$first" ] && [ "$first" = "$second" ] && [ "$first" != "$changed" ]; then
    pass "signature stable across builds, new for changed code"
else
    fail "signature stable across builds, new for changed code ($first $second $changed)"
fi

# --- Diagnostics ----------------------------------------------------------
# expect_error NAME PATTERN GCC-ARGS...: the compile fails and says PATTERN.
expect_error () {
    name=$1 pattern=$2
    shift 2
    if gcc "$@" >"$scratch/out" 2>&1; then
        fail "$name: compile should have failed" "$scratch/out"
    elif grep -q -- "$pattern" "$scratch/out"; then
        pass "$name"
    else
        fail "$name: error does not say '$pattern'" "$scratch/out"
    fi
}
echo 'int main (void) { return 0; }' >"$scratch/empty.c"
expect_error "unknown argument" "unknown argument.*-fplugin-arg-sampler-colour.*accepted: schemes" \
    -fplugin="$plugin" -fplugin-arg-sampler-colour=red -c "$scratch/empty.c" -o "$scratch/x.o"
expect_error "unknown scheme" "unknown scheme .brnaches.*accepted schemes: $("$here/../tools/scheme-names.sh" ', ')" \
    -fplugin="$plugin" -fplugin-arg-sampler-schemes=checks,brnaches -c "$scratch/empty.c" -o "$scratch/x.o"
expect_error "empty schemes" "schemes. needs a value" \
    -fplugin="$plugin" -fplugin-arg-sampler-schemes -c "$scratch/empty.c" -o "$scratch/x.o"
expect_error "dump without file" "dump. needs a value: a file name" \
    -fplugin="$plugin" -fplugin-arg-sampler-dump -c "$scratch/empty.c" -o "$scratch/x.o"
expect_error "bad verbose value" "bad value .maybe.*verbose" \
    -fplugin="$plugin" -fplugin-arg-sampler-verbose=maybe -c "$scratch/empty.c" -o "$scratch/x.o"
expect_error "bad pairs-constants value" "bad value .yes.*pairs-constants=yes.*no value, 1 or 0" \
    -fplugin="$plugin" -fplugin-arg-sampler-pairs-constants=yes -c "$scratch/empty.c" -o "$scratch/x.o"
expect_error "bad pairs limit" "bad value .lots.*pairs-limit=lots.*whole number from 0 to 1000" \
    -fplugin="$plugin" -fplugin-arg-sampler-pairs-limit=lots -c "$scratch/empty.c" -o "$scratch/x.o"
expect_error "bad pairs-sites value" "bad value .pairs.*pairs-sites=pairs.*assignment or pair" \
    -fplugin="$plugin" -fplugin-arg-sampler-pairs-sites=pairs -c "$scratch/empty.c" -o "$scratch/x.o"
expect_error "bad region limit" "bad value .-3.*region-limit=-3.*whole number from 0 to 100000" \
    -fplugin="$plugin" -fplugin-arg-sampler-region-limit=-3 -c "$scratch/empty.c" -o "$scratch/x.o"
expect_error "pad limit without value" "pad-limit. needs a value" \
    -fplugin="$plugin" -fplugin-arg-sampler-pad-limit -c "$scratch/empty.c" -o "$scratch/x.o"
expect_error "empty scope pattern" "exclude-file. needs a value" \
    -fplugin="$plugin" -fplugin-arg-sampler-exclude-file -c "$scratch/empty.c" -o "$scratch/x.o"

cat >"$scratch/badarg.c" <<'EOF'
void f (int) __attribute__ ((sampled ("sometimes")));
EOF
expect_error "attribute argument" "must be .\"off\". or .\"weightless\"" \
    -fplugin="$plugin" -c "$scratch/badarg.c" -o "$scratch/x.o"
cat >"$scratch/noret.c" <<'EOF'
void f (int) __attribute__ ((sampled, noreturn));
void g (int x) { f (x); }
EOF
expect_error "sampled noreturn" "is .noreturn. and cannot be a sampled check" \
    -fplugin="$plugin" -c "$scratch/noret.c" -o "$scratch/x.o"

cat >"$scratch/misplaced.c" <<'EOF'
int x __attribute__ ((sampled));
EOF
if gcc -fplugin="$plugin" -c "$scratch/misplaced.c" -o "$scratch/x.o" 2>"$scratch/out" \
        && grep -q "ignored: it goes on a function (on a declaration, calls to it become sampled checks; on a definition, it selects the function" "$scratch/out"; then
    pass "misplaced attribute warns where it goes"
else
    fail "misplaced attribute warns where it goes" "$scratch/out"
fi

if gcc -fplugin="$plugin" -fplugin-arg-sampler-help -c "$scratch/empty.c" -o "$scratch/x.o" \
        2>"$scratch/out" && grep -q "schemes=LIST" "$scratch/out"; then
    pass "help lists the arguments"
else
    fail "help lists the arguments" "$scratch/out"
fi

cat >"$scratch/verbose.c" <<'EOF'
#include <setjmp.h>
void check (int) __attribute__ ((sampled));
jmp_buf env;
int f (int n) { if (setjmp (env)) return 1; check (n); return 0; }
int g (int n) { check (n); return n; }
EOF
gcc -fplugin="$plugin" -fplugin-arg-sampler-verbose -c "$scratch/verbose.c" -o "$scratch/x.o" 2>"$scratch/out"
if grep -q "'f' calls setjmp.*not cloned" "$scratch/out" \
        && grep -q "'g': 1 sites, cloned" "$scratch/out"; then
    pass "verbose says which functions are cloned and why not"
else
    fail "verbose says which functions are cloned and why not" "$scratch/out"
fi

# --- Unsampled clones --------------------------------------------------------
# With sampling off, every way into an instrumented function ends in its
# unsampled clone: a direct call from main, a call through a pointer,
# another unit's function, functions returning aggregates (through a
# pointer), a thread's start routine, after a function with variable
# arguments (which has no clone) ran, and through a pointer from a
# function that calls setjmp, entered instrumented (it is not cloned); a
# static function called only from instrumented ones runs only as a clone
# (inlined as plain inlines it), one called from a function without sites
# dispatches; a function GCC would not copy (a table of label addresses)
# has a clone too, which jumps to its own labels; a function that gets its
# sites from the IPA inliner dispatches too.  The plain probe
# prints its return address, which addr2line names; a check function's
# call must not run.  Sampling at 1 runs the instrumented functions; with
# unsampled=0 there is no clone.
gcc -O2 -c "$here/unsampled/probe.c" -o "$scratch/probe.o"
copies_ran () {
    SAMPLER_FILE="$scratch/clone-report.%p" "$scratch/clones" |
        while read -r what addr rest; do
            if [ "$what" = total ]; then
                echo "$what $addr $rest"
            else
                # Without the suffixes of IPA's copies (helper's clone
                # may be specialised for its one caller) and of cold parts.
                echo "$what $(addr2line -f -e "$scratch/clones" "$addr" | head -n 1 |
                    sed -E 's/\.(constprop|isra|part)\.[0-9]+//g; s/\.cold$//')"
            fi
        done | tr '\n' ' '
}
for unsampled in 1 0; do
    if ! "$wrapper" -O2 -no-pie -fplugin-arg-sampler-schemes=checks,branches \
            -fplugin-arg-sampler-unsampled=$unsampled \
            "$here/unsampled/clones.c" "$here/unsampled/other.c" \
            "$scratch/probe.o" -lpthread -o "$scratch/clones" >"$scratch/out" 2>&1; then
        fail "unsampled=$unsampled: compile" "$scratch/out"
        continue
    fi
    if [ $unsampled = 1 ]; then
        # A clone calls the clone of another unit's function directly, and
        # the plain probe's unit, without a clone, through a weak jump.
        objdump -d "$scratch/clones" |
            awk '/<main\.unsampled\.0>:/, /^$/' >"$scratch/main-clone.s"
        if grep -q 'call.*<other_unit\.unsampled\.0>' "$scratch/main-clone.s" &&
                nm "$scratch/clones" | grep -q ' T other_unit\.unsampled\.0$' &&
                nm "$scratch/clones" | grep -q ' W probe\.unsampled\.0$'; then
            pass "a clone calls another unit's clone directly, and a plain unit through a fallback"
        else
            nm "$scratch/clones" | grep unsampled | cat - "$scratch/main-clone.s" >"$scratch/out"
            fail "a clone calls another unit's clone directly, and a plain unit through a fallback" "$scratch/out"
        fi
    fi
    for sparsity in unset 0 1; do
        if [ $sparsity = unset ]; then
            got=$(unset SAMPLER_SPARSITY; copies_ran)
        else
            got=$(SAMPLER_SPARSITY=$sparsity copies_ran)
        fi
        if [ $unsampled = 1 ] && [ $sparsity != 1 ]; then
            want="direct direct.unsampled.0 pointer by_pointer.unsampled.0 other other_unit.unsampled.0 protected in_protected.unsampled.0 pair make_pair.unsampled.0 big make_big.unsampled.0 helper helper.unsampled.0 once main.unsampled.0 from_plain from_plain.unsampled.0 interpret interpret.unsampled.0 op_call interpret.unsampled.0 uncopied_callee uncopied_callee.unsampled.0 uncopied_pointee uncopied_pointee.unsampled.0 other other_unit.unsampled.0 gains gains_once.unsampled.0 thread thread_main.unsampled.0 total 9 checks 0 "
        elif [ $sparsity = 1 ]; then
            want="direct direct pointer by_pointer other other_unit protected in_protected pair make_pair big make_big helper helper once main from_plain from_plain interpret interpret op_call interpret uncopied_callee uncopied_callee uncopied_pointee uncopied_pointee other other_unit gains gains_sites thread thread_main total 18 checks 1 "
        else
            want="direct direct pointer by_pointer other other_unit protected in_protected pair make_pair big make_big helper helper once main from_plain from_plain interpret interpret op_call interpret uncopied_callee uncopied_callee uncopied_pointee uncopied_pointee other other_unit gains gains_sites thread thread_main total 9 checks 0 "
        fi
        if [ "$got" = "$want" ]; then
            pass "unsampled=$unsampled, sparsity $sparsity: the right copies ran"
        else
            printf 'want: %s\ngot:  %s\n' "$want" "$got" >"$scratch/out"
            fail "unsampled=$unsampled, sparsity $sparsity: the right copies ran" "$scratch/out"
        fi
    done
done

# Label tables: the clone of a function whose table of labels the code
# neither writes nor takes the address of runs its own code at the labels;
# one whose table is written or whose address escapes is not cloned.  Each
# computes what plain does.
gcc -O2 "$here/unsampled/label-tables.c" "$here/unsampled/probe.c" \
    -o "$scratch/label-tables-plain" &&
    "$scratch/label-tables-plain" | tail -n 1 >"$scratch/label-tables.want"
if ! "$wrapper" -O2 -no-pie -fchecking -fplugin-arg-sampler-schemes=branches \
        "$here/unsampled/label-tables.c" "$scratch/probe.o" \
        -o "$scratch/label-tables" >"$scratch/out" 2>&1; then
    fail "label tables: compile" "$scratch/out"
else
    for sparsity in 0 1; do
        got=$(SAMPLER_SPARSITY=$sparsity SAMPLER_FILE="$scratch/lt-report.%p" \
            "$scratch/label-tables" | while read -r what addr rest; do
                if [ "$what" = r ]; then
                    echo "$what $addr $rest"
                else
                    echo "$what $(addr2line -f -e "$scratch/label-tables" "$addr" |
                        head -n 1 | sed -E 's/\.cold$//')"
                fi
            done | tr '\n' ' ')
        clone=
        [ $sparsity = 0 ] && clone=.unsampled.0
        want="dbl relative$clone dbl relative$clone b mutable_table b mutable_table b mutable_table ea escaping eb escaping $(cat "$scratch/label-tables.want") "
        if [ "$got" = "$want" ]; then
            pass "label tables, sparsity $sparsity: the right copies ran, with plain's results"
        else
            printf 'want: %s\ngot:  %s\n' "$want" "$got" >"$scratch/out"
            fail "label tables, sparsity $sparsity: the right copies ran, with plain's results" "$scratch/out"
        fi
    done
fi

# --- Code growth through nested inline functions ----------------------------
# A call to a function with sites is shared by the fast and slow copies, so
# a callee inlined later appears once per call, as in the plain build; were
# it made from both copies, it would appear 2^depth times (4 levels here,
# each with a site: 68 calls of leaf instead of 8 at -O2).
cat >"$scratch/nested-inline.c" <<'EOF'
void leaf (int);
#define INLINE static inline __attribute__ ((always_inline))
INLINE int f0 (int x) { if (x & 1) x += 3; leaf (x); return x; }
INLINE int f1 (int x) { if (x & 2) x = f0 (x) + 1; return f0 (x * 3); }
INLINE int f2 (int x) { if (x & 4) x = f1 (x) + 1; return f1 (x * 5); }
INLINE int f3 (int x) { if (x & 8) x = f2 (x) + 1; return f2 (x * 7); }
int top (int x) { return f3 (x); }
EOF
# Calls of leaf in the assembly: in the unsampled clones ($1 = -e) or in
# the other functions ($1 = -v).  The clones call leaf's clone, whose
# fallback (a jump to leaf, leaf.unsampled.0) is not counted.
leaf_calls () {
    pick=$1; shift
    gcc "$@" -S "$scratch/nested-inline.c" -o - |
        awk '/^[A-Za-z_.$][A-Za-z0-9_.$]*:$/ && !/^\.L/ { fn = $0 }
             /(call|jmp)[[:space:]]+leaf/ && fn != "leaf.unsampled.0:" { print fn }' |
        grep -cE $pick '\.unsampled\.'
}
for level in -O0 -O2 -O3; do
    plain=$(leaf_calls -v "$level")
    schemes=-fplugin-arg-sampler-schemes=checks,branches,returns,scalar-pairs,float-kinds,function-entries,bounds
    sampled=$(leaf_calls -v "$level" -fplugin="$plugin" $schemes)
    unsampled=$(leaf_calls -e "$level" -fplugin="$plugin" $schemes)
    if [ "$plain" -gt 0 ] && [ "$sampled" = "$plain" ] && [ "$unsampled" = "$plain" ]; then
        pass "nested inline functions at $level: $sampled calls of leaf, as plain (and in the unsampled clone)"
    else
        echo "plain: $plain calls of leaf, instrumented: $sampled, unsampled clone: $unsampled" >"$scratch/out"
        fail "nested inline functions at $level: each inlined call once" "$scratch/out"
    fi
done

# --- Reproducible builds -----------------------------------------------------
# The same unit compiled again gives the same object.  The clones were
# walked in the order of a map keyed by pointers, which changes from run
# to run: the fallbacks for other units' clones came out in another order
# each time (40 functions calling 40 others of another unit).
for i in $(seq 0 39); do
    echo "int ext$i (int);"
    echo "int f$i (int x) { if (x & $((i % 7 + 1))) x += ext$i (x); return x > $i ? ext$(((i * 7) % 40)) (x) : x; }"
done >"$scratch/reproducible.c"
sums=$(for i in 1 2 3 4; do
    gcc -O2 -fplugin="$plugin" -fplugin-arg-sampler-schemes=branches,returns \
        -c "$scratch/reproducible.c" -o "$scratch/reproducible.o" &&
        cksum <"$scratch/reproducible.o"
done | sort -u)
if [ "$(printf '%s\n' "$sums" | wc -l)" = 1 ] && [ -n "$sums" ]; then
    pass "the same unit compiled four times gives the same object"
else
    printf '%s\n' "$sums" >"$scratch/out"
    fail "the same unit compiled four times gives the same object" "$scratch/out"
fi

# --- Markers weigh nothing in the inliners' estimates ----------------------
# Small static functions with sites, which plain -O2 inlines everywhere
# (calls and tail calls counted, IPA's copies of the callee included).
# push, called four times: its markers (asm statements, one instruction
# each to the inliners) made it look too big, and every call stayed a
# call in the instrumented code.  slot (the shape of lua's index2value),
# called eight times: inlined for the speedup GCC expects, which the
# statements computing its branches' outcomes for the markers alone hid
# (8 calls with the markers' own weight taken out, and not theirs).
cat >"$scratch/inline-weight.c" <<'EOF'
struct st { int pos, limit, count, flags; };
void grow (struct st *s, int n);
static int push (struct st *s, int n)
{
  int r = s->pos - n;
  int c = s->count + 1;
  int f = s->flags;
  if (r < s->limit) { grow (s, n); r = s->pos - n; }
  if (f > 2) c = c * 2;
  s->pos = r;
  s->count = c;
  return r;
}
int a (struct st *s) { return push (s, 8) + push (s, 16); }
int b (struct st *s, int k) { return push (s, k) * 3 + push (s, 4); }

struct value { long v; int tag; };
struct frame { struct value *base, *upvalues; int nup, kind; };
struct state { struct frame *frame; struct value *top, nil, registry; };
static struct value *slot (struct state *s, int idx)
{
  struct frame *f = s->frame;
  if (idx > 0) {
    struct value *o = f->base + idx;
    if (o >= s->top) return &s->nil;
    return o;
  }
  else if (idx > -100000)
    return s->top + idx;
  else if (idx == -100000)
    return &s->registry;
  else {
    idx = -100000 - idx;
    if (f->kind == 3)
      return idx <= f->nup ? &f->upvalues[idx - 1] : &s->nil;
    return &s->nil;
  }
}
int type_of (struct state *s, int i) { return slot (s, i)->tag; }
long value_of (struct state *s, int i) { return slot (s, i)->v; }
int is_nil (struct state *s, int i) { return slot (s, i) == &s->nil; }
void set_value (struct state *s, int i, long v) { slot (s, i)->v = v; }
void copy_value (struct state *s, int from, int to) { *slot (s, to) = *slot (s, from); }
int same (struct state *s, int a, int b) { return slot (s, a)->v == slot (s, b)->v; }
EOF
calls_of () {
    callee=$1
    shift
    gcc -O2 "$@" -S "$scratch/inline-weight.c" -o - |
        awk -v callee="$callee" '
             /^[A-Za-z_.$][A-Za-z0-9_.$]*:$/ && !/^\.L/ { fn = $0 }
             ($1 == "call" || $1 == "jmp") && fn !~ /unsampled/ &&
                 ($2 == callee || index($2, callee ".") == 1) { n++ }
             END { print n + 0 }'
}
for callee in push slot; do
    plain=$(calls_of $callee)
    sampled=$(calls_of $callee -fplugin="$plugin" \
        -fplugin-arg-sampler-schemes=branches,returns,scalar-pairs)
    if [ "$sampled" = "$plain" ]; then
        pass "a small function with sites, $callee, is inlined as plain inlines it ($plain calls)"
    else
        echo "plain: $plain calls of $callee, instrumented: $sampled" >"$scratch/out"
        fail "a small function with sites, $callee, is inlined as plain inlines it" "$scratch/out"
    fi
done

# --- setjmp and an inlined function that longjmps -------------------------
# The setjmp function's loop stores, then calls an inlined function that
# longjmps back; the store must survive.  The inliner gives the inlined
# calls abnormal edges only if .ABNORMAL_DISPATCHER begins its block: an
# export put before it (as before any noreturn call) dropped them, and GCC
# deleted the store (GCC's torture test pr60003 once the callee inlines).
cat >"$scratch/setjmp-inline.c" <<'EOF'
#include <stdlib.h>
static void *buffer[5];
__attribute__ ((noinline, noclone)) static void jump_back (void)
{ __builtin_longjmp (buffer, 1); }
static inline __attribute__ ((always_inline)) void leave (void) { jump_back (); }
__attribute__ ((noinline, noclone)) static int stored_before_jump (int x)
{
  int stored = 0;
  if (__builtin_setjmp (buffer) == 0)
    for (;;)
      {
        stored = 1;
        leave ();
      }
  return stored ? x : 0;
}
int main (void) { if (stored_before_jump (7) != 7) abort (); return 0; }
EOF
for level in -O0 -O2 -O3; do
    : >"$scratch/out"
    if "$wrapper" $level -fplugin-arg-sampler-schemes=checks,branches,returns,scalar-pairs,float-kinds,function-entries,bounds \
            "$scratch/setjmp-inline.c" -o "$scratch/setjmp-inline" 2>"$scratch/out"; then
        for sparsity in 0 1 100; do
            (cd "$scratch" && SAMPLER_SPARSITY=$sparsity ./setjmp-inline) >>"$scratch/out" 2>&1 \
                || echo "sparsity $sparsity: exit $?" >>"$scratch/out"
        done
    fi
    if [ -s "$scratch/out" ]; then
        fail "setjmp function with an inlined longjmp at $level: the store before it survives" "$scratch/out"
    else
        pass "setjmp function with an inlined longjmp at $level"
    fi
done

# scalar-pairs partners that GCC may drop: a static whose every read it
# folds (a static const), one that nothing reads.  The slow copy reads
# what it observes where a site is sampled; reading these there made the
# link fail (undefined iLn.1), as sqlite3's build did.
cat >"$scratch/dropped.c" <<'EOF'
#include <stdio.h>
int seen;
int f (int n)
{
  static const int line = 7;
  static int written;
  int s = 0;
  for (int i = 0; i < n; i++)
    {
      s += i * line;
      written = s & 3;
      seen = s;
    }
  return s;
}
int main (void) { printf ("%d\n", f (1000)); return 0; }
EOF
for level in -O0 -O2; do
    if "$wrapper" $level -fplugin-arg-sampler-schemes=scalar-pairs \
            "$scratch/dropped.c" -o "$scratch/dropped" 2>"$scratch/out" &&
       (cd "$scratch" && SAMPLER_SPARSITY=1 SAMPLER_FILE=dropped.report ./dropped) \
            >"$scratch/run" 2>>"$scratch/out" &&
       [ "$(cat "$scratch/run")" = 3496500 ] &&
       "$build/bin/sampler-report" show "$scratch/dropped.report" --format csv \
            2>>"$scratch/out" | grep -q "seen ? line"; then
        pass "scalar-pairs with statics GCC drops at $level: links, runs, reports"
    else
        fail "scalar-pairs with statics GCC drops at $level: links, runs, reports" "$scratch/out"
    fi
done

# A function declared in a system header counts as weightless, so the
# caller's region runs on across the call, but it may have sites of its own
# (gnulib's rpl_ functions, declared in headers with `#pragma GCC
# system_header', are defined in the program).  Its slow copy runs while
# the caller's does: the caller's count must come out right.  A slow copy
# that noted its region's end in thread-local memory lost it to the
# callee's, and main's next visits went unsampled at sparsity 1 (site
# `r & 1' was counted once in 1000 visits; gzip's do_exit, entered from
# main after fflush, was never seen entered).  At sparsity 1 each count is
# exact.
mkdir -p "$scratch/sys"
cat >"$scratch/sys/helper.h" <<'EOF'
#pragma GCC system_header
int helper (int x);
EOF
cat >"$scratch/helper.c" <<'EOF'
int seen;
int helper (int x)
{
  if (x > 5)
    {
      if (x > 7)
        seen++;
      if (x > 9)
        seen++;
    }
  return seen;
}
EOF
cat >"$scratch/caller.c" <<'EOF'
#include <stdio.h>
#include <helper.h>
int main (void)
{
  long t = 0;
  for (int r = 0; r < 1000; r++)
    {
      if (r & 1)
        t++;
      helper (r % 4);
      if (r & 2)
        t++;
      if (r & 4)
        t++;
      if (r & 8)
        t++;
    }
  printf ("%ld\n", t);
  return 0;
}
EOF
cat >"$scratch/callee-counts" <<'EOF'
r <= 999,true,1000
r <= 999,false,1
(r & 1) != 0,true,500
(r & 1) != 0,false,500
(r & 2) != 0,true,500
(r & 2) != 0,false,500
(r & 4) != 0,true,500
(r & 4) != 0,false,500
(r & 8) != 0,true,496
(r & 8) != 0,false,504
x > 5,true,0
x > 5,false,1000
EOF
for level in -O0 -O2; do
    rm -f "$scratch/callee.report"
    if "$wrapper" $level -fplugin-arg-sampler-schemes=branches -I"$scratch/sys" \
            "$scratch/caller.c" "$scratch/helper.c" -o "$scratch/callee" \
            2>"$scratch/out" &&
       SAMPLER_SPARSITY=1 SAMPLER_FILE="$scratch/callee.report" \
            "$scratch/callee" >"$scratch/run" 2>>"$scratch/out" &&
       "$build/bin/sampler-report" show "$scratch/callee.report" --format csv \
            2>>"$scratch/out" | sed 1d | cut -d, -f8-10 >"$scratch/counts" &&
       diff "$scratch/callee-counts" "$scratch/counts" >>"$scratch/out"; then
        pass "callee with sites declared in a system header, at $level: exact counts at sparsity 1"
    else
        fail "callee with sites declared in a system header, at $level: exact counts at sparsity 1" "$scratch/out"
    fi
done

# A build that gives no warning plainly gives none instrumented (-Werror
# builds must build): GCC's late warnings run while the markers are in
# the code, and scalar-pairs made one read the pointer just passed to
# realloc (-Wuse-after-free in xz's xrealloc).
cat >"$scratch/xrealloc.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
void *xrealloc (void *ptr, size_t size)
{
  void *p = ptr;
  ptr = realloc (ptr, size);
  if (ptr == NULL)
    {
      free (p);
      fputs ("out of memory\n", stderr);
      exit (1);
    }
  return ptr;
}
EOF
for level in -O2 -O3; do
    if gcc $level -Wall -Wextra -Werror -c "$scratch/xrealloc.c" -o "$scratch/xrealloc.o" \
            2>"$scratch/out" &&
       "$wrapper" $level -Wall -Wextra -Werror \
            -fplugin-arg-sampler-schemes=checks,branches,returns,scalar-pairs,float-kinds,function-entries,bounds \
            -c "$scratch/xrealloc.c" -o "$scratch/xrealloc.o" 2>>"$scratch/out"; then
        pass "no warning the plain build lacks (a pointer passed to realloc) at $level"
    else
        fail "no warning the plain build lacks (a pointer passed to realloc) at $level" "$scratch/out"
    fi
done

# main's clone: a main that ends in exit () is exempt from
# -Wsuggest-attribute=noreturn, and its clone must be too (xz-utils).
cat >"$scratch/main-exit.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
int main (int argc, char **argv)
{
  if (argc > 1)
    puts (argv[1]);
  exit (argc > 2);
}
EOF
if gcc -O2 -Wsuggest-attribute=noreturn -Werror -c "$scratch/main-exit.c" \
        -o "$scratch/main-exit.o" 2>"$scratch/out" &&
   "$wrapper" -O2 -Wsuggest-attribute=noreturn -Werror \
        -fplugin-arg-sampler-schemes=branches,returns \
        -c "$scratch/main-exit.c" -o "$scratch/main-exit.o" 2>>"$scratch/out"; then
    pass "no noreturn suggestion for main's clone"
else
    fail "no noreturn suggestion for main's clone" "$scratch/out"
fi

# --- __SAMPLER__ and preprocessed input -------------------------------------
cat >"$scratch/macro.c" <<'EOF'
#ifndef __SAMPLER__
#error no __SAMPLER__
#endif
int main (void) { return 0; }
EOF
if gcc -fplugin="$plugin" -c "$scratch/macro.c" -o "$scratch/x.o" 2>"$scratch/out"; then
    pass "__SAMPLER__ is defined"
else
    fail "__SAMPLER__ is defined" "$scratch/out"
fi
# -save-temps compiles the .i with -fpreprocessed, where no macro may be defined.
if (cd "$scratch" && gcc -save-temps -fplugin="$plugin" -c verbose.c -o x.o) 2>"$scratch/out"; then
    pass "preprocessed input (-save-temps)"
else
    fail "preprocessed input (-save-temps)" "$scratch/out"
fi

# --- The wrapper --------------------------------------------------------------
cat >"$scratch/lib.c" <<'EOF'
void check (int) __attribute__ ((sampled));
int lib (int n) { int t = 0; for (int i = 0; i < n; i++) { check (i); t += i; } return t; }
EOF
cat >"$scratch/main.c" <<'EOF'
#include <stdio.h>
int lib (int);
long checks;
void check (int ok) { (void) ok; checks++; }
int main (void) { int t = lib (1000); printf ("%d %ld\n", t, checks); return 0; }
EOF
run_wrapper () {
    name=$1
    shift
    if (cd "$scratch" && "$wrapper" "$@") >"$scratch/out" 2>&1; then
        pass "wrapper: $name"
    else
        fail "wrapper: $name" "$scratch/out"
    fi
}
run_wrapper "compile only" -O2 -c lib.c -o lib.o
run_wrapper "compile only, main" -O2 -c main.c -o main.o
run_wrapper "link only" lib.o main.o -o prog
run_wrapper "compile and link" -O2 lib.c main.c -o prog2
run_wrapper "preprocess only" -E lib.c -o lib.i
run_wrapper "dependencies only" -M lib.c
run_wrapper "shared library" -O2 -fPIC -shared lib.c -o libl.so
run_wrapper "link against the shared library" -O2 main.c -L. -ll -Wl,-rpath,"$scratch" -o prog3
run_wrapper "static link" -O2 -static lib.c main.c -o prog4
for prog in prog prog2 prog3 prog4; do
    if [ -x "$scratch/$prog" ] \
            && [ "$(cd "$scratch" && SAMPLER_SPARSITY=1 "./$prog")" = "499500 1000" ] \
            && [ "$(cd "$scratch" && SAMPLER_SPARSITY=0 "./$prog")" = "499500 0" ]; then
        pass "wrapper-built $prog samples every visit at 1 and none at 0"
    else
        fail "wrapper-built $prog samples every visit at 1 and none at 0"
    fi
done
if "$wrapper" --version >/dev/null 2>&1; then pass "wrapper: --version"; else fail "wrapper: --version"; fi

# Code for an executable reaches the countdown local-exec and defines it;
# code for a shared library reaches it initial-exec, through the GOT.  The
# executable's definition must be the one libsampler.so and the library use
# (exported by the linker): sampler_set_sparsity sets the calling thread's
# countdown, and the executable's own code must see it at once.
cat >"$scratch/main5.c" <<'EOF'
#include <stdio.h>
int sampler_set_sparsity (long);
int lib (int);
void own (int) __attribute__ ((sampled));
long checks, own_checks;
void check (int ok) { (void) ok; checks++; }
int main (void)
{
  int t = lib (1000);
  for (int i = 0; i < 1000; i++)
    own (i);
  /* One visit in 10^9 from now on, in this thread at once.  */
  sampler_set_sparsity (1000000000);
  for (int i = 0; i < 1000; i++)
    own (i);
  t += lib (1000);
  printf ("%d %ld %ld\n", t, checks, own_checks);
  return 0;
}
EOF
cat >"$scratch/own.c" <<'EOF'
extern long own_checks;
void own (int ok) { (void) ok; own_checks++; }
EOF
run_wrapper "an executable with sites, and a shared library with sites" \
    -O2 main5.c own.c -L. -ll -Wl,-rpath,"$scratch" -o prog5
if (cd "$scratch" && "$wrapper" -O2 -c main5.c -o main5.o \
        && "$wrapper" -O2 -fPIC -c lib.c -o lib-pic.o) >"$scratch/out" 2>&1 \
        && readelf -rW "$scratch/main5.o" | grep -q 'R_X86_64_TPOFF32 .* __sampler_countdown' \
        && ! readelf -rW "$scratch/main5.o" | grep -q 'GOTTPOFF' \
        && readelf -sW "$scratch/main5.o" | grep -q 'TLS *WEAK *DEFAULT .* __sampler_countdown' \
        && readelf -rW "$scratch/lib-pic.o" | grep -q 'R_X86_64_GOTTPOFF .* __sampler_countdown' \
        && readelf -sW "$scratch/lib-pic.o" | grep -q 'TLS *GLOBAL *DEFAULT *UND __sampler_countdown' \
        && nm -D "$scratch/prog5" | grep -q ' [VW] __sampler_countdown' \
        && [ "$(cd "$scratch" && SAMPLER_SPARSITY=1 ./prog5)" = "999000 1000 1000" ] \
        && [ "$(cd "$scratch" && SAMPLER_SPARSITY=0 ./prog5)" = "999000 0 0" ]; then
    pass "executable code reaches the countdown local-exec, library code initial-exec, one countdown"
else
    fail "executable code reaches the countdown local-exec, library code initial-exec, one countdown" "$scratch/out"
fi

# --- No read of unassigned locals -------------------------------------------
# scalar-pairs must not compare with a local that is not yet assigned (sed's
# valgrind tests caught `b ? b2' before b2's first assignment): the
# instrumented program, sampling everything, must be clean under valgrind.
cat >"$scratch/late.c" <<'EOF2'
#include <stdio.h>
#include <stdlib.h>
static char *pick (const char *s, int n) { return n ? (char *) s + 1 : NULL; }
int main (int argc, char **argv)
{
  char *b, *b2;
  long total = 0;
  for (int i = 0; i < 3; i++)
    {
      b = pick (argv[0], argc + i);
      b2 = pick (argv[0], i);
      total += (b != NULL) + (b2 != NULL);
    }
  printf ("%ld\n", total);
  return 0;
}
EOF2
for opt in -O0 -O2; do
    if "$wrapper" $opt -g -fplugin-arg-sampler-schemes=scalar-pairs "$scratch/late.c" \
            -o "$scratch/late" 2>"$scratch/out" \
        && SAMPLER_SPARSITY=1 SAMPLER_FILE="$scratch/late-%p.report" \
            valgrind -q --error-exitcode=9 "$scratch/late" >"$scratch/late.out" 2>"$scratch/out" \
        && [ "$(cat "$scratch/late.out")" = 5 ]; then
        pass "scalar-pairs reads no unassigned local ($opt, valgrind)"
    else
        fail "scalar-pairs reads no unassigned local ($opt, valgrind)" "$scratch/out"
    fi
done

# --- The red zone -------------------------------------------------------------
# A runtime call steps over the 128 bytes below the stack pointer, where a
# leaf function may keep data, and red-zone.cc takes that step out where
# the frame keeps nothing there.  leaf keeps its volatile array in the red
# zone across its branch sites' calls: it must keep the step (a call
# without it overwrote the array: wrong sums at sparsity 1).  caller and
# main make calls, so they have no red zone and no step.
cat >"$scratch/red-zone.c" <<'EOF'
#include <stdio.h>
__attribute__ ((noinline)) long leaf (const long *in, long n)
{
  volatile long keep[8];
  for (int i = 0; i < 8; i++)
    keep[i] = in[i] * 3 + 1;
  long s = 0;
  for (long i = 0; i < n; i++)
    if (in[i & 7] & 1)
      s += keep[i & 7];
    else
      s -= keep[(i + 1) & 7];
  return s;
}
__attribute__ ((noinline)) long caller (const long *in, long n)
{
  long s = 0;
  for (long i = 0; i < n; i++)
    if (in[i & 7] > 3)
      s += leaf (in, i & 15);
    else
      s--;
  return s;
}
int main (int argc, char **argv)
{
  (void) argv;
  long in[8];
  for (int i = 0; i < 8; i++)
    in[i] = (argc + i * 7) % 11;
  printf ("%ld %ld\n", leaf (in, 100000), caller (in, 10000));
  return 0;
}
EOF
: >"$scratch/out"
gcc -O2 "$scratch/red-zone.c" -o "$scratch/red-zone-plain" 2>>"$scratch/out"
(cd "$scratch" && ./red-zone-plain) >"$scratch/red-zone.expected" 2>>"$scratch/out"
# Without plain's sums there is nothing to compare with.
if [ ! -s "$scratch/red-zone.expected" ]; then
    fail "red-zone program: plain build or run" "$scratch/out"
elif "$wrapper" -O2 -fplugin-arg-sampler-schemes=branches,returns -S \
        "$scratch/red-zone.c" -o "$scratch/red-zone.s" 2>>"$scratch/out" \
    && "$wrapper" -O2 -fplugin-arg-sampler-schemes=branches,returns \
        "$scratch/red-zone.c" -o "$scratch/red-zone" 2>>"$scratch/out"; then
    # Per function, hot and cold parts together: the steps over the red
    # zone, and the accesses below the stack pointer.
    count() {
        awk -v fn="$1" -v pattern="$2" '
            /\.type.*@function/ { name = $2; sub(/,$/, "", name); sub(/\.cold$/, "", name) }
            name == fn && $0 ~ pattern { n++ }
            END { print n + 0 }' "$scratch/red-zone.s"
    }
    step='lea -128[(]%rsp[)], %rsp'
    below=$(count leaf ', -[0-9]+[(]%rsp')
    echo "steps: leaf $(count leaf "$step"), caller $(count caller "$step"), main $(count main "$step"); leaf's accesses below the stack pointer: $below" >>"$scratch/out"
    if [ "$(count leaf "$step")" -eq 0 ] || [ "$below" -eq 0 ] \
        || [ "$(count caller "$step")" -ne 0 ] || [ "$(count main "$step")" -ne 0 ]; then
        fail "the red-zone step is kept in a leaf that uses the red zone, and only there" "$scratch/out"
    else
        pass "the red-zone step is kept in a leaf that uses the red zone, and only there"
    fi
    for sparsity in 0 1 3; do
        (cd "$scratch" && SAMPLER_SPARSITY=$sparsity SAMPLER_FILE="$scratch/red-zone-%p.report" ./red-zone) \
            >"$scratch/red-zone.got" 2>>"$scratch/out"
        if cmp -s "$scratch/red-zone.expected" "$scratch/red-zone.got"; then
            pass "a leaf's red zone survives the runtime calls at sparsity $sparsity"
        else
            diff "$scratch/red-zone.expected" "$scratch/red-zone.got" >>"$scratch/out"
            fail "a leaf's red zone survives the runtime calls at sparsity $sparsity" "$scratch/out"
        fi
    done
else
    fail "red-zone program: compile" "$scratch/out"
fi

# --- The counters' address ----------------------------------------------------
# A runtime call takes its site's counters by an address relative to the
# instruction pointer, loaded in the asm itself ("i" operand): no register
# of the function holds it.  In the large code model, where the data may
# be out of that reach, it goes through a register as other arguments do.
# Either way the program runs as plain does.
for model in small large; do
    : >"$scratch/out"
    if "$wrapper" -O2 -mcmodel=$model -fplugin-arg-sampler-schemes=branches,returns -S \
            "$scratch/red-zone.c" -o "$scratch/model.s" 2>>"$scratch/out" \
        && "$wrapper" -O2 -mcmodel=$model -fplugin-arg-sampler-schemes=branches,returns \
            "$scratch/red-zone.c" -o "$scratch/model" 2>>"$scratch/out" \
        && (cd "$scratch" && SAMPLER_SPARSITY=1 SAMPLER_FILE="$scratch/model-%p.report" ./model) \
            >"$scratch/model.got" 2>>"$scratch/out" \
        && [ -s "$scratch/red-zone.expected" ] \
        && cmp -s "$scratch/red-zone.expected" "$scratch/model.got"; then
        direct=$(grep -c 'lea [0-9+]*__sampler_counters[0-9+]*(%rip), %rdi' "$scratch/model.s")
        calls=$(grep -c 'call \*__sampler_\(count\|branch\|sign\)' "$scratch/model.s")
        echo "calls $calls, counters loaded in the asm $direct" >>"$scratch/out"
        if { [ $model = small ] && [ "$direct" -eq "$calls" ] && [ "$calls" -gt 0 ]; } \
            || { [ $model = large ] && [ "$direct" -eq 0 ]; }; then
            pass "counters' address in the $model code model"
        else
            fail "counters' address in the $model code model" "$scratch/out"
        fi
    else
        fail "counters' address in the $model code model: build or run" "$scratch/out"
    fi
done


# --- RTL PRE ------------------------------------------------------------------
# GCC's RTL PRE does not run on the functions cloned into fast and slow
# copies (it made them slower): its dump names the unsampled clone and the
# function without sites, not the instrumented function.
cat >"$scratch/pre.c" <<'EOF'
int positive (const int *a, int n)
{
  int s = 0;
  for (int i = 0; i < n; i++)
    if (a[i] > 0)
      s += a[i];
  return s;
}
int no_sites (int x) { return x * 3; }
EOF
if "$wrapper" -O2 -fplugin-arg-sampler-schemes=branches -c "$scratch/pre.c" \
        -o "$scratch/pre.o" -fdump-rtl-pre="$scratch/pre.dump" 2>"$scratch/out"; then
    functions=" $(sed -n 's/^;; Function \([^ ]*\) .*/\1/p' "$scratch/pre.dump" | tr '\n' ' ')"
    ran() { case $functions in *" $1 "*) true ;; *) false ;; esac; }
    if ! ran positive && ran positive.unsampled.0 && ran no_sites; then
        pass "RTL PRE runs on the unsampled clone and plain functions only"
    else
        echo "RTL PRE ran on: $functions" >>"$scratch/out"
        fail "RTL PRE runs on the unsampled clone and plain functions only" "$scratch/out"
    fi
else
    fail "RTL PRE: compile" "$scratch/out"
fi

# --- The entry region's slow copy out of line (outline-entry) ---------------
# With outline-entry, a function with a loop and sites tail-calls its
# sampled clone from its entry check's slow entry, and has no slow copy of
# its entry region.  The clone's sites are the function's: at sparsity 1
# the counts equal those of the build without the option (same seed), and
# the report names no new function.  At sparsity 100 the entry region's
# sites (walk's `p.b > 10' and `first < 0', 3000 visits each) are sampled
# about 1 in 100 over five seeds.
outline_src=$here/outline/entry.c
outline_schemes=-fplugin-arg-sampler-schemes=branches,returns,scalar-pairs,function-entries
gcc -O2 "$outline_src" -o "$scratch/outline-plain" && "$scratch/outline-plain" >"$scratch/outline-want"
for option in 0 1; do
    rm -f "$scratch/outline-dump"
    if "$wrapper" -O2 $outline_schemes -fplugin-arg-sampler-outline-entry=$option \
            -fplugin-arg-sampler-dump="$scratch/outline-dump" \
            "$outline_src" -o "$scratch/outline-$option" 2>"$scratch/out" &&
       (cd "$scratch" && SAMPLER_SPARSITY=1 SAMPLER_SEED=1 SAMPLER_FILE=outline-$option.report \
            "./outline-$option") >"$scratch/outline-got" 2>>"$scratch/out" &&
       cmp -s "$scratch/outline-want" "$scratch/outline-got" &&
       "$build/bin/sampler-report" show "$scratch/outline-$option.report" --format csv \
            >"$scratch/outline-$option.csv" 2>>"$scratch/out"; then
        pass "outline-entry=$option: builds, runs at sparsity 1 with plain's output"
    else
        fail "outline-entry=$option: builds, runs at sparsity 1 with plain's output" "$scratch/out"
    fi
done
objdump -d --no-show-raw-insn "$scratch/outline-1" >"$scratch/outline-1.s"
if grep -q "entry region out of line: walk\.sampled\." "$scratch/outline-dump" &&
   awk '/^[0-9a-f]+ <walk(\.cold)?>:/, /^$/' "$scratch/outline-1.s" |
        grep -qE 'jmp +[0-9a-f]+ <walk\.sampled\.[0-9]+>' &&
   ! nm "$scratch/outline-0" | grep -q '\.sampled\.'; then
    pass "outline-entry: walk tail-calls walk.sampled from its entry check"
else
    grep -E "out of line|^function" "$scratch/outline-dump" >"$scratch/out" 2>&1
    nm "$scratch/outline-0" "$scratch/outline-1" | grep '\.sampled' >>"$scratch/out"
    fail "outline-entry: walk tail-calls walk.sampled from its entry check" "$scratch/out"
fi
if [ -s "$scratch/outline-0.csv" ] && cmp -s "$scratch/outline-0.csv" "$scratch/outline-1.csv" &&
   ! grep -q '\.sampled' "$scratch/outline-1.csv"; then
    pass "outline-entry: counts at sparsity 1 equal those without it"
else
    diff "$scratch/outline-0.csv" "$scratch/outline-1.csv" >"$scratch/out" 2>&1
    fail "outline-entry: counts at sparsity 1 equal those without it" "$scratch/out"
fi
entry_samples=0
for seed in 1 2 3 4 5; do
    (cd "$scratch" && SAMPLER_SPARSITY=100 SAMPLER_SEED=$seed SAMPLER_FILE=outline-100.report \
        ./outline-1) >"$scratch/outline-got" 2>"$scratch/out"
    cmp -s "$scratch/outline-want" "$scratch/outline-got" || entry_samples=-1000
    n=$("$build/bin/sampler-report" show "$scratch/outline-100.report" --format csv 2>>"$scratch/out" |
        awk -F, '$6 == "walk" && $7 == "branches" && ($8 == "p.b > 10" || $8 == "first < 0") { s += $10 }
                 END { print s + 0 }')
    entry_samples=$((entry_samples + n))
done
# 5 seeds x 2 sites x 3000 visits / 100: 300, standard deviation about 17.
if [ $entry_samples -ge 215 ] && [ $entry_samples -le 385 ]; then
    pass "outline-entry: entry region sampled at sparsity 100 ($entry_samples of about 300)"
else
    echo "entry region samples: $entry_samples, want 300 +- 85" >>"$scratch/out"
    fail "outline-entry: entry region sampled at sparsity 100" "$scratch/out"
fi

finish
