/* Four threads assign v = i % 8 for i < 10000 each: at sparsity 1 each of
   the eight values is seen 5000 times, and a hot-list of 8 or more loses
   none of them.  With argument "crash" the program then aborts: the
   report written at the signal holds the same.  Only assign() is
   instrumented (threads.args).  */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

volatile long sink;

static void __attribute__((noinline)) assign(int i)
{
    int v = i % 8;
    sink += v;
}

static void *worker(void *unused)
{
    (void)unused;
    for (int i = 0; i < 10000; i++)
        assign(i);
    return NULL;
}

int main(int argc, char **argv)
{
    pthread_t threads[4];
    for (int t = 0; t < 4; t++)
        if (pthread_create(&threads[t], NULL, worker, NULL) != 0)
            return 2;
    for (int t = 0; t < 4; t++)
        pthread_join(threads[t], NULL);
    if (argc > 1 && strcmp(argv[1], "crash") == 0)
        abort();
    return 0;
}
