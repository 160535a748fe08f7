/* C++: an exception from may_throw lands where the inlined destructor
   of u has its site (at -O2): the landing pad starts a region of its own,
   with a check, and the function is cloned like any other.  At -O0 the
   destructor is a call, which ends the region.  */
void check (int) __attribute__ ((sampled));
int may_throw (int);
struct Undo
{
  int *p;
  ~Undo () { check (*p); }
};
int
landing_pad (int x)
{
  int c = x;
  Undo u { &c };
  int r = may_throw (x);
  check (r);
  return r + c;
}

/* TEST: shape $NAME $opt
   FOR: opt in -O0 -O2 "-O3 -g"
   RUN: $SRCDIR/check-dump.sh "$opt"  */
