/* A function declared in a system header counts as weightless, so the
   caller's region runs on across the call, but it may have sites of its
   own (gnulib's rpl_ functions, declared in headers with `#pragma GCC
   system_header', are defined in the program).  Its slow copy runs while
   the caller's does: the caller's count must come out right.  A slow copy
   that noted its region's end in thread-local memory lost it to the
   callee's, and main's next visits went unsampled at sparsity 1 (site
   `r & 1' was counted once in 1000 visits; gzip's do_exit, entered from
   main after fflush, was never seen entered).  At sparsity 1 each count is
   exact: caller.expected.  */
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

/* TEST: callee with sites declared in a system header, at $level: exact counts at sparsity 1
   FOR: level in -O0 -O2
   RUN: rm -f callee.report
   RUN: $WRAPPER $level -fplugin-arg-sampler-schemes=branches -I$SRCDIR/sys $SRC $SRCDIR/helper.c -o callee
   RUN: SAMPLER_SPARSITY=1 SAMPLER_FILE=callee.report ./callee >run
   RUN: $REPORT show callee.report --format csv | sed 1d | cut -d, -f8-10 >counts
   RUN: diff $SRCDIR/caller.expected counts  */
