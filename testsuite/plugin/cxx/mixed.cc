// Code built with -fno-exceptions (mixed-noexc.cc) between frames that
// throw and catch: an exception passes through a -fno-exceptions frame
// (which has unwind tables but no cleanups), and the -fno-exceptions code
// with its own sites runs between the EH code's.
#include <cstdio>

int fold (const int *v, int n, int (*step) (int));	// mixed-noexc.cc
int scale (int x);					// mixed-noexc.cc

static int alive;

struct Scope
{
  Scope () { alive++; }
  ~Scope () { alive--; }
};

__attribute__ ((noinline)) static int
step (int x)
{
  Scope s;
  if (x % 97 == 13)
    throw x;
  return x % 3 == 0 ? x / 3 : x;
}

int
main ()
{
  int v[16];
  long sum = 0;
  int thrown = 0;
  for (int round = 0; round < 4000; round++)
    {
      Scope s;
      for (int i = 0; i < 16; i++)
	v[i] = scale (round + i);
      try
	{
	  sum += fold (v, 16, step);
	}
      catch (int x)
	{
	  thrown++;
	  sum -= x % 10;
	}
    }
  std::printf ("sum %ld thrown %d alive %d\n", sum, thrown, alive);
  return alive != 0;
}

/* CHECKS: $SRCDIR/check-program.sh $opt
   FOR: opt in -O0 -O2  */
