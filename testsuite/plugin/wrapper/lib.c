/* A library with a site in a loop (wrapper.sh).  */
void check (int) __attribute__ ((sampled));
int lib (int n) { int t = 0; for (int i = 0; i < n; i++) { check (i); t += i; } return t; }
