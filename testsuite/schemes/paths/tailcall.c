/* pop's second region, after the call to use, ends in a call GCC makes a
   sibling call (free): its traversals must be counted (run-paths-tests.sh,
   "tailcall").  */
#include <stdlib.h>
struct s { struct s *next; long v; };
struct s *stack;
long total;
__attribute__((noinline)) void use (struct s *p) { total += p->v; }
__attribute__((noinline)) void pop (void)
{
  struct s *t = stack;
  if (t != NULL)
    {
      stack = t->next;
      use (t);
      free (t);
    }
}
int main (void)
{
  for (int i = 0; i < 1000; i++)
    {
      struct s *n = malloc (sizeof *n);
      n->v = i; n->next = stack; stack = n;
    }
  for (int i = 0; i < 1000; i++)
    pop ();
  return total != 499500;
}
