/* A sampled check returns: its call is a site whose slow copy goes on
   after it.  */
void f (int) __attribute__ ((sampled, noreturn));
void g (int x) { f (x); }

/* TEST: sampled noreturn
   RUN: $TOOLS/fails-with "is .noreturn. and cannot be a sampled check" gcc -fplugin=$PLUGIN -c $SRC -o x.o  */
