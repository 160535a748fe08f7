/* The program around lib.c: counts the checks that ran (wrapper.sh).  */
#include <stdio.h>
int lib (int);
long checks;
void check (int ok) { (void) ok; checks++; }
int main (void) { int t = lib (1000); printf ("%d %ld\n", t, checks); return 0; }
