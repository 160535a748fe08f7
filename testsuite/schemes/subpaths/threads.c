/* Four threads run loop.c's loop, N = argv[1] times each; then, with
   argv[2] "fork", the process forks, and the child runs it N more times,
   the parent 2 N; with "abort", the main thread runs it N times and
   aborts.  */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int n;

int f(int x)
{
    if (x % 3 == 0)
        return x / 3;
    return x + 1;
}

static long loop(int times)
{
    long s = 0;
    for (int i = 0; i < times; i++) {
        if (i & 1)
            s += f(i);
        else
            s -= 2;
    }
    return s;
}

static void *worker(void *unused)
{
    (void)unused;
    return (void *)loop(n);
}

int main(int argc, char **argv)
{
    n = argc > 1 ? atoi(argv[1]) : 3000;
    pthread_t threads[4];
    for (int t = 0; t < 4; t++)
        pthread_create(&threads[t], NULL, worker, NULL);
    for (int t = 0; t < 4; t++)
        pthread_join(threads[t], NULL);
    if (argc > 2 && strcmp(argv[2], "abort") == 0) {
        loop(n);
        abort();
    }
    if (argc > 2 && strcmp(argv[2], "fork") == 0) {
        pid_t child = fork();
        if (child == 0) {
            loop(n);
            return 0;
        }
        loop(2 * n);
        waitpid(child, NULL, 0);
    }
    return 0;
}
