/* sampler.so: the branches scheme.  A conditional of the source is a site
   with counters false and true, its predicate the condition's text; a
   switch is one site with a counter per arm (distinct target), each arm's
   edge marked with the arm's number.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).  */

#include "schemes.h"
#include "runtime-decls.h"

#include <string.h>

#include "function.h"
#include "basic-block.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "tree-cfg.h"
#include "tree-pretty-print.h"
#include "gimplify.h"
#include "options.h"

static void
branch_site (gcond *cond)
{
  location_t loc = gimple_location (cond);
  char *lhs = expression_text (gimple_cond_lhs (cond));
  char *text;
  /* `if (b)' is `b != 0' in GIMPLE: show it as `b' when b is a truth
     value.  */
  if (gimple_cond_code (cond) == NE_EXPR
      && integer_zerop (gimple_cond_rhs (cond))
      && TREE_CODE (TREE_TYPE (gimple_cond_lhs (cond))) == BOOLEAN_TYPE)
    text = xstrdup (lhs);
  else
    text = expression_text (build2 (gimple_cond_code (cond), boolean_type_node,
				    gimple_cond_lhs (cond),
				    gimple_cond_rhs (cond)));
  free (lhs);
  unsigned index = new_site (SAMPLER_SCHEME_BRANCHES, loc, text);
  tree outcome = create_tmp_reg (boolean_type_node, "sampler_outcome");
  gimple *test = gimple_build_assign (outcome, gimple_cond_code (cond),
				      gimple_cond_lhs (cond),
				      gimple_cond_rhs (cond));
  gimple_set_location (test, loc);
  gimple_stmt_iterator gsi = gsi_for_stmt (cond);
  gsi_insert_before (&gsi, test, GSI_SAME_STMT);
  gsi_insert_before (&gsi, build_marker (index, loc, outcome), GSI_SAME_STMT);
}

/* The text naming the case labels of SWITCH that lead to DEST.  */
static char *
arm_name (gswitch *sw, basic_block dest)
{
  char *name = NULL;
  for (unsigned i = 0; i < gimple_switch_num_labels (sw); i++)
    {
      tree label = gimple_switch_label (sw, i);
      if (label_to_block (cfun, CASE_LABEL (label)) != dest)
	continue;
      char *part;
      if (!CASE_LOW (label))
	part = xstrdup ("default");
      else
	{
	  char *low = print_generic_expr_to_str (CASE_LOW (label));
	  char *high = CASE_HIGH (label)
		       ? print_generic_expr_to_str (CASE_HIGH (label)) : NULL;
	  part = concat ("case ", low, high ? "..." : "", high ? high : "",
			 NULL);
	  free (low);
	  free (high);
	}
      char *joined = name ? concat (name, "|", part, NULL) : xstrdup (part);
      free (name);
      free (part);
      name = joined;
    }
  /* Counter names are comma-separated.  */
  for (char *p = name; p && *p; p++)
    if (*p == ',')
      *p = ';';
  return name ? name : xstrdup ("?");
}

/* One site for the whole switch, with a counter per arm (distinct target);
   each arm's edge gets a marker naming its counter.  */
static void
switch_site (gswitch *sw)
{
  location_t loc = gimple_location (sw);
  basic_block bb = gimple_bb (sw);
  auto_vec<edge> arms;
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE (e, ei, bb->succs)
    arms.safe_push (e);
  char *names = NULL;
  for (edge arm : arms)
    {
      char *name = arm_name (sw, arm->dest);
      char *joined = names ? concat (names, ",", name, NULL) : xstrdup (name);
      free (names);
      free (name);
      names = joined;
    }
  char *index_text = expression_text (gimple_switch_index (sw));
  unsigned index = new_site (SAMPLER_SCHEME_BRANCHES, loc,
			     concat ("switch (", index_text, ")", NULL),
			     names, arms.length ());
  free (index_text);
  free (names);
  for (unsigned k = 0; k < arms.length (); k++)
    gsi_insert_on_edge_immediate
      (arms[k], build_marker (index, loc, build_int_cst (unsigned_type_node,
							  k)));
}

static void
branch_statement (gimple *stmt)
{
  if (!source_location_p (gimple_location (stmt)))
    return;
  if (gcond *cond = dyn_cast <gcond *> (stmt))
    branch_site (cond);
  else if (gswitch *sw = dyn_cast <gswitch *> (stmt))
    switch_site (sw);
}

/* Keep each operand of && and || a conditional of its own, as in the
   source: at -O1 and up the front end would otherwise fold cheap ones into
   one non-short-circuit test, and the scheme would lose them.  */
static void
keep_short_circuits (void)
{
  param_logical_op_non_short_circuit = 0;
}

/* The outcome of a conditional, __sampler_branch (COUNTERS, OUTCOME), or
   the number of a switch's arm, a constant: __sampler_count (COUNTERS,
   ARM).  */
static void
branch_sample_call (gimple *marker, const site_info &,
		    gimple_stmt_iterator *gsi, tree, sample_call &call)
{
  tree value = marker_value (marker, 0);
  call.fn = sample_function (CONSTANT_CLASS_P (value) ? "__sampler_count"
			     : "__sampler_branch", long_unsigned_type_node);
  call.args.safe_push (converted (gsi, value, long_unsigned_type_node,
				  gimple_location (marker)));
}

const plugin_scheme BRANCHES_scheme = {
  .setup = keep_short_circuits,
  .statement = branch_statement,
  .sample_call = branch_sample_call,
};
