/* No read of unassigned locals: scalar-pairs must not compare with a local
   that is not yet assigned (sed's valgrind tests caught `b ? b2' before
   b2's first assignment): the instrumented program, sampling everything,
   must be clean under valgrind.  */
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

/* TEST: scalar-pairs reads no unassigned local ($opt, valgrind)
   FOR: opt in -O0 -O2
   RUN: $WRAPPER $opt -g -fplugin-arg-sampler-schemes=scalar-pairs $SRC -o late
   RUN: SAMPLER_SPARSITY=1 SAMPLER_FILE=late-%p.report valgrind -q --error-exitcode=9 ./late >late.out
   RUN: [ "$(cat late.out)" = 5 ]  */
