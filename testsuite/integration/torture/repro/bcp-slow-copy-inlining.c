/* Reproducer (behaviour differs from plain; judgement call, see below):
   from the torture test execute/bcp-1 (-fgnu89-inline), function-entries
   scheme alone.

   Command:
     build/bin/sampler-gcc -O2 -fgnu89-inline \
       -fplugin-arg-sampler-schemes=function-entries \
       testsuite/integration/torture/repro/bcp-slow-copy-inlining.c -o bcp
     SAMPLER_SPARSITY=1 ./bcp      # aborts (exit 134); plain gcc -O2: exit 0
     SAMPLER_SPARSITY=100 ./bcp    # exit 0

   Cause: in opt0's slow copy (taken when the countdown is <= the check's
   weight, always at sparsity 1) the call bad3 (1) is in a block predicted
   unlikely, so GCC does not inline it there ("jmp bad3" in the assembly);
   out of line, __builtin_constant_p (x) is 0.  The fast copy inlines it
   and gets 1, like the plain build.  The C result of __builtin_constant_p
   on an expression that is only constant after inlining is unspecified
   (the test itself says failure "indicates an optimization regression"),
   so this is an optimisation-quality difference, not wrong code; but it
   shows that behaviour can depend on which copy runs.  */
extern void abort (void);
inline int bad3 (int x) { return __builtin_constant_p (x); }
int opt0 (void) { return bad3 (1); }
int (*volatile fp) (void) = opt0;
int main (void)
{
  if (!fp ())
    abort ();
  return 0;
}
