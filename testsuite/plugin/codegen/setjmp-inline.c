/* setjmp and an inlined function that longjmps.  The setjmp function's
   loop stores, then calls an inlined function that longjmps back; the
   store must survive.  The inliner gives the inlined calls abnormal edges
   only if .ABNORMAL_DISPATCHER begins its block: an export put before it
   (as before any noreturn call) dropped them, and GCC deleted the store
   (GCC's torture test pr60003 once the callee inlines).  */
#include <stdlib.h>
static void *buffer[5];
__attribute__ ((noinline, noclone)) static void jump_back (void)
{ __builtin_longjmp (buffer, 1); }
static inline __attribute__ ((always_inline)) void leave (void) { jump_back (); }
__attribute__ ((noinline, noclone)) static int stored_before_jump (int x)
{
  int stored = 0;
  if (__builtin_setjmp (buffer) == 0)
    for (;;)
      {
        stored = 1;
        leave ();
      }
  return stored ? x : 0;
}
int main (void) { if (stored_before_jump (7) != 7) abort (); return 0; }

/* TEST: setjmp function with an inlined longjmp at $level
   FOR: level in -O0 -O2 -O3
   RUN: $WRAPPER $level -fplugin-arg-sampler-schemes=checks,branches,returns,scalar-pairs,float-kinds,function-entries,bounds \
   RUN:     $SRC -o setjmp-inline 2>out || { cat out; exit 1; }
   RUN: for sparsity in 0 1 100; do \
   RUN:     SAMPLER_SPARSITY=$sparsity ./setjmp-inline >>out 2>&1 || echo "sparsity $sparsity: exit $?" >>out; \
   RUN: done
   RUN: cat out; [ ! -s out ]  */
