/* pairs_by_assignment.c with pairs-sites=pair: each of the four sites is
   a visit of its own, and the entry check weighs 4.  */
#include "pairs_by_assignment.c"
