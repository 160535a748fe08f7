/* sampler.so: the declarations of the runtime's symbols (and of the unit's
   counters) that instrumented code refers to, in one place.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).

   Each is made once per unit, on first use, and lives in GCC's
   garbage-collected memory, which collects between the functions the
   passes work on: runtime_decls_gc_roots keeps them all.  The runtime's
   functions and variables are those of its registry,
   runtime/sampler-abi.def, with the types and calls it gives, which the
   runtime's sampler-abi.h declares from it too.  */
#ifndef SAMPLER_RUNTIME_DECLS_H
#define SAMPLER_RUNTIME_DECLS_H

#include "../runtime/sampler-abi.h"

/* The registry's functions, in its order.  */
enum runtime_function_index
{
#define SAMPLER_ABI_FUNCTION(NAME, RESULT, ARGUMENTS, CALL) RUNTIME_##NAME,
#include "../runtime/sampler-abi.def"
  N_RUNTIME_FUNCTIONS
};

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
  /* The registry's functions that the unit's code calls, declared on
     first use (runtime_function), in the registry's order.  */
  tree functions[N_RUNTIME_FUNCTIONS];
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
/* The registry's function NAME, declared once per unit, on first use,
   with the type the registry gives it, and `leaf' where its call says
   so.  UNIT is the type of struct __sampler_unit, for the functions that
   take one.  */
tree runtime_function (const char *name, tree unit = NULL_TREE);
/* Whether calls to FN, a registry function, are build_preserving_call's
   (its call is PRESERVING), rather than ordinary calls.  */
bool runtime_function_preserving_p (tree fn);
/* The runtime's sample function NAME of a scheme (runtime_function),
   `void NAME (unsigned long long *counters, TYPE_1[, TYPE_2[, TYPE_3]])',
   which sets the next countdown.  The types given are checked against
   the registry's.  */
tree sample_function (const char *name, tree type_1 = NULL_TREE,
		      tree type_2 = NULL_TREE, tree type_3 = NULL_TREE);

#endif
