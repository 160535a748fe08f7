/* Values before and after fork: the parent assigns v = 5 three times,
   forks; the child assigns v = 7 four times and exits; the parent then
   assigns v = 9 twice.  At sparsity 1 the parent's report holds 5 x3 and
   9 x2, the child's (which starts from zero, as counters do) 7 x4.  Only
   assign() is instrumented (fork.args).  */
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

volatile long sink;

static void __attribute__((noinline)) assign(int value)
{
    int v = value;
    sink += v;
}

int main(void)
{
    for (int i = 0; i < 3; i++)
        assign(5);
    pid_t child = fork();
    if (child < 0)
        return 2;
    if (child == 0) {
        for (int i = 0; i < 4; i++)
            assign(7);
        exit(0);
    }
    int status;
    if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status))
        return 3;
    for (int i = 0; i < 2; i++)
        assign(9);
    return 0;
}
