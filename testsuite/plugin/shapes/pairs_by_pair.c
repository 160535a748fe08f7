/* pairs_by_assignment.c with pairs-sites=pair: each of the four sites is
   a visit of its own, and the entry check weighs 4.  */
#include "pairs_by_assignment.c"

/* TEST: shape $NAME $opt
   FOR: opt in -O0 -O2 "-O3 -g"
   RUN: $SRCDIR/check-dump.sh "$opt" -fplugin-arg-sampler-schemes=scalar-pairs -fplugin-arg-sampler-pairs-sites=pair  */
