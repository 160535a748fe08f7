/* One site of each scheme, and then some: the site table this unit gets
   (schemes.expected) is checked line by line.  */
#include <stdio.h>
#include <stdlib.h>

void check (int ok) __attribute__ ((sampled));
extern int lookup (const char *key);

struct node { struct node *next; int size; };
int limit = 10;
static double scale = 2.5;

int
count_nodes (struct node *p, int max)
{
  int n = 0;
  while (p != NULL && n < max)
    {
      check (p->size >= 0);
      n++;
      p = p->next;
    }
  return n;
}

double
average (const int *values, int count)
{
  double sum = 0;
  for (int i = 0; i < count; i++)
    sum += values[i] * scale;
  return count ? sum / count : 0.0;
}

const char *
classify (int c)
{
  switch (c)
    {
    case 'a':
    case 'e':
      return "vowel";
    case '0' ... '9':
      return "digit";
    default:
      return "other";
    }
}

int
open_config (const char *name)
{
  FILE *f = fopen (name, "r");
  if (f == 0)
    return lookup (name);
  fclose (f);
  return 0;
}

/* CHECKS: $SRCDIR/check-table.sh -fplugin-arg-sampler-schemes=checks,branches,returns,scalar-pairs,float-kinds,function-entries,bounds  */
