/* sampler.so: the declarations of the runtime's symbols and of the unit's
   counters that instrumented code refers to, and their GC roots.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).

   What: every runtime function, variable and flag the plugin's code calls
   or reads is declared here, once per unit, on first use, into
   runtime_decls (see runtime-decls.h); so is the unit's counter array.
   The names, types and calls are the registry's,
   runtime/sampler-abi.def, from which the runtime's sampler-abi.h
   declares the same functions.
   Why in one place: they are the contract with libsampler, and the trees
   must survive GCC's garbage collector between functions, which one
   roots table guarantees for all.
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
#include "diagnostic-core.h"
#include "gimple-expr.h"

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

/* ---------------------------------------------------------------------
   The registry, runtime/sampler-abi.def.  */

/* How instrumented code calls a function: the registry's CALL.  */
enum runtime_call { CALL_PRESERVING, CALL_PLAIN_LEAF, CALL_PLAIN, CALL_ENTRY };

static const struct
{
  const char *name;
  enum runtime_call call;
} runtime_functions[N_RUNTIME_FUNCTIONS] = {
#define SAMPLER_ABI_FUNCTION(NAME, RESULT, ARGUMENTS, CALL) { #NAME, CALL_##CALL },
#include "../runtime/sampler-abi.def"
};

/* The registry's type words (runtime/sampler-abi.def) as trees.  */
#define abi_void void_type_node
#define abi_long long_integer_type_node
#define abi_none NULL_TREE
#define abi_counters build_pointer_type (long_long_unsigned_type_node)
#define abi_int integer_type_node
#define abi_ulong long_unsigned_type_node
#define abi_llong long_long_integer_type_node
#define abi_ullong long_long_unsigned_type_node
#define abi_double double_type_node
#define abi_ldouble long_double_type_node
#define abi_llong_array pointer_to_const (long_long_integer_type_node)
#define abi_ullong_array pointer_to_const (long_long_unsigned_type_node)
#define abi_unit build_pointer_type (unit)
/* A parenthesized list of arguments, without its parentheses.  */
#define SAMPLER_ABI_ARGUMENTS(...) __VA_ARGS__

static tree
pointer_to_const (tree type)
{
  return build_pointer_type (build_qualified_type (type, TYPE_QUAL_CONST));
}

/* The type of the registry's function INDEX; UNIT is the type of struct
   __sampler_unit.  */
static tree
function_type (unsigned index, tree unit)
{
  unsigned i = 0;
#define SAMPLER_ABI_FUNCTION(NAME, RESULT, ARGUMENTS, CALL)		\
  if (index == i++)							\
    return build_function_type_list (RESULT,				\
				      SAMPLER_ABI_ARGUMENTS ARGUMENTS,	\
				      NULL_TREE);
#include "../runtime/sampler-abi.def"
  gcc_unreachable ();
}

/* The type of the registry's variable NAME.  */
static tree
variable_type (const char *name)
{
#define SAMPLER_ABI_VARIABLE(NAME, TYPE, STORAGE)	\
  if (strcmp (name, #NAME) == 0)			\
    return TYPE;
#include "../runtime/sampler-abi.def"
  gcc_unreachable ();
}

static unsigned
function_index (const char *name)
{
  for (unsigned i = 0; i < N_RUNTIME_FUNCTIONS; i++)
    if (strcmp (runtime_functions[i].name, name) == 0)
      return i;
  internal_error ("sampler: %qs is not a function of runtime/sampler-abi.def",
		  name);
}

tree
runtime_function (const char *name, tree unit)
{
  unsigned index = function_index (name);
  tree &decl = runtime_decls.functions[index];
  if (decl)
    return decl;
  enum runtime_call call = runtime_functions[index].call;
  if (call == CALL_ENTRY)
    internal_error ("sampler: %qs is not called by instrumented code "
		    "(runtime/sampler-abi.def)", name);
  decl = runtime_function_decl (name, function_type (index, unit),
				call != CALL_PLAIN);
  return decl;
}

bool
runtime_function_preserving_p (tree fn)
{
  const char *name = IDENTIFIER_POINTER (DECL_NAME (fn));
  return runtime_functions[function_index (name)].call == CALL_PRESERVING;
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
  tree decl = plugin_variable ("__sampler_countdown",
			       variable_type ("__sampler_countdown"));
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
  runtime_decls.skip = runtime_function ("__sampler_skip");
  tree off = build_decl (BUILTINS_LOCATION, VAR_DECL,
			 get_identifier ("__sampler_off"),
			 variable_type ("__sampler_off"));
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
  tree decl = runtime_function (name);
  tree given[] = { type_1, type_2, type_3 };
  /* After the counters.  */
  tree argument = TREE_CHAIN (TYPE_ARG_TYPES (TREE_TYPE (decl)));
  for (unsigned i = 0; i < ARRAY_SIZE (given) && given[i];
       i++, argument = TREE_CHAIN (argument))
    if (argument == void_list_node
	|| !useless_type_conversion_p (TREE_VALUE (argument), given[i]))
      internal_error ("sampler: argument %u of %qs is not of the type "
		      "runtime/sampler-abi.def gives", i + 2, name);
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
