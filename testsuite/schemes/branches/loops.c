/* loops.c: counted loops, which the plugin versions at -O2.  A loop whose
   every iteration visits the same sites, whose number of iterations is
   known on entry and which calls nothing instrumented gets a copy without
   sites; it runs when the countdown is beyond all the loop's visits, and
   the countdown takes them at once.  Its counts must stay exact at
   sparsity 1 and binomial at sparsity 100, where the copy without sites
   runs for most calls with 3 or 20 elements and rarely for 400.

   One round of main calls each function with n = 0, 1, 3, 20 and 400
   (424 elements; scan skips 0), a[i] = i % 10, so each digit 0..9
   appears 40 times in 400, twice in 20, and 0, 1, 2 in 3:
     i < n       true 424, false 5 (once per call)
     a[i] > 5    true 160 + 8 = 168 (digits 6..9), false 424 - 168 = 256
     a[i] == 9   (tally_nested, tested only above 5) true 40 + 2 = 42,
                 false 168 - 42 = 126
   scan tests a[i] > 5 for i = 0..n-1 (as above), ++i == n once per
   element (true 4, false 420), and a[i] == 9 after that test, for
   i = 1..n-1: true 40 + 2 = 42, false 378 (2 + 17 + 359).
   tally and scan are versioned (scan with a site after its exit test,
   which runs once less than the test); tally_nested is not, as its last
   test runs only on some iterations.  At n = 1 a copy without sites that
   took too little, or nothing, would leave tally's and scan's sites far
   below 1/100.  loops.expected holds twice these (two rounds).  */
#include <stdio.h>
#include <stdlib.h>

static int __attribute__ ((noinline))
tally (const int *a, int n)
{
  int above = 0;
  for (int i = 0; i < n; i++)
    if (a[i] > 5)
      above++;
  return above;
}

static int __attribute__ ((noinline))
tally_nested (const int *a, int n)
{
  int weight = 0;
  for (int i = 0; i < n; i++)
    if (a[i] > 5)
      {
	if (a[i] == 9)
	  weight += 2;
	else
	  weight++;
      }
  return weight;
}

static int __attribute__ ((noinline))
scan (const int *a, int n)
{
  int i = 0, weight = 0;
  for (;;)
    {
      weight += a[i] > 5 ? 2 : 1;
      if (++i == n)
	break;
      weight += a[i] == 9 ? 3 : 1;
    }
  return weight;
}

/* Versioned, with a site after the loop, in the region of the entry
   check: that region must end where the copy without sites takes its
   visits, or the site after the loop is charged before the loop's visits
   and is almost never sampled.  above > 3 is true for n = 20 and 400 (8
   and 160 digits above 5): true 2, false 3 per round.  */
static int __attribute__ ((noinline))
tally_then_test (const int *a, int n)
{
  int above = 0;
  for (int i = 0; i < n; i++)
    if (a[i] > 5)
      above++;
  if (above > 3)
    above += 10;
  return above;
}

/* Two exits, both counted, and a site after the loop.  Called with
   limit = n / 2 + 1 (which ends the loop first from n = 3 on; at n = 1
   both allow one iteration and the first test ends it), and with n = 4,
   limit = 9, where the first test ends it: the copy without sites must
   take only the visits of the exit taken, else the visit after the loop
   decides which copy runs and is rarely sampled.  Per round, for n = 0,
   1, 3, 20, 400 (limit 1, 1, 2, 11, 201) and five times n = 4:
     i < n       true 1 + 3 + 12 + 202 + 5 * 4 = 238, false 2 + 5 = 7
     i < limit   true 1 + 2 + 11 + 201 + 5 * 4 = 235, false 3
     a[i] > 5    true 4 + 80 = 84 (i = 0..10 and 0..200), false 1 + 2 + 7
                 + 121 + 5 * 4 = 151
     above > 1   true 2 (n = 20, 400), false 3 + 5 = 8.  */
static int __attribute__ ((noinline))
tally_two_exits (const int *a, int n, int limit)
{
  int i = 0, above = 0;
  while (i < n && i < limit)
    {
      if (a[i] > 5)
	above++;
      i++;
    }
  if (above > 1)
    above += 10;
  return above;
}

int
main (int argc, char **argv)
{
  static int a[400];
  static const int sizes[] = { 0, 1, 3, 20, 400 };
  int rounds = argc > 1 ? atoi (argv[1]) : 1;
  long total = 0;
  for (int i = 0; i < 400; i++)
    a[i] = i % 10;
  for (int r = 0; r < rounds; r++)
    for (int k = 0; k < 5; k++)
      {
	total += tally (a, sizes[k]) + tally_nested (a, sizes[k])
		 + tally_then_test (a, sizes[k])
		 + tally_two_exits (a, sizes[k], sizes[k] / 2 + 1)
		 + tally_two_exits (a, 4, 9);
	if (sizes[k] > 0)
	  total += scan (a, sizes[k]);
      }
  printf ("%ld\n", total);
  return 0;
}

/* CHECKS: bash $TESTSUITE/schemes/check-counts.sh -fplugin-arg-sampler-schemes=branches '-fplugin-arg-sampler-include-function=tally*' -fplugin-arg-sampler-include-function=scan '-fplugin-arg-sampler-exclude-function=*'  */
