/* A program with paths, whose path table path-tables.sh damages.  */
int g (int x) { if (x > 1) x = 3 * x; else x = x + 7; return x; }
int main (int c, char **v) { (void) v; return g (c) & 1; }
