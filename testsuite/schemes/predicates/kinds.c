/* kinds.c: predicates on pointers, enums, unsigned types, bit-fields and
   globals, with counts known in advance (counts.expected's companion,
   kinds.expected).  One round of main does, in order:

   for k = 0..5:  p = find (k)         returns: pointer ==0 twice (k = 4, 5),
                                       >0 four times; scalar-pairs p ? first:
                                       == once (k = 0), > three times, < twice
                                       (a null pointer is below any object)
                  if (p)               branches: true 4, false 2
                  c = pick (*p)        returns (enum): table = 5, 0, -5, 7
                                       gives BLUE, GREEN, RED, BLUE:
                                       ==0 (RED) once, >0 three times;
                                       scalar-pairs c ? favourite (GREEN):
                                       < once, == once, > twice
                  u = k * 3u           unsigned: bounds 0..15, and
                                       u ? hits (global, 0 then 1..):
                  if (c == BLUE) hits++    hits counts BLUEs so far
   flags.level = 5; if (flags.level > 2)   branch on a bit-field: true once
   flags.ready = k == 6;                   (k is 6 after the loop)
   if (flags.ready) total++                branch: true once
   */
#include <stdio.h>
#include <stdlib.h>

enum colour { RED, GREEN, BLUE };
struct flags { unsigned ready : 1; unsigned level : 3; };

static int table[4] = { 5, 0, -5, 7 };
unsigned hits;

static int * __attribute__ ((noinline))
find (int k)
{
  return k < 4 ? &table[k] : NULL;
}

static enum colour __attribute__ ((noinline))
pick (int v)
{
  return v > 0 ? BLUE : v == 0 ? GREEN : RED;
}

int
main (int argc, char **argv)
{
  int rounds = atoi (argc > 1 ? argv[1] : "1");
  long total = 0;
  int *first = &table[0];
  enum colour favourite = GREEN;
  struct flags flags = { 0, 0 };
  for (int r = 0; r < rounds; r++)
    {
      int k;
      for (k = 0; k < 6; k++)
        {
          int *p = find (k);
          if (p)
            {
              enum colour c = pick (*p);
              if (c == BLUE)
                hits++;
              total += c == favourite;
            }
          unsigned u = k * 3u;
          total += u;
        }
      flags.level = 5;
      if (flags.level > 2)
        total++;
      flags.ready = k == 6;
      if (flags.ready)
        total++;
    }
  printf ("%ld %u %d\n", total, hits, first == &table[0]);
  return 0;
}

/* CHECKS: bash $TESTSUITE/schemes/check-counts.sh  */
