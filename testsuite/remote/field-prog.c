/* A program of a release, for testsuite/remote: branches and returns (the
   schemes a release sends by default), values and indirect calls (kept on
   the machine unless the release says otherwise).

     field-prog [exit|status|crash|interim]

   prints a sum and exits 0; `status' exits 3; `crash' dies of SIGSEGV
   after printing; `interim' writes an interim report, says "dumped" and
   waits for standard input to close before it exits.  */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifdef __SAMPLER__
#include <sampler.h>
#endif

static int twice(int x) { return 2 * x; }
static int negate(int x) { return -x; }

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "exit";
    int (*step)(int) = strlen(mode) % 2 ? twice : negate;
    long sum = 0;

    for (int i = 0; i < 2000; i++) {
        int value = step(i);
        if (value > 500)
            sum += value;
        else
            sum -= 1;
    }
    printf("%ld\n", sum);
    fflush(stdout);
    if (strcmp(mode, "crash") == 0)
        raise(SIGSEGV);
    if (strcmp(mode, "interim") == 0) {
        char byte;
#ifdef __SAMPLER__
        sampler_dump();
#endif
        puts("dumped");
        fflush(stdout);
        while (read(0, &byte, 1) > 0)
            ;
    }
    return strcmp(mode, "status") == 0 ? 3 : 0;
}
