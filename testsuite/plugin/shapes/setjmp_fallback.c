/* setjmp: not cloned, sites guarded one by one.  */
#include <setjmp.h>
void check (int) __attribute__ ((sampled));
extern jmp_buf env;
int setjmp_fallback (int n)
{
  if (setjmp (env))
    return -1;
  for (int i = 0; i < n; i++)
    check (i);
  return 0;
}

/* TEST: shape $NAME $opt
   FOR: opt in -O0 -O2 "-O3 -g"
   RUN: $SRCDIR/check-dump.sh "$opt"  */
