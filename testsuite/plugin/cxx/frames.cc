// Exceptions thrown through several instrumented frames, each with
// objects whose destructors must run exactly once, from sampled and
// unsampled visits alike (at sparsity 100 most visits are unsampled, at
// sparsity 1 every one is sampled); caught by type, rethrown, or passing
// through a catch that does not match.
#include <cstdio>
#include <stdexcept>

static int live[16];
static long built, destroyed;

struct Guard
{
  int id;
  explicit Guard (int i) : id (i) { live[id]++; built++; }
  ~Guard ()
  {
    if (--live[id] < 0)
      std::printf ("guard %d destroyed twice\n", id);
    destroyed++;
  }
};

/* Inlined where it is destroyed, landing pads included, with its site.  */
struct Undo
{
  int *p;
  ~Undo ()
  {
    if (*p > 0)
      (*p)--;
    else
      (*p)++;
  }
};

static int undone;

struct Fault
{
  int depth, value;
};

__attribute__ ((noinline)) int
deepest (int x, int depth)
{
  Guard g (3);
  Undo u { &undone };
  int r = 0;
  for (int i = 0; i < x % 7; i++)
    if ((x + i) % 3 == 0)
      r += i;
    else
      r -= 1;
  if (x % 11 == depth)
    throw Fault { 3, r };
  if (x % 13 == 0)
    throw std::runtime_error ("deepest");
  return r;
}

__attribute__ ((noinline)) int
middle (int x, int depth)
{
  Guard g (2);
  Undo u { &undone };
  int s = 0;
  for (int k = 0; k < 2; k++)
    {
      Guard inner (10 + k);
      s += deepest (x + k, depth);
      if (s > 100)
	s -= 50;
    }
  if (x % 17 == depth)
    throw Fault { 2, s };
  return s;
}

__attribute__ ((noinline)) int
outer (int x)
{
  Guard g (1);
  try
    {
      return middle (x, x % 5);
    }
  catch (const Fault &f)
    {
      if (f.depth == 2)
	throw;
      return f.value < 0 ? -f.value : f.value + 1;
    }
  catch (const std::logic_error &)
    {
      std::printf ("never: no logic_error is thrown\n");
      return 0;
    }
}

int
main ()
{
  long sum = 0;
  int faults = 0, runtime_errors = 0;
  for (int x = 0; x < 30000; x++)
    {
      Guard g (0);
      try
	{
	  sum += outer (x);
	}
      catch (const Fault &f)
	{
	  faults++;
	  sum += f.depth * f.value;
	}
      catch (const std::exception &e)
	{
	  runtime_errors++;
	  sum -= x % 3;
	}
    }
  for (int id = 0; id < 16; id++)
    if (live[id] != 0)
      std::printf ("guard %d: %d alive\n", id, live[id]);
  std::printf ("sum %ld faults %d runtime errors %d guards %ld destroyed %ld"
	       " undone %d\n", sum, faults, runtime_errors, built, destroyed,
	       undone);
  return built == destroyed ? 0 : 1;
}

/* CHECKS: $SRCDIR/check-program.sh $opt
   FOR: opt in -O0 -O2  */
