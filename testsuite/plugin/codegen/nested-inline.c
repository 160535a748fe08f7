/* Code growth through nested inline functions (nested-inline.sh): four
   levels, each with a site, inlined into top.  */
void leaf (int);
#define INLINE static inline __attribute__ ((always_inline))
INLINE int f0 (int x) { if (x & 1) x += 3; leaf (x); return x; }
INLINE int f1 (int x) { if (x & 2) x = f0 (x) + 1; return f0 (x * 3); }
INLINE int f2 (int x) { if (x & 4) x = f1 (x) + 1; return f1 (x * 5); }
INLINE int f3 (int x) { if (x & 8) x = f2 (x) + 1; return f2 (x * 7); }
int top (int x) { return f3 (x); }
