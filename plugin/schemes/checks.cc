/* sampler.so: the checks scheme.  A call to a check function (declared
   with a plain `sampled' attribute) is a site ("f (...)", counter
   sampled): the call runs only when the site is sampled, as the check
   code of Liblit et al. (PLDI 2003) runs only on sampled visits.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).  */

#include "schemes.h"
#include "runtime-decls.h"

#include <string.h>

#include "function.h"
#include "basic-block.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "tree-cfg.h"
#include "cfghooks.h"
#include "gimplify.h"
#include "diagnostic-core.h"

/* Makes the call to a check function CALL, site INDEX, run only when the
   site is sampled: `if (TAKEN) CALL', TAKEN set by the site's marker; a
   skipped call's result reads as zero.  The arguments are evaluated
   either way.  */
static void
check_site (gcall *call, unsigned index)
{
  location_t loc = gimple_location (call);
  tree taken = create_tmp_reg (boolean_type_node, "sampler_taken");
  auto_vec<tree> no_values;
  gasm *marker = build_marker (index, loc, no_values, taken);
  gimple_stmt_iterator gsi = gsi_for_stmt (call);
  gsi_insert_before (&gsi, marker, GSI_SAME_STMT);
  basic_block test = gimple_bb (marker);
  basic_block body = split_block (test, marker)->dest;
  /* Where an unsampled visit goes: a block of its own on the way out of
     the call, which zeroes the result.  */
  edge out;
  if (stmt_ends_bb_p (call))
    {
      edge e;
      edge_iterator ei;
      out = NULL;
      FOR_EACH_EDGE (e, ei, body->succs)
	if (!(e->flags & (EDGE_ABNORMAL | EDGE_EH)))
	  out = e;
      gcc_assert (out);
    }
  else
    out = split_block (body, call);
  basic_block after = split_edge (out);
  edge run = single_succ_edge (test);
  run->flags &= ~EDGE_FALLTHRU;
  run->flags |= EDGE_TRUE_VALUE;
  run->probability = profile_probability::very_unlikely ();
  gcond *cond = gimple_build_cond (NE_EXPR, taken, boolean_false_node,
				   NULL_TREE, NULL_TREE);
  gimple_set_location (cond, loc);
  gsi = gsi_last_bb (test);
  gsi_insert_after (&gsi, cond, GSI_NEW_STMT);
  edge skip = make_edge (test, after, EDGE_FALSE_VALUE);
  skip->probability = run->probability.invert ();
  if (tree lhs = gimple_call_lhs (call))
    {
      gimple *zero = gimple_build_assign (lhs, build_zero_cst (TREE_TYPE (lhs)));
      gimple_set_location (zero, loc);
      gsi_insert_on_edge_immediate (skip, zero);
    }
}

/* CALL is a call to a check function (sites.cc gives this hook no other
   statement).  */
static void
checks_statement (gimple *stmt)
{
  gcall *call = as_a <gcall *> (stmt);
  location_t loc = gimple_location (call);
  if (gimple_call_noreturn_p (call))
    /* An unsampled visit skips the call and goes on after it, which a
       noreturn function does not allow.  */
    error_at (loc, "sampler: %qD is %<noreturn%> and cannot be a sampled "
	      "check: unsampled calls would fall through",
	      gimple_call_fndecl (call));
  else
    {
      char *text = concat (callee_text (call), " (...)", NULL);
      check_site (call, new_site (SAMPLER_SCHEME_CHECKS, loc, text));
    }
}

/* A sampled visit is counted in the site's one counter: __sampler_count
   (COUNTERS, 0).  */
static void
checks_sample_call (gimple *, const site_info &, gimple_stmt_iterator *, tree,
                    sample_call &call)
{
  call.fn = sample_function ("__sampler_count", long_unsigned_type_node);
  call.args.safe_push (size_int (0));
}

const plugin_scheme CHECKS_scheme = {
  .statement = checks_statement,
  .sample_call = checks_sample_call,
};
