/* subpaths: the trace of SAMPLER_SUBPATH_TRACE=PATH, the exact measure
   the hot-lists are checked against (testsuite/subpaths, bench/
   subpath-count.c): each thread writes every block it visits, from its
   first sampled one (at SAMPLER_SPARSITY=1, its first), to PATH.<tid>, as
   the report names blocks (unit ordinal and site, 32 bits each).  The
   thread records all the time, and keeps its list as it would without
   the trace, so that one run gives both.  The buffer is named and written
   through sampler_call_saving_vectors, from the SAMPLER_PRESERVING sample
   function.  */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "subpaths.h"

/* Blocks buffered before a write, and the entries of the cache of their
   names.  */
#define TRACE_BUFFER_BLOCKS 65536
#define TRACE_CACHE_ENTRIES 4096
/* A block no unit owns (registered after the report's units, or gone).  */
#define TRACE_UNKNOWN_BLOCK UINT64_MAX

struct trace_cache_entry {
    unsigned long long block;  /* counters' address; 0: empty */
    unsigned long long name;   /* ordinal << 32 | site */
};

__thread signed char sampler_subpath_trace_mode __attribute__((tls_model("initial-exec")));
#define trace_mode sampler_subpath_trace_mode
static __thread bool trace_busy __attribute__((tls_model("initial-exec")));
static __thread int trace_fd __attribute__((tls_model("initial-exec")));
static __thread unsigned trace_used __attribute__((tls_model("initial-exec")));
static __thread unsigned long long *trace_buffer __attribute__((tls_model("initial-exec")));

static struct trace_cache_entry *trace_cache(void)
{
    return (struct trace_cache_entry *)(trace_buffer + TRACE_BUFFER_BLOCKS);
}

/* Names the buffered blocks and writes them.  */
static long write_trace(void)
{
    struct trace_cache_entry *cache = trace_cache();

    for (unsigned i = 0; i < trace_used; i++) {
        unsigned long long block = trace_buffer[i];
        struct trace_cache_entry *entry
            = &cache[(block >> 3) & (TRACE_CACHE_ENTRIES - 1)];
        if (entry->block != block) {
            unsigned long ordinal;
            unsigned site;
            entry->block = block;
            entry->name = sampler_units_find_counter(
                              (const unsigned long long *)(uintptr_t)block, &ordinal, &site)
                              && ordinal <= UINT32_MAX
                          ? (unsigned long long)ordinal << 32 | site
                          : TRACE_UNKNOWN_BLOCK;
        }
        trace_buffer[i] = entry->name;
    }
    const char *bytes = (const char *)trace_buffer;
    size_t left = trace_used * sizeof *trace_buffer;
    while (left > 0) {
        ssize_t written = write(trace_fd, bytes, left);
        if (written <= 0) {
            sampler_warn("sampler: cannot write the subpath trace (SAMPLER_SUBPATH_TRACE): "
                         "it stops here");
            close(trace_fd);
            trace_mode = -1;
            break;
        }
        bytes += written;
        left -= (size_t)written;
    }
    trace_used = 0;
    return 0;
}

static void write_trace_at_exit(void)
{
    if (trace_mode > 0 && !trace_busy)
        (void)write_trace();
}

/* 1 if the calling thread is to trace (its file opened), else -1.  */
static long open_trace(void)
{
    const char *trace = sampler_subpath_settings.trace;
    /* The setting is shorter than SAMPLER_PATH_MAX - SUBPATH_TRACE_SUFFIX.  */
    char path[SAMPLER_PATH_MAX + SUBPATH_TRACE_SUFFIX];
    static atomic_bool exit_hook;

    (void)sampler_config_get();
    if (trace[0] == '\0')
        return -1;
    if (trace_buffer == NULL) {
        size_t bytes = TRACE_BUFFER_BLOCKS * sizeof *trace_buffer
                       + TRACE_CACHE_ENTRIES * sizeof(struct trace_cache_entry);
        void *base = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (base == MAP_FAILED)
            return -1;
        trace_buffer = base;
    }
    memset(trace_cache(), 0, TRACE_CACHE_ENTRIES * sizeof(struct trace_cache_entry));
    snprintf(path, sizeof path, "%s.%ld", trace, (long)gettid());
    trace_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (trace_fd < 0) {
        sampler_warn("sampler: cannot create the subpath trace (SAMPLER_SUBPATH_TRACE): "
                     "no trace");
        return -1;
    }
    trace_used = 0;
    /* The thread that exits the process writes what it buffered; the
       others do when they exit (sampler_subpath_trace_end).  */
    if (!atomic_exchange(&exit_hook, true))
        (void)atexit(write_trace_at_exit);
    return 1;
}

/* Appends COUNTERS's block to the trace.  */
static inline SAMPLER_PRESERVING void trace_block(unsigned long long *counters)
{
    if (!trace_busy) {
        trace_busy = true;
        trace_buffer[trace_used++] = (unsigned long long)(uintptr_t)counters;
        if (trace_used == TRACE_BUFFER_BLOCKS)
            (void)subpath_call_saving_vectors(write_trace);
        trace_busy = false;
    }
}

SAMPLER_PRESERVING void sampler_subpath_trace_visit(unsigned long long *counters)
{
    if (__builtin_expect(trace_mode == 0, 0) && !trace_busy) {
        trace_busy = true;
        trace_mode = (signed char)subpath_call_saving_vectors(open_trace);
        trace_busy = false;
    }
    if (trace_mode > 0)
        trace_block(counters);
}

void sampler_subpath_trace_end(void)
{
    if (trace_mode > 0) {
        (void)write_trace();
        close(trace_fd);
        trace_mode = -1;
    }
}

void sampler_subpath_trace_fork_child(void)
{
    if (trace_mode > 0) {
        close(trace_fd);
        trace_used = 0;
        trace_mode = 0;
    }
}
