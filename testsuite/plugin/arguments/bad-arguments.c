/* -flto, which the plugin cannot follow, stops the compile.  Every bad
   value of every argument of the plugin's table, each with its message,
   is every-key.py's.  */
int main (void) { return 0; }

/* TEST: -flto rejected
   RUN: $TOOLS/fails-with "-flto. is not supported.*build without" \
   RUN:     gcc -fplugin=$PLUGIN -flto -c $SRC -o x.o  */
