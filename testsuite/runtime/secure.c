/* A program installed set-user-ID or set-group-ID root (secure mode):
   whatever SAMPLER_* variables the user who runs it sets, it samples
   nothing and writes no report, and runs as its plain build does.

   secure TENTHS   calls work() 500 times, forks a child that calls it 100
                   times and ends with _exit(4), waits for it, sleeps TENTHS
                   tenths of a second (so that SAMPLER_INTERVAL=1 would
                   have written interim reports), prints its real and
                   effective ids and the child's status, and exits with 3.
                   (work() is a checks site: it runs only when sampled, so
                   the total would differ from the plain build's.)  */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sampler.h>

static unsigned long total;

void work(void) SAMPLER_SAMPLED;
void work(void) { total++; }

int main(int argc, char **argv)
{
    long tenths = argc > 1 ? atol(argv[1]) : 0;
    int status = 0;

    for (int i = 0; i < 500; i++)
        work();
    fflush(stdout);
    pid_t child = fork();
    if (child == 0) {
        for (int i = 0; i < 100; i++)
            work();
        _exit(4);
    }
    if (child < 0 || waitpid(child, &status, 0) != child)
        return 2;
    struct timespec pause = { tenths / 10, (tenths % 10) * 100000000L };
    nanosleep(&pause, NULL);
    printf("ruid %d euid %d rgid %d egid %d child %d\n", (int)getuid(),
           (int)geteuid(), (int)getgid(), (int)getegid(), WEXITSTATUS(status));
    return 3;
}
