/* verbose says which functions are cloned into fast and slow copies and
   why others are not (f calls setjmp).  Compiled with -save-temps, the .i
   goes through -fpreprocessed, where no macro may be defined.  */
#include <setjmp.h>
void check (int) __attribute__ ((sampled));
jmp_buf env;
int f (int n) { if (setjmp (env)) return 1; check (n); return 0; }
int g (int n) { check (n); return n; }

/* TEST: verbose says which functions are cloned and why not
   RUN: gcc -fplugin=$PLUGIN -fplugin-arg-sampler-verbose -c $SRC -o x.o 2>out || true
   RUN: grep -q "'f' calls setjmp.*not cloned" out && grep -q "'g': 1 sites, cloned" out
   TEST: preprocessed input (-save-temps)
   RUN: cp $SRC verbose.c && gcc -save-temps -fplugin=$PLUGIN -c verbose.c -o x.o  */
