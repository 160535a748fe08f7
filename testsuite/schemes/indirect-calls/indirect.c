/* indirect.c: calls through function pointers, for the indirect-calls
   scheme at sparsity 1 (run-values-tests.sh).  work's two sites see, with
   the library given as argv[1] (indirect-lib.c, loaded by dlopen):

     table[i % 4] (i), i = 0..9: twice (i = 0, 4, 8): 3 calls; square
       (1, 5, 9): 3; the library's triple (2, 6): 2; libc's toupper
       (3, 7): 2;
     compare ("a", "b") three times: libc's strcmp, 3 calls (its name is
       that of the implementation libc chose, __strcmp_avx2 and the like,
       when the address is that implementation's).  */
#include <ctype.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

typedef int (*unary) (int);

static int twice (int x) { return 2 * x; }
int square (int x) { return x * x; }

int work (unary triple, int (*compare) (const char *, const char *))
{
  unary table[4] = { twice, square, triple, toupper };
  int sum = 0;
  for (int i = 0; i < 10; i++)
    sum += table[i % 4] (i);
  for (int i = 0; i < 3; i++)
    sum += compare ("a", "b") < 0;
  return sum;
}

int main (int argc, char **argv)
{
  if (argc != 2)
    return 2;
  void *library = dlopen (argv[1], RTLD_NOW);
  unary triple = library ? (unary) dlsym (library, "triple") : NULL;
  if (!triple)
    {
      fprintf (stderr, "indirect: cannot load triple from %s\n", argv[1]);
      return 2;
    }
  printf ("%d\n", work (triple, strcmp));
  return 0;
}
