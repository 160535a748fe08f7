/* The plugin defines __SAMPLER__, for code that uses its attribute.  */
#ifndef __SAMPLER__
#error no __SAMPLER__
#endif
int main (void) { return 0; }

/* TEST: __SAMPLER__ is defined
   RUN: gcc -fplugin=$PLUGIN -c $SRC -o x.o  */
