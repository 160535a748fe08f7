/* parse.c: copies a field of N characters; long fields overflow. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int field_width (int n)
{
  if (n > 90)                 /* wide fields get a border */
    return n + 40;
  return n;
}

int main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 0;
  char line[128];
  int width = field_width (n);
  if (width >= (int) sizeof line)
    abort ();                 /* stands in for the overflow */
  memset (line, '-', width);
  line[width] = 0;
  printf ("%zu\n", strlen (line));
  return 0;
}
