/* Runs ended by a signal whose default action terminates the process
   (SIGTERM, SIGINT, SIGHUP, ...).  Each mode but server first calls
   before_signal() 200 times (a sampled check), then:

   default SIG     sends itself SIG (kill): dies of it
   handler SIG     installs a handler for SIG with sigaction (after the
                   runtime started), which prints "handled SIG" (exits with
                   2 unless sigaction says the previous action was the
                   default); sends itself SIG twice
   early-handler SIG  the same handler, installed by a constructor that
                   runs before the runtime's own (in a static link)
   ignore SIG      ignores SIG (signal) and sends it to itself
   inherited SIG   prints "ignored" if SIG was ignored when the program
                   started (as the caller arranges), and sends it to itself
   blocked SIG     blocks SIG, sends it to itself, takes it with sigwait and
                   prints "waited SIG"
   resethand SIG   a one-shot handler (SA_RESETHAND) prints "handled SIG";
                   sends itself SIG twice: the second one kills it
   restore SIG     installs the handler, then the default again (signal),
                   and sends itself SIG: dies of it
   pipe            writes lines to stdout until a write fails (its reader
                   has gone): dies of SIGPIPE
   server          calls before_signal() 1000 times, prints "ready", and
                   waits for signals for ever (pause)
   thread-server   the same in a thread that instrumented code creates,
                   while main blocks every signal and waits for it
   dumping-server  server, while another thread writes interim reports
                   (sampler_dump) without pause: the signal arrives while
                   a report is being written

   Where the signal does not end the process, the mode calls after_signal()
   50 times and exits with 0.  Prints nothing else; stdout is flushed
   before the signals.  */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sampler.h>

static unsigned long total;

void before_signal(void) SAMPLER_SAMPLED;
void after_signal(void) SAMPLER_SAMPLED;
void before_signal(void) { total++; }
void after_signal(void) { total += 2; }

static void say(const char *what, int number)
{
    char line[64];
    int length = snprintf(line, sizeof line, "%s %d\n", what, number);
    if (write(STDOUT_FILENO, line, (size_t)length) != length)
        _exit(2);
}

static void handle(int signal_number)
{
    say("handled", signal_number);
}

static int install(int signal_number, int flags)
{
    struct sigaction action, old;
    memset(&action, 0, sizeof action);
    action.sa_handler = handle;
    action.sa_flags = flags;
    sigemptyset(&action.sa_mask);
    if (sigaction(signal_number, &action, &old) != 0)
        exit(2);
    return old.sa_handler == SIG_DFL;
}

static int early;

__attribute__((constructor(101))) static void install_early(void)
{
    const char *number = getenv("TERMINATE_EARLY_HANDLER");
    if (number != NULL && *number != '\0') {
        install(atoi(number), 0);
        early = 1;
    }
}

/* Built without the plugin, the runtime is not linked.  */
#ifndef __SAMPLER__
#define sampler_dump() (-1)
#endif

static void *dump_for_ever(void *unused)
{
    (void)unused;
    for (;;)
        sampler_dump();
    return NULL;
}

static void *serve(void *unused)
{
    (void)unused;
    for (int i = 0; i < 1000; i++)
        before_signal();
    say("ready", 1000);
    for (;;)
        pause();
    return NULL;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    int number = argc > 2 ? atoi(argv[2]) : 0;

    if (strcmp(mode, "server") == 0)
        serve(NULL);
    if (strcmp(mode, "dumping-server") == 0) {
        pthread_t thread;
        if (pthread_create(&thread, NULL, dump_for_ever, NULL) != 0)
            return 2;
        serve(NULL);
    }
    if (strcmp(mode, "thread-server") == 0) {
        pthread_t thread;
        sigset_t all, mask;
        sigfillset(&all);
        /* The thread gets the signals: it starts with them unblocked.  */
        if (pthread_sigmask(SIG_BLOCK, &all, &mask) != 0)
            return 2;
        pthread_sigmask(SIG_SETMASK, &mask, NULL);
        if (pthread_create(&thread, NULL, serve, NULL) != 0)
            return 2;
        pthread_sigmask(SIG_BLOCK, &all, NULL);
        pthread_join(thread, NULL);
        return 2;
    }

    for (int i = 0; i < 200; i++)
        before_signal();
    fflush(stdout);
    if (strcmp(mode, "default") == 0) {
        kill(getpid(), number);
    } else if (strcmp(mode, "handler") == 0 || strcmp(mode, "early-handler") == 0) {
        if (strcmp(mode, "early-handler") == 0 ? !early : install(number, 0) != 1)
            return 2;
        kill(getpid(), number);
        kill(getpid(), number);
    } else if (strcmp(mode, "ignore") == 0) {
        if (signal(number, SIG_IGN) == SIG_ERR)
            return 2;
        kill(getpid(), number);
    } else if (strcmp(mode, "inherited") == 0) {
        struct sigaction old;
        if (sigaction(number, NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            say("ignored", number);
        kill(getpid(), number);
    } else if (strcmp(mode, "blocked") == 0) {
        sigset_t only;
        int got = 0;
        sigemptyset(&only);
        sigaddset(&only, number);
        sigprocmask(SIG_BLOCK, &only, NULL);
        kill(getpid(), number);
        if (sigwait(&only, &got) == 0)
            say("waited", got);
        sigprocmask(SIG_UNBLOCK, &only, NULL);
    } else if (strcmp(mode, "resethand") == 0) {
        install(number, SA_RESETHAND);
        kill(getpid(), number);
        kill(getpid(), number);
    } else if (strcmp(mode, "restore") == 0) {
        install(number, 0);
        if (signal(number, SIG_DFL) != handle)
            return 2;
        kill(getpid(), number);
    } else if (strcmp(mode, "pipe") == 0) {
        for (;;)
            if (write(STDOUT_FILENO, "y\n", 2) != 2)
                return 3;
    } else {
        return 2;
    }
    for (int i = 0; i < 50; i++)
        after_signal();
    return 0;
}
