/* Built plainly: tells where it was called from, and counts the runs of a
   check function (a call that runs only when sampled).  */
#include <stdio.h>

int checks_run;

__attribute__((noinline)) void probe(const char *what)
{
    printf("%s %p\n", what, __builtin_return_address(0));
}

int expensive_check(int x)
{
    checks_run++;
    return x;
}
