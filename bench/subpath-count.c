/* subpath-count: exact counts of given subpaths in block traces.

   Usage: subpath-count TRACE... < SUBPATHS

   Each TRACE is a file written by a run with SAMPLER_SUBPATH_TRACE (one
   thread's block visits, 64 bits each: unit ordinal << 32 | site, as the
   report's subpath records name blocks).  Each line of SUBPATHS is a
   subpath as a report's `subpath' record spells it, blocks separated by
   spaces or tabs: `UNIT:SITE UNIT:SITE ...'.  Prints, for each line in
   order, how many times the subpath occurs in the traces (occurrences
   may overlap; a subpath never spans two traces), then a line
   `blocks N': the block visits traced.  */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_LENGTH 1024
#define BUCKETS 4096

struct subpath {
    size_t length;
    uint64_t *blocks;
    unsigned long long count;
    struct subpath *next_same_start;  /* in its bucket */
};

static struct subpath *bucket[BUCKETS];

static size_t bucket_of(uint64_t block)
{
    return (size_t)((block * UINT64_C(0x9e3779b97f4a7c15)) >> 52) & (BUCKETS - 1);
}

static void die(const char *what, const char *detail)
{
    fprintf(stderr, "subpath-count: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    exit(2);
}

/* Parses one line of SUBPATHS into PATH; false if the line is bad.  */
static int parse_subpath(char *line, struct subpath *path)
{
    uint64_t blocks[MAX_LENGTH];
    size_t n = 0;

    for (char *token = strtok(line, " \t\n"); token != NULL; token = strtok(NULL, " \t\n")) {
        char *end;
        errno = 0;
        unsigned long long unit = strtoull(token, &end, 10);
        if (end == token || *end != ':' || errno != 0 || unit > UINT32_MAX)
            return 0;
        char *site_text = end + 1;
        unsigned long long site = strtoull(site_text, &end, 10);
        if (end == site_text || *end != '\0' || errno != 0 || site > UINT32_MAX
            || n == MAX_LENGTH)
            return 0;
        blocks[n++] = unit << 32 | site;
    }
    if (n < 1)
        return 0;
    path->length = n;
    path->blocks = malloc(n * sizeof *path->blocks);
    if (path->blocks == NULL)
        die("out of memory", NULL);
    memcpy(path->blocks, blocks, n * sizeof *blocks);
    path->count = 0;
    return 1;
}

static unsigned long long count_trace(const char *name)
{
    int fd = open(name, O_RDONLY);
    struct stat st;

    if (fd < 0 || fstat(fd, &st) != 0)
        die("cannot read the trace", name);
    if (st.st_size % 8 != 0)
        die("not a trace (its size is not a multiple of 8)", name);
    size_t n = (size_t)st.st_size / 8;
    if (n == 0) {
        close(fd);
        return 0;
    }
    const uint64_t *trace = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (trace == MAP_FAILED)
        die("cannot map the trace", name);
    (void)madvise((void *)trace, (size_t)st.st_size, MADV_SEQUENTIAL);
    for (size_t i = 0; i < n; i++)
        for (struct subpath *p = bucket[bucket_of(trace[i])]; p != NULL;
             p = p->next_same_start)
            if (p->blocks[0] == trace[i] && p->length <= n - i
                && memcmp(p->blocks, trace + i, p->length * sizeof *trace) == 0)
                p->count++;
    munmap((void *)trace, (size_t)st.st_size);
    close(fd);
    return n;
}

int main(int argc, char **argv)
{
    struct subpath *paths = NULL;
    size_t n_paths = 0, room = 0;
    char line[MAX_LENGTH * 24];

    if (argc < 2) {
        fprintf(stderr, "usage: subpath-count TRACE... < SUBPATHS\n");
        return 2;
    }
    for (unsigned long number = 1; fgets(line, sizeof line, stdin) != NULL; number++) {
        if (strchr(line, '\n') == NULL && !feof(stdin))
            die("a subpath line is too long", NULL);
        if (n_paths == room) {
            room = room ? 2 * room : 64;
            paths = realloc(paths, room * sizeof *paths);
            if (paths == NULL)
                die("out of memory", NULL);
        }
        if (!parse_subpath(line, &paths[n_paths])) {
            char where[64];
            snprintf(where, sizeof where, "line %lu", number);
            die("a subpath is not blocks UNIT:SITE separated by blanks", where);
        }
        n_paths++;
    }
    /* Linked after reading: realloc moves the array.  */
    for (size_t i = 0; i < n_paths; i++) {
        size_t b = bucket_of(paths[i].blocks[0]);
        paths[i].next_same_start = bucket[b];
        bucket[b] = &paths[i];
    }
    unsigned long long blocks = 0;
    for (int i = 1; i < argc; i++)
        blocks += count_trace(argv[i]);
    for (size_t i = 0; i < n_paths; i++)
        printf("%llu\n", paths[i].count);
    printf("blocks %llu\n", blocks);
    return 0;
}
