/* scalar-pairs compares an assignment only with locals assigned on every
   path to it: an unassigned partner would be read as stale stack bits
   (valgrind reported it in sed's compile_program).  Every assignment also
   pairs with the parameter n.
     a = n        no local: b, c, d, e, f are not assigned yet
     b = a + 1    b ? a
     c = 1        (only if n) c ? a, c ? b
     a = 2        a ? b; c is assigned on one path only: no a ? c
     d = 0        d ? a, d ? b
     e = d        e ? a, e ? b, e ? d
     d = e + 1    d ? a, d ? b, d ? e (in the loop, after e = d)
     a = 4        a ? b, a ? d, a ? f: f's address was passed to fill,
                  which may have filled it; e is assigned only when the
                  loop ran at least once: no a ? e  */
void fill (int *);

int
order (int n)
{
  int a, b, c, d, e, f;
  a = n;
  b = a + 1;
  if (n)
    c = 1;
  a = 2;
  for (d = 0; d < n; d = e + 1)
    e = d;
  fill (&f);
  a = 4;
  return a + b + d + f;
}

/* CHECKS: $SRCDIR/check-table.sh -fplugin-arg-sampler-schemes=scalar-pairs  */
