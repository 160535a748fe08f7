/* RTL PRE: GCC's RTL PRE does not run on the functions cloned into fast
   and slow copies (it made them slower): its dump names the unsampled
   clone and the function without sites, not the instrumented function.  */
int positive (const int *a, int n)
{
  int s = 0;
  for (int i = 0; i < n; i++)
    if (a[i] > 0)
      s += a[i];
  return s;
}
int no_sites (int x) { return x * 3; }

/* TEST: RTL PRE runs on the unsampled clone and plain functions only
   RUN: $WRAPPER -O2 -fplugin-arg-sampler-schemes=branches -c $SRC -o pre.o -fdump-rtl-pre=pre.dump
   RUN: sed -n 's/^;; Function \([^ ]*\) .*$/\1/p' pre.dump >ran; echo RTL PRE ran on:; cat ran
   RUN: ! grep -qx positive ran
   RUN: grep -qx positive.unsampled.0 ran
   RUN: grep -qx no_sites ran  */
