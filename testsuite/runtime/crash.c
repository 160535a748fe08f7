/* Runs that end by a fatal signal.  Each mode first calls before_crash()
   200 times (a sampled check), then:

   segv          writes through a null pointer            SIGSEGV
   bus           reads a mapped file past its end         SIGBUS
   fpe           divides an integer by zero               SIGFPE
   ill           executes an invalid instruction          SIGILL
   trap          a breakpoint instruction                 SIGTRAP
   abort         abort()                                  SIGABRT
   stack         recurses until the stack overflows       SIGSEGV
   thread        a thread created by main writes through a null pointer
   handler       main's own SIGSEGV handler (installed with sigaction, after
                 the runtime's) prints "handled", restores the default
                 action and raises the signal again       SIGSEGV
   early-handler the same handler, installed by a constructor that runs
                 before the runtime's own (in a static link)
   recover       main's SIGSEGV handler jumps back (siglongjmp) and main
                 goes on: calls after_crash() 50 times, exits with 0
   ignore        main ignores SIGTRAP (signal) and raises it: goes on as
                 recover does

   Prints nothing else; stdout is flushed before the crash.  */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <sampler.h>

static unsigned long total;
static volatile int zero, one = 1;
static int *volatile null_pointer;
static sigjmp_buf recovery;

void before_crash(void) SAMPLER_SAMPLED;
void after_crash(void) SAMPLER_SAMPLED;
void before_crash(void) { total++; }
void after_crash(void) { total += 2; }

static void crash_by_bus_error(void)
{
    char name[] = "/tmp/sampler-crash-XXXXXX";
    int fd = mkstemp(name);
    if (fd < 0 || ftruncate(fd, 4096) != 0)
        exit(2);
    volatile char *map = mmap(NULL, 8192, PROT_READ, MAP_SHARED, fd, 0);
    unlink(name);
    if (map == MAP_FAILED)
        exit(2);
    total += (unsigned long)map[4096];   /* past the end of the file */
}

static void crash_by_trap(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __asm__ volatile("int3");
#else
    raise(SIGTRAP);
#endif
}

/* Each frame keeps some stack, and recursion is not turned into a loop.  */
static unsigned long overflow(unsigned long depth)
{
    volatile char frame[256];
    frame[depth % sizeof frame] = (char)depth;
    return overflow(depth + 1) + frame[(depth + 1) % sizeof frame];
}

static void *crash_in_thread(void *unused)
{
    (void)unused;
    *null_pointer = 1;
    return NULL;
}

static void handle_and_die(int signal_number)
{
    static const char message[] = "handled\n";
    (void)!write(STDOUT_FILENO, message, sizeof message - 1);
    signal(signal_number, SIG_DFL);
    raise(signal_number);
}

static void jump_back(int signal_number)
{
    (void)signal_number;
    siglongjmp(recovery, 1);
}

static void install(int signal_number, void (*handler)(int))
{
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = handler;
    sigemptyset(&action.sa_mask);
    if (sigaction(signal_number, &action, NULL) != 0)
        exit(2);
}

static int early;

__attribute__((constructor(101))) static void install_early(void)
{
    const char *mode = getenv("CRASH_EARLY_HANDLER");
    if (mode != NULL && *mode != '\0') {
        install(SIGSEGV, handle_and_die);
        early = 1;
    }
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    pthread_t thread;

    for (int i = 0; i < 200; i++)
        before_crash();
    fflush(stdout);
    if (strcmp(mode, "segv") == 0)
        *null_pointer = 1;
    else if (strcmp(mode, "bus") == 0)
        crash_by_bus_error();
    else if (strcmp(mode, "fpe") == 0)
        total += (unsigned long)(one / zero);
    else if (strcmp(mode, "ill") == 0)
        __builtin_trap();
    else if (strcmp(mode, "trap") == 0)
        crash_by_trap();
    else if (strcmp(mode, "abort") == 0)
        abort();
    else if (strcmp(mode, "stack") == 0)
        total += overflow(0);
    else if (strcmp(mode, "thread") == 0) {
        if (pthread_create(&thread, NULL, crash_in_thread, NULL) == 0)
            pthread_join(thread, NULL);
    } else if (strcmp(mode, "handler") == 0) {
        install(SIGSEGV, handle_and_die);
        *null_pointer = 1;
    } else if (strcmp(mode, "early-handler") == 0) {
        if (!early)
            return 2;
        *null_pointer = 1;
    } else if (strcmp(mode, "recover") == 0 || strcmp(mode, "ignore") == 0) {
        if (strcmp(mode, "ignore") == 0) {
            signal(SIGTRAP, SIG_IGN);
            raise(SIGTRAP);
        } else {
            install(SIGSEGV, jump_back);
            if (sigsetjmp(recovery, 1) == 0)
                *null_pointer = 1;
        }
        for (int i = 0; i < 50; i++)
            after_crash();
        return 0;
    }
    return 2;
}
