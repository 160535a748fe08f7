/* Stand-in for an instrumented program, for the process-level unit tests:
   it calls the runtime the way instrumented code does and prints what it
   got.  The runtime itself never writes to stdout; this helper does.

   sampler-helper quiet          does nothing (the runtime still starts)
   sampler-helper sparsity       "sparsity S countdown C": sampler_sparsity()
                                 and the main thread's first countdown
   sampler-helper threads N      N countdowns of the main thread ("main"),
                                 then of a thread started and joined
                                 ("first"), then of another ("second");
                                 exits with 3 if a new thread's countdown is
                                 not 0, with 6 if starting it changed errno
   sampler-helper created N      the same, but the threads are created with
                                 __sampler_pthread_create, as instrumented
                                 code creates them; when sampling, each
                                 thread exits with 7 if it has no alternate
                                 signal stack
   sampler-helper fork N         forks; N countdowns of the child ("child"),
                                 then of the parent ("parent")
   sampler-helper groups N       N groups of GROUP scalar-pairs visits, each
                                 group decremented and passed to
                                 __sampler_pairs_signed as the slow copy
                                 does; prints "groups C0 C1 ...", the
                                 samples of each position in the group
   sampler-helper assignments N  N visits of an assignment to GROUP
                                 scalar-pairs partners, each one visit of
                                 the countdown passed to
                                 __sampler_assignment_pairs_signed as the
                                 slow copy does; prints "assignments C0
                                 C1 ...", the samples of each partner
   sampler-helper fresh N        N threads (not created by instrumented
                                 code, started one after another), each
                                 visiting a branch site once and a group of
                                 GROUP scalar-pairs sites, as code that is
                                 not cloned does, from the countdown 0 of a
                                 thread that has not started sampling; prints
                                 "fresh B C0 C1 ...", the samples of the
                                 branch and of each position in the group
   sampler-helper phantoms N     N rounds of one visit to a checks site
                                 (__sampler_count) then PHANTOMS visits to
                                 no site (__sampler_skip); prints
                                 "phantoms S", the samples of the site  */
#include <errno.h>
#include <stdbool.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sampler.h"
#include "sampler-abi.h"

/* What instrumented code calls for pthread_create (the plugin redirects it).  */
int __sampler_pthread_create(pthread_t *thread, const pthread_attr_t *attr,
                             void *(*start)(void *), void *arg);

static long draws;

/* Prints `first` and the draws - 1 countdowns that follow it.  */
static void print_stream(const char *label, long first)
{
    long countdown = first;

    printf("%s", label);
    for (long i = 0; i < draws; i++) {
        printf(" %ld", countdown);
        if (i + 1 < draws)
            countdown = __sampler_next_countdown();
    }
    putchar('\n');
    fflush(stdout);
}

static void *run_thread(void *label)
{
    /* A new thread has not been started: instrumented code sees 0.  */
    if (SAMPLER_COUNTDOWN != 0)
        exit(3);
    /* Instrumented code may sample between a call and its errno check.  */
    errno = ENOTRECOVERABLE;
    long first = __sampler_thread_start();
    if (errno != ENOTRECOVERABLE)
        exit(6);
    print_stream(label, first);
    return NULL;
}

static void *run_created_thread(void *label)
{
    stack_t altstack;

    if (sampler_sparsity() > 0
        && (sigaltstack(NULL, &altstack) != 0 || (altstack.ss_flags & SS_DISABLE)))
        exit(7);
    return run_thread(label);
}

static int start_and_join(const char *label, bool created)
{
    pthread_t thread;
    int started = created
        ? __sampler_pthread_create(&thread, NULL, run_created_thread, (void *)label)
        : pthread_create(&thread, NULL, run_thread, (void *)label);

    if (started != 0)
        return -1;
    return pthread_join(thread, NULL);
}

/* As many as pairs-limit allows by default.  */
#define GROUP 16
#define PHANTOMS 37

/* The slow copy's code for a group of GROUP scalar-pairs sites, the
   assigned value compared with partners that are all equal to it.  */
static int groups(void)
{
    unsigned long long counters[3 * GROUP] = { 0 };
    long long values[GROUP + 1] = { 0 };

    if (SAMPLER_COUNTDOWN == 0)
        SAMPLER_COUNTDOWN = __sampler_thread_start();
    for (long i = 0; i < draws; i++) {
        if ((SAMPLER_COUNTDOWN -= GROUP) <= 0)
            __sampler_pairs_signed(counters, GROUP, values);
        if (SAMPLER_COUNTDOWN <= 0)
            return 7;
    }
    printf("groups");
    for (int site = 0; site < GROUP; site++) {
        if (counters[3 * site] != 0 || counters[3 * site + 2] != 0)
            return 8;   /* the values were equal */
        printf(" %llu", counters[3 * site + 1]);
    }
    putchar('\n');
    return 0;
}

/* The slow copy's code for an assignment of 0 to x, compared with GROUP
   partners -1, 0, 1, -1, 0, 1, ...: one visit for them all.  */
static int assignments(void)
{
    unsigned long long counters[3 * GROUP] = { 0 };
    long long values[GROUP + 1] = { 0 };

    for (int site = 0; site < GROUP; site++)
        values[site + 1] = site % 3 - 1;
    if (SAMPLER_COUNTDOWN == 0)
        SAMPLER_COUNTDOWN = __sampler_thread_start();
    for (long i = 0; i < draws; i++) {
        if (--SAMPLER_COUNTDOWN == 0)
            __sampler_assignment_pairs_signed(counters, GROUP, values);
        if (SAMPLER_COUNTDOWN <= 0)
            return 7;
    }
    printf("assignments");
    for (int site = 0; site < GROUP; site++) {
        /* 0 > -1, 0 == 0, 0 < 1: one counter of the three.  */
        int seen = 2 - site % 3;
        for (int c = 0; c < 3; c++)
            if (c != seen && counters[3 * site + c] != 0)
                return 8;
        printf(" %llu", counters[3 * site + seen]);
    }
    putchar('\n');
    return 0;
}

/* A fresh thread's first visits: a branch, then a group of pairs.  */
static unsigned long long fresh_branch[2], fresh_pairs[3 * GROUP];

static void *fresh_visits(void *unused)
{
    static const long long values[GROUP + 1] = { 0 };

    (void)unused;
    if (SAMPLER_COUNTDOWN != 0)
        return (void *)1;   /* started already */
    if ((SAMPLER_COUNTDOWN -= 1) <= 0)
        __sampler_branch(fresh_branch, 1);
    if ((SAMPLER_COUNTDOWN -= GROUP) <= 0)
        __sampler_pairs_signed(fresh_pairs, GROUP, values);
    return SAMPLER_COUNTDOWN >= 1 ? NULL : (void *)2;
}

static int fresh(void)
{
    for (long i = 0; i < draws; i++) {
        pthread_t thread;
        void *result;
        if (pthread_create(&thread, NULL, fresh_visits, NULL) != 0
            || pthread_join(thread, &result) != 0)
            return 9;
        if (result != NULL)
            return 10 + (int)(long)result;
    }
    if (fresh_branch[0] != 0)
        return 13;   /* the outcome was true */
    printf("fresh %llu", fresh_branch[1]);
    for (int site = 0; site < GROUP; site++)
        printf(" %llu", fresh_pairs[3 * site + 1]);
    putchar('\n');
    return 0;
}

/* One site, then visits to no site counted all at once, as at the end of
   a region of the slow copy.  */
static int phantoms(void)
{
    unsigned long long counter = 0;

    if (SAMPLER_COUNTDOWN == 0)
        SAMPLER_COUNTDOWN = __sampler_thread_start();
    for (long i = 0; i < draws; i++) {
        if (--SAMPLER_COUNTDOWN == 0)
            __sampler_count(&counter, 0);
        if ((SAMPLER_COUNTDOWN -= PHANTOMS) <= 0)
            __sampler_skip();
        if (SAMPLER_COUNTDOWN <= 0)
            return 7;
    }
    printf("phantoms %llu\n", counter);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 3)
        draws = strtol(argv[2], NULL, 10);

    if (argc == 2 && strcmp(argv[1], "quiet") == 0)
        return 0;
    if (argc == 2 && strcmp(argv[1], "sparsity") == 0) {
        printf("sparsity %ld countdown %ld off %d\n", sampler_sparsity(), SAMPLER_COUNTDOWN,
               __sampler_off);
        return 0;
    }
    if (argc == 3 && (strcmp(argv[1], "threads") == 0 || strcmp(argv[1], "created") == 0)
        && draws > 0) {
        bool created = strcmp(argv[1], "created") == 0;
        print_stream("main", SAMPLER_COUNTDOWN);
        if (start_and_join("first", created) != 0 || start_and_join("second", created) != 0)
            return 4;
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "fork") == 0 && draws > 0) {
        pid_t child = fork();
        if (child < 0)
            return 4;
        if (child == 0) {
            print_stream("child", __sampler_next_countdown());
            _exit(0);
        }
        int status;
        if (waitpid(child, &status, 0) != child || status != 0)
            return 5;
        print_stream("parent", __sampler_next_countdown());
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "groups") == 0 && draws > 0)
        return groups();
    if (argc == 3 && strcmp(argv[1], "assignments") == 0 && draws > 0)
        return assignments();
    if (argc == 3 && strcmp(argv[1], "phantoms") == 0 && draws > 0)
        return phantoms();
    if (argc == 3 && strcmp(argv[1], "fresh") == 0 && draws > 0)
        return fresh();
    fprintf(stderr, "usage: %s quiet | sparsity | threads N | created N | fork N"
            " | groups N | assignments N | phantoms N\n", argv[0]);
    return 2;
}
