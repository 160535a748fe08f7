/* A build that gives no warning plainly gives none instrumented (-Werror
   builds must build): GCC's late warnings run while the markers are in
   the code, and scalar-pairs made one read the pointer just passed to
   realloc (-Wuse-after-free in xz's xrealloc).  */
#include <stdio.h>
#include <stdlib.h>
void *xrealloc (void *ptr, size_t size)
{
  void *p = ptr;
  ptr = realloc (ptr, size);
  if (ptr == NULL)
    {
      free (p);
      fputs ("out of memory\n", stderr);
      exit (1);
    }
  return ptr;
}

/* TEST: no warning the plain build lacks (a pointer passed to realloc) at $level
   FOR: level in -O2 -O3
   RUN: gcc $level -Wall -Wextra -Werror -c $SRC -o xrealloc.o
   RUN: $WRAPPER $level -Wall -Wextra -Werror \
   RUN:     -fplugin-arg-sampler-schemes=checks,branches,returns,scalar-pairs,float-kinds,function-entries,bounds \
   RUN:     -c $SRC -o xrealloc.o  */
