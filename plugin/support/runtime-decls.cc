/* sampler.so: the declarations of the runtime's symbols and of the unit's
   counters that instrumented code refers to, and their GC roots.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).

   What: every runtime function, variable and flag the plugin's code calls
   or reads is declared here, once per unit, on first use, into
   runtime_decls (see runtime-decls.h); so is the unit's counter array.
   Why in one place: the names and types are the contract with libsampler
   (runtime/sampler-abi.h), and the trees must survive GCC's garbage
   collector between functions, which one roots table guarantees for all.
   How to debug: a symbol the runtime does not define shows up at link
   time as an undefined __sampler_* reference; `nm -u' of an instrumented
   object lists what the plugin emitted.  A tree collected too early
   (a crash in a later function of the unit) means a declaration kept
   outside runtime_decls.  */

#include "sampler-plugin.h"
#include "runtime-decls.h"

#include "function.h"
#include "cgraph.h"
#include "stringpool.h"
#include "attribs.h"
#include "ggc.h"
#include "gimplify.h"

struct runtime_declarations runtime_decls;

/* The structure holds only trees: it is an array of them for the
   collector.  */
const struct ggc_root_tab runtime_decls_gc_roots[] = {
  { &runtime_decls, sizeof (runtime_decls) / sizeof (tree), sizeof (tree),
    &gt_ggc_mx_tree_node, &gt_pch_nx_tree_node },
  LAST_GGC_ROOT_TAB
};

tree
runtime_function_decl (const char *name, tree type, bool leaf)
{
  tree decl = build_fn_decl (name, type);
  TREE_PUBLIC (decl) = 1;
  DECL_EXTERNAL (decl) = 1;
  DECL_ARTIFICIAL (decl) = 1;
  TREE_NOTHROW (decl) = 1;
  if (leaf)
    DECL_ATTRIBUTES (decl)
      = tree_cons (get_identifier ("leaf"), NULL_TREE, DECL_ATTRIBUTES (decl));
  return decl;
}

/* A runtime function of no arguments: `long NAME (void)', returning a
   countdown, or `void NAME (void)', setting the thread's, with
   SETS_COUNTDOWN.  */
static tree
runtime_function (const char *name, bool sets_countdown = false)
{
  tree type = build_function_type_list (sets_countdown
					? void_type_node
					: long_integer_type_node, NULL_TREE);
  return runtime_function_decl (name, type, true);
}

/* The thread's countdown, __sampler_countdown, zero at a thread's start.

   Code for a shared library reaches it as the runtime defines it,
   initial-exec: the address of its slot, relative to the thread pointer,
   is loaded from the GOT once per function, and the checks subtract from
   %fs:(reg).  Code for an executable uses local-exec, %fs:NAME@tpoff, with
   no load and no register: initial-exec would hold that register in every
   instrumented function, whose slow copies need many.  Local-exec needs
   the variable in the executable, so each unit for one defines it, weak:
   the units share one definition, a static libsampler's strong one
   replaces it, and a libsampler.so that defines it too is bound to the
   executable's, which the linker exports because the library defines the
   symbol.  */
static tree
countdown_variable (void)
{
  tree decl = plugin_variable ("__sampler_countdown", long_integer_type_node);
  TREE_PUBLIC (decl) = 1;
  if (flag_shlib)
    {
      DECL_EXTERNAL (decl) = 1;
      set_decl_tls_model (decl, TLS_MODEL_INITIAL_EXEC);
      return decl;
    }
  DECL_WEAK (decl) = 1;
  /* Whatever -fvisibility says: the runtime must find it.  */
  DECL_VISIBILITY (decl) = VISIBILITY_DEFAULT;
  DECL_VISIBILITY_SPECIFIED (decl) = 1;
  /* Referenced only from code the pass builds after symbol removal.  */
  DECL_PRESERVE_P (decl) = 1;
  set_decl_tls_model (decl, TLS_MODEL_LOCAL_EXEC);
  define_variable (decl);
  return decl;
}

void
declare_runtime (void)
{
  if (runtime_decls.countdown)
    return;
  runtime_decls.countdown = countdown_variable ();
  runtime_decls.thread_start
    = runtime_function ("__sampler_thread_start_preserving");
  runtime_decls.skip = runtime_function ("__sampler_skip", true);
  tree off = build_decl (BUILTINS_LOCATION, VAR_DECL,
			 get_identifier ("__sampler_off"), integer_type_node);
  TREE_PUBLIC (off) = 1;
  DECL_EXTERNAL (off) = 1;
  DECL_ARTIFICIAL (off) = 1;
  runtime_decls.off = off;
}

tree
countdown_reference (void)
{
  declare_runtime ();
  /* GIMPLE does not share references between statements.  */
  return unshare_expr (runtime_decls.countdown);
}

tree
sample_function (const char *name, tree type_1, tree type_2, tree type_3)
{
  for (tree known = runtime_decls.sample_functions; known;
       known = TREE_CHAIN (known))
    if (strcmp (IDENTIFIER_POINTER (DECL_NAME (TREE_VALUE (known))), name)
	== 0)
      return TREE_VALUE (known);
  tree counters = build_pointer_type (long_long_unsigned_type_node);
  tree type = build_function_type_list (void_type_node, counters, type_1,
					type_2, type_3, NULL_TREE);
  tree decl = runtime_function_decl (name, type, true);
  runtime_decls.sample_functions
    = tree_cons (NULL_TREE, decl, runtime_decls.sample_functions);
  return decl;
}

tree
unit_counters_decl (void)
{
  if (runtime_decls.counters)
    return runtime_decls.counters;
  tree type = build_array_type_nelts (long_long_unsigned_type_node,
				      MAX (unit_counters, 1u));
  tree decl = build_decl (BUILTINS_LOCATION, VAR_DECL,
			  get_identifier ("__sampler_counters"), type);
  TREE_STATIC (decl) = 1;
  TREE_ADDRESSABLE (decl) = 1;
  DECL_ARTIFICIAL (decl) = 1;
  DECL_IGNORED_P (decl) = 1;
  /* Referenced only from code and the descriptor, which may be finished
     after symbol removal has looked.  */
  DECL_PRESERVE_P (decl) = 1;
  runtime_decls.counters = decl;
  define_variable (decl);
  return decl;
}
