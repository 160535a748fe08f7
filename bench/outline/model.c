/* Three builds of mainGtU's code shape, chosen by -DSHAPE:
   PLAIN    the function as bzip2 has it;
   OUTLINED the fast copy with the plugin's two checks (entry, weight 12;
            loop head, weight 19) whose slow copies are out-of-line cold
            functions: they get the live values, count each site off the
            countdown, and give back where the fast copy resumes.
   The sampler build of the same file (sampler-gcc -DSHAPE=PLAIN, brs) is
   the slow copy in line, as the plugin makes it now.  */
#include "gtu.h"

#if SHAPE == OUTLINED
__thread long countdown = 1000000000;
long next_countdown = 1000;
__attribute__((noinline, cold)) void sample(void) { countdown = next_countdown; }
#define SITE() if (--countdown <= 0) sample()
/* The slow copies save every register they use (NCSR) or follow the ABI.  */
#ifdef NCSR
#define SLOW_ATTRS __attribute__((noipa, cold, no_caller_saved_registers))
#else
#define SLOW_ATTRS __attribute__((noipa, cold))
#endif
struct resume { int done; Bool result; UInt32 i1, i2; Int32 k;
                UChar *block; UInt16 *quadrant; UInt32 nblock; Int32 *budget; };
/* With -DRELOAD the fast copy takes every value back from the slow copy
   after the call, so that none is live across it.  */
#ifdef RELOAD
#define TAKE_BACK(r) (block = (r).block, quadrant = (r).quadrant, \
                      nblock = (r).nblock, budget = (r).budget)
#define GIVE(r) ((r).block = block, (r).quadrant = quadrant, \
                 (r).nblock = nblock, (r).budget = budget)
#else
#define TAKE_BACK(r) ((void)0)
#define GIVE(r) ((void)0)
#endif

SLOW_ATTRS static void
slow_entry(struct resume *r, UInt32 i1, UInt32 i2, UChar *block, UInt16 *quadrant)
{
   UChar c1, c2; (void)quadrant;
   r->done = 1;
#undef STEP1
#define STEP1 c1 = block[i1]; c2 = block[i2]; SITE(); if (c1 != c2) { r->result = (c1 > c2); return; } i1++; i2++;
   STEP1 STEP1 STEP1 STEP1 STEP1 STEP1 STEP1 STEP1 STEP1 STEP1 STEP1 STEP1
   r->done = 0; r->i1 = i1; r->i2 = i2;
}

SLOW_ATTRS static void
slow_loop(struct resume *r, UInt32 i1, UInt32 i2, UChar *block, UInt16 *quadrant,
          UInt32 nblock, Int32 *budget, Int32 k)
{
   UChar c1, c2; UInt16 s1, s2;
   r->done = 1;
#undef STEP2
#define STEP2 c1 = block[i1]; c2 = block[i2]; SITE(); if (c1 != c2) { r->result = (c1 > c2); return; } \
      s1 = quadrant[i1]; s2 = quadrant[i2]; SITE(); if (s1 != s2) { r->result = (s1 > s2); return; } i1++; i2++;
   STEP2 STEP2 STEP2 STEP2 STEP2 STEP2 STEP2 STEP2
   SITE(); if (i1 >= nblock) i1 -= nblock;
   SITE(); if (i2 >= nblock) i2 -= nblock;
   k -= 8; (*budget)--;
   SITE();
   if (k < 0) { r->result = 0; return; }
   r->done = 0; r->i1 = i1; r->i2 = i2; r->k = k;
}
#undef STEP1
#undef STEP2
#undef SITE
#define SITE()
#define STEP1 c1 = block[i1]; c2 = block[i2]; if (c1 != c2) return (c1 > c2); i1++; i2++;
#define STEP2 c1 = block[i1]; c2 = block[i2]; if (c1 != c2) return (c1 > c2); \
      s1 = quadrant[i1]; s2 = quadrant[i2]; if (s1 != s2) return (s1 > s2); i1++; i2++;
/* A check: take W visits off the countdown; when it runs out, give them
   back and run the slow copy.  */
#define CHECK(w) (__builtin_expect((countdown -= (w)) <= 0, 0) ? (countdown += (w), 1) : 0)
#else
#define SITE()
#endif

Bool mainGtU(UInt32 i1, UInt32 i2, UChar *block, UInt16 *quadrant,
             UInt32 nblock, Int32 *budget)
{
   Int32 k;
   UChar c1, c2;
   UInt16 s1, s2;
#if SHAPE == OUTLINED
   struct resume r;
   if (CHECK(12)) {
      GIVE(r);
      slow_entry(&r, i1, i2, block, quadrant);
      if (r.done) return r.result;
      i1 = r.i1; i2 = r.i2; TAKE_BACK(r);
      k = nblock + 8;
      goto loop_check;
   }
#endif
   STEP1 STEP1 STEP1 STEP1 STEP1 STEP1 STEP1 STEP1 STEP1 STEP1 STEP1 STEP1
   k = nblock + 8;
#if SHAPE == OUTLINED
loop_check:
   while (CHECK(19)) {
      GIVE(r);
      slow_loop(&r, i1, i2, block, quadrant, nblock, budget, k);
      if (r.done) return r.result;
      i1 = r.i1; i2 = r.i2; k = r.k; TAKE_BACK(r);
   }
#endif
   do {
      STEP2 STEP2 STEP2 STEP2 STEP2 STEP2 STEP2 STEP2
      if (i1 >= nblock) i1 -= nblock;
      if (i2 >= nblock) i2 -= nblock;
      k -= 8;
      (*budget)--;
#if SHAPE == OUTLINED
      if (k < 0) break;
      while (CHECK(19)) {
         GIVE(r);
         slow_loop(&r, i1, i2, block, quadrant, nblock, budget, k);
         if (r.done) return r.result;
         i1 = r.i1; i2 = r.i2; k = r.k; TAKE_BACK(r);
      }
   } while (1);
#else
   } while (k >= 0);
#endif
   return 0;
}
