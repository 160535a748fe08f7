/* Predicates over loads through pointers read like the source.  These
   crashed GCC when the predicate text was printed (a MEM_REF's offset lost
   its pointer type); GCC's torture tests cmpdi-1, pr43008, 20000314-1 and
   many more have the same shapes.  */
struct pair { int key; int value; };

int
below_a (char *x)
{
  if (*x < 'a')
    return 1;
  return 0;
}

int
through_integer (long address)
{
  return address != 0 && *(char *) address;
}

int
field (struct pair *p, int k)
{
  return p->key == k ? p[1].value : 0;
}

/* CHECKS: $SRCDIR/check-table.sh -fplugin-arg-sampler-schemes=checks,branches,returns,scalar-pairs,float-kinds,function-entries,bounds  */
