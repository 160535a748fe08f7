/* A unit with one site, compiled with each bad argument (bad-values.sh).  */
int f (int x) { if (x > 1) return 2; return 3; }
