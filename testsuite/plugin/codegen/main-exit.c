/* main's clone: a main that ends in exit () is exempt from
   -Wsuggest-attribute=noreturn, and its clone must be too (xz-utils).  */
#include <stdio.h>
#include <stdlib.h>
int main (int argc, char **argv)
{
  if (argc > 1)
    puts (argv[1]);
  exit (argc > 2);
}

/* TEST: no noreturn suggestion for main's clone
   RUN: gcc -O2 -Wsuggest-attribute=noreturn -Werror -c $SRC -o main-exit.o
   RUN: $WRAPPER -O2 -Wsuggest-attribute=noreturn -Werror \
   RUN:     -fplugin-arg-sampler-schemes=branches,returns -c $SRC -o main-exit.o  */
