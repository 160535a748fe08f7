/* sampler.so: the indirect-calls scheme (value profiles of call targets,
   as GCC's -fprofile-values profiles indirect calls).  A call through a
   function pointer (its callee is no function's address) at a source
   location is a site ("call through fp (pointer)") with a hot-list of the
   addresses called (merge kind HOT_LIST, as values: see
   schemes/values.cc).  The marker goes before the call, so that a call
   that does not return has its target observed.  The runtime's
   __sampler_indirect_call makes reports list the loaded objects, from
   which sampler-report names each target by its function.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).  */

#include "schemes.h"
#include "runtime-decls.h"

#include "function.h"
#include "basic-block.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "tree-cfg.h"

static void
indirect_calls_statement (gimple *stmt)
{
  gcall *call = dyn_cast <gcall *> (stmt);
  if (!call || gimple_call_internal_p (call)
      || !source_location_p (gimple_location (call)))
    return;
  tree fn = gimple_call_fn (call);
  if (!fn || TREE_CODE (fn) == ADDR_EXPR)
    return;
  /* The gimplifier makes the callee a register or a constant, which a
     marker takes as it is.  */
  if (!is_gimple_val (fn))
    return;
  location_t loc = gimple_location (call);
  /* A compiler's temporary that joins several pointers (c ? f : g) has
     no text of its own.  */
  tree var = TREE_CODE (fn) == SSA_NAME ? SSA_NAME_VAR (fn) : fn;
  bool joined = (var && DECL_P (var) && DECL_ARTIFICIAL (var)
		 && (TREE_CODE (fn) != SSA_NAME
		     || gimple_code (SSA_NAME_DEF_STMT (fn)) == GIMPLE_PHI));
  char *text = joined ? xstrdup ("(...)") : expression_text (fn);
  char *what = concat ("call through ", text, NULL);
  free (text);
  unsigned index = hot_list_site (SAMPLER_SCHEME_INDIRECT_CALLS, loc, what,
				  ptr_type_node);
  free (what);
  gimple_stmt_iterator gsi = gsi_for_stmt (call);
  gsi_insert_before (&gsi, build_marker (index, loc, fn), GSI_SAME_STMT);
}

static void
indirect_calls_sample_call (gimple *marker, const site_info &site,
			    gimple_stmt_iterator *gsi, tree, sample_call &call)
{
  tree target = converted (gsi, marker_value (marker, 0),
			   long_long_unsigned_type_node,
			   gimple_location (marker));
  hot_list_sample_call (site, target, call, "__sampler_indirect_call");
}

const plugin_scheme INDIRECT_CALLS_scheme = {
  .statement = indirect_calls_statement,
  .sample_call = indirect_calls_sample_call,
};
