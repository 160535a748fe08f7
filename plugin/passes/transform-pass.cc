/* sampler.so: the sampling transformation on GIMPLE, its driver.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).

   What.  The sampling transformation of Liblit et al., PLDI 2003, in two
   passes.  The first, before GCC's optimisers (sites-pass.cc), finds the
   sites, putting a marker where each is (sites.cc), and which functions
   of the unit are weightless (weightless.cc).  The second, this file's
   pass, runs after the optimisers on each function in SSA form, so that
   the fast copy is the code GCC optimised as if the program had no sites;
   for every function with markers:
     - threshold checks go at its entry, after calls to weighty functions,
       at the heads of natural loops (and on the back edges of cycles that
       are not natural loops) so that every cycle holding a site crosses a
       check, on the exits of loops with a check, and where a computed
       goto lands; a check's weight is the largest number of sites on a
       path from it to the next checks (threshold-checks.cc,
       region-weights.cc);
     - the blocks from which a site is reachable before the next checks
       are copied: the original blocks without their markers are the fast
       copy, the copies observe each site when the countdown runs out there
       (the slow copy) and return to the fast copy after their region's
       last site (slow-copy.cc);
     - each check takes its region's weight from the thread's countdown
       at once, in memory (no register is kept for it, nothing is saved
       around calls), and goes to the slow copy only when that borrows or
       leaves zero.
   Functions whose CFG cannot be copied safely (setjmp, non-local gotos,
   asm goto) get a test of the countdown at each site instead.

   Why after the optimisers: the fast copy then costs what the optimised
   code costs plus the checks; the markers, volatile asms, kept the sites
   in place through the optimisers.

   How to debug: verbose (-fplugin-arg-sampler-verbose) says what was done
   to each function; dump=FILE lists each function's mode, sites and
   checks with their weights; with -fdump-tree-all, the dump file
   *.sampler-transform has the same, and each function after the
   transformation.  */

#include "sampler-plugin.h"
#include "transform.h"
#include "runtime-decls.h"

#include <string.h>

#include "context.h"
#include "tree-pass.h"
#include "function.h"
#include "basic-block.h"
#include "cfganal.h"
#include "cfgloop.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "tree-cfg.h"
#include "cgraph.h"
#include "diagnostic-core.h"
#include "ssa.h"
#include "tree-into-ssa.h"
#include "tree-ssa-dce.h"
#include "bitmap.h"
#include "dominance.h"
#include "tree-cfgcleanup.h"

/* Why the CFG of the current function cannot be cloned, or NULL.  */
static const char *
why_not_clonable (void)
{
  if (cfun->calls_setjmp)
    return "calls setjmp or another returns_twice function";
  if (cfun->has_nonlocal_label)
    return "has a non-local label";
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    {
      gimple *last = last_stmt (bb);
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->succs)
	{
	  /* A computed goto's edges are abnormal: they cannot be split, and
	     the values on them must stay in one place.  The transformation
	     never copies them nor puts a check on them (see
	     isolate_goto_targets).  */
	  if ((e->flags & EDGE_ABNORMAL)
	      && !(last && computed_goto_p (last)))
	    return "has abnormal edges (non-local goto)";
	}
      if (last && gimple_code (last) == GIMPLE_ASM
	  && gimple_asm_nlabels (as_a <gasm *> (last)) > 0)
	return "uses asm goto";
      if (!can_duplicate_block_p (bb))
	return "has a block GCC cannot duplicate";
    }
  return NULL;
}

/* Writes what was done to the current function: the mode, its sites and
   every check with its weight (dropped ones included).  */
static void
describe_function (FILE *out, function_state *st)
{
  const char *name = function_name (cfun);
  fprintf (out, "function %s: %s, %u sites, %s\n", name,
	   st->fallback_reason ? "per-site" : "cloned", st->n_sites,
	   st->fallback_reason ? st->fallback_reason : "fast and slow copies");
  if (st->sampled_fn)
    fprintf (out, "  entry region out of line: %s\n",
	     IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (st->sampled_fn)));
  for (const check_point &cp : st->checks)
    {
      expanded_location xloc = expand_location (cp.loc);
      fprintf (out, "  check %s line %d weight %d%s\n",
	       check_kind_names[cp.kind], xloc.line, cp.weight,
	       cp.weight ? "" : " (dropped)");
    }
}

FILE *
open_sampler_dump (void)
{
  if (!sampler_opts.dump_file)
    return NULL;
  FILE *f = fopen (sampler_opts.dump_file, "a");
  if (!f)
    error ("sampler: cannot open dump file %qs: %m", sampler_opts.dump_file);
  return f;
}

static void
dump_function (function_state *st)
{
  if (FILE *f = open_sampler_dump ())
    {
      describe_function (f, st);
      fclose (f);
    }
  if (dump_file)
    describe_function (dump_file, st);
}

/* The functions cloned into fast and slow copies, by DECL_UID.  */
static hash_set<int_hash<int, -1, -2> > *cloned_functions;

/* GCC's RTL PRE makes the functions cloned into fast and slow copies
   slower, where it runs after the transformation, and takes much of their
   compile time: it does not run on them.  The unsampled clones keep it,
   as plain code does.  */
void
skip_rtl_pre_in_cloned_functions (void *gcc_data, void *)
{
  bool *gate = (bool *) gcc_data;
  if (*gate && cloned_functions && current_pass && current_pass->name
      && strcmp (current_pass->name, "rtl pre") == 0
      && current_function_decl
      && cloned_functions->contains (DECL_UID (current_function_decl)))
    *gate = false;
}

/* Transforms the current function if it has markers.  */
static void
transform_function (void)
{
  function_state st;
  st.fallback_reason = NULL;
  st.values = NULL_TREE;
  st.n_sites = 0;
  st.dispatch_fn = NULL_TREE;
  st.sampled_fn = NULL_TREE;
  st.regions = find_region_site ();
  unsigned most_values = 0;
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      if (is_site_marker (gsi_stmt (gsi)))
	{
	  gimple *marker = gsi_stmt (gsi);
	  st.sites.safe_push (marker);
	  st.n_sites += site_count (marker);
	  most_values = MAX (most_values, marker_array_values (marker));
	}
  if (st.sites.is_empty () && !st.regions)
    return;
  if (most_values)
    st.values = values_array (most_values);

  declare_runtime ();
  st.fallback_reason = why_not_clonable ();
  if (st.fallback_reason && st.regions)
    {
      /* No slow copy: its traversals are neither charged nor observed.  */
      delete st.regions;
      st.regions = NULL;
      if (st.sites.is_empty ())
	return;
    }
  if (!st.fallback_reason)
    {
      st.dispatch_fn = unsampled_clone_to_call ();
      st.sampled_fn = sampled_clone_to_call ();
      isolate_region_ends (&st);
      isolate_goto_targets (&st);
      isolate_landing_pads (&st);
      place_checks_and_weigh (&st);
      auto_vec<gimple *> fast_sites;
      fast_sites.safe_splice (st.sites);
      clone_and_wire (&st);
      if (sampler_opts.unsampled && !st.dispatch_fn
	  && may_run_with_sampling_off ())
	zero_countdown_on_return ();
      free_dominance_info (CDI_DOMINATORS);
      mark_virtual_operands_for_renaming (cfun);
      update_ssa (TODO_update_ssa);
      auto_bitmap dead;
      for (gimple *stmt : fast_sites)
	remove_marker (stmt, dead);
      simple_dce_from_worklist (dead);
      if (!cloned_functions)
	cloned_functions = new hash_set<int_hash<int, -1, -2> >;
      cloned_functions->add (DECL_UID (current_function_decl));
    }
  else
    {
      guard_without_cloning (&st);
      if (sampler_opts.unsampled && may_run_with_sampling_off ())
	zero_countdown_on_return ();
      free_dominance_info (CDI_DOMINATORS);
      mark_virtual_operands_for_renaming (cfun);
      update_ssa (TODO_update_ssa);
    }

  if (sampler_opts.verbose)
    {
      if (!st.fallback_reason)
	inform (DECL_SOURCE_LOCATION (current_function_decl),
		"sampler: %qD: %u sites, cloned into fast and slow copies",
		current_function_decl, st.n_sites);
      else
	inform (DECL_SOURCE_LOCATION (current_function_decl),
		"sampler: %qD %s: not cloned, each of its %u sites checks "
		"the countdown itself", current_function_decl,
		st.fallback_reason, st.n_sites);
    }
  dump_function (&st);
  delete st.regions;

  free_dominance_info (CDI_DOMINATORS);
  free_dominance_info (CDI_POST_DOMINATORS);
  if (current_loops)
    loops_state_set (LOOPS_NEED_FIXUP);
  cgraph_edge::rebuild_edges ();
}

/* The second pass: the transformation, on each function after GCC's
   optimisers, at every optimisation level.  */

static const pass_data transform_pass_data = {
  GIMPLE_PASS,
  "sampler-transform",
  OPTGROUP_NONE,
  TV_PLUGIN_RUN,
  PROP_cfg | PROP_ssa,
  0,
  0,
  0,
  TODO_cleanup_cfg
};

class transform_pass : public gimple_opt_pass
{
public:
  transform_pass (gcc::context *ctxt)
    : gimple_opt_pass (transform_pass_data, ctxt)
  {
  }

  virtual bool gate (function *)
  {
    return !seen_error ();
  }

  virtual unsigned int execute (function *)
  {
    transform_function ();
    return 0;
  }
};

opt_pass *
make_transform_pass (gcc::context *ctxt)
{
  return new transform_pass (ctxt);
}

/* With -flto, the transformation of every function of the unit at once,
   after the early optimisations (function splitting included) and before
   the unit is streamed, so that the streamed GIMPLE is the instrumented
   code and lto1 has nothing to do (docs/lto.md).  The link's inliners
   read the summaries made after it (pass_ipa_fn_summary).  Then the
   clones the transformation did not call are let go, as
   release_unneeded_clones does after the IPA passes without -flto: no
   markers are left, so each clone stays only if called.  Last, the
   schemes' tables of the unit (the paths'), which need the
   transformation, go out as top-level asm streamed with the unit.  */

static const pass_data lto_transform_pass_data = {
  SIMPLE_IPA_PASS,
  "sampler-lto-transform",
  OPTGROUP_NONE,
  TV_PLUGIN_RUN,
  PROP_cfg | PROP_ssa,
  0,
  0,
  0,
  0
};

class lto_transform_pass : public simple_ipa_opt_pass
{
public:
  lto_transform_pass (gcc::context *ctxt)
    : simple_ipa_opt_pass (lto_transform_pass_data, ctxt)
  {
  }

  virtual bool gate (function *)
  {
    return !seen_error ();
  }

  virtual unsigned int execute (function *)
  {
    auto_vec<cgraph_node *> bodies;
    cgraph_node *node;
    FOR_EACH_FUNCTION_WITH_GIMPLE_BODY (node)
      bodies.safe_push (node);
    for (cgraph_node *body : bodies)
      {
	function *fn = DECL_STRUCT_FUNCTION (body->decl);
	if (!fn || !fn->cfg)
	  continue;
	push_cfun (fn);
	transform_function ();
	/* As the pass's TODO_cleanup_cfg, then the call edges with the
	   counts of the blocks the calls are in now.  */
	cleanup_tree_cfg ();
	cgraph_edge::rebuild_edges ();
	/* As the pass manager does after each function's passes: a body
	   released later must not have them.  */
	free_dominance_info (CDI_DOMINATORS);
	free_dominance_info (CDI_POST_DOMINATORS);
	pop_cfun ();
      }
    release_unneeded_clones (NULL, NULL);
    finish_schemes ();
    return 0;
  }
};

opt_pass *
make_lto_transform_pass (gcc::context *ctxt)
{
  return new lto_transform_pass (ctxt);
}
