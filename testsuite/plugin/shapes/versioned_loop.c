/* Counted loops with branch sites.  At -O2 and -O3 the loop of `counted'
   is versioned (every iteration visits its two sites: the loop's test and
   the element's), and its copy with sites keeps its loop-head check;
   `uneven' is not (a site on some iterations only), nor `calling' (it
   calls a function that may have sites).  At -O0 nothing is versioned.  */
void unknown (int);
int counted (const int *a, int n)
{
  int above = 0;
  for (int i = 0; i < n; i++)
    if (a[i] > 5)
      above++;
  return above;
}

int uneven (const int *a, int n)
{
  int above = 0;
  for (int i = 0; i < n; i++)
    if (a[i] > 5)
      above += a[i] == 9 ? 2 : 1;
  return above;
}

int calling (const int *a, int n)
{
  int above = 0;
  for (int i = 0; i < n; i++)
    {
      if (a[i] > 5)
	above++;
      unknown (i);
    }
  return above;
}

/* TEST: shape $NAME $opt
   FOR: opt in -O0 -O2 "-O3 -g"
   RUN: $SRCDIR/check-dump.sh "$opt" -fplugin-arg-sampler-schemes=branches  */
