/* sampler.so: the returns scheme.  A call of the source whose result is
   an integer or a pointer is a site ("f (...)") with counters <0, ==0 and
   >0; the marker after the call observes the result itself.  Its
   discovery (observable_return, call_result_value) serves the values
   scheme too.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).  */

#include "schemes.h"
#include "runtime-decls.h"

#include <string.h>

#include "function.h"
#include "basic-block.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "tree-cfg.h"
#include "gimplify.h"
#include "langhooks.h"

/* Whether CALL's result is one the returns and values schemes observe.  */
bool
observable_return (gcall *call)
{
  if (!source_location_p (gimple_location (call))
      || gimple_call_internal_p (call)
      || (gimple_call_flags (call) & (ECF_RETURNS_TWICE | ECF_NORETURN)))
    return false;
  tree type = gimple_call_return_type (call);
  if (!type || !integer_like_type (type))
    return false;
  tree fndecl = gimple_call_fndecl (call);
  /* Compiler helpers (__builtin_*, __atomic_*, __sync_*) are not the
     source's calls; library functions GCC knows (malloc, strlen) are.  */
  if (fndecl && fndecl_built_in_p (fndecl) && DECL_NAME (fndecl)
      && strncmp (IDENTIFIER_POINTER (DECL_NAME (fndecl)), "__", 2) == 0)
    return false;
  return true;
}

tree
call_result_value (gcall *call, after_stmt_inserter &after)
{
  tree lhs = gimple_call_lhs (call);
  if (lhs && is_gimple_reg (lhs))
    return lhs;
  /* Observe the value itself, not a memory location it is stored to.  */
  tree result = create_tmp_reg (gimple_call_return_type (call),
				"sampler_result");
  gimple_call_set_lhs (call, result);
  if (lhs)
    {
      gimple *store = gimple_build_assign (lhs, result);
      gimple_set_location (store, gimple_location (call));
      after.add (store);
    }
  return result;
}

/* Is TYPE a pointer or reference to a class (or union)?  */
static bool
points_to_class (tree type)
{
  return ((TREE_CODE (type) == POINTER_TYPE
	   || TREE_CODE (type) == REFERENCE_TYPE)
	  && RECORD_OR_UNION_TYPE_P (TREE_TYPE (type)));
}

/* Is FNDECL a comparison operator of the standard library's (declared in
   a system header)?  */
static bool
library_comparison_p (tree fndecl)
{
  if (!fndecl || !DECL_NAME (fndecl)
      || !in_system_header_at (DECL_SOURCE_LOCATION (fndecl)))
    return false;
  static const char *const comparisons[]
    = { "operator==", "operator!=", "operator<", "operator>", "operator<=",
	"operator>=", "operator<=>" };
  const char *name = IDENTIFIER_POINTER (DECL_NAME (fndecl));
  for (const char *op : comparisons)
    if (strcmp (name, op) == 0)
      return true;
  return false;
}

/* In C++, the calls whose sign says nothing a reader wants: those that
   return a reference or pointer to a class (an iterator's operator* and
   operator++, a container's front (), a smart pointer's get ()), and the
   standard library's comparison operators (it != end ()).  C keeps every
   call: a pointer to a struct that is NULL is worth a predicate there.  */
static bool
uninformative_cxx_return (gcall *call)
{
  if (!lang_GNU_CXX ())
    return false;
  return (points_to_class (gimple_call_return_type (call))
	  || library_comparison_p (gimple_call_fndecl (call)));
}

static void
returns_statement (gimple *stmt)
{
  gcall *call = dyn_cast <gcall *> (stmt);
  if (!call || !observable_return (call) || uninformative_cxx_return (call))
    return;
  location_t loc = gimple_location (call);
  after_stmt_inserter after;
  tree result = call_result_value (call, after);
  char *text = concat (callee_text (call), " (...)", NULL);
  unsigned index = new_site (SAMPLER_SCHEME_RETURNS, loc, text);
  unit_sites[index].value_kind
    = value_kind_of (gimple_call_return_type (call));
  after.add (build_marker (index, loc, result));
  after.commit (call);
}

/* __sampler_sign_signed or _unsigned (COUNTERS, RESULT).  */
static void
returns_sample_call (gimple *marker, const site_info &site,
		     gimple_stmt_iterator *gsi, tree, sample_call &call)
{
  tree type = observed_type (site);
  call.fn = sample_function (observed_unsigned (site)
			     ? "__sampler_sign_unsigned"
			     : "__sampler_sign_signed", type);
  call.args.safe_push (converted (gsi, marker_value (marker, 0), type,
				  gimple_location (marker)));
}

const plugin_scheme RETURNS_scheme = {
  .statement = returns_statement,
  .sample_call = returns_sample_call,
};
