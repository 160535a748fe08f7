/* sampler.so: the declarations of the runtime's symbols (and of the unit's
   counters) that instrumented code refers to, in one place.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).

   Each is made once per unit, on first use, and lives in GCC's
   garbage-collected memory, which collects between the functions the
   passes work on: runtime_decls_gc_roots keeps them all.  The names and
   types are the contract with the runtime (runtime/sampler-abi.h).  */
#ifndef SAMPLER_RUNTIME_DECLS_H
#define SAMPLER_RUNTIME_DECLS_H

#include "../runtime/sampler-abi.h"

/* The number of functions whose calls redirect.cc redirects.  */
#define SAMPLER_COUNT_REDIRECTION(function, wrapper) + 1
#define N_REDIRECTED_FUNCTIONS \
  (0 SAMPLER_REDIRECTED_FUNCTIONS (SAMPLER_COUNT_REDIRECTION))

/* Only trees, NULL until made: the GC roots table covers the structure as
   an array of trees.  */
struct runtime_declarations
{
  /* The thread's countdown, __sampler_countdown (see countdown_variable in
     runtime-decls.cc), and the runtime's functions and flag that the
     transformation's code uses (declare_runtime).  */
  tree countdown;
  tree thread_start;		/* __sampler_thread_start_preserving.  */
  tree skip;			/* __sampler_skip.  */
  tree off;			/* __sampler_off.  */
  /* The runtime's sample functions that the unit's code calls, a
     TREE_LIST of their declarations (sample_function).  */
  tree sample_functions;
  /* The unit's counter array, __sampler_counters (unit_counters_decl).  */
  tree counters;
  /* The runtime's wrappers, in the order of SAMPLER_REDIRECTED_FUNCTIONS
     (redirect.cc).  */
  tree wrappers[N_REDIRECTED_FUNCTIONS];
};

extern struct runtime_declarations runtime_decls;

/* For PLUGIN_REGISTER_GGC_ROOTS (plugin.cc).  */
extern const struct ggc_root_tab runtime_decls_gc_roots[];

/* An external function of the runtime, NAME of TYPE, that throws nothing;
   LEAF: it never calls back into this unit nor longjmps, so calls to it
   need no abnormal edges in functions that call setjmp.  */
tree runtime_function_decl (const char *name, tree type, bool leaf);

/* Declares the countdown, thread_start, skip and off, once per unit.  */
void declare_runtime (void);
/* The runtime's sample function NAME of a scheme (see sampler-abi.h),
   `void NAME (unsigned long long *counters, TYPE_1[, TYPE_2[, TYPE_3]])',
   which sets the next countdown; declared once per unit, on first use.  */
tree sample_function (const char *name, tree type_1, tree type_2 = NULL_TREE,
		      tree type_3 = NULL_TREE);

#endif
