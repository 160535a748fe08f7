/* `sampled' on a variable is ignored, with a warning that says where it
   goes.  */
int x __attribute__ ((sampled));

/* TEST: misplaced attribute warns where it goes
   RUN: gcc -fplugin=$PLUGIN -c $SRC -o x.o 2>out
   RUN: grep -q "ignored: it goes on a function (on a declaration, calls to it become sampled checks; on a definition, it selects the function" out  */
