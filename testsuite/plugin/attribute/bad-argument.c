/* The `sampled' attribute takes no argument, "off" or "weightless".  */
void f (int) __attribute__ ((sampled ("sometimes")));

/* TEST: attribute argument
   RUN: $TOOLS/fails-with 'must be ."off". or ."weightless"' gcc -fplugin=$PLUGIN -c $SRC -o x.o  */
