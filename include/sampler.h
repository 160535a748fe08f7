/* sampler: statistically fair sampled instrumentation for C.

   Code compiled with the sampler GCC plugin (sampler-gcc) observes its
   instrumentation sites -- branches, returns, calls to checks, values,
   paths -- on a fair random sample of their visits: each visit is sampled
   independently with probability 1/SAMPLER_SPARSITY, chosen at run time
   from the environment (SAMPLER_SPARSITY unset, empty or 0: no sampling;
   SAMPLER_SEED: a whole number that makes runs repeatable).

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

#ifdef __cplusplus
}
#endif

#endif
