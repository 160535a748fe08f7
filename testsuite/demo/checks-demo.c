/* The example of Liblit et al. (PLDI 2003): two checks in a loop, each sampled independently.
   Every call to check() is a site: it runs only when sampled.  */
#include <stdio.h>

#ifdef __SAMPLER__
#define SAMPLED __attribute__ ((sampled))
#else
#define SAMPLED
#endif

struct node { struct node *next; int size; };

static long checked, failed;

void check (int ok) SAMPLED;
void
check (int ok)
{
  checked++;
  if (!ok)
    failed++;
}

int
main (void)
{
  enum { MAX = 1000 };
  static struct node nodes[MAX];
  static int sizes[MAX];
  for (int i = 0; i < MAX; i++)
    {
      nodes[i].next = &nodes[(i + 1) % MAX];
      sizes[i] = i % 7;
    }
  long total = 0;
  struct node *p = &nodes[0];
  for (int round = 0; round < 1000; round++)
    for (int i = 0; i < MAX; i++)
      {
	check (p != NULL);
	p = p->next;
	check (i < MAX);
	total += sizes[i];
      }
  printf ("total %ld: %ld of 2000000 checks ran, %ld failed\n", total,
	  checked, failed);
  return 0;
}
