/* Paths at the edges of regions (run-paths-tests.sh): a computed goto's
   targets, a function that calls setjmp (not cloned: no paths), a
   weightless call inside a path, a weighty call between two paths.
   With argument R (rounds); edges-O2.expected holds the counts for
   R = 2.  */
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

volatile int sink;

/* A threaded interpreter: each op's code ends with `goto *', which ends
   its path; each op's label starts one (a goto-target check).  The
   program below runs inc 3 times, dec once, halt once per call: inc's
   path 3, dec's 1, and the entry's path to the first jump 1; halt's label
   leads straight into the return, an empty region with no path.  */
__attribute__((noinline)) int interpret(const unsigned char *program)
{
    static void *const ops[] = { &&inc, &&dec, &&halt };
    int acc = 0;
    goto *ops[*program++];
inc:
    acc++;
    goto *ops[*program++];
dec:
    acc--;
    goto *ops[*program++];
halt:
    return acc;
}

/* Calls setjmp: not cloned, its paths are not observed.  */
__attribute__((noinline)) int protected_call(int x)
{
    jmp_buf env;
    if (setjmp(env))
        return -1;
    if (x > 0)
        sink = 1;
    return x;
}

/* strlen is weightless (a system header's): inside the path.  The weighty
   call to interpret ends the path before it; a new one starts after.
   Per call with s = "ab": one path to the call (length 2 > 1), one after
   it (acc == 2).  */
__attribute__((noinline)) int around(const char *s)
{
    static const unsigned char program[] = { 0, 0, 0, 1, 2 };
    if (strlen(s) > 1)
        sink = 2;
    else
        sink = 3;
    int acc = interpret(program);
    if (acc == 2)
        sink = 4;
    return acc;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 2;
    for (int r = 0; r < rounds; r++) {
        around("ab");
        protected_call(r);
    }
    return 0;
}
