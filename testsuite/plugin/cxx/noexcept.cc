// noexcept functions: with sites, calling functions that throw and catch
// inside them, and one whose exception escapes, so that std::terminate
// runs (a terminate handler prints what was done and exits).
#include <cstdio>
#include <cstdlib>
#include <exception>

static long total;

__attribute__ ((noinline)) int
may_throw (int x)
{
  if (x % 9 == 4)
    throw x;
  return x % 5 < 2 ? x : -x;
}

__attribute__ ((noinline)) int
contained (int x) noexcept
{
  int r = 0;
  try
    {
      r = may_throw (x);
    }
  catch (int v)
    {
      r = v > 100 ? 1 : 2;
    }
  if (r < 0)
    r = -r / 2;
  return r;
}

__attribute__ ((noinline)) int
pure (int x) noexcept
{
  int r = 0;
  for (int i = 0; i < x % 5; i++)
    r += i % 2 ? i : -i;
  return r;
}

__attribute__ ((noinline)) int
escapes (int x) noexcept
{
  if (x > 20000)
    return pure (x) + may_throw (4);	/* 4 % 9 == 4: throws.  */
  return pure (x);
}

static void
on_terminate ()
{
  std::printf ("terminate: total %ld\n", total);
  std::fflush (stdout);
  std::_Exit (3);
}

int
main ()
{
  std::set_terminate (on_terminate);
  for (int x = 0; x < 20001; x++)
    {
      total += contained (x);
      total += pure (x);
    }
  std::printf ("before escape: total %ld\n", total);
  for (int x = 19990; x < 20010; x++)
    total += escapes (x);
  std::printf ("never reached\n");
  return 0;
}

/* CHECKS: $SRCDIR/check-program.sh $opt
   FOR: opt in -O0 -O2  */
