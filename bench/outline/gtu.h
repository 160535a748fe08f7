/* bzip2's mainGtU (blocksort.c), as the body of BODY(SITE, CHECK): SITE(n)
   marks a branch site, CHECK(w, resume) a check of weight w.  */
typedef unsigned char Bool;
typedef unsigned char UChar;
typedef int Int32;
typedef unsigned int UInt32;
typedef unsigned short UInt16;

#define STEP1 c1 = block[i1]; c2 = block[i2]; SITE(); if (c1 != c2) return (c1 > c2); i1++; i2++;
#define STEP2 c1 = block[i1]; c2 = block[i2]; SITE(); if (c1 != c2) return (c1 > c2); \
      s1 = quadrant[i1]; s2 = quadrant[i2]; SITE(); if (s1 != s2) return (s1 > s2); i1++; i2++;
