/* sampler.so: site markers weigh nothing in the inliners' estimates.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).

   A marker is an asm statement, and GCC counts every asm statement as at
   least one instruction when it sizes a function for inlining.  A small
   function with a few sites then looks too big to inline where the plain
   build inlines it (the plugin test's `push', three sites, called four
   times): each call stays a call, in the fast copy too.  So the plugin
   takes the markers' weight back out of each function's size summary
   wherever GCC computes one: after each local summary (the early
   inliner's) and once before the IPA inliner, which recomputes them all.
   The markers leave before the code is emitted (the transformation
   replaces them), and so do the statements that computed values for them
   alone (a branch's outcome): their size and time come out too.  The
   values they keep alive otherwise still count, so the estimates come out
   closer to, not equal to, the plain build's.  */

#include "sampler-plugin.h"

#include "context.h"
#include "tree-pass.h"
#include "function.h"
#include "basic-block.h"
#include "cfg.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "cgraph.h"
#include "alloc-pool.h"
#include "symbol-summary.h"
#include "sreal.h"
#include "ssa.h"
#include "value-range.h"
#include IPA_PROP_PREREQUISITES
#include "ipa-prop.h"
#include "ipa-fnsummary.h"
#include "tree-inline.h"
#include "ssa-iterators.h"

/* What the markers add to a function's estimates, in the units of its
   summary: the markers themselves (an instruction each) and the
   statements whose values only markers use (a branch's outcome as a
   value: the plain build folds the comparison into the branch; values
   converted for the runtime), each where it runs.  */
struct marker_weight
{
  int size;
  sreal time;
};

static marker_weight
weigh_markers (function *fn)
{
  marker_weight weight = { 0, 0 };
  hash_set<gimple *> counted;
  auto_vec<gimple *> work;
  basic_block bb;
  FOR_EACH_BB_FN (bb, fn)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      if (is_site_marker (gsi_stmt (gsi)))
	{
	  counted.add (gsi_stmt (gsi));
	  work.safe_push (gsi_stmt (gsi));
	}
  while (!work.is_empty ())
    {
      gimple *stmt = work.pop ();
      sreal freq = gimple_bb (stmt)->count.to_sreal_scale
		     (ENTRY_BLOCK_PTR_FOR_FN (fn)->count);
      if (is_site_marker (stmt))
	{
	  weight.size += ipa_fn_summary::size_scale;
	  weight.time += freq;
	}
      else
	{
	  weight.size += estimate_num_insns (stmt, &eni_size_weights)
			 * ipa_fn_summary::size_scale;
	  weight.time += freq * estimate_num_insns (stmt, &eni_time_weights);
	}
      /* The statements that computed its operands for it alone.  */
      ssa_op_iter iter;
      tree use;
      FOR_EACH_SSA_TREE_OPERAND (use, stmt, iter, SSA_OP_USE)
	{
	  gimple *def = SSA_NAME_DEF_STMT (use);
	  if (counted.contains (def) || !is_gimple_assign (def)
	      || gimple_has_side_effects (def) || gimple_vdef (def))
	    continue;
	  bool only_counted = true;
	  imm_use_iterator uses;
	  use_operand_p use_p;
	  FOR_EACH_IMM_USE_FAST (use_p, uses, use)
	    if (!is_gimple_debug (USE_STMT (use_p))
		&& !counted.contains (USE_STMT (use_p)))
	      only_counted = false;
	  if (only_counted)
	    {
	      counted.add (def);
	      work.safe_push (def);
	    }
	}
    }
  return weight;
}

/* Takes WEIGHT out of NODE's summary: from the code that always runs
   first, where most markers are, then from the rest.  */
static void
unweigh_markers (cgraph_node *node, marker_weight weight)
{
  if (!weight.size || !ipa_fn_summaries || !ipa_size_summaries)
    return;
  ipa_fn_summary *summary = ipa_fn_summaries->get (node);
  if (!summary || summary->size_time_table.is_empty ())
    return;
  int left = weight.size;
  sreal time_left = weight.time;
  for (size_time_entry &entry : summary->size_time_table)
    {
      int taken = MIN (left, entry.size);
      entry.size -= taken;
      left -= taken;
      sreal time_taken = time_left < entry.time ? time_left : entry.time;
      entry.time -= time_taken;
      time_left -= time_taken;
    }
  ipa_update_overall_fn_summary (node);
  /* The body's own size, which the update leaves alone.  */
  ipa_size_summary *size = ipa_size_summaries->get (node);
  size->self_size
    = MAX (0, size->self_size
	      - (weight.size - left) / ipa_fn_summary::size_scale);
}

/* After each local summary: the current function.  */

static const pass_data local_weight_pass_data = {
  GIMPLE_PASS,
  "sampler-marker-weight",
  OPTGROUP_NONE,
  TV_PLUGIN_RUN,
  PROP_cfg,
  0,
  0,
  0,
  0
};

class local_weight_pass : public gimple_opt_pass
{
public:
  local_weight_pass (gcc::context *ctxt)
    : gimple_opt_pass (local_weight_pass_data, ctxt)
  {
  }

  /* One instance after each local summary.  */
  opt_pass *clone ()
  {
    return new local_weight_pass (m_ctxt);
  }

  virtual unsigned int execute (function *fun)
  {
    unweigh_markers (cgraph_node::get (fun->decl), weigh_markers (fun));
    return 0;
  }
};

opt_pass *
make_local_weight_pass (gcc::context *ctxt)
{
  return new local_weight_pass (ctxt);
}

/* Before the IPA inliner: every function, IPA's clones (constant
   propagation, SRA) with the markers of the body they will copy.  */

static const pass_data ipa_weight_pass_data = {
  IPA_PASS,
  "sampler-ipa-marker-weight",
  OPTGROUP_NONE,
  TV_PLUGIN_RUN,
  0,
  0,
  0,
  0,
  0
};

/* An IPA pass, to sit among the IPA passes, with no summaries of its
   own.  */
class ipa_weight_pass : public ipa_opt_pass_d
{
public:
  ipa_weight_pass (gcc::context *ctxt)
    : ipa_opt_pass_d (ipa_weight_pass_data, ctxt, NULL, NULL, NULL, NULL,
		      NULL, NULL, 0, NULL, NULL)
  {
  }

  virtual unsigned int execute (function *)
  {
    hash_map<tree, marker_weight> markers;
    cgraph_node *node;
    FOR_EACH_FUNCTION_WITH_GIMPLE_BODY (node)
      if (function *fn = DECL_STRUCT_FUNCTION (node->decl))
	if (fn->cfg)
	  {
	    push_cfun (fn);
	    markers.put (node->decl, weigh_markers (fn));
	    pop_cfun ();
	  }
    FOR_EACH_DEFINED_FUNCTION (node)
      {
	cgraph_node *body = node;
	while (body->clone_of && !markers.get (body->decl))
	  body = body->clone_of;
	if (marker_weight *weight = markers.get (body->decl))
	  unweigh_markers (node, *weight);
      }
    return 0;
  }
};

opt_pass *
make_ipa_weight_pass (gcc::context *ctxt)
{
  return new ipa_weight_pass (ctxt);
}
