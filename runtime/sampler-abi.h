/* The contract between code instrumented by sampler.so and libsampler.
   The plugin emits references to the runtime's functions and variables
   of the registry sampler-abi.def (its calls say which), to the wrappers
   of SAMPLER_REDIRECTED_FUNCTIONS, and the site table's section.  This
   header declares them from the registry, and so does the plugin
   (runtime-decls.cc): the two cannot disagree.  The declarations are C's
   (the plugin, in C++, builds its own).

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
#define SAMPLER_COUNTDOWN __sampler_countdown

/* Nonzero once the process is configured with sampling off: threads
   keep a countdown of zero, so that every check at the entry of an
   instrumented function fails, and its slow entry goes to the function's
   unsampled clone when this says so (see plugin/unsampled.cc).  */
#define abi_long long
#define abi_int int
#define SAMPLER_ABI_STORAGE_THREAD __thread
#define SAMPLER_ABI_STORAGE_GLOBAL
#define SAMPLER_ABI_TLS_MODEL_THREAD __attribute__((tls_model("initial-exec")))
#define SAMPLER_ABI_TLS_MODEL_GLOBAL
#define SAMPLER_ABI_VARIABLE(NAME, TYPE, STORAGE) \
    extern SAMPLER_ABI_STORAGE_##STORAGE TYPE NAME SAMPLER_ABI_TLS_MODEL_##STORAGE;
#include "sampler-abi.def"
#undef abi_long
#undef abi_int

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
   changes (SAMPLER_PRESERVING below): they must save every register they
   use, leave the vector registers alone and cope with a stack aligned to
   8 only; where the caller may keep data in its 128-byte red zone, the
   call steps over it.

   The functions, their arguments and how the plugin calls them are the
   registry's, sampler-abi.def; their declarations follow struct
   __sampler_unit below.  */

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

/* On x86-64, the slow path of instrumented code calls the runtime from an
   asm statement that tells the compiler only which registers carry the
   arguments and the result: so that the calls do not make the compiler
   keep the function's values in callee-saved registers, whose saving
   would cost the fast path too.  The functions it calls (the registry's
   PRESERVING ones) save every register they change; they use no vector
   or x87 register, and run code that does (drawing countdowns, starting
   a thread) through sampler_call_saving_vectors (sampler-internal.h).
   Their declarations below give their definitions the attributes.  */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define SAMPLER_PRESERVING \
    __attribute__((no_caller_saved_registers, target("general-regs-only")))
#else
#define SAMPLER_PRESERVING
#endif

#ifndef __cplusplus
#define abi_void void
#define abi_long long
#define abi_none void
#define abi_counters unsigned long long *
#define abi_int int
#define abi_ulong unsigned long
#define abi_llong long long
#define abi_ullong unsigned long long
#define abi_double double
#define abi_ldouble long double
#define abi_llong_array const long long *
#define abi_ullong_array const unsigned long long *
#define abi_unit struct __sampler_unit *
#define SAMPLER_ABI_CALL_PRESERVING SAMPLER_PRESERVING
#define SAMPLER_ABI_CALL_PLAIN_LEAF
#define SAMPLER_ABI_CALL_PLAIN
#define SAMPLER_ABI_CALL_ENTRY
#define SAMPLER_ABI_FUNCTION(NAME, RESULT, ARGUMENTS, CALL) \
    RESULT NAME ARGUMENTS SAMPLER_ABI_CALL_##CALL;
#include "sampler-abi.def"
#undef abi_void
#undef abi_long
#undef abi_none
#undef abi_counters
#undef abi_int
#undef abi_ulong
#undef abi_llong
#undef abi_ullong
#undef abi_double
#undef abi_ldouble
#undef abi_llong_array
#undef abi_ullong_array
#undef abi_unit
#endif

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
