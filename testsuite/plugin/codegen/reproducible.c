/* Reproducible builds: the same unit compiled again gives the same object.
   The clones were walked in the order of a map keyed by pointers, which
   changes from run to run: the fallbacks for other units' clones came out
   in another order each time (40 functions calling 40 others of another
   unit).  */
int ext0 (int);
int f0 (int x) { if (x & 1) x += ext0 (x); return x > 0 ? ext0 (x) : x; }
int ext1 (int);
int f1 (int x) { if (x & 2) x += ext1 (x); return x > 1 ? ext7 (x) : x; }
int ext2 (int);
int f2 (int x) { if (x & 3) x += ext2 (x); return x > 2 ? ext14 (x) : x; }
int ext3 (int);
int f3 (int x) { if (x & 4) x += ext3 (x); return x > 3 ? ext21 (x) : x; }
int ext4 (int);
int f4 (int x) { if (x & 5) x += ext4 (x); return x > 4 ? ext28 (x) : x; }
int ext5 (int);
int f5 (int x) { if (x & 6) x += ext5 (x); return x > 5 ? ext35 (x) : x; }
int ext6 (int);
int f6 (int x) { if (x & 7) x += ext6 (x); return x > 6 ? ext2 (x) : x; }
int ext7 (int);
int f7 (int x) { if (x & 1) x += ext7 (x); return x > 7 ? ext9 (x) : x; }
int ext8 (int);
int f8 (int x) { if (x & 2) x += ext8 (x); return x > 8 ? ext16 (x) : x; }
int ext9 (int);
int f9 (int x) { if (x & 3) x += ext9 (x); return x > 9 ? ext23 (x) : x; }
int ext10 (int);
int f10 (int x) { if (x & 4) x += ext10 (x); return x > 10 ? ext30 (x) : x; }
int ext11 (int);
int f11 (int x) { if (x & 5) x += ext11 (x); return x > 11 ? ext37 (x) : x; }
int ext12 (int);
int f12 (int x) { if (x & 6) x += ext12 (x); return x > 12 ? ext4 (x) : x; }
int ext13 (int);
int f13 (int x) { if (x & 7) x += ext13 (x); return x > 13 ? ext11 (x) : x; }
int ext14 (int);
int f14 (int x) { if (x & 1) x += ext14 (x); return x > 14 ? ext18 (x) : x; }
int ext15 (int);
int f15 (int x) { if (x & 2) x += ext15 (x); return x > 15 ? ext25 (x) : x; }
int ext16 (int);
int f16 (int x) { if (x & 3) x += ext16 (x); return x > 16 ? ext32 (x) : x; }
int ext17 (int);
int f17 (int x) { if (x & 4) x += ext17 (x); return x > 17 ? ext39 (x) : x; }
int ext18 (int);
int f18 (int x) { if (x & 5) x += ext18 (x); return x > 18 ? ext6 (x) : x; }
int ext19 (int);
int f19 (int x) { if (x & 6) x += ext19 (x); return x > 19 ? ext13 (x) : x; }
int ext20 (int);
int f20 (int x) { if (x & 7) x += ext20 (x); return x > 20 ? ext20 (x) : x; }
int ext21 (int);
int f21 (int x) { if (x & 1) x += ext21 (x); return x > 21 ? ext27 (x) : x; }
int ext22 (int);
int f22 (int x) { if (x & 2) x += ext22 (x); return x > 22 ? ext34 (x) : x; }
int ext23 (int);
int f23 (int x) { if (x & 3) x += ext23 (x); return x > 23 ? ext1 (x) : x; }
int ext24 (int);
int f24 (int x) { if (x & 4) x += ext24 (x); return x > 24 ? ext8 (x) : x; }
int ext25 (int);
int f25 (int x) { if (x & 5) x += ext25 (x); return x > 25 ? ext15 (x) : x; }
int ext26 (int);
int f26 (int x) { if (x & 6) x += ext26 (x); return x > 26 ? ext22 (x) : x; }
int ext27 (int);
int f27 (int x) { if (x & 7) x += ext27 (x); return x > 27 ? ext29 (x) : x; }
int ext28 (int);
int f28 (int x) { if (x & 1) x += ext28 (x); return x > 28 ? ext36 (x) : x; }
int ext29 (int);
int f29 (int x) { if (x & 2) x += ext29 (x); return x > 29 ? ext3 (x) : x; }
int ext30 (int);
int f30 (int x) { if (x & 3) x += ext30 (x); return x > 30 ? ext10 (x) : x; }
int ext31 (int);
int f31 (int x) { if (x & 4) x += ext31 (x); return x > 31 ? ext17 (x) : x; }
int ext32 (int);
int f32 (int x) { if (x & 5) x += ext32 (x); return x > 32 ? ext24 (x) : x; }
int ext33 (int);
int f33 (int x) { if (x & 6) x += ext33 (x); return x > 33 ? ext31 (x) : x; }
int ext34 (int);
int f34 (int x) { if (x & 7) x += ext34 (x); return x > 34 ? ext38 (x) : x; }
int ext35 (int);
int f35 (int x) { if (x & 1) x += ext35 (x); return x > 35 ? ext5 (x) : x; }
int ext36 (int);
int f36 (int x) { if (x & 2) x += ext36 (x); return x > 36 ? ext12 (x) : x; }
int ext37 (int);
int f37 (int x) { if (x & 3) x += ext37 (x); return x > 37 ? ext19 (x) : x; }
int ext38 (int);
int f38 (int x) { if (x & 4) x += ext38 (x); return x > 38 ? ext26 (x) : x; }
int ext39 (int);
int f39 (int x) { if (x & 5) x += ext39 (x); return x > 39 ? ext33 (x) : x; }

/* TEST: the same unit compiled four times gives the same object
   RUN: for i in 1 2 3 4; do \
   RUN:     gcc -O2 -fplugin=$PLUGIN -fplugin-arg-sampler-schemes=branches,returns -c $SRC -o r.o; \
   RUN:     cksum <r.o; \
   RUN: done | sort -u >sums
   RUN: cat sums; [ "$(wc -l <sums)" = 1 ]  */
