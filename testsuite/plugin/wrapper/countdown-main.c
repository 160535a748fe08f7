/* An executable with sites of its own (own.c), using a library with
   sites (lib.c), which sets the sparsity of its thread (wrapper.sh).  */
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
