/* Instrumented functions reached in every way a run enters them: a direct
   call from main, a call through a pointer, another unit's function, a
   thread's start routine, a check function's call.  With sampling off
   each must run its unsampled clone (the probe's caller says which copy
   ran), and the check function must not run.  A function with variable
   arguments has no clone: it runs first, instrumented, and the others
   must still find their clones after it.  Static functions called only
   from instrumented functions have no way in with sampling off but from
   the clones.  */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>

void probe(const char *what);
int expensive_check(int) __attribute__((sampled));
extern int checks_run;
int other_unit(int x);

__attribute__((noinline)) int direct(int x)
{
    probe("direct");
    return x > 2 ? x - 1 : x + 1;
}

__attribute__((noinline)) int by_pointer(int x)
{
    probe("pointer");
    return x > 3 ? x : -x;
}

static void *thread_main(void *arg)
{
    probe("thread");
    return *(int *)arg > 0 ? arg : NULL;
}

int (*volatile function_pointer)(int) = by_pointer;

/* Static and called only from instrumented functions, which go to their
   clones with sampling off: only the clone runs then, and it is an
   ordinary local function, inlined where the plain build inlines it.  */
static __attribute__((noinline)) int helper(int x)
{
    probe("helper");
    return x > 1 ? 0 : 1;
}

__attribute__((noinline)) int direct_with_helper(int x)
{
    return helper(x) + (x > 9);
}

/* Too big for any inlining but of a static function called once.  */
static volatile int sink;
static int once(int x)
{
    probe("once");
    for (int i = 0; i < x; i++) {
        sink += i * 3;
        sink ^= i;
        sink += x * i;
        sink -= i >> 1;
        sink += i * 7;
        sink ^= x;
        sink += i * 11;
        sink -= x >> 2;
    }
    return x > 4 ? 0 : 2;
}

/* No sites of its own: it gets those of gains_once, which the IPA
   inliner inlines into it (a static function called once), and must then
   dispatch to its clone as any function with sites (lua's
   luaD_callnoyield, with its helper ccall).  */
static int gains_once(int x)
{
    probe("gains");
    for (int i = 0; i < x; i++) {
        sink += i * 5;
        sink ^= i;
        sink += x * i;
        sink -= i >> 2;
        sink += i * 9;
        sink ^= x;
        sink += i * 13;
        sink -= x >> 3;
    }
    return x > 3 ? 1 : 4;
}

__attribute__((noinline)) int gains_sites(int x)
{
    return gains_once(x);
}

int (*volatile gains_pointer)(int) = gains_sites;

/* Static, but called from a function without sites, which has nothing to
   dispatch with: it must go to its clone itself.  */
static __attribute__((noinline)) int from_plain(int x)
{
    probe("from_plain");
    return x > 2 ? 0 : 3;
}

__attribute__((noinline)) int without_sites(int x)
{
    return from_plain(x);
}

int (*volatile without_sites_pointer)(int) = without_sites;

/* Not cloned (it calls setjmp), and calls an instrumented function through
   a pointer: as lua runs its whole program inside its protected call.  */
static jmp_buf on_error;
__attribute__((noinline)) int protected_call(int (*volatile f)(int), int x)
{
    if (setjmp(on_error) != 0)
        return -1;
    return x > 0 ? f(x) : 0;
}

__attribute__((noinline)) int in_protected(int x)
{
    probe("protected");
    return x > 2 ? x : -x;
}

int (*volatile protected_pointer)(int (*)(int), int) = protected_call;

/* GCC copies no function that keeps its labels' addresses in a static
   table (lua's interpreter loop); the plugin does, and gives the clone a
   table of its own labels: with sampling off, the code at the labels is
   the clone's (the probe at op_call says), and so is what it calls: a
   function of its unit, another unit's, and one reached through a
   pointer.  */
__attribute__((noinline)) int uncopied_callee(int x)
{
    probe("uncopied_callee");
    return x > 2 ? x : -x;
}

__attribute__((noinline)) int uncopied_pointee(int x)
{
    probe("uncopied_pointee");
    return x > 4 ? 1 : 2;
}

int (*volatile uncopied_pointer)(int) = uncopied_pointee;

__attribute__((noinline)) int interpret(const unsigned char *code)
{
    static const void *const table[] = { &&op_call, &&op_pointer, &&op_other,
                                         &&op_end };
    int acc = 1;
    probe("interpret");
    goto *table[*code++];
op_call:
    probe("op_call");
    acc += uncopied_callee(acc);
    goto *table[*code++];
op_pointer:
    acc += uncopied_pointer(acc);
    goto *table[*code++];
op_other:
    if (acc != 7)
        acc += other_unit(acc);
    goto *table[*code++];
op_end:
    return acc > 0 ? acc : -acc;
}

int (*volatile interpret_pointer)(const unsigned char *) = interpret;

/* Aggregates come back through the clone too: in registers, and in
   memory.  */
struct pair { long a, b; };
struct big { long v[6]; };

__attribute__((noinline)) struct pair make_pair(int x)
{
    probe("pair");
    struct pair p = { x > 1 ? x : -x, 2 * x };
    return p;
}

__attribute__((noinline)) struct big make_big(int x)
{
    probe("big");
    struct big b = { { x, x + 1, x + 2, x + 3, x + 4, x > 4 ? x : 0 } };
    return b;
}

struct pair (*volatile pair_pointer)(int) = make_pair;
struct big (*volatile big_pointer)(int) = make_big;

__attribute__((noinline)) int sum(int n, ...)
{
    va_list args;
    int total = 0;
    va_start(args, n);
    for (int i = 0; i < n; i++) {
        int x = va_arg(args, int);
        total += x > 0 ? x : -x;
    }
    va_end(args);
    return total;
}

int main(void)
{
    int total = sum(3, 1, -2, 3) - 6;
    total += direct(5) + function_pointer(7) + other_unit(3);
    total += protected_pointer(in_protected, 3) - 3;
    struct pair p = pair_pointer(2);
    struct big b = big_pointer(5);
    total += (int)(p.a + p.b + b.v[0] + b.v[5]) - 16;
    total += direct_with_helper(3) + once(7) + without_sites_pointer(5);
    static const unsigned char program[] = { 0, 1, 2, 3 };
    total += interpret_pointer(program) - 14;
    total += gains_pointer(5) - 1;
    total += expensive_check(total);
    pthread_t thread;
    if (pthread_create(&thread, NULL, thread_main, &total) != 0
        || pthread_join(thread, NULL) != 0)
        return 1;
    printf("total %d checks %d\n", total, checks_run);
    return 0;
}
