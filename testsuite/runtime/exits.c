/* Fork children that end without exit(): each leaves a report of its own.

   exits HOW     the parent calls parent_work() 500 times and forks; the
                 child calls child_work() 1000 times and ends with status 7
                 by HOW: _exit, _Exit, quick_exit (the child first
                 registers an at_quick_exit handler that calls
                 child_work() 5 more times), builtin (__builtin__exit) or
                 vfork (a vfork child that calls nothing sampled and ends
                 with _exit(7) at once); the parent waits, prints "child
                 STATUS", calls parent_work() 500 more times and exits
                 with 0.  */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sampler.h>

static unsigned long total;

void parent_work(void) SAMPLER_SAMPLED;
void child_work(void) SAMPLER_SAMPLED;
void parent_work(void) { total += 1; }
void child_work(void) { total += 2; }

static void at_quick(void)
{
    for (int i = 0; i < 5; i++)
        child_work();
}

static void child(const char *how)
{
    for (int i = 0; i < 1000; i++)
        child_work();
    if (strcmp(how, "_exit") == 0)
        _exit(7);
    if (strcmp(how, "_Exit") == 0)
        _Exit(7);
    if (strcmp(how, "builtin") == 0)
        __builtin__exit(7);
    if (strcmp(how, "quick_exit") == 0) {
        at_quick_exit(at_quick);
        quick_exit(7);
    }
    _exit(1);
}

int main(int argc, char **argv)
{
    const char *how = argc > 1 ? argv[1] : "";
    int status;
    pid_t pid;

    for (int i = 0; i < 500; i++)
        parent_work();
    fflush(stdout);
    if (strcmp(how, "vfork") == 0) {
        pid = vfork();
        if (pid == 0)
            _exit(7);
    } else {
        pid = fork();
        if (pid == 0)
            child(how);
    }
    if (pid < 0 || waitpid(pid, &status, 0) != pid)
        return 2;
    printf("child %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    for (int i = 0; i < 500; i++)
        parent_work();
    return 0;
}
