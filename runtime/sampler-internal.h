/* libsampler's internal interface: shared between the runtime's own files
   and the unit tests, never exported from libsampler.so (the library is
   built with -fvisibility=hidden; only SAMPLER_EXPORT symbols are public).  */
#ifndef SAMPLER_INTERNAL_H
#define SAMPLER_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sampler-abi.h"
#include "settings.h"

#define SAMPLER_EXPORT __attribute__((visibility("default")))

/* Largest accepted SAMPLER_SPARSITY (inverse sampling density).  */
#define SAMPLER_SPARSITY_MAX 1000000000L

/* Countdowns drawn per refill of a thread's bank.  */
#define SAMPLER_BANK_SIZE 1024

/* Room for a path, its terminating NUL included (Linux's PATH_MAX).  */
#define SAMPLER_PATH_MAX 4096

/* Where reports go when neither SAMPLER_REPORT_FD nor SAMPLER_FILE is set.  */
#define SAMPLER_DEFAULT_REPORT_FILE "sampler-%p.report"

/* Largest accepted SAMPLER_INTERVAL, in seconds (a year).  */
#define SAMPLER_INTERVAL_MAX 31536000L

struct sampler_config {
    long sparsity;   /* inverse density; 0 means sampling is off */
    bool seeded;     /* the seed came from SAMPLER_SEED, so runs repeat */
    uint64_t seed;   /* base from which every thread's stream is derived */
    int report_fd;   /* SAMPLER_REPORT_FD, or -1: reports go to report_file */
    /* What report_fd was at startup (set by sampler_config_from_environment):
       a program may close it and reuse its number for a file of its own,
       which a report must not be written into.  */
    uint64_t report_fd_device;
    uint64_t report_fd_inode;
    /* SAMPLER_FILE, a valid pattern (see sampler_report_pattern_valid), or
       the default; absolute once sampler_config_from_environment has
       resolved it against the starting directory.  */
    char report_file[SAMPLER_PATH_MAX];
    long interval;   /* SAMPLER_INTERVAL: seconds between interim reports; 0: none */
};

/* The process's environment variables (config.c): their table.  */
extern const struct sampler_settings sampler_process_settings;

/* The I-th table of environment variables: the process's (I = 0, whose
   values go into struct sampler_config: *VALUES NULL), then each scheme's
   that has one, in registry order (*SCHEME its name, *VALUES its
   storage).  NULL past the last.  */
const struct sampler_settings *sampler_settings_table(size_t i, const char **scheme,
                                                      void **values);

/* Parses the variables of the process's table and the schemes' tables,
   each value from LOOKUP (NULL: unset).  Returns 0 when all are valid.
   Otherwise returns -1, leaves sampling off in *out, and writes to err
   (if errlen > 0) one line per bad variable, without a final newline,
   naming the variable and its value.  A valid configuration without a
   seed has seeded == false and seed == 0; the caller supplies a fresh
   seed.  Whether the report descriptor is open is not checked here (see
   sampler_config_from_environment).  */
int sampler_config_parse(sampler_lookup *lookup, void *context,
                         struct sampler_config *out, char *err, size_t errlen);

/* Whether the kernel runs the process in secure mode (AT_SECURE): then no
   SAMPLER_* variable is read and sampling is off.  */
bool sampler_process_is_secure(void);

/* Reads the real environment (none of it in secure mode): parses it, writes any warning to stderr, and
   gives an unseeded configuration a fresh seed.  When sampling is on, it
   also turns sampling off (with a warning) if SAMPLER_REPORT_FD is not open
   for writing, and makes a relative SAMPLER_FILE absolute against the
   current directory, so that a program that changes directory still
   reports where it was started.  */
void sampler_config_from_environment(struct sampler_config *out);

/* A fresh 64-bit seed (getrandom, or a time/pid/address mix without it).  */
uint64_t sampler_fresh_seed(void);

/* A bijective 64-bit mixer (splitmix64's finaliser).  */
uint64_t sampler_mix64(uint64_t value);

/* Thread numbers (see threads.c): the main thread is 0, threads created
   by instrumented code 1, 2, ... in creation order, and the others from
   this number on, in the order they start sampling.  */
#define SAMPLER_LAZY_ORDER_BASE (1UL << 31)

/* The generator seed of the stream of thread number order from base.
   Orders that differ modulo 2^32 give distinct seeds for the same base.  */
uint32_t sampler_stream_seed(uint64_t base, unsigned long order);

/* The process configuration, read from the environment on first use
   (thread-safe).  */
const struct sampler_config *sampler_config_get(void);

/* The same, for signal handlers: no pthread_once.  NULL until the process
   has been configured.  */
const struct sampler_config *sampler_config_if_ready(void);

/* The sparsity in effect now: the configured one, or the last one given to
   sampler_set_sparsity.  */
long sampler_current_sparsity(void);

/* The countdown unit in effect (1 unless a unit built with rates set it):
   countdowns are geometric with mean sparsity times this.  */
long sampler_countdown_unit(void);

/* countdown.c: a registered unit built with rates, from SOURCE, weighs its
   sites in countdown units of UNIT.  The first such unit sets the
   process's unit (every thread redraws its countdowns); a later one with
   another unit gets one warning, and its sites are sampled at the rates
   the process's unit gives their weights, which reports record.  */
void sampler_countdown_unit_offer(unsigned unit, const char *source);

/* The pid of this process as the runtime knows it: set when it configures
   itself and in the child after fork.  A process whose getpid() differs was
   made without fork() (vfork, clone) and shares its parent's memory or
   counts: it writes no report.  */
long sampler_process_pid(void);

/* ---- The parts of the process's configuration and fork handling
   (process.c) that other files own ---------------------------------------- */

/* countdown.c: sets the sparsity in effect to the configured one and, when
   sampling is on, arranges for each thread's stream to be freed when the
   thread exits.  Called once, by the process configuration.  */
void sampler_countdown_configure(const struct sampler_config *config);

/* countdown.c: in the child after fork, restarts the calling thread's
   stream, if it has one, from the child's new base seed.  */
void sampler_countdown_fork_child(uint64_t seed);

/* threads.c: the number of the calling thread, which has no stream yet
   (see SAMPLER_LAZY_ORDER_BASE); a thread that instrumented code did not
   create takes the next lazy number.  */
unsigned long sampler_thread_order(void);

/* threads.c: before fork, reserves the next creation number for the
   child; in the child, restarts the numbering and returns that number.  */
void sampler_threads_fork_prepare(void);
unsigned long sampler_threads_fork_child(void);

/* A stream of geometric countdowns with mean sparsity (>= 1): a generator
   and its bank of pre-drawn values.  Streams are not thread-safe; each
   thread owns one.  sampler_stream_new returns NULL when out of memory.  */
struct sampler_stream;
struct sampler_stream *sampler_stream_new(long sparsity, uint64_t base,
                                          unsigned long order);
long sampler_stream_next(struct sampler_stream *stream);

/* The calling thread's next countdown (what __sampler_next_countdown
   returns), without a trip through the PLT.  */
long sampler_countdown_next(void);

#if defined(__x86_64__)
/* Calls fn with the vector and x87 state saved (xsave, or fxsave where
   the processor or system lacks it) and restored around it: how
   SAMPLER_PRESERVING code (sampler-abi.h) runs code that uses them.  */
long sampler_call_saving_vectors(long (*fn)(void));
#endif

/* The head of a thread's stream of countdowns, drawn ahead into a bank;
   the first member of countdown.c's struct sampler_stream.  */
struct sampler_bank {
    unsigned next;        /* index of the next unused countdown */
    unsigned generation;  /* of the sparsity the bank was drawn at */
    /* Random bits from the stream's generator not used yet, below a stop
       bit, the highest bit set (sampler_thread_coin); 0 or 1: none.  In
       the cache line of next and generation, which every sample reads.  */
    uint64_t coins;
    long countdowns[SAMPLER_BANK_SIZE];
};

/* The calling thread's stream (NULL until it starts sampling), and how many
   times sampler_set_sparsity changed the sparsity: a bank drawn at another
   generation is redrawn.  */
extern __thread struct sampler_stream *sampler_thread_stream
    __attribute__((tls_model("initial-exec")));
extern atomic_uint sampler_sparsity_generation;

/* A uniform 64-bit number from the calling thread's generator, the one
   its countdowns are drawn from (xoshiro256**): the coin tosses of the
   sample functions (hot-lists).  Callable from SAMPLER_PRESERVING code.  */
SAMPLER_PRESERVING uint64_t sampler_thread_random64(void);

/* While a scheme holds the thread's countdown (subpaths, while it
   records a subpath: runtime/schemes/subpaths/), the real countdown,
   >= 1, and the countdown instrumented code sees is held at 0, so that
   every check takes the slow copy and every site visit calls the
   runtime; 0 otherwise.  */
extern __thread long sampler_held_countdown __attribute__((tls_model("initial-exec")));

/* sampler_countdown_next for SAMPLER_PRESERVING code, when the bank is
   empty, stale or not there yet (drawing takes floating point).  */
SAMPLER_PRESERVING long sampler_countdown_refill_preserving(void);

/* True with probability 2^-J (1 <= J <= 63), from the calling thread's
   generator: a hot-list tosses one such coin per sampled visit.  The coin
   reads the unused bits from the lowest up and is heads if the first J
   are 0; tails is decided at the first bit set, and only the bits up to
   it are used up, the others staying independent of the outcome.  A
   toss then takes about two bits whatever J, and one draw serves about
   thirty tosses.  */
static inline __attribute__((always_inline)) SAMPLER_PRESERVING bool
sampler_thread_coin(unsigned j)
{
    struct sampler_bank *bank = (struct sampler_bank *)sampler_thread_stream;

    if (__builtin_expect(bank == NULL, 0))
        return (sampler_thread_random64() & ((UINT64_C(1) << j) - 1)) == 0;
    uint64_t coins = bank->coins;
    if (__builtin_expect((coins >> j) == 0, 0))   /* fewer than J bits left */
        coins = sampler_thread_random64() | UINT64_C(1) << 63;
    unsigned zeros = (unsigned)__builtin_ctzll(coins);
    bool heads = zeros >= j;
    bank->coins = coins >> (heads ? j : zeros + 1);
    return heads;
}

/* sampler_countdown_next for SAMPLER_PRESERVING code: inline, as every
   sampled visit takes one (at sparsity 1 scalar-pairs samples many visits
   per assignment).  */
static inline __attribute__((always_inline)) SAMPLER_PRESERVING long
sampler_countdown_next_preserving(void)
{
    struct sampler_bank *bank = (struct sampler_bank *)sampler_thread_stream;

    if (__builtin_expect(bank != NULL && bank->next < SAMPLER_BANK_SIZE
                         && bank->generation
                            == atomic_load_explicit(&sampler_sparsity_generation,
                                                    memory_order_relaxed), 1))
        return bank->countdowns[bank->next++];
    return sampler_countdown_refill_preserving();
}
void sampler_stream_free(struct sampler_stream *stream);

/* ---- Warnings ----------------------------------------------------------- */

/* At most this many bytes of a value are quoted in a warning by default, so
   that a huge value cannot flood stderr.  */
#define SAMPLER_QUOTE_MAX 64
/* Size of the buffer sampler_quote needs for max bytes: each byte takes at
   most 4 characters (\xNN), plus "..." and the NUL.  */
#define SAMPLER_QUOTED_SIZE(max) (4 * (max) + 4)

/* Copies at most max bytes of value into quoted, escaping anything that
   could break a warning line or the terminal (control bytes, quotes,
   backslashes) as \xNN, and marking a truncation with "...".  Uses no
   stdio, no locale and no malloc.  */
void sampler_quote(const char *value, size_t max, char *quoted);

/* Writes message and a newline to stderr with one write(2): no stdio state
   of the program is touched, and concurrent writers cannot split a line.
   Keeps errno.  */
void sampler_warn(const char *message);

/* ---- Units --------------------------------------------------------------- */

/* The unit whose counters, as registered, hold COUNTER as a site's first:
   its place in sampler_units_visit's order and the site.  Lock-free and
   async-signal-safe.  */
bool sampler_units_find_counter(const unsigned long long *counter, unsigned long *ordinal,
                                unsigned *site);

/* Calls visit on every registered unit, in registration order, each once,
   with the name of the loaded object it belongs to (NULL: the program
   itself).  A unit unregistered by its object's destructor (dlclose) is
   visited as the runtime's copy of its descriptor and final counts.
   Lock-free and async-signal-safe; safe while other threads register
   units.  */
void sampler_units_visit(void (*visit)(const struct __sampler_unit *unit,
                                       const char *object, void *context),
                         void *context);

/* A loaded object as reports list it: its load address (what the
   addresses in its ELF file are relative to), the range its segments
   span, and its absolute name (NULL: the program itself).  */
struct sampler_loaded_object {
    uintptr_t base;
    uintptr_t start;
    uintptr_t end;
    const char *name;
};

/* Set once a site has sampled an address (an indirect call's target, a
   pointer's value): from then on, reports list the loaded objects and the
   heap and stack (`loaded' and `region' records), which name them.  */
extern _Atomic bool sampler_addresses_sampled;

static inline void sampler_note_address_sampled(void)
{
    if (!atomic_load_explicit(&sampler_addresses_sampled, memory_order_relaxed))
        atomic_store_explicit(&sampler_addresses_sampled, true, memory_order_relaxed);
}

/* Calls visit on the heap and the main thread's stack ("heap", "stack":
   /proc/self/maps' [heap] and [stack]), those the process has.
   Async-signal-safe (regions.c).  */
void sampler_regions_visit(void (*visit)(const char *kind, uintptr_t start, uintptr_t end,
                                         void *context),
                           void *context);

/* Adds the objects loaded now to the list reports write (dl_iterate_phdr:
   not from a signal handler).  */
void sampler_loaded_objects_refresh(void);

/* Calls visit on every object seen loaded, in the order first seen.
   Lock-free and async-signal-safe.  */
void sampler_loaded_objects_visit(void (*visit)(const struct sampler_loaded_object *object,
                                                void *context),
                                  void *context);

/* Sets every counter of every unit to zero (sampler_reset, and the child
   after fork).  */
void sampler_units_zero(void);

/* Serialise registration with fork (see sampler_fork_prepare).  */
void sampler_units_lock(void);
void sampler_units_unlock(void);

/* Whether unit is well-formed for this runtime; if not, describes the
   problem in problem (one line, no newline).  */
bool sampler_unit_is_valid(const struct __sampler_unit *unit, char *problem,
                           size_t size);

/* ---- Reports --------------------------------------------------------------- */

/* What a report says about the run: an "interim" record, or how the
   process image ended ("exit" record).  */
enum sampler_ending {
    SAMPLER_INTERIM,       /* written while the run goes on */
    SAMPLER_EXIT_STATUS,   /* normal exit, with its status */
    SAMPLER_EXIT_SIGNAL,   /* killed by a signal, with its number */
    SAMPLER_EXIT_EXEC,     /* the image is about to be replaced by exec */
    SAMPLER_EXIT_UNDERSCORE, /* _exit or _Exit, with its status */
    SAMPLER_EXIT_QUICK,    /* quick_exit, with its status */
};

/* What the %-sequences of SAMPLER_FILE stand for in one report's name.  */
struct sampler_name_values {
    long pid;              /* %p */
    const char *host;      /* %h */
    long long time;        /* %t: seconds since the Epoch */
};

/* Whether pattern is a valid SAMPLER_FILE: not empty, shorter than
   SAMPLER_PATH_MAX, and '%' followed only by 'p' (the pid), 'h' (the host
   name), 't' (the time) or '%'.  */
bool sampler_report_pattern_valid(const char *pattern);

/* Expands the pattern into path (size bytes); a '/' in the host name
   becomes '_'.  Returns the length, or -1 when the result does not fit.
   Async-signal-safe.  */
long sampler_report_expand(const char *pattern,
                           const struct sampler_name_values *values,
                           char *path, size_t size);

/* Writes a report of the run now to the configured destination.  Returns 0
   on success, -1 when sampling is off, when the report is not due (an
   interim report after a final one, a process not made by fork) or on
   failure (after one warning line on stderr).  Keeps errno.  */
int sampler_report_write(enum sampler_ending ending, int value);

/* The same from a fatal-signal handler: async-signal-safe, and it gives up
   (returns -1, writes nothing) rather than wait long for another thread's
   report, or when the calling thread is itself writing one.  */
int sampler_report_write_from_signal(enum sampler_ending ending, int value);

/* Around exec: sampler_report_before_exec writes the report of the image
   (exit exec) and returns whether it did; if the exec then fails,
   sampler_report_after_failed_exec resets the counters, so that nothing is
   counted twice, and the run goes on.  */
bool sampler_report_before_exec(void);
void sampler_report_after_failed_exec(void);

/* The lock that every report holds while it reads the counters.  */
void sampler_report_lock(void);
void sampler_report_unlock(void);

/* sampler_reset under the report lock: zeroes the counters and starts a
   new report sequence (see report-writer/writer.c).  */
void sampler_report_reset(void);

/* Arranges for the report at normal exit, once per process, when sampling
   is on (called by the process configuration).  */
void sampler_report_arm(void);

/* The at_quick_exit handler that writes the report of a quick_exit called
   through the runtime (see exit.c).  */
void sampler_report_at_quick_exit(void);

/* Fork handlers of the report writer: hold the report lock across fork; in
   the child, start afresh (no previous report, new pid) and name the parent
   in every report (the `parent' record).  */
void sampler_report_fork_prepare(void);
void sampler_report_fork_parent(void);
void sampler_report_fork_child(long parent);

/* Starts the thread that writes interim reports every config->interval
   seconds (no-op without an interval).  Called at configuration and in the
   child after fork.  */
void sampler_interval_start(const struct sampler_config *config);

/* ---- Signals ------------------------------------------------------------- */

/* The signals, other than the fatal ones, whose default action ends the
   process: the runtime reports them where the program leaves the default
   (see signals.c).  */
#define SAMPLER_TERMINATING_SIGNALS                                           \
    SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE,      \
    SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF

/* Installs the fatal-signal handlers (SIGSEGV, SIGBUS, SIGFPE, SIGILL,
   SIGABRT, SIGTRAP), the handler of the terminating signals left at their
   default, and an alternate signal stack for the calling (main) thread,
   when sampling is on.  */
void sampler_signals_arm(void);

/* An alternate signal stack for a new thread, if it has none, so that a
   stack overflow can still be reported; returns what
   sampler_signals_thread_end must free (or NULL).  */
void *sampler_signals_thread_begin(void);
void sampler_signals_thread_end(void *altstack);

/* Serialise changes to the program's dispositions with fork.  */
void sampler_signals_fork_prepare(void);
void sampler_signals_fork_parent(void);
void sampler_signals_fork_child(void);

#endif
