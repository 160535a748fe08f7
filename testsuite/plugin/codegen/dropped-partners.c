/* scalar-pairs partners that GCC may drop: a static whose every read it
   folds (a static const), one that nothing reads.  The slow copy reads
   what it observes where a site is sampled; reading these there made the
   link fail (undefined iLn.1), as sqlite3's build did.  */
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

/* TEST: scalar-pairs with statics GCC drops at $level: links, runs, reports
   FOR: level in -O0 -O2
   RUN: $WRAPPER $level -fplugin-arg-sampler-schemes=scalar-pairs $SRC -o dropped
   RUN: SAMPLER_SPARSITY=1 SAMPLER_FILE=dropped.report ./dropped >run
   RUN: [ "$(cat run)" = 3496500 ]
   RUN: $REPORT show dropped.report --format csv | grep -q "seen ? line"  */
