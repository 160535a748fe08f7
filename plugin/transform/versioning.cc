/* sampler.so: versioning counted loops.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).

   Among GCC's loop optimisers, before if-conversion and vectorisation: an
   innermost loop whose every iteration visits the same sites, calls
   nothing that may use the countdown, and whose number of iterations is
   known on entry gets a second version without its markers.  That version
   runs when the countdown is beyond every visit the loop will make: the
   visits are taken from the countdown at once, and none of them could
   have been sampled, as none would have brought the countdown to zero.
   GCC then optimises it as the plain loop (vectorises it where it would:
   gzip's fill_window), and the transformation finds no site in it, so
   no check either.  Otherwise the loop with the markers runs, and is
   transformed as any other.  A loop may have several counted exits (see
   version_counted_loop).

   A function with a region scheme's site (paths) is not versioned: each
   iteration of its loops is a traversal of the loop's region, one visit
   more, which the version would charge one by one at its loop's check
   after taking the sites' visits at once; a countdown that ran out among
   those would sample a traversal in place of the site visit before it.

   The countdown is read and written here through volatile references:
   the optimisers that follow must not keep it in a register across code
   the transformation will later give checks of its own.  */

#include "sampler-plugin.h"
#include "schemes.h"

#include "context.h"
#include "tree-pass.h"
#include "function.h"
#include "basic-block.h"
#include "cfg.h"
#include "cfghooks.h"
#include "cfgloop.h"
#include "cfgloopmanip.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "tree-cfg.h"
#include "ssa.h"
#include "tree-ssa.h"
#include "tree-into-ssa.h"
#include "tree-ssa-dce.h"
#include "tree-ssa-loop-manip.h"
#include "tree-ssa-loop.h"
#include "tree-ssa-loop-niter.h"
#include "tree-scalar-evolution.h"
#include "tree-chrec.h"
#include "diagnostic-core.h"
#include "gimplify.h"
#include "gimplify-me.h"
#include "fold-const.h"
#include "stor-layout.h"
#include "bitmap.h"

/* Visits per iteration above which a loop is left alone: the total must
   stay far from overflow for every iteration count checked at run time.  */
static const HOST_WIDE_INT most_visits_per_iteration = 1 << 16;

/* The sites of block BB, whose markers go into MARKERS; clears *OK if
   the block has a check's marker (its call runs only when sampled) or a
   call that may use the countdown.  */
static HOST_WIDE_INT
block_sites (basic_block bb, vec<gimple *> &markers, bool *ok)
{
  HOST_WIDE_INT sites = 0;
  for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
       gsi_next (&gsi))
    {
      gimple *stmt = gsi_stmt (gsi);
      if (is_site_marker (stmt))
	{
	  if (is_taken_marker (stmt))
	    *ok = false;
	  markers.safe_push (stmt);
	  sites += marker_visits (stmt);
	}
      else if (is_gimple_call (stmt) && call_may_use_countdown (stmt))
	*ok = false;
    }
  return sites;
}

/* `*(volatile long *) &__sampler_countdown'.  */
static tree
volatile_countdown (void)
{
  tree countdown = countdown_reference ();
  tree type = build_qualified_type (TREE_TYPE (countdown),
				    TYPE_QUAL_VOLATILE);
  tree ref = build2 (MEM_REF, type, build_fold_addr_expr (countdown),
		     build_int_cst (build_pointer_type (type), 0));
  TREE_THIS_VOLATILE (ref) = 1;
  TREE_SIDE_EFFECTS (ref) = 1;
  return ref;
}

static void
print_versioned (FILE *out, location_t loc, HOST_WIDE_INT per_test,
		 HOST_WIDE_INT per_latch)
{
  fprintf (out, "function %s: loop line %d versioned, "
	   HOST_WIDE_INT_PRINT_DEC " sites per test, "
	   HOST_WIDE_INT_PRINT_DEC " per latch\n",
	   function_name (cfun), LOCATION_LINE (loc), per_test, per_latch);
}

/* Says that the loop at LOC was versioned, in the dumps and with
   `verbose'.  */
static void
describe_versioned (location_t loc, HOST_WIDE_INT per_test,
		    HOST_WIDE_INT per_latch)
{
  if (FILE *f = open_sampler_dump ())
    {
      print_versioned (f, loc, per_test, per_latch);
      fclose (f);
    }
  if (dump_file)
    print_versioned (dump_file, loc, per_test, per_latch);
  if (sampler_opts.verbose)
    inform (loc, "sampler: loop versioned: a copy without its %wd sites "
	    "per iteration runs when the countdown is beyond them all",
	    per_test + per_latch);
}

/* Whether FUN has the marker of a region scheme's site (the sites pass
   put it at the function's entry: regions.cc).  */
static bool
has_region_site (function *fun)
{
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      if (is_site_marker (gsi_stmt (gsi))
	  && plugin_schemes[unit_sites[marker_site (gsi_stmt (gsi))].scheme]
	       ->region_number)
	return true;
  return false;
}

/* In LOOP, the version without sites: the countdown, COUNTDOWN as read
   on the way in, takes VISITS, at LOC.  */
static void
take_visits (class loop *loop, tree countdown, tree visits, location_t loc)
{
  tree left = make_ssa_name (TREE_TYPE (countdown));
  gimple_seq seq = NULL;
  gimple_seq_add_stmt (&seq, gimple_build_assign (left, MINUS_EXPR,
						  countdown, visits));
  gimple *take = gimple_build_assign (volatile_countdown (), left);
  /* Where the transformation ends a region (see isolate_region_ends).  */
  gimple_set_location (take, loc);
  gimple_seq_add_stmt (&seq, take);
  gsi_insert_seq_on_edge_immediate (loop_preheader_edge (loop), seq);
}

/* Ends SEQ, which computes on LOOP's way in its latch runs N and the
   VISITS it will make, with the test whether N is at most LIMIT and the
   countdown beyond VISITS; puts SEQ on the way in; and versions LOOP on
   that test: LOOP, the version that runs when it holds, loses its
   MARKERS and takes VISITS from the countdown.  PER_TEST (the sites up to
   the last exit's test) and PER_LATCH (the rest) are for the dumps.  Returns whether LOOP was versioned.  */
static bool
version_on_countdown (class loop *loop, gimple_seq seq, tree n,
		      HOST_WIDE_INT limit, tree visits, vec<gimple *> &markers,
		      bitmap dead, HOST_WIDE_INT per_test,
		      HOST_WIDE_INT per_latch)
{
  tree countdown = make_ssa_name (TREE_TYPE (visits));
  gimple_seq_add_stmt (&seq, gimple_build_assign (countdown,
						  volatile_countdown ()));
  tree within = fold_build2 (LE_EXPR, boolean_type_node, n,
			     build_int_cst (TREE_TYPE (n), limit));
  tree beyond = fold_build2 (GT_EXPR, boolean_type_node, countdown, visits);
  gimple_seq stmts;
  tree cond = force_gimple_operand (fold_build2 (BIT_AND_EXPR,
						 boolean_type_node, within,
						 beyond),
				    &stmts, true, NULL_TREE);
  gimple_seq_add_seq (&seq, stmts);
  gsi_insert_seq_on_edge_immediate (loop_preheader_edge (loop), seq);

  profile_probability likely = profile_probability::very_likely ();
  class loop *with_sites
    = loop_version (loop, cond, NULL, likely, likely.invert (), likely,
		    likely.invert (), true);
  if (!with_sites)
    return false;
  take_visits (loop, countdown, visits, gimple_location (markers[0]));
  describe_versioned (gimple_location (markers[0]), per_test, per_latch);
  for (gimple *marker : markers)
    remove_marker (marker, dead);
  return true;
}

/* A loop may have several exits (`while (a < end && b < bend)'), each
   tested on every iteration, if GCC can count the iterations each exit's
   test allows.  The loop leaves at the first exit, in the order of the
   iteration, whose count is the least; so the visits it will make are
   known on entry: N times the sites of an iteration, plus the sites
   before that exit's test.  The decision and what is taken from the
   countdown depend on these visits alone.  (A bound on the visits
   instead would make the choice depend on visits after the loop, which
   the copy with sites may pad: unfair.)  */

/* The sites of LOOP into MARKERS, with PER_ITERATION those of every
   iteration and BEFORE those before each exit's test, by exit.  False
   when the loop does not qualify: a site that not every iteration visits,
   a check's marker, a call that may use the countdown.  */
static bool
visits_before_exits (class loop *loop, const vec<edge> &exits,
		     vec<gimple *> &markers, HOST_WIDE_INT *per_iteration,
		     vec<HOST_WIDE_INT> &before)
{
  basic_block *body = get_loop_body (loop);
  bool ok = true;
  *per_iteration = 0;
  before.safe_grow_cleared (exits.length ());
  for (unsigned i = 0; ok && i < loop->num_nodes; i++)
    {
      basic_block bb = body[i];
      HOST_WIDE_INT sites = block_sites (bb, markers, &ok);
      if (!sites)
	continue;
      if (!dominated_by_p (CDI_DOMINATORS, loop->latch, bb))
	ok = false;
      *per_iteration += sites;
      /* Every iteration's block runs before an exit's test if it
	 dominates the test, which ends its block.  */
      for (unsigned e = 0; e < exits.length (); e++)
	if (dominated_by_p (CDI_DOMINATORS, exits[e]->src, bb))
	  before[e] += sites;
    }
  free (body);
  return ok && !markers.is_empty ()
	 && *per_iteration <= most_visits_per_iteration;
}

/* Versions LOOP if it qualifies (see above and the file's comment).
   Returns whether it did.  */
static bool
version_counted_loop (class loop *loop, bitmap dead)
{
  auto_vec<edge> exits = get_loop_exit_edges (loop);
  if (exits.is_empty () || !can_duplicate_loop_p (loop))
    return false;
  for (edge e : exits)
    if ((e->flags & (EDGE_ABNORMAL | EDGE_EH))
	|| !dominated_by_p (CDI_DOMINATORS, loop->latch, e->src))
      return false;
  /* In the order an iteration tests them: each test dominates the
     latch, so they lie on one chain of dominators.  */
  for (unsigned i = 1; i < exits.length (); i++)
    for (unsigned j = i; j > 0; j--)
      {
	if (exits[j]->src == exits[j - 1]->src)
	  return false;
	if (!dominated_by_p (CDI_DOMINATORS, exits[j - 1]->src,
			     exits[j]->src))
	  break;
	std::swap (exits[j], exits[j - 1]);
      }
  auto_vec<gimple *> markers;
  auto_vec<HOST_WIDE_INT> before;
  HOST_WIDE_INT per_iteration;
  if (!visits_before_exits (loop, exits, markers, &per_iteration, before))
    return false;

  tree countdown_type = long_integer_type_node;
  tree count_type = unsigned_type_for (countdown_type);
  /* The latch runs each exit's test allows, and their least.  */
  auto_vec<tree> runs;
  tree least = NULL_TREE;
  for (edge e : exits)
    {
      class tree_niter_desc desc;
      if (!number_of_iterations_exit (loop, e, &desc, false)
	  || chrec_contains_undetermined (desc.niter)
	  || !INTEGRAL_TYPE_P (TREE_TYPE (desc.niter))
	  || TYPE_PRECISION (TREE_TYPE (desc.niter))
	     > TYPE_PRECISION (count_type))
	return false;
      tree n = fold_convert (count_type, unshare_expr (desc.niter));
      if (!integer_zerop (desc.may_be_zero))
	n = fold_build3 (COND_EXPR, count_type,
			 unshare_expr (desc.may_be_zero),
			 build_zero_cst (count_type), n);
      runs.safe_push (n);
    }

  gimple_seq seq = NULL;
  auto value = [&seq] (tree expr)
    {
      gimple_seq stmts;
      tree result = force_gimple_operand (expr, &stmts, true, NULL_TREE);
      gimple_seq_add_seq (&seq, stmts);
      return result;
    };
  for (tree &n : runs)
    {
      n = value (n);
      least = least ? value (fold_build2 (MIN_EXPR, count_type, least, n))
		    : n;
    }
  /* The sites before the exit taken: the first whose count is the
     least.  */
  HOST_WIDE_INT most_before = 0;
  tree partial = build_int_cst (count_type, before.last ());
  for (unsigned i = exits.length (); i-- > 0;)
    {
      most_before = MAX (most_before, before[i]);
      if (i + 1 < exits.length ())
	partial = fold_build3 (COND_EXPR, count_type,
			       fold_build2 (EQ_EXPR, boolean_type_node,
					    runs[i], least),
			       build_int_cst (count_type, before[i]),
			       partial);
    }
  HOST_WIDE_INT limit
    = (tree_to_shwi (TYPE_MAX_VALUE (countdown_type)) - most_before)
      / per_iteration;
  tree visits
    = value (fold_convert (countdown_type,
			   fold_build2 (PLUS_EXPR, count_type,
					fold_build2 (MULT_EXPR, count_type,
						     least,
						     build_int_cst
						       (count_type,
							per_iteration)),
					partial)));
  return version_on_countdown (loop, seq, least, limit, visits, markers,
			       dead, before.last (),
			       per_iteration - before.last ());
}

static const pass_data versioning_pass_data = {
  GIMPLE_PASS,
  "sampler-versioning",
  OPTGROUP_NONE,
  TV_PLUGIN_RUN,
  PROP_cfg | PROP_ssa,
  0,
  0,
  0,
  0
};

class versioning_pass : public gimple_opt_pass
{
public:
  versioning_pass (gcc::context *ctxt)
    : gimple_opt_pass (versioning_pass_data, ctxt)
  {
  }

  virtual bool gate (function *fun)
  {
    return !seen_error () && fun->cfg && current_loops;
  }

  virtual unsigned int execute (function *fun)
  {
    if (has_region_site (fun))
      return 0;
    auto_vec<class loop *> candidates;
    for (class loop *loop : loops_list (fun, LI_ONLY_INNERMOST))
      candidates.safe_push (loop);
    if (candidates.is_empty ())
      return 0;
    calculate_dominance_info (CDI_DOMINATORS);
    auto_bitmap dead;
    bool changed = false;
    /* loop_version notes which blocks are copies of which.  */
    initialize_original_copy_tables ();
    for (class loop *loop : candidates)
      changed |= version_counted_loop (loop, dead);
    free_original_copy_tables ();
    if (!changed)
      return 0;
    mark_virtual_operands_for_renaming (fun);
    update_ssa (TODO_update_ssa);
    simple_dce_from_worklist (dead);
    if (loops_state_satisfies_p (fun, LOOP_CLOSED_SSA))
      rewrite_into_loop_closed_ssa (NULL, TODO_update_ssa);
    scev_reset ();
    return TODO_cleanup_cfg;
  }
};

opt_pass *
make_versioning_pass (gcc::context *ctxt)
{
  return new versioning_pass (ctxt);
}
