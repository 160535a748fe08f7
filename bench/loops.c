/* A loop-heavy workload with seed 000's kind of checks: bounds and
   invariants asserted in the inner loops of a sieve, a matrix product and
   an insertion sort.  The checks are `sampled': they run only when sampled.
   Prints a checksum so every build can be compared.  Built plain, the
   checks run every time; built with -DNO_CHECKS, they are compiled out.  */
#include <stdio.h>
#include <stdlib.h>

#ifdef __SAMPLER__
#define SAMPLED __attribute__ ((sampled))
#else
#define SAMPLED
#endif

static unsigned long checks_run, checks_failed;

void check (int ok) SAMPLED;
__attribute__ ((noinline)) void
check (int ok)
{
  checks_run++;
  if (!ok)
    checks_failed++;
}
/* The floor: what the program costs with no checking at all.  */
#ifdef NO_CHECKS
#define check(ok) ((void) 0)
#endif

enum { N = 1 << 20, M = 96, S = 3000 };
static unsigned char composite[N];
static double a[M][M], b[M][M], c[M][M];
static int v[S];

static unsigned long
sieve (void)
{
  unsigned long primes = 0;
  for (unsigned i = 2; i < N; i++)
    {
      check (i < N);
      if (composite[i])
	continue;
      primes++;
      for (unsigned long j = (unsigned long) i * i; j < N; j += i)
	{
	  check (j < N);
	  composite[j] = 1;
	}
    }
  return primes;
}

static double
matmul (void)
{
  for (int i = 0; i < M; i++)
    for (int j = 0; j < M; j++)
      {
	double sum = 0;
	for (int k = 0; k < M; k++)
	  {
	    check (i < M && k < M);
	    sum += a[i][k] * b[k][j];
	  }
	c[i][j] = sum;
      }
  return c[M / 2][M / 3];
}

static long
insertion_sort (unsigned seed)
{
  for (int i = 0; i < S; i++)
    {
      seed = seed * 1103515245u + 12345u;
      v[i] = (int) (seed >> 8);
    }
  for (int i = 1; i < S; i++)
    {
      int x = v[i], j = i - 1;
      while (j >= 0 && v[j] > x)
	{
	  check (j + 1 < S);
	  v[j + 1] = v[j];
	  j--;
	}
      v[j + 1] = x;
    }
  return v[S / 2];
}

int
main (int argc, char **argv)
{
  int rounds = argc > 1 ? atoi (argv[1]) : 10;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < M; j++)
      a[i][j] = i + j, b[i][j] = i - j;
  double checksum = 0;
  for (int r = 0; r < rounds; r++)
    {
      for (int i = 0; i < N; i++)
	composite[i] = 0;
      checksum += sieve ();
      checksum += matmul ();
      checksum += insertion_sort (r + 1);
    }
  printf ("checksum %.1f\n", checksum);
  fprintf (stderr, "checks run %lu failed %lu\n", checks_run, checks_failed);
  return 0;
}
