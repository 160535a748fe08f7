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
   replaces them).  What they keep alive still counts, so the sizes come
   out closer to, not equal to, the plain build's.  */

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
#include "ipa-prop.h"
#include "ipa-fnsummary.h"

/* Takes the weight of MARKERS markers (one instruction each) out of
   NODE's summary: from the code that always runs first, where most
   markers are, then from the rest.  */
static void
unweigh_markers (cgraph_node *node, int markers)
{
  if (!markers || !ipa_fn_summaries || !ipa_size_summaries)
    return;
  ipa_fn_summary *summary = ipa_fn_summaries->get (node);
  if (!summary || summary->size_time_table.is_empty ())
    return;
  int weight = markers * ipa_fn_summary::size_scale, left = weight;
  for (size_time_entry &entry : summary->size_time_table)
    {
      int taken = MIN (left, entry.size);
      entry.size -= taken;
      left -= taken;
    }
  ipa_update_overall_fn_summary (node);
  /* The body's own size, which the update leaves alone.  */
  ipa_size_summary *size = ipa_size_summaries->get (node);
  size->self_size
    = MAX (0, size->self_size
	      - (weight - left) / ipa_fn_summary::size_scale);
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
    unweigh_markers (cgraph_node::get (fun->decl), count_markers (fun));
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
    hash_map<tree, int> markers;
    cgraph_node *node;
    FOR_EACH_FUNCTION_WITH_GIMPLE_BODY (node)
      if (function *fn = DECL_STRUCT_FUNCTION (node->decl))
	if (fn->cfg)
	  markers.put (node->decl, count_markers (fn));
    FOR_EACH_DEFINED_FUNCTION (node)
      {
	cgraph_node *body = node;
	while (body->clone_of && !markers.get (body->decl))
	  body = body->clone_of;
	if (int *count = markers.get (body->decl))
	  unweigh_markers (node, *count);
      }
    return 0;
  }
};

opt_pass *
make_ipa_weight_pass (gcc::context *ctxt)
{
  return new ipa_weight_pass (ctxt);
}
