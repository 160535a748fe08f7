/* The plugin's arguments: a bad one stops the compile with an error that
   names it and says what is accepted (the full list of bad values, each
   with its message, is bad-input.sh's); -fplugin-arg-sampler-help lists
   them all.  */
int main (void) { return 0; }

/* TEST: unknown argument
   RUN: $TOOLS/fails-with "unknown argument.*-fplugin-arg-sampler-colour.*accepted: schemes" \
   RUN:     gcc -fplugin=$PLUGIN -fplugin-arg-sampler-colour=red -c $SRC -o x.o
   TEST: unknown scheme
   RUN: $TOOLS/fails-with "unknown scheme .brnaches.*accepted schemes: $($TOOLS/scheme-names.sh ', ')" \
   RUN:     gcc -fplugin=$PLUGIN -fplugin-arg-sampler-schemes=checks,brnaches -c $SRC -o x.o
   TEST: empty schemes
   RUN: $TOOLS/fails-with "schemes. needs a value" \
   RUN:     gcc -fplugin=$PLUGIN -fplugin-arg-sampler-schemes -c $SRC -o x.o
   TEST: dump without file
   RUN: $TOOLS/fails-with "dump. needs a value: a file name" \
   RUN:     gcc -fplugin=$PLUGIN -fplugin-arg-sampler-dump -c $SRC -o x.o
   TEST: bad verbose value
   RUN: $TOOLS/fails-with "bad value .maybe.*verbose" \
   RUN:     gcc -fplugin=$PLUGIN -fplugin-arg-sampler-verbose=maybe -c $SRC -o x.o
   TEST: bad pairs-constants value
   RUN: $TOOLS/fails-with "bad value .yes.*pairs-constants=yes.*no value, 1 or 0" \
   RUN:     gcc -fplugin=$PLUGIN -fplugin-arg-sampler-pairs-constants=yes -c $SRC -o x.o
   TEST: bad pairs limit
   RUN: $TOOLS/fails-with "bad value .lots.*pairs-limit=lots.*whole number from 0 to 1000" \
   RUN:     gcc -fplugin=$PLUGIN -fplugin-arg-sampler-pairs-limit=lots -c $SRC -o x.o
   TEST: bad pairs-sites value
   RUN: $TOOLS/fails-with "bad value .pairs.*pairs-sites=pairs.*assignment or pair" \
   RUN:     gcc -fplugin=$PLUGIN -fplugin-arg-sampler-pairs-sites=pairs -c $SRC -o x.o
   TEST: bad region limit
   RUN: $TOOLS/fails-with "bad value .-3.*region-limit=-3.*whole number from 0 to 100000" \
   RUN:     gcc -fplugin=$PLUGIN -fplugin-arg-sampler-region-limit=-3 -c $SRC -o x.o
   TEST: -flto rejected
   RUN: $TOOLS/fails-with "-flto. is not supported.*build without" \
   RUN:     gcc -fplugin=$PLUGIN -flto -c $SRC -o x.o
   TEST: pad limit without value
   RUN: $TOOLS/fails-with "pad-limit. needs a value" \
   RUN:     gcc -fplugin=$PLUGIN -fplugin-arg-sampler-pad-limit -c $SRC -o x.o
   TEST: empty scope pattern
   RUN: $TOOLS/fails-with "exclude-file. needs a value" \
   RUN:     gcc -fplugin=$PLUGIN -fplugin-arg-sampler-exclude-file -c $SRC -o x.o
   TEST: help lists the arguments
   RUN: gcc -fplugin=$PLUGIN -fplugin-arg-sampler-help -c $SRC -o x.o 2>out
   RUN: grep -q "schemes=LIST" out  */
