/* sampler: statistically fair sampled instrumentation for C.

   Code compiled with the sampler GCC plugin (sampler-gcc) observes its
   instrumentation sites -- branches, returns, calls to checks, values,
   paths -- on a fair random sample of their visits: each visit is sampled
   independently with probability 1/SAMPLER_SPARSITY, chosen at run time
   from the environment (SAMPLER_SPARSITY unset, empty or 0: no sampling;
   SAMPLER_SEED: a whole number that makes runs repeatable).

   When sampling is on, a run writes a report of what it observed (format:
   runtime/report-format.md) when it ends: by exit, by a fatal signal
   (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP), or by exec; every
   SAMPLER_INTERVAL seconds while it runs (interim reports); and when it
   calls sampler_dump().  A forked child reports its own counts, from zero.
   Reports go to the file descriptor SAMPLER_REPORT_FD if set, else to the
   file SAMPLER_FILE, where %p stands for the pid, %h for the host name, %t
   for the time and %% for %, by default sampler-%p.report; a relative name
   is taken from the directory the program started in, and missing
   directories are created.  A report never replaces another process's
   file: it takes the name with .1, .2, ... appended instead; each later
   report of the same process replaces that process's previous one, which
   it contains.

   The attribute macros below expand to the plugin's attributes only when
   the plugin is active (it defines __SAMPLER__), so annotated code still
   builds with plain gcc.  */
#ifndef SAMPLER_H
#define SAMPLER_H

#ifdef __SAMPLER__
/* On a function declaration: calls to it are "checks" sites, run only when
   sampled.  On a function definition: instrument that function.  On a
   variable: its stores are "values" sites.  */
#define SAMPLER_SAMPLED __attribute__((sampled))
/* On a function definition: never instrument it (hot kernels, signal
   handlers).  */
#define SAMPLER_NOT_SAMPLED __attribute__((sampled("off")))
#else
#define SAMPLER_SAMPLED
#define SAMPLER_NOT_SAMPLED
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The sparsity (inverse sampling density) in effect; 0 when sampling is
   off.  */
long sampler_sparsity(void);

/* Samples with density 1/SPARSITY (1 to 1000000000) from now on: at once
   in the calling thread, and in every other thread from its next sample
   (the countdown it is running down was drawn at the old density).
   Reports give the sparsity in effect when they are written.  Returns 0;
   -1 with errno EINVAL for a sparsity out of range, or EPERM when the run
   started with sampling off (the environment decides whether a run
   samples).  */
int sampler_set_sparsity(long sparsity);

/* Writes an interim report now: the counts of the run so far, marked
   interim; the run goes on.  Returns 0 on success; -1 when sampling is
   off, after the final report, or on failure (with a warning on stderr,
   unless the previous interim report failed too).  The process's next
   report contains these counts too and, in a file, replaces this one.
   Optional: a program never needs to call it.  */
int sampler_dump(void);

/* The same as sampler_dump (its first name).  */
int sampler_write_report(void);

/* Sets every count to zero: later reports hold only what is counted from
   now on.  What earlier reports hold is kept: the next report goes to a
   new file rather than replace them.  Returns 0; -1 when sampling is off.
   Observations of `bounds' sites in progress in other threads during the
   reset may be lost.  */
int sampler_reset(void);

#ifdef __cplusplus
}
#endif

#endif
