int f (int x) { if (x > 1) return 2; return 3; }

/* The unit's signature: the same for the same code, different for different
   code (the first line changed).
   TEST: signature stable across builds, new for changed code
   RUN: cp $SRC sig.c
   RUN: signature () { rm -f sig; gcc -O2 -fplugin=$PLUGIN -fplugin-arg-sampler-schemes=branches \
   RUN:     -fplugin-arg-sampler-site-table=sig -c sig.c -o sig.o && cut -f2 sig | head -1; }
   RUN: first=$(signature); second=$(signature)
   RUN: sed -i '1s/return 3/return 4/' sig.c; changed=$(signature)
   RUN: echo "$first $second $changed"
   RUN: [ -n "$first" ] && [ "$first" = "$second" ] && [ "$first" != "$changed" ]  */
