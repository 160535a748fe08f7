/* Three sites in a row: one entry check of weight 3.  */
void check (int) __attribute__ ((sampled));
void straight (int x) { check (x); check (x + 1); check (x + 2); }
