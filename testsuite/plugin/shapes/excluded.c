/* Functions marked off or no_instrument_function are left alone: their
   calls to check are ordinary calls.  */
void check (int) __attribute__ ((sampled));
__attribute__ ((sampled ("off"))) void off (int x) { check (x); }
__attribute__ ((no_instrument_function)) void noinst (int x) { check (x); }
void on (int x) { check (x); }

/* TEST: shape $NAME $opt
   FOR: opt in -O0 -O2 "-O3 -g"
   RUN: $SRCDIR/check-dump.sh "$opt"  */
