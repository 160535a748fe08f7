/* sampler.so: which calls may use the countdown, and which functions of
   the unit are weightless.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).

   What.  A function is weightless when it has no sites and calls only
   weightless functions (Liblit et al., PLDI 2003): a call to it cannot
   change the countdown, so the caller's region runs on across it without
   a check after the call.  find_weighty_functions computes the others,
   the weighty ones, once per unit, in the first pass (sites-pass.cc);
   call_may_use_countdown answers for each call in the transformation
   (threshold-checks.cc) and in loop versioning (versioning.cc).

   Why here, before GCC's optimisers: the sites pass sees every function
   of the unit with its markers, before inlining and IPA cloning change
   the call graph; IPA clones are answered by the function they were
   cloned from.

   Beyond the unit: a call through a pointer or to a function defined
   elsewhere is weighty; library code (built-ins and functions declared
   in system headers) is weightless unless the call hands it a function,
   which it may call back (qsort, bsearch, pthread_once...); setjmp,
   longjmp and their relatives are weighty, as they move the countdown
   between functions behind the calls' backs.  The `sampled (weightless)'
   attribute and the weightless= argument assert that a function is.

   How to debug: a check after a call in the dump (dump=FILE, "check
   after-call") says that the call was found weighty.  */

#include "sampler-plugin.h"

#include <string.h>

#include "function.h"
#include "basic-block.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "cgraph.h"

/* Is NAME in the user's comma-separated weightless= list?  */
static bool
user_asserts_weightless (tree fndecl)
{
  const char *list = sampler_opts.weightless_names;
  if (!list || !DECL_NAME (fndecl))
    return false;
  const char *name = IDENTIFIER_POINTER (DECL_NAME (fndecl));
  size_t len = strlen (name);
  for (const char *p = list; *p;)
    {
      const char *end = strchr (p, ',');
      size_t item = end ? (size_t) (end - p) : strlen (p);
      if (item == len && strncmp (p, name, len) == 0)
	return true;
      if (!end)
	break;
      p = end + 1;
    }
  return false;
}

/* Does CALL hand a function to its callee, which may call it back?  */
static bool
passes_function_pointer (gcall *call)
{
  for (unsigned i = 0; i < gimple_call_num_args (call); i++)
    {
      tree type = TREE_TYPE (gimple_call_arg (call, i));
      if (POINTER_TYPE_P (type) && FUNC_OR_METHOD_TYPE_P (TREE_TYPE (type)))
	return true;
    }
  return false;
}

/* The longjmp family: they leave the caller for a setjmp receiver, which
   must see the countdown the region has used.  */
static bool
longjmp_like (tree fndecl)
{
  static const char *const names[]
    = { "longjmp", "_longjmp", "siglongjmp", "__longjmp_chk",
	"__builtin_longjmp" };
  if (!DECL_NAME (fndecl))
    return false;
  const char *name = IDENTIFIER_POINTER (DECL_NAME (fndecl));
  for (const char *known : names)
    if (strcmp (name, known) == 0)
      return true;
  return false;
}

/* Functions of the unit as the first pass found them, by DECL_UID: true
   for those that have sites or may reach one (weighty).  */
static hash_map<int_hash<int, -1, -2>, bool> *unit_functions;

/* The function of this unit a call to FNDECL reaches, if any.  */
static cgraph_node *
local_definition (tree fndecl)
{
  cgraph_node *node = cgraph_node::get (fndecl);
  if (!node)
    return NULL;
  node = node->ultimate_alias_target ();
  if (!node || !node->definition)
    return NULL;
  return node;
}

/* Whether the unit's function NODE is weighty, as the first pass found it
   or the function it was cloned from (IPA clones keep their original's
   sites); a function the first pass did not see is taken to be.  */
static bool
local_function_weighty (cgraph_node *node)
{
  tree decls[] = { node->decl, node->former_clone_of };
  for (tree decl : decls)
    if (decl)
      if (bool *weighty = unit_functions->get (DECL_UID (decl)))
	return *weighty;
  return true;
}

/* Whether the call STMT may use the countdown: a call to an unknown
   function, to a weighty one of the unit, or one that may call back into
   the program.  The first pass asks before the weightless fixpoint, with
   LOCAL_CALLEE set: a call to a function of the unit is then answered by
   *LOCAL_CALLEE.  */
static bool
call_is_weighty (gimple *stmt, cgraph_node **local_callee = NULL)
{
  gcall *call = as_a <gcall *> (stmt);
  if (gimple_call_internal_p (call))
    return false;
  tree fndecl = gimple_call_fndecl (call);
  if (!fndecl)
    return true;
  /* A second return from setjmp, or a longjmp to it, moves the countdown
     between functions behind the calls' backs.  */
  if ((gimple_call_flags (call) & ECF_RETURNS_TWICE) || longjmp_like (fndecl))
    return true;
  if (sampled_attribute_form (fndecl) == SAMPLED_WEIGHTLESS
      || user_asserts_weightless (fndecl))
    return false;
  if (cgraph_node *node = local_definition (fndecl))
    {
      if (local_callee)
	{
	  *local_callee = node;
	  return false;
	}
      return local_function_weighty (node);
    }
  /* Library code never touches the countdown, unless it calls back into
     ours (qsort, bsearch, pthread_once...).  */
  if (fndecl_built_in_p (fndecl) || DECL_IN_SYSTEM_HEADER (fndecl))
    return passes_function_pointer (call);
  return true;
}

bool
call_may_use_countdown (gimple *call)
{
  return call_is_weighty (call);
}

/* The weightless fixpoint, computed as the set of functions that reach a
   site or an unknown callee, by propagating backwards over the unit's call
   edges: linear in the size of the unit.  */
void
find_weighty_functions (void)
{
  if (!unit_functions)
    unit_functions = new hash_map<int_hash<int, -1, -2>, bool>;
  hash_map<tree, vec<tree> > callers;
  auto_vec<tree> worklist;
  cgraph_node *node;
  FOR_EACH_FUNCTION_WITH_GIMPLE_BODY (node)
    {
      function *fn = DECL_STRUCT_FUNCTION (node->decl);
      if (!fn || !fn->cfg)
	continue;
      bool weighty = false;
      basic_block bb;
      FOR_EACH_BB_FN (bb, fn)
	for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	     gsi_next (&gsi))
	  {
	    gimple *stmt = gsi_stmt (gsi);
	    if (is_site_marker (stmt))
	      weighty = true;
	    if (!is_gimple_call (stmt))
	      continue;
	    cgraph_node *callee = NULL;
	    if (call_is_weighty (stmt, &callee))
	      weighty = true;
	    else if (callee)
	      callers.get_or_insert (callee->decl).safe_push (node->decl);
	  }
      unit_functions->put (DECL_UID (node->decl), weighty);
      if (weighty)
	worklist.safe_push (node->decl);
    }
  while (!worklist.is_empty ())
    {
      tree callee = worklist.pop ();
      vec<tree> *list = callers.get (callee);
      if (!list)
	continue;
      for (tree caller : *list)
	{
	  bool &weighty = unit_functions->get_or_insert (DECL_UID (caller));
	  if (!weighty)
	    {
	      weighty = true;
	      worklist.safe_push (caller);
	    }
	}
    }
  for (auto entry : callers)
    entry.second.release ();
}
