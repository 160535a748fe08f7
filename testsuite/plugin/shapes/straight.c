/* Three sites in a row: one entry check of weight 3.  */
void check (int) __attribute__ ((sampled));
void straight (int x) { check (x); check (x + 1); check (x + 2); }

/* TEST: shape $NAME $opt
   FOR: opt in -O0 -O2 "-O3 -g"
   RUN: $SRCDIR/check-dump.sh "$opt"  */
