/* sampler: statistically fair sampled instrumentation for C.

   Code compiled with the sampler GCC plugin (sampler-gcc) observes its
   instrumentation sites -- branches, returns, calls to checks, values,
   paths -- on a fair random sample of their visits: each visit is sampled
   independently with probability 1/SAMPLER_SPARSITY, chosen at run time
   from the environment (SAMPLER_SPARSITY unset, empty or 0: no sampling;
   SAMPLER_SEED: a whole number that makes runs repeatable).

   When sampling is on, a run that ends normally (returns from main or
   calls exit) writes a report of what it observed (format:
   runtime/report-format.md).  It goes to the file descriptor
   SAMPLER_REPORT_FD if set, else to the file SAMPLER_FILE, where %p stands
   for the pid and %% for %, by default sampler-%p.report; a relative name
   is taken from the directory the program started in, and missing
   directories are created.  An existing file is never replaced: the
   report takes the name with .1, .2, ... appended instead.

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

/* The sparsity (inverse sampling density) of this run; 0 when sampling is
   off.  */
long sampler_sparsity(void);

/* Writes a report of the run so far, now, to the configured destination,
   without an exit record; the run goes on, and writes its report at exit
   as usual.  Returns 0 on success; -1 when sampling is off or on failure
   (with a warning on stderr).  Each call writes a new report (to a file:
   under a new name).  Optional: a program never needs to call it.  Its
   behaviour across fork and around signals may still be refined.  */
int sampler_write_report(void);

#ifdef __cplusplus
}
#endif

#endif
