/* Functions that keep label addresses in a static, which GCC does not
   copy.  The plugin clones one whose table the code neither writes nor
   takes the address of, with a table of the clone's own labels (here of
   label differences); not one whose table is written, nor one whose
   table's address escapes: each run must compute what the plain build
   does, and the probe says which copy ran.  */
#include <stdio.h>

void probe(const char *what);

/* A table of label differences, not declared const but never written.  */
__attribute__((noinline)) int relative(const unsigned char *code)
{
    static int offsets[] = { &&op_inc - &&op_inc, &&op_dbl - &&op_inc,
                                   &&op_end - &&op_inc };
    int acc = 1;
    goto *(&&op_inc + offsets[*code++]);
op_inc:
    acc += 1;
    if (acc > 100)
        probe("big");
    goto *(&&op_inc + offsets[*code++]);
op_dbl:
    probe("dbl");
    acc *= 2;
    goto *(&&op_inc + offsets[*code++]);
op_end:
    return acc;
}

/* Written to: a copy of it would not see the writes.  */
__attribute__((noinline)) int mutable_table(int n)
{
    static void *table[] = { &&a, &&b };
    int acc = 0;
    if (n > 5)
        table[0] = &&b;
    goto *table[n & 1];
a:
    probe("a");
    acc += 3;
    return acc;
b:
    probe("b");
    acc += n > 2 ? 5 : 7;
    return acc;
}

/* Its address escapes.  */
const void *const *escaped;
__attribute__((noinline)) int escaping(int n)
{
    static const void *const table[] = { &&a, &&b };
    escaped = table;
    goto *table[n & 1];
a:
    probe("ea");
    return n > 1 ? 1 : 2;
b:
    probe("eb");
    return n > 3 ? 3 : 4;
}

int (*volatile relative_pointer)(const unsigned char *) = relative;
int (*volatile mutable_pointer)(int) = mutable_table;
int (*volatile escaping_pointer)(int) = escaping;

int main(void)
{
    static const unsigned char program[] = { 0, 1, 0, 1, 2 };
    int r = relative_pointer(program);
    int m = mutable_pointer(3) + mutable_pointer(8) + mutable_pointer(4);
    int e = escaping_pointer(2) + escaping_pointer(3);
    printf("r %d m %d e %d\n", r, m, e);
    return 0;
}
