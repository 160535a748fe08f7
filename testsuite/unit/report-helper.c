/* Stand-in for an instrumented program, for the report tests: it declares
   unit descriptors by hand the way the plugin does, registers them from a
   constructor, bumps their counters directly, and ends in various ways.

   report-helper exit N        exit(N)
   report-helper return N      returns N from main
   report-helper chdir DIR     changes to DIR, then exits with 0
   report-helper write-now     sampler_write_report() twice, printing
                               "write R" for each result R, then returns 0
   report-helper dump-show     sampler_dump(), prints the file SAMPLER_FILE
                               and "--"; adds 1 to a.c's site 0 and does
                               it again; returns 0
   report-helper dump-move     sampler_dump(), renames SAMPLER_FILE to
                               "moved" and makes a new file "other" under
                               its name, returns 0
   report-helper reset         sampler_dump(), sampler_reset(), sets b.c's
                               site 0 to 1, returns 0
   report-helper crash-in-report  registers a unit whose counters cannot be
                               read, then abort()s
   report-helper raise N       raise(N), then returns 0
   report-helper sleep MS      sleeps MS milliseconds, then returns 0
   report-helper errno         exits with 6 if sampler_write_report changed
                               errno, else 0
   report-helper stdio         leaves "unflushed" in stdout's buffer, exits 0
   report-helper countdowns N  prints "main" and the main thread's first N
                               countdowns, then returns 0
   report-helper close-fd N    closes descriptor N, then exits with 0
   report-helper replace-fd N  makes descriptor N a new file "victim" in the
                               current directory, then exits with 0
   report-helper bad-units     registers malformed units, then exits with 0
   report-helper dlopen DSO    loads DSO (report-dso.c), bumps its counter,
                               exits with 0
   report-helper dlclose DSO   the same, but unloads DSO before exiting
   report-helper fork          forks a child, which forks a grandchild and
                               waits for it: the child sets b.c's site 0 to
                               1 0, the grandchild to 0 2; the child prints
                               "grandchild PID", then the parent, having
                               waited, "child PID"; all exit with 0

   The units, and what main does to their counters before ending:
     a.c     4 sites, 9 counters; site 0: 5; site 1: 0 7; site 3: 1 0 2
     b.c     1 site, 2 counters: 3 4 (its source needs escaping)
     empty.c no sites
   a.c is registered twice.  */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sampler.h"
#include "sampler-abi.h"

static const unsigned a_offsets[] = { 0, 1, 3, 6, 9 };
static unsigned long long a_counters[9];
static struct __sampler_unit a_unit = {
    .version = SAMPLER_ABI_VERSION, .n_sites = 4, .n_counters = 9,
    .signature = "0123456789abcdef0123456789abcdef", .source = "a.c",
    .site_offsets = a_offsets, .counters = a_counters,
};

static const unsigned b_offsets[] = { 0, 2 };
static unsigned long long b_counters[2];
static struct __sampler_unit b_unit = {
    .version = SAMPLER_ABI_VERSION, .n_sites = 1, .n_counters = 2,
    .signature = "fedcba9876543210fedcba9876543210", .source = "dir/b\tc\\d\n.c",
    .site_offsets = b_offsets, .counters = b_counters,
};

static const unsigned empty_offsets[] = { 0 };
static struct __sampler_unit empty_unit = {
    .version = SAMPLER_ABI_VERSION, .n_sites = 0, .n_counters = 0,
    .signature = "00000000000000000000000000000000", .source = "empty.c",
    .site_offsets = empty_offsets, .counters = NULL,
};

/* Priority 101: before the runtime's own constructor in a static link.  */
__attribute__((constructor(101))) static void register_units(void)
{
    __sampler_register_unit(&a_unit);
    __sampler_register_unit(&b_unit);
    __sampler_register_unit(&a_unit);
    __sampler_register_unit(&empty_unit);
}

static void bump_counters(void)
{
    a_counters[0] = 5;
    a_counters[2] = 7;
    a_counters[6] = 1;
    a_counters[8] = 2;
    b_counters[0] = 3;
    b_counters[1] = 4;
}

static void register_bad_units(void)
{
    static const unsigned not_increasing[] = { 0, 2, 2, 3 };
    static const unsigned wrong_end[] = { 0, 1, 2 };
    static unsigned long long counters[3];
    static struct __sampler_unit bad[] = {
        { .version = SAMPLER_ABI_VERSION + 1, .n_sites = 2, .n_counters = 2,
          .signature = "11111111111111111111111111111111", .source = "version.c",
          .site_offsets = wrong_end, .counters = counters },
        { .version = SAMPLER_ABI_VERSION, .n_sites = 3, .n_counters = 3,
          .signature = "22222222222222222222222222222222", .source = "increasing.c",
          .site_offsets = not_increasing, .counters = counters },
        { .version = SAMPLER_ABI_VERSION, .n_sites = 2, .n_counters = 3,
          .signature = "33333333333333333333333333333333", .source = "end.c",
          .site_offsets = wrong_end, .counters = counters },
    };

    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        __sampler_register_unit(&bad[i]);
    counters[0] = 1;
}

/* Prints the file named by SAMPLER_FILE, then "--".  */
static int show_report(void)
{
    FILE *report = fopen(getenv("SAMPLER_FILE"), "r");
    int c;

    if (report == NULL)
        return 4;
    while ((c = getc(report)) != EOF)
        putchar(c);
    fclose(report);
    puts("--");
    return 0;
}

/* A unit whose counters are in a page that cannot be read: the report
   writer faults on it.  */
static void register_unreadable_unit(void)
{
    static const unsigned offsets[] = { 0, 1 };
    static struct __sampler_unit unit = {
        .version = SAMPLER_ABI_VERSION, .n_sites = 1, .n_counters = 1,
        .signature = "44444444444444444444444444444444", .source = "unreadable.c",
        .site_offsets = offsets,
    };
    void *page = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

    if (page == MAP_FAILED)
        exit(4);
    unit.counters = page;
    __sampler_register_unit(&unit);
}

static int use_dso(const char *path, int unload)
{
    void *dso = dlopen(path, RTLD_NOW);
    if (dso == NULL) {
        fprintf(stderr, "%s\n", dlerror());
        return 4;
    }
    void (*bump)(void) = (void (*)(void))dlsym(dso, "report_dso_bump");
    if (bump == NULL)
        return 5;
    bump();
    if (unload && dlclose(dso) != 0)
        return 6;
    return 0;
}

/* The "fork" mode: returns main's exit status in the first process.  */
static int fork_twice(void)
{
    int status;

    fflush(stdout);
    pid_t child = fork();
    if (child < 0)
        return 4;
    if (child == 0) {
        b_counters[0] = 1;
        pid_t grandchild = fork();
        if (grandchild < 0)
            exit(4);
        if (grandchild == 0) {
            b_counters[1] = 2;
            exit(0);
        }
        if (waitpid(grandchild, &status, 0) != grandchild || status != 0)
            exit(5);
        printf("grandchild %ld\n", (long)grandchild);
        exit(0);
    }
    if (waitpid(child, &status, 0) != child || status != 0)
        return 5;
    printf("child %ld\n", (long)child);
    return 0;
}

int main(int argc, char **argv)
{
    const char *mode = argc >= 2 ? argv[1] : "";
    const char *arg = argc >= 3 ? argv[2] : "";

    bump_counters();
    if (strcmp(mode, "exit") == 0)
        exit(atoi(arg));
    if (strcmp(mode, "return") == 0)
        return atoi(arg);
    if (strcmp(mode, "chdir") == 0)
        return chdir(arg) == 0 ? 0 : 4;
    if (strcmp(mode, "write-now") == 0) {
        printf("write %d\n", sampler_write_report());
        printf("write %d\n", sampler_write_report());
        return 0;
    }
    if (strcmp(mode, "dump-show") == 0) {
        if (sampler_dump() != 0 || show_report() != 0)
            return 4;
        a_counters[0]++;
        if (sampler_dump() != 0 || show_report() != 0)
            return 5;
        return 0;
    }
    if (strcmp(mode, "dump-move") == 0) {
        const char *path = getenv("SAMPLER_FILE");
        if (sampler_dump() != 0 || rename(path, "moved") != 0)
            return 4;
        FILE *other = fopen(path, "wx");
        if (other == NULL || fputs("other\n", other) < 0 || fclose(other) != 0)
            return 5;
        return 0;
    }
    if (strcmp(mode, "reset") == 0) {
        if (sampler_dump() != 0 || sampler_reset() != 0)
            return 4;
        b_counters[0] = 1;
        return 0;
    }
    if (strcmp(mode, "sleep") == 0) {
        long ms = atol(arg);
        const struct timespec pause = { ms / 1000, (ms % 1000) * 1000000 };
        return nanosleep(&pause, NULL) == 0 ? 0 : 4;
    }
    if (strcmp(mode, "raise") == 0) {
        raise(atoi(arg));
        return 0;
    }
    if (strcmp(mode, "crash-in-report") == 0) {
        register_unreadable_unit();
        abort();
    }
    if (strcmp(mode, "errno") == 0) {
        errno = ENOTRECOVERABLE;
        (void)sampler_write_report();
        return errno == ENOTRECOVERABLE ? 0 : 6;
    }
    if (strcmp(mode, "stdio") == 0) {
        fputs("unflushed", stdout);
        exit(0);
    }
    if (strcmp(mode, "countdowns") == 0) {
        long countdown = SAMPLER_COUNTDOWN;
        printf("main");
        for (long i = strtol(arg, NULL, 10); i > 0; i--) {
            printf(" %ld", countdown);
            countdown = __sampler_next_countdown();
        }
        putchar('\n');
        return 0;
    }
    if (strcmp(mode, "close-fd") == 0)
        return close(atoi(arg)) == 0 ? 0 : 4;
    if (strcmp(mode, "replace-fd") == 0) {
        int victim = open("victim", O_WRONLY | O_CREAT | O_EXCL, 0600);
        if (victim < 0 || dup2(victim, atoi(arg)) < 0)
            return 4;
        close(victim);
        return 0;
    }
    if (strcmp(mode, "bad-units") == 0) {
        register_bad_units();
        return 0;
    }
    if (strcmp(mode, "dlopen") == 0 || strcmp(mode, "dlclose") == 0)
        return use_dso(arg, strcmp(mode, "dlclose") == 0);
    if (strcmp(mode, "fork") == 0)
        return fork_twice();
    fprintf(stderr, "usage: %s exit N | return N | chdir DIR | write-now | errno"
            " | stdio | countdowns N | close-fd N | replace-fd N | bad-units"
            " | dlopen DSO | dlclose DSO | dump-show | dump-move | reset"
            " | crash-in-report | raise N | sleep MS | fork\n", argv[0]);
    return 2;
}
