/* The contract between code instrumented by sampler.so and libsampler.
   The plugin emits references to __sampler_countdown, __sampler_off,
   __sampler_thread_start_preserving, __sampler_skip, the sample functions
   (__sampler_count to __sampler_pairs_unsigned), __sampler_register_unit
   and __sampler_unregister_unit, the wrappers of
   SAMPLER_REDIRECTED_FUNCTIONS, and the site table's section (the
   plugin's runtime-decls.cc declares them); keep the two in step.  The
   other functions declared here are entry points of the runtime for tests
   and hand-written instrumentation, which the plugin does not emit:
   __sampler_thread_start, __sampler_next_countdown and the
   __sampler_observe_* functions the sample functions use.

   Countdown convention: a countdown c >= 1 says that the c-th site visit from
   now is the next one sampled.  Every site visit decrements c; the visit that
   brings it to 0 is sampled, and the sample function that observes it
   reloads c with the next countdown.  (In units: a visit of a site of
   weight W takes W from c, and is sampled when that brings c to 0 or
   below; the sample function then draws c afresh, which the countdown's
   memorylessness makes fair.)  A thread whose countdown is still 0
   (the TLS initial value) has not been started: instrumented code calls
   __sampler_thread_start_preserving() on its way into the slow copy when
   it sees 0, or counts the visits of code that is not cloned off 0, and
   the first sampling function it calls starts the thread and adds its
   first countdown to what was left.  When sampling is off (__sampler_off),
   a thread's countdown stays 0, so that every instrumented function's
   entry check goes to its unsampled clone; a function without one sets it
   to SAMPLER_COUNTDOWN_OFF, so that its checks take the fast path, and
   back to 0 where it returns.  */
#ifndef SAMPLER_ABI_H
#define SAMPLER_ABI_H

#include <limits.h>

#define SAMPLER_COUNTDOWN_OFF LONG_MAX

/* Weighted sites (docs/rates.md): the countdown counts units, geometric
   with p = 1 / (sparsity * unit), and a visit of a site of weight W takes
   W of them, so it is sampled with probability 1 - (1 - p)^W.  A build
   without rates has unit 1 and every site weight 1.  The bounds keep every
   region's weight, and the countdown, well within a long.  */
#define SAMPLER_COUNTDOWN_UNIT_MAX 4096
#define SAMPLER_SITE_WEIGHT_MAX 1048576

/* The thread's countdown: the visits to sites left until the next sampled
   one, that one included (0 before the thread starts sampling).  It lives
   in memory, so that instrumented code keeps no register for sampling: a
   threshold check subtracts its region's weight from it in one
   instruction.  It is the only sampling state instrumented code keeps
   between statements, so a callee or a signal handler that samples while
   the caller's slow copy runs only counts its own visits off it.
   Initial-exec TLS: one %fs-relative access, no __tls_get_addr call, even
   in -fPIC code.  Code compiled for an executable (not -fPIC) uses
   local-exec instead, with no GOT load and no register for the address,
   and defines the variable, weak, in every unit: the executable's
   definition, exported because this library defines the symbol too, is
   then the one every module uses.  */
extern __thread long __sampler_countdown __attribute__((tls_model("initial-exec")));
#define SAMPLER_COUNTDOWN __sampler_countdown

/* Nonzero once the process is configured with sampling off: threads
   keep a countdown of zero, so that every check at the entry of an
   instrumented function fails, and its slow entry goes to the function's
   unsampled clone when this says so (see plugin/unsampled.cc).  */
extern int __sampler_off;

/* Starts the calling thread's random stream (and the process's configuration
   on first use); returns its first countdown.  Not emitted by the plugin,
   which calls __sampler_thread_start_preserving.  */
long __sampler_thread_start(void);

/* The calling thread's next countdown, from its pre-drawn bank.  Not
   emitted by the plugin: the sample functions take the next countdown
   themselves.  */
long __sampler_next_countdown(void);

/* ---- Sampled visits -------------------------------------------------------

   Instrumented code in the slow copy decrements the thread's countdown c
   by the number k of visits at a point (k > 1 only for the scalar-pairs
   of one assignment with pairs-sites=pair) and calls one of these when
   c <= 0: the (k + c)-th of the k visits is sampled, and so is every later one of them that the next
   countdowns reach.  Each records what the sampled visits saw and sets the
   countdown to the one that follows the k visits (>= 1).  COUNTERS is the
   first counter of the first site.

   On x86-64 the plugin calls those that take only integers from an asm
   statement that tells the compiler that nothing but the countdown
   changes (see sampler-internal.h): they must save every register they
   use, leave the vector registers alone and cope with a stack aligned to
   8 only; where the caller may keep data in its 128-byte red zone, the
   call steps over it.

   Single visits (k = 1, so c = 0): */
void __sampler_count(unsigned long long *counters, unsigned long index);
void __sampler_branch(unsigned long long *counters, unsigned long outcome);
void __sampler_sign_signed(unsigned long long *counters, long long value);
void __sampler_sign_unsigned(unsigned long long *counters, unsigned long long value);
void __sampler_bounds_signed(unsigned long long *slots, long long value);
void __sampler_bounds_unsigned(unsigned long long *slots, unsigned long long value);
void __sampler_bounds_double(unsigned long long *slots, double value);
void __sampler_float_kind(unsigned long long *counters, long double value,
                          int source_type);
/* A values site with a hot-list of CAPACITY entries (its 3 + 2 CAPACITY
   slots: runtime/schemes/values.c).  */
void __sampler_value(unsigned long long *slots, unsigned long long value,
                     unsigned long capacity);
/* An indirect-calls site: as __sampler_value, TARGET the address called;
   reports then list the loaded objects, to name the targets.  */
void __sampler_indirect_call(unsigned long long *slots, unsigned long long target,
                             unsigned long capacity);
/* A traversal of a region that ended on path PATH of its function's
   paths site, whose 2 + 2 CAPACITY slots are a table of (path + 1,
   count) pairs after the sampled and lost counts: pair PATH when
   IN_ARRAY, else a hash table (runtime/schemes/paths.c).  */
void __sampler_path(unsigned long long *slots, unsigned long long path,
                    unsigned long capacity, unsigned long in_array);
/* The same, with preferential numbering: PREFERRED the path's
   preferential number, PATH its Ball-Larus number, TABLE the capacity,
   the range and the interesting paths' Ball-Larus numbers + 1
   (runtime/schemes/paths.c).  */
void __sampler_path_preferred(unsigned long long *slots, unsigned long long preferred,
                              unsigned long long path, const unsigned long long *table);
/* A block (subpaths scheme): a sampled visit starts a subpath of at most
   2^MAX_LOG2 blocks; while the thread records one, every site visit of the
   thread calls the runtime (runtime/schemes/subpaths.c).  */
void __sampler_subpath_block(unsigned long long *counters, unsigned long max_log2);
/* The k scalar-pairs sites of an assignment, one visit for them all
   (the plugin's default, pairs-sites=assignment): every pair is
   compared.  VALUES[0] is the value assigned, VALUES[1] to VALUES[k]
   those it is compared with (as long long, or unsigned long long for
   unsigned types and pointers); site i has counters 3i to 3i + 2.  */
void __sampler_assignment_pairs_signed(unsigned long long *counters,
                                       unsigned long k, const long long *values);
void __sampler_assignment_pairs_unsigned(unsigned long long *counters,
                                         unsigned long k,
                                         const unsigned long long *values);
/* The same k sites as k visits (pairs-sites=pair), c <= 0 after all k.  */
void __sampler_pairs_signed(unsigned long long *counters, unsigned long k,
                            const long long *values);
void __sampler_pairs_unsigned(unsigned long long *counters, unsigned long k,
                              const unsigned long long *values);
/* After visits that are never observed, which left the countdown c <= 0:
   sets it to c plus as many next countdowns as make it >= 1.  */
void __sampler_skip(void);
/* __sampler_thread_start for the asm calls: saves every register.  */
long __sampler_thread_start_preserving(void);

/* ---- Units, counters and site tables --------------------------------------

   Every instrumented translation unit (a "unit") has one descriptor, built by
   the plugin as a static variable, registered from a constructor and
   unregistered from a destructor that the plugin emits.  Registration must
   work before the runtime's own constructors have run.  Unregistration
   comes before the descriptor's memory goes (dlclose, or the end of the
   process); the runtime then keeps a copy of the unit's final counts, so
   that the reports written later still hold them.  */

#define SAMPLER_ABI_VERSION 3
/* The oldest version the runtime still reads: version 2 descriptors end
   before site_schemes.  */
#define SAMPLER_ABI_VERSION_OLDEST 2

struct __sampler_unit {
    unsigned version;             /* SAMPLER_ABI_VERSION */
    unsigned n_sites;
    unsigned n_counters;
    unsigned countdown_unit;      /* countdown units per visit of a site of
                                     default weight (a rates file's unit), or
                                     0: built without rates (see
                                     sampler_countdown_unit_offer) */
    const char *signature;        /* 32 lowercase hex digits: identifies the unit
                                     across builds (same sites, same source,
                                     same options: same signature) */
    const char *source;           /* main input file, as given to the compiler */
    const unsigned *site_offsets; /* n_sites + 1 entries, increasing: site i's
                                     counters are counters[site_offsets[i]]
                                     up to counters[site_offsets[i + 1]] */
    unsigned long long *counters; /* n_counters slots, zero at program start */
    struct __sampler_unit *next;  /* the runtime's list link; NULL from the plugin */
    /* Since version 3: n_sites entries, site i's scheme (enum
       sampler_scheme_id), so that a release's field reports can leave out
       the schemes it keeps on the machine (docs/remote.md).  */
    const unsigned char *site_schemes;
};

void __sampler_register_unit(struct __sampler_unit *unit);
void __sampler_unregister_unit(struct __sampler_unit *unit);

/* The sample functions bump counters with relaxed atomic adds.
   Observations that are not plain counts go through these, which the
   sample functions call (the plugin does not emit them):

   bounds: slots[0] = number of observations, slots[1] = minimum,
   slots[2] = maximum; signed values are stored as their two's-complement
   bits, floating values as the bits of the double.  */
void __sampler_observe_signed(unsigned long long *slots, long long value);
void __sampler_observe_unsigned(unsigned long long *slots, unsigned long long value);
void __sampler_observe_double(unsigned long long *slots, double value);
/* A value into a hot-list of CAPACITY entries (values).  */
void __sampler_observe_value(unsigned long long *slots, unsigned long long value,
                             unsigned long capacity);

/* A traversal of path PATH into a paths site's slots (paths).  */
void __sampler_observe_path(unsigned long long *slots, unsigned long long path,
                            unsigned long capacity, unsigned long in_array);
/* The same with preferential numbering (__sampler_path_preferred).  */
void __sampler_observe_preferred_path(unsigned long long *slots, unsigned long long preferred,
                                      unsigned long long path,
                                      const unsigned long long *table);

/* float-kinds: one counter per class, in this order.  */
enum sampler_float_kind {
    SAMPLER_FLOAT_NAN,
    SAMPLER_FLOAT_NEG_INF,
    SAMPLER_FLOAT_NEG_NORMAL,
    SAMPLER_FLOAT_NEG_SUBNORMAL,
    SAMPLER_FLOAT_NEG_ZERO,
    SAMPLER_FLOAT_POS_ZERO,
    SAMPLER_FLOAT_POS_SUBNORMAL,
    SAMPLER_FLOAT_POS_NORMAL,
    SAMPLER_FLOAT_POS_INF,
    SAMPLER_FLOAT_KINDS
};
/* SOURCE_TYPE is the value's type in the program, which decides what is
   subnormal.  */
enum sampler_float_type {
    SAMPLER_FLOAT_TYPE_FLOAT,
    SAMPLER_FLOAT_TYPE_DOUBLE,
    SAMPLER_FLOAT_TYPE_LONG_DOUBLE
};
void __sampler_observe_float_kind(unsigned long long *counters, long double value,
                                  int source_type);

/* The static site table of each unit goes in the non-allocated ELF section
   SAMPLER_SITE_SECTION (which `strip` removes), as text; the linker
   concatenates the units' tables.  The plugin can also write the same text to
   a file (-fplugin-arg-sampler-site-table=FILE, appended).  Format, one record
   per line, fields separated by one TAB, and in fields `\\', TAB and newline
   written as `\\\\', `\\t' and `\\n':

     unit <signature> <source> <n_sites> <n_counters> <countdown unit>
     site <index> <scheme> <file> <line> <column> <function> <n_counters> <predicate> <counter names, comma-separated> <weight>
     ...
     end

   Sites are numbered 0 .. n_sites-1 in table order.  The countdown unit
   and the weights (in units, 0 for a site left uninstrumented) are written
   by builds with rates (-fplugin-arg-sampler-rates); a table without them
   says unit 1, weight 1 for every site.  The schemes, their
   names and their counters are those of the registry, schemes.def.  */
#define SAMPLER_SITE_SECTION ".debug_sampler_sites"

/* The path table of each unit with the paths scheme goes in the
   non-allocated section SAMPLER_PATH_SECTION, as text with the escapes
   of the site table, and after the site table in site-table=FILE; one
   block per unit:

     pathunit <signature>
     paths <site> <function> <file> <n_paths> array|hash
     region <entry block> <first path> <n_paths> <line>
     block <block> <first line> <last line>
     edge <from block> <to block> <value> true|false|switch|- <line>
     exit <block> <value> <line>
     end
     ... (a paths ... end group per function)
     pathunitend

   A path's number decodes from its region's entry: at each block, the
   edge or exit with the greatest value not above what is left of the
   number, less that value (Ball and Larus, MICRO 1996), until an exit;
   the region whose range [first, first + n_paths) holds the number is
   where it starts, and its first path's number is what is left there.
   docs/paths.md.  */
#define SAMPLER_PATH_SECTION ".debug_sampler_paths"

/* The schemes and how their observations merge, from the registry.  */
enum sampler_scheme_id {
#define SAMPLER_SCHEME(ID, NAME, N_COUNTERS, COUNTERS, MERGE, TEXT) \
    SAMPLER_SCHEME_##ID,
#include "schemes.def"
    SAMPLER_N_SCHEMES
};

enum sampler_merge_kind {
#define SAMPLER_MERGE(ID, TEXT) SAMPLER_MERGE_##ID,
#include "schemes.def"
    SAMPLER_N_MERGE_KINDS
};

/* ---- Calls the plugin redirects to the runtime ------------------------------

   In every function it compiles, the plugin replaces direct calls to these
   C library functions (X(function, wrapper), by assembler name) by calls
   to the runtime's wrapper, which has the same type: the exec family (the
   image's report is written before it is replaced), _exit, _Exit and
   quick_exit (which run no exit handler: the report is written first;
   GCC's __builtin__exit and __builtin__Exit have the same assembler
   names and are redirected too), daemon (whose parent
   leaves with _exit: its counts so far go into an interim report first,
   since the child counts from zero), pthread_create
   (threads numbered in creation order get their random streams from that
   number, and an alternate signal stack), and signal, sysv_signal and
   sigaction (the program's handlers for fatal signals are chained from the
   runtime's, which stay installed; strict ISO C's signal is glibc's
   __sysv_signal).  Each wrapper behaves as the function it wraps when
   sampling is off.  */
#define SAMPLER_REDIRECTED_FUNCTIONS(X)                                       \
    X(execl, __sampler_execl) X(execle, __sampler_execle)                     \
    X(execlp, __sampler_execlp) X(execv, __sampler_execv)                     \
    X(execve, __sampler_execve) X(execvp, __sampler_execvp)                   \
    X(execvpe, __sampler_execvpe) X(fexecve, __sampler_fexecve)               \
    X(_exit, __sampler__exit) X(_Exit, __sampler__Exit)                       \
    X(quick_exit, __sampler_quick_exit)                                       \
    X(daemon, __sampler_daemon)                                               \
    X(pthread_create, __sampler_pthread_create)                               \
    X(signal, __sampler_signal) X(sysv_signal, __sampler_sysv_signal)         \
    X(__sysv_signal, __sampler_sysv_signal) X(sigaction, __sampler_sigaction)

#endif
