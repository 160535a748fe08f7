// Rethrow: catch (...) with cleanup and throw;, nested try blocks,
// std::exception_ptr rethrown later, a function-try-block, and an
// exception replaced by another in a handler.
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>

static int counted_alive;

struct Counted
{
  Counted () { counted_alive++; }
  Counted (const Counted &) { counted_alive++; }
  ~Counted () { counted_alive--; }
};

__attribute__ ((noinline)) int
source (int x)
{
  Counted c;
  if (x % 4 == 1)
    throw std::out_of_range ("range " + std::to_string (x % 10));
  if (x % 4 == 2)
    throw x;
  return x % 3;
}

__attribute__ ((noinline)) int
relay (int x, int &cleanups)
{
  Counted c;
  try
    {
      return source (x) + 1;
    }
  catch (...)
    {
      cleanups++;
      if (x % 8 == 2)
	throw std::runtime_error ("replaced");
      throw;
    }
}

struct Holder
{
  int value;
  Counted c;
  Holder (int x, int &cleanups)
  try : value (relay (x, cleanups))
    {
    }
  catch (const std::runtime_error &)
    {
      cleanups += 10;
    }
};

int
main ()
{
  int cleanups = 0, ranges = 0, ints = 0, replaced = 0, held = 0;
  long sum = 0;
  std::exception_ptr kept;
  for (int x = 0; x < 20000; x++)
    {
      try
	{
	  try
	    {
	      Holder h (x, cleanups);
	      sum += h.value;
	    }
	  catch (const std::out_of_range &e)
	    {
	      ranges++;
	      sum += e.what ()[6] - '0';
	      if (x % 16 == 5)
		kept = std::current_exception ();
	      else
		throw;
	    }
	}
      catch (int v)
	{
	  ints++;
	  sum += v % 7;
	}
      catch (const std::runtime_error &)
	{
	  replaced++;
	}
      catch (const std::exception &)
	{
	  held++;
	}
      if (kept && x % 32 == 31)
	{
	  try
	    {
	      std::rethrow_exception (kept);
	    }
	  catch (const std::out_of_range &)
	    {
	      held += 100;
	    }
	  kept = nullptr;
	}
    }
  std::printf ("sum %ld cleanups %d ranges %d ints %d replaced %d held %d alive %d\n",
	       sum, cleanups, ranges, ints, replaced, held, counted_alive);
  return counted_alive != 0;
}

/* CHECKS: $SRCDIR/check-program.sh $opt
   FOR: opt in -O0 -O2  */
