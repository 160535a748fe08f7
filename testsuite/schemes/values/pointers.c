/* pointers.c: pointer variables whose pointees are the same in every run
   while their addresses are not (address-space randomisation): a static
   object, a heap block of one size, a local array, and null.  The values
   scheme's hot-lists of work's assignments hold raw addresses; combined
   over runs they must read as one value each (run-values-tests.sh).  */
#include <stdlib.h>

static long table[64];
static long *volatile sink;

/* Hides where a pointer comes from, so that each assignment stays.  */
__attribute__((noinline)) static long *same(long *p)
{
    return p;
}

__attribute__((noinline)) void work(int round, long *on_stack)
{
    long *into_table = same(&table[5]);
    sink = into_table;
    long *block = malloc(48);
    block[0] = round;
    sink = block;
    free(block);
    long *local = same(on_stack + 2);
    sink = local;
    long *nothing = same(NULL);
    sink = nothing;
}

int main(void)
{
    long frame[8];
    for (int round = 0; round < 1000; round++)
        work(round, frame);
    return 0;
}
