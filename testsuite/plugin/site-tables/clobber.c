/* A local whose address is taken lives in memory, and GCC ends its life
   with `low = {CLOBBER}' where control leaves its scope, at the location
   of the return that leaves: not an assignment of the source, and a site
   there would read the dead value (bc's _bc_rec_mul gave "may be used
   uninitialized" warnings at its early return).  Sites:
     low = n / 2       low ? n  (high is not assigned yet)
     high = n - low    high ? low, high ? n
   and none at the early return.  */
void fill (int *);
void use (int);

void
split (int n)
{
  int low, high;
  if (n < 10)
    {
      use (n);
      return;
    }
  low = n / 2;
  high = n - low;
  fill (&low);
  use (low + high);
}

/* CHECKS: $SRCDIR/check-table.sh -fplugin-arg-sampler-schemes=scalar-pairs -Werror=maybe-uninitialized  */
