/* subpaths, shared by its files: recording.c (the hot-lists of subpaths
   and the sample function; docs/subpaths.md), trace.c (the exact trace of
   SAMPLER_SUBPATH_TRACE) and records.c (the report's subpath records).  */
#ifndef SAMPLER_SUBPATHS_H
#define SAMPLER_SUBPATHS_H

#include "hot-list.h"
#include "schemes.h"

/* The longest subpath is 2^SUBPATH_MAX_LOG2 blocks at most.  */
#define SUBPATH_MAX_LOG2 10
/* SAMPLER_SUBPATH_MEMORY: default and bounds, in bytes.  */
#define SUBPATH_MEMORY_DEFAULT 65536UL
#define SUBPATH_MEMORY_MIN 16384UL
#define SUBPATH_MEMORY_MAX (1UL << 30)
/* Room SAMPLER_SUBPATH_TRACE leaves for the thread's suffix (.<tid>).  */
#define SUBPATH_TRACE_SUFFIX 16

/* The scheme's variables (recording.c's table).  */
struct subpath_settings {
    unsigned long memory;      /* SAMPLER_SUBPATH_MEMORY: a thread's state, bytes */
    unsigned max_log2;         /* SAMPLER_SUBPATH_MAX as its log2; 0: the plugin's
                                  -fplugin-arg-sampler-subpath-max */
    bool all_lengths;          /* SAMPLER_SUBPATH_LENGTHS=all: every length
                                  from each start */
    /* SAMPLER_SUBPATH_TRACE, where each thread writes every block it
       visits (empty: no trace).  */
    char trace[SAMPLER_PATH_MAX - SUBPATH_TRACE_SUFFIX];
};
extern struct subpath_settings sampler_subpath_settings;

struct subpath_spelling {
    uint32_t offset;  /* in the pool */
    uint32_t length;  /* blocks; 0: none */
};

/* A thread's hot-list of subpaths and its recording (recording.c).  */
struct sampler_subpath_list {
    struct sampler_subpath_list *next;  /* every list made, newest first */
    atomic_int owned;                   /* a live thread adds to it */
    unsigned max_log2;
    bool all_lengths;
    bool busy;                          /* the runtime is updating it */
    size_t bytes;                       /* mapped */
    unsigned long ring_size;            /* 2^max_log2 */
    unsigned long capacity;             /* hot-list entries */
    unsigned long pool_size;            /* words */
    unsigned long pool_used;
    unsigned long long dropped;
    unsigned long long position;        /* blocks recorded so far */
    unsigned long pending;              /* subpaths started, not finished */
    unsigned long long *ring;           /* the last ring_size blocks recorded */
    uint16_t *ends;                     /* per ring position: bit n, a subpath
                                           of 2^n blocks ends there */
    unsigned long long *slots;          /* the hot-list: 3 + 2 capacity */
    struct subpath_spelling *spelling;  /* per entry */
    uint32_t *order;                    /* scratch for compaction */
    unsigned long long *pool;           /* the entries' blocks */
};

/* Every list made, newest first; never freed.  */
extern _Atomic(struct sampler_subpath_list *) sampler_subpath_lists;

/* The report's records of every list (records.c).  */
void sampler_subpath_records(struct sampler_report_context *report);

/* ---- The trace (trace.c) -------------------------------------------------- */

/* Whether the calling thread traces: 0 not known yet, 1 it does, -1 not.  */
extern __thread signed char sampler_subpath_trace_mode
    __attribute__((tls_model("initial-exec")));

/* The visit of COUNTERS's block by a thread whose trace mode is not -1:
   opens its trace on its first visit, and appends the block.  */
SAMPLER_PRESERVING void sampler_subpath_trace_visit(unsigned long long *counters);
/* The thread stops tracing: what it buffered is written, the file closed.  */
void sampler_subpath_trace_end(void);
/* In the child after fork: the parent writes what was buffered, the child
   traces to a file of its own.  */
void sampler_subpath_trace_fork_child(void);

/* FN, which may use vector registers, from SAMPLER_PRESERVING code.  */
static inline SAMPLER_PRESERVING long subpath_call_saving_vectors(long (*fn)(void))
{
#if defined(__x86_64__)
    return sampler_call_saving_vectors(fn);
#else
    return fn();
#endif
}

#endif
