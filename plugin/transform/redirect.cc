/* sampler.so: calls to C library functions that end the process image,
   start threads or set signal handlers, redirected to the runtime's
   wrappers (SAMPLER_REDIRECTED_FUNCTIONS in sampler-abi.h says which and
   why).  Runs after the sampling transformation, on every function of the
   unit, instrumented or not: an exec anywhere ends the image that the
   other units count in.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).  */

#include "sampler-plugin.h"

#include <string.h>

#include "context.h"
#include "function.h"
#include "basic-block.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "tree-pass.h"
#include "cgraph.h"
#include "stringpool.h"
#include "diagnostic-core.h"
#include "ggc.h"

#include "runtime-decls.h"

struct redirection
{
  const char *function;		/* Assembler name of the library function.  */
  const char *wrapper;		/* The runtime's.  */
};

#define REDIRECTION(function, wrapper) { #function, #wrapper },
static const redirection redirections[]
  = { SAMPLER_REDIRECTED_FUNCTIONS (REDIRECTION) };
#undef REDIRECTION
#define N_REDIRECTIONS (sizeof redirections / sizeof redirections[0])

static_assert (N_REDIRECTIONS == N_REDIRECTED_FUNCTIONS,
	       "runtime_decls.wrappers has one slot per redirection");

/* The redirection for a call to FNDECL: a declaration of a library
   function, not a definition of the program's own by that name.  */
static const redirection *
redirection_for (tree fndecl, unsigned *index)
{
  if (!TREE_PUBLIC (fndecl) || !DECL_EXTERNAL (fndecl))
    return NULL;
  cgraph_node *node = cgraph_node::get (fndecl);
  if (node && node->definition)
    return NULL;
  const char *name = IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (fndecl));
  /* A name given with asm ("...") is marked with a leading '*'.  */
  if (name[0] == '*')
    name++;
  for (unsigned i = 0; i < N_REDIRECTIONS; i++)
    if (strcmp (name, redirections[i].function) == 0)
      {
	*index = i;
	return &redirections[i];
      }
  return NULL;
}

/* The wrapper's declaration in this unit, made on first use: it has the
   type of the function it stands for.  */
static tree
wrapper_decl (unsigned index, tree fndecl)
{
  tree &decl = runtime_decls.wrappers[index];
  if (!decl)
    {
      decl = runtime_function_decl (redirections[index].wrapper,
				    TREE_TYPE (fndecl), false);
      TREE_NOTHROW (decl) = TREE_NOTHROW (fndecl);
      /* _exit and the like do not return: neither do their wrappers, and
	 the call must stay the last statement of its block.  */
      TREE_THIS_VOLATILE (decl) = TREE_THIS_VOLATILE (fndecl);
    }
  return decl;
}

/* Redirects the calls of the current function; returns whether there were
   any.  */
static bool
redirect_calls (void)
{
  bool changed = false;
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      {
	gcall *call = dyn_cast<gcall *> (gsi_stmt (gsi));
	tree fndecl = call ? gimple_call_fndecl (call) : NULL_TREE;
	unsigned index;
	if (!fndecl || !redirection_for (fndecl, &index))
	  continue;
	/* The call keeps its function type (gimple_call_fntype).  */
	gimple_call_set_fndecl (call, wrapper_decl (index, fndecl));
	changed = true;
      }
  return changed;
}

static const pass_data redirect_pass_data = {
  SIMPLE_IPA_PASS,
  "sampler-redirect",
  OPTGROUP_NONE,
  TV_NONE,
  PROP_cfg,
  0,
  0,
  0,
  0
};

class redirect_pass : public simple_ipa_opt_pass
{
public:
  redirect_pass (gcc::context *ctxt)
    : simple_ipa_opt_pass (redirect_pass_data, ctxt)
  {
  }

  virtual bool gate (function *)
  {
    return !seen_error ();
  }

  virtual unsigned int execute (function *)
  {
    cgraph_node *node;
    FOR_EACH_FUNCTION_WITH_GIMPLE_BODY (node)
      {
	function *fn = DECL_STRUCT_FUNCTION (node->decl);
	if (!fn || !fn->cfg)
	  continue;
	push_cfun (fn);
	if (redirect_calls ())
	  cgraph_edge::rebuild_edges ();
	pop_cfun ();
      }
    return 0;
  }
};

opt_pass *
make_redirect_pass (gcc::context *ctxt)
{
  return new redirect_pass (ctxt);
}
