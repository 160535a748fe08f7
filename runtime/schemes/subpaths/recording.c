/* subpaths: online hot subpaths (Online Subpath Profiling: sampled
   subpaths of length 2^n kept in a concise sample, after the OSP thesis's
   algorithm; docs/subpaths.md).

   Every basic block of the source is a site.  When the countdown samples a
   block's visit, a subpath starts there: its length 2^n is drawn (n >= 1,
   probability 2^-n, n at most the list's max_log2, which takes the rest
   of the probability; or, with SAMPLER_SUBPATH_LENGTHS=all, every n from
   1 to max_log2), and the thread *records*: the countdown instrumented
   code sees is held at 0 (sampler_held_countdown keeps the real one), so
   every check takes the slow copy and every site visit calls the runtime.
   A block's visit is appended to the thread's ring of recent blocks; a
   subpath whose last block it is goes into the thread's hot-list.  The
   other sites' visits count off the held countdown (sample.h), so every
   site, the blocks too, is sampled at the rate of the countdown,
   independently: a block sampled while recording starts a subpath of its
   own, overlapping.  When no subpath is pending, the held countdown is
   given back.

   A subpath is the sequence of the counter addresses of its blocks (one
   per site, unique in the process).  The hot-list (hot-list.h) keeps a
   64-bit hash of it as the value, and its blocks in a pool beside the
   list; an entry that counts a hash checks the blocks, and a subpath whose
   hash equals a listed one's but whose blocks differ is dropped (counted
   in `dropped').  Each thread has a list of its own, within
   SAMPLER_SUBPATH_MEMORY bytes, never freed: a thread that exits leaves
   it to the next thread that starts a subpath, which goes on adding to it
   (a concise sample of both threads' subpaths).  Reports write every
   list.

   SAMPLER_SUBPATH_TRACE=PATH writes every block a thread visits, the
   exact measure the lists are checked against (trace.c); reports write
   every list (records.c).

   Everything called from the sample function is integer code, callable
   from SAMPLER_PRESERVING code; the list is made (mmap) and the trace
   written through sampler_call_saving_vectors.  */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "subpaths.h"

_Atomic(struct sampler_subpath_list *) sampler_subpath_lists;
static __thread struct sampler_subpath_list *thread_list
    __attribute__((tls_model("initial-exec")));
/* The thread could not have a list (no memory, or too little): it stops
   asking.  */
static __thread bool thread_without_list __attribute__((tls_model("initial-exec")));
/* The site's max_log2, for make_thread_list.  */
static __thread unsigned wanted_max_log2 __attribute__((tls_model("initial-exec")));

/* Words the hot-list assumes per entry's blocks when it splits the
   memory between entries and the pool.  */
#define POOL_WORDS_PER_ENTRY 8
#define CAPACITY_MAX 65536UL

static size_t align8(size_t n)
{
    return (n + 7) & ~(size_t)7;
}

/* Lays out a list of BYTES at BASE.  False if the memory is too small.  */
static bool lay_out(struct sampler_subpath_list *list, char *base, size_t bytes,
                    unsigned max_log2, bool all_lengths)
{
    size_t used = align8(sizeof *list);
    list->max_log2 = max_log2;
    list->all_lengths = all_lengths;
    list->bytes = bytes;
    list->ring_size = 1UL << max_log2;
    list->ring = (unsigned long long *)(base + used);
    used += list->ring_size * sizeof *list->ring;
    list->ends = (uint16_t *)(base + used);
    used += align8(list->ring_size * sizeof *list->ends);
    if (used >= bytes)
        return false;
    size_t per_entry = 2 * sizeof(unsigned long long) + sizeof(struct subpath_spelling)
                       + sizeof(uint32_t) + POOL_WORDS_PER_ENTRY * sizeof(unsigned long long);
    /* The pool holds two subpaths of the greatest length at least.  */
    size_t reserved = 3 * sizeof(unsigned long long) + 8
                      + 2 * list->ring_size * sizeof(unsigned long long);
    if (used + reserved >= bytes)
        return false;
    unsigned long capacity = (bytes - used - reserved) / per_entry;
    if (capacity > CAPACITY_MAX)
        capacity = CAPACITY_MAX;
    if (capacity < 4)
        return false;
    list->capacity = capacity;
    list->slots = (unsigned long long *)(base + used);
    used += (3 + 2 * capacity) * sizeof(unsigned long long);
    list->spelling = (struct subpath_spelling *)(base + used);
    used += capacity * sizeof(struct subpath_spelling);
    list->order = (uint32_t *)(base + used);
    used = align8(used + capacity * sizeof(uint32_t));
    list->pool = (unsigned long long *)(base + used);
    list->pool_size = (bytes - used) / sizeof(unsigned long long);
    if (list->pool_size > UINT32_MAX)
        list->pool_size = UINT32_MAX;
    return list->pool_size >= 2 * list->ring_size;
}

/* A list for the calling thread: a free one made with the same settings,
   or a new one.  As a long for sampler_call_saving_vectors.  */
static long make_thread_list(void)
{
    const struct subpath_settings *settings = &sampler_subpath_settings;
    (void)sampler_config_get();
    unsigned max_log2 = settings->max_log2 != 0 ? settings->max_log2 : wanted_max_log2;
    bool all_lengths = settings->all_lengths;

    for (struct sampler_subpath_list *list = atomic_load(&sampler_subpath_lists); list != NULL;
         list = list->next) {
        int free_list = 0;
        if (list->max_log2 == max_log2 && list->all_lengths == all_lengths
            && atomic_compare_exchange_strong(&list->owned, &free_list, 1))
            return (long)(uintptr_t)list;
    }
    size_t bytes = settings->memory;
    void *base = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                      -1, 0);
    if (base == MAP_FAILED)
        return 0;
    struct sampler_subpath_list *list = base;
    if (!lay_out(list, base, bytes, max_log2, all_lengths)) {
        munmap(base, bytes);
        static atomic_bool warned;
        if (!atomic_exchange(&warned, true))
            sampler_warn("sampler: SAMPLER_SUBPATH_MEMORY is too small for subpaths of "
                         "this length (it needs 26 bytes per block of the longest, and "
                         "room for the hot-list): no subpaths are recorded");
        return 0;
    }
    atomic_store(&list->owned, 1);
    struct sampler_subpath_list *head = atomic_load(&sampler_subpath_lists);
    do
        list->next = head;
    while (!atomic_compare_exchange_weak(&sampler_subpath_lists, &head, list));
    return (long)(uintptr_t)list;
}

/* ---- The hot-list's hooks ------------------------------------------------ */

struct finished_subpath {
    struct sampler_subpath_list *list;
    unsigned long long end;   /* position of its last block */
    unsigned long length;
};

static inline SAMPLER_PRESERVING unsigned long long
ring_block(const struct sampler_subpath_list *list, const struct finished_subpath *path,
           unsigned long i)
{
    return list->ring[(path->end - path->length + 1 + i) & (list->ring_size - 1)];
}

/* Entry ENTRY's blocks are the finished subpath's.  */
static SAMPLER_PRESERVING bool same_blocks(void *context, unsigned long entry)
{
    struct finished_subpath *path = context;
    struct sampler_subpath_list *list = path->list;
    struct subpath_spelling spelling = list->spelling[entry];

    if (spelling.length != path->length) {
        list->dropped++;
        return false;
    }
    for (unsigned long i = 0; i < path->length; i++)
        if (list->pool[spelling.offset + i] != ring_block(list, path, i)) {
            list->dropped++;
            return false;
        }
    return true;
}

/* Moves the blocks of the entries with a count to the start of the pool,
   in the order they are there (a Shell sort of the entries by offset).  */
static SAMPLER_PRESERVING void compact_pool(struct sampler_subpath_list *list)
{
    unsigned long live = 0;

    for (unsigned long i = 0; i < list->capacity; i++) {
        if (HOT_LOAD(list->slots, HOT_COUNT(i)) > 0 && list->spelling[i].length > 0)
            list->order[live++] = (uint32_t)i;
        else
            list->spelling[i].length = 0;
    }
    for (unsigned long gap = live / 2; gap > 0; gap /= 2)
        for (unsigned long i = gap; i < live; i++) {
            uint32_t e = list->order[i];
            unsigned long j = i;
            for (; j >= gap && list->spelling[list->order[j - gap]].offset
                                   > list->spelling[e].offset; j -= gap)
                list->order[j] = list->order[j - gap];
            list->order[j] = e;
        }
    unsigned long used = 0;
    for (unsigned long k = 0; k < live; k++) {
        struct subpath_spelling *spelling = &list->spelling[list->order[k]];
        for (unsigned long i = 0; i < spelling->length; i++)
            list->pool[used + i] = list->pool[spelling->offset + i];
        spelling->offset = (uint32_t)used;
        used += spelling->length;
    }
    list->pool_used = used;
}

/* Entry ENTRY takes the finished subpath: its blocks into the pool, if
   there is room (after compaction).  */
static SAMPLER_PRESERVING bool claim_blocks(void *context, unsigned long entry)
{
    struct finished_subpath *path = context;
    struct sampler_subpath_list *list = path->list;

    list->spelling[entry].length = 0;
    if (list->pool_size - list->pool_used < path->length)
        compact_pool(list);
    if (list->pool_size - list->pool_used < path->length)
        return false;
    for (unsigned long i = 0; i < path->length; i++)
        list->pool[list->pool_used + i] = ring_block(list, path, i);
    list->spelling[entry].offset = (uint32_t)list->pool_used;
    list->spelling[entry].length = (uint32_t)path->length;
    list->pool_used += path->length;
    return true;
}

/* ---- Recording ------------------------------------------------------------ */

/* A 64-bit hash of the subpath (its length and blocks).  */
static inline SAMPLER_PRESERVING unsigned long long
subpath_hash(const struct sampler_subpath_list *list, const struct finished_subpath *path)
{
    uint64_t h = UINT64_C(0x9e3779b97f4a7c15) ^ path->length;
    for (unsigned long i = 0; i < path->length; i++) {
        h ^= ring_block(list, path, i);
        h *= UINT64_C(0xbf58476d1ce4e5b9);
        h ^= h >> 31;
    }
    return h;
}

static SAMPLER_PRESERVING void finish(struct sampler_subpath_list *list,
                                      unsigned long long end, unsigned long length)
{
    struct finished_subpath path = { list, end, length };
    bool entered;

    (void)hot_observe(list->slots, list->capacity, subpath_hash(list, &path),
                      claim_blocks, same_blocks, &path, &entered);
}

/* A subpath starts at the block about to be recorded at the list's
   position: its lengths.  */
static inline SAMPLER_PRESERVING void start(struct sampler_subpath_list *list)
{
    unsigned long mask = list->ring_size - 1;
    unsigned n;

    if (list->all_lengths) {
        for (n = 1; n <= list->max_log2; n++) {
            list->ends[(list->position + (1UL << n) - 1) & mask] |= (uint16_t)(1U << n);
            list->pending++;
        }
        return;
    }
    for (n = 1; n < list->max_log2 && !sampler_thread_coin(1); n++)
        ;
    list->ends[(list->position + (1UL << n) - 1) & mask] |= (uint16_t)(1U << n);
    list->pending++;
}

/* Appends BLOCK, and offers the subpaths it ends.  */
static inline SAMPLER_PRESERVING void append(struct sampler_subpath_list *list,
                                             unsigned long long block)
{
    unsigned long at = (unsigned long)(list->position & (list->ring_size - 1));
    unsigned ends = list->ends[at];

    list->ring[at] = block;
    list->ends[at] = 0;
    for (unsigned n = 1; ends != 0; n++)
        if (ends & (1U << n)) {
            ends &= ~(1U << n);
            list->pending--;
            finish(list, list->position, 1UL << n);
        }
    list->position++;
}

/* The visit of __sampler_subpath_block but for its common case: it
   starts or ends a subpath, is traced, or is the thread's first.  Out of
   line, so that the common case saves fewer registers (a preserving
   function saves every register it uses).  */
static __attribute__((noinline)) SAMPLER_PRESERVING void
block_visit(unsigned long long *counters, unsigned long max_log2, long c)
{
    if (sampler_subpath_trace_mode >= 0)
        sampler_subpath_trace_visit(counters);
    struct sampler_subpath_list *list = thread_list;
    /* A signal handler that interrupted an update of the list: its blocks
       are not recorded, and start nothing.  */
    bool usable = list == NULL || !list->busy;
    if (c <= 0) {
        bump(counters, 0);
        if (list == NULL && !thread_without_list) {
            wanted_max_log2 = max_log2 >= 1 && max_log2 <= SUBPATH_MAX_LOG2
                                  ? (unsigned)max_log2 : 8;
#if defined(__x86_64__)
            list = (struct sampler_subpath_list *)(uintptr_t)
                sampler_call_saving_vectors(make_thread_list);
#else
            list = (struct sampler_subpath_list *)(uintptr_t)make_thread_list();
#endif
            thread_list = list;
            thread_without_list = list == NULL;
        }
        if (list != NULL && usable)
            start(list);
        c = sampler_countdown_next_preserving();
    }
    if (list != NULL && usable && list->pending > 0) {
        list->busy = true;
        append(list, (unsigned long long)(uintptr_t)counters);
        list->busy = false;
    }
    if ((list != NULL && list->pending > 0) || sampler_subpath_trace_mode > 0) {
        sampler_held_countdown = c;
        SAMPLER_COUNTDOWN = 0;
    } else {
        sampler_held_countdown = 0;
        SAMPLER_COUNTDOWN = c;
    }
}

/* A sampled visit of a block (a site of the subpaths scheme, whose one
   counter counts the subpaths started there) or, while the thread
   records, every visit.  MAX_LOG2 is the plugin's
   -fplugin-arg-sampler-subpath-max for the unit; SAMPLER_SUBPATH_MAX
   overrides it.  */
SAMPLER_EXPORT SAMPLER_PRESERVING void
__sampler_subpath_block(unsigned long long *counters, unsigned long max_log2)
{
    long c;

    if (sampler_held_countdown != 0) {
        c = sampler_held_countdown + SAMPLER_COUNTDOWN;
    } else {
        UNLESS_FIRST_VISIT_OF_THREAD(sampler_started_out_of_line_preserving);
        c = SAMPLER_COUNTDOWN;
    }
    /* The common case, most of the visits of a recording: the visit is
       not sampled, no subpath ends at it, and the thread does not trace;
       it is appended to the ring, and the thread goes on recording.  */
    struct sampler_subpath_list *list = thread_list;
    if (c > 0 && sampler_subpath_trace_mode < 0 && list != NULL && !list->busy && list->pending > 0) {
        unsigned long at = (unsigned long)(list->position & (list->ring_size - 1));
        if (list->ends[at] == 0) {
            /* A signal handler sees the list busy while it changes.  */
            list->busy = true;
            atomic_signal_fence(memory_order_seq_cst);
            list->ring[at] = (unsigned long long)(uintptr_t)counters;
            list->position++;
            atomic_signal_fence(memory_order_seq_cst);
            list->busy = false;
            sampler_held_countdown = c;
            SAMPLER_COUNTDOWN = 0;
            return;
        }
    }
    block_visit(counters, max_log2, c);
}

/* ---- Thread exit, fork, reset ---------------------------------------------- */

static void empty_recording(struct sampler_subpath_list *list)
{
    memset(list->ends, 0, list->ring_size * sizeof *list->ends);
    list->pending = 0;
}

/* The calling thread stops recording (its pending subpaths are cut) and
   gives its countdown back to instrumented code; its list is free for
   the next thread.  */
static void cut_thread(void)
{
    struct sampler_subpath_list *list = thread_list;

    sampler_subpath_trace_end();
    if (list != NULL) {
        empty_recording(list);
        thread_list = NULL;
        atomic_store(&list->owned, 0);
    }
    if (sampler_held_countdown != 0) {
        SAMPLER_COUNTDOWN = sampler_held_countdown;
        sampler_held_countdown = 0;
    }
}

static void empty_list(struct sampler_subpath_list *list)
{
    memset(list->slots, 0, (3 + 2 * list->capacity) * sizeof *list->slots);
    memset(list->spelling, 0, list->capacity * sizeof *list->spelling);
    list->pool_used = 0;
    list->dropped = 0;
}

/* In the child: the calling thread's recording is cut and every list
   emptied; the other threads' lists are free for new threads.  */
static void fork_child(void)
{
    sampler_subpath_trace_fork_child();
    for (struct sampler_subpath_list *list = atomic_load(&sampler_subpath_lists); list != NULL;
         list = list->next) {
        empty_recording(list);
        empty_list(list);
        list->busy = false;
        if (list != thread_list)
            atomic_store(&list->owned, 0);
    }
    if (sampler_held_countdown != 0) {
        SAMPLER_COUNTDOWN = sampler_held_countdown;
        sampler_held_countdown = 0;
    }
}

/* Every list emptied.  */
static void reset(void)
{
    for (struct sampler_subpath_list *list = atomic_load(&sampler_subpath_lists); list != NULL;
         list = list->next) {
        /* Other threads may be updating their lists: empty the counts and
           tau the way the hot-list writes them; the pool is compacted as
           entries are taken again.  */
        for (unsigned long i = 0; i < 3 + 2 * list->capacity; i++)
            if (i != HOT_LOCK)
                HOT_STORE(list->slots, i, 0);
        list->dropped = 0;
    }
}

/* ---- The scheme's variables and hooks ------------------------------------ */

struct subpath_settings sampler_subpath_settings;

static const struct sampler_setting settings[] = {
    {
        .name = "SAMPLER_SUBPATH_MEMORY", .kind = SAMPLER_SETTING_NUMBER,
        .min = SUBPATH_MEMORY_MIN, .max = SUBPATH_MEMORY_MAX,
        .what = "a number of bytes", .default_number = SUBPATH_MEMORY_DEFAULT,
        SAMPLER_SETTING_MEMBER(struct subpath_settings, memory),
        .help = "the bytes of each recording thread's subpath state",
        .unset = "65536",
    },
    {
        .name = "SAMPLER_SUBPATH_MAX", .kind = SAMPLER_SETTING_POWER_OF_TWO,
        .min = 2, .max = 1UL << SUBPATH_MAX_LOG2, .what = "a power of two",
        SAMPLER_SETTING_MEMBER(struct subpath_settings, max_log2),
        .help = "the longest subpath, in blocks",
        .unset = "the plugin's `subpath-max`",
    },
    {
        .name = "SAMPLER_SUBPATH_LENGTHS", .kind = SAMPLER_SETTING_CHOICE,
        .choices = (const struct sampler_setting_choice[]) {
            { "osp", "2^n with probability 2^-n" },
            { "all", "every length from each start" },
            { NULL, NULL },
        },
        SAMPLER_SETTING_MEMBER(struct subpath_settings, all_lengths),
        .help = "which subpaths a sampled block starts; `all` is exact mode",
        .unset = "`osp`",
    },
    {
        .name = "SAMPLER_SUBPATH_TRACE", .kind = SAMPLER_SETTING_PATH,
        .max = SAMPLER_PATH_MAX - SUBPATH_TRACE_SUFFIX,
        SAMPLER_SETTING_MEMBER(struct subpath_settings, trace),
        .help = "each thread also writes every block it visits (from its first "
                "sample) to `PATH.<tid>`, 8 bytes a visit",
        .unset = "no trace",
    },
};

static const struct sampler_settings settings_table = {
    settings, sizeof settings / sizeof settings[0],
};

const struct sampler_runtime_scheme SAMPLER_RUNTIME_SCHEME(SUBPATHS) = {
    .settings = &settings_table,
    .settings_values = &sampler_subpath_settings,
    .thread_exit = cut_thread,
    .fork_child = fork_child,
    .reset = reset,
    .report_tail = sampler_subpath_records,
};
