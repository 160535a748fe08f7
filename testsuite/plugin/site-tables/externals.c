/* scalar-pairs pairs an assignment with the globals of other units that
   the function itself uses (array_count, variable_count), never with one
   it does not use (unused_count): bc's `indx > a_count'.
     indx = 1        indx ? array_count, indx ? variable_count
     indx++          the same
   The loop's own test and the store read the globals; grow has no
   parameter and no other local.  */
#include "externals.h"
int *slots[100];

void
grow (void)
{
  int indx;
  for (indx = 1; indx < variable_count; indx++)
    slots[indx] = slots[indx - 1] + array_count;
}

/* CHECKS: $SRCDIR/check-table.sh -fplugin-arg-sampler-schemes=scalar-pairs  */
