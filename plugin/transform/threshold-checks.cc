/* sampler.so: where the threshold checks go.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).

   What.  A check takes its region's weight from the countdown at once: the
   largest number of sites on a path from it to the next checks.  The
   checks of a cloned function go
     - at its entry, and after each weighty call and each write of the
       countdown by a versioned loop (isolate_region_ends);
     - at the top of every block a computed goto may land on
       (isolate_goto_targets);
     - at the head of natural loops, and on the DFS back edge of each
       cycle that is not a natural loop, only where needed so that every
       cycle through a site crosses a check, innermost loops first
       (place_loop_checks);
     - on the exits of each loop with a check at its head
       (place_loop_exit_checks);
     - with a region limit, between the pieces of blocks with more sites
       than the limit and where a path would go over it
       (split_heavy_blocks, limit_region_weights: region-weights.cc).
   Then weigh_checks (region-weights.cc) gives each check its weight and
   each block the longest site count from its start to the end of its
   region.

   Why.  The fewer and heavier the checks, the less the fast path does;
   but a region's weight is how often its slow copy runs (about weight /
   sparsity of the time), and a check must stop the countdown from running
   out unseen along a cycle.  Loop heads rather than back edges keep the
   loops natural loops for GCC (see place_loop_checks).

   How to debug: dump=FILE lists each function's checks, with their kind,
   line and weight (0: dropped); with -fdump-tree-all, the dump file
   *.sampler-transform has the same, and the function's code after the
   transformation.  */

#include "sampler-plugin.h"
#include "transform.h"
#include "runtime-decls.h"

#include "function.h"
#include "basic-block.h"
#include "cfg.h"
#include "cfghooks.h"
#include "cfganal.h"
#include "cfgloop.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "tree-cfg.h"
#include "dominance.h"
#include "sbitmap.h"
#include "diagnostic-core.h"

const char *const check_kind_names[]
  = { "entry", "after-call", "after-versioned-loop", "loop-head",
      "back-edge", "long-path", "loop-exit", "goto-target", "path-limit",
      "landing-pad", "handler" };

/* Whether control may leave the function at STMT, or go where the
   countdown matters, without coming back to the code after it: a return,
   a call that does not return (exit runs destructors, which may be
   instrumented), or the resumption of an exception (resx: on to an outer
   landing pad, whose edge has a check, or out of the function).
   Internal calls are GCC's own control flow.  */
static bool
leaves_function (gimple *stmt)
{
  if (gimple_code (stmt) == GIMPLE_RETURN || gimple_code (stmt) == GIMPLE_RESX)
    return true;
  gcall *call = dyn_cast <gcall *> (stmt);
  return call && gimple_call_noreturn_p (call)
	 && !gimple_call_internal_p (call);
}

/* Does STMT write the countdown, as a versioned loop's copy without
   sites does with the visits it made (versioning.cc)?  */
static bool
writes_countdown (gimple *stmt)
{
  if (!gimple_assign_single_p (stmt) || !gimple_vdef (stmt))
    return false;
  tree lhs = gimple_assign_lhs (stmt);
  if (TREE_CODE (lhs) == MEM_REF)
    lhs = TREE_OPERAND (lhs, 0);
  if (TREE_CODE (lhs) == ADDR_EXPR)
    lhs = TREE_OPERAND (lhs, 0);
  return lhs == runtime_decls.countdown;
}

/* The edge out of BB that is neither an EH nor an abnormal edge, or
   NULL.  */
static edge
normal_successor_edge (basic_block bb)
{
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE (e, ei, bb->succs)
    if (!(e->flags & (EDGE_EH | EDGE_ABNORMAL)))
      return e;
  return NULL;
}

bool
ends_region (gimple *stmt)
{
  return ((is_gimple_call (stmt) && call_may_use_countdown (stmt))
	  || writes_countdown (stmt) || leaves_function (stmt)
	  || computed_goto_p (stmt)
	  || gimple_code (stmt) == GIMPLE_EH_DISPATCH);
}

/* Puts each statement that ends a region (a weighty call, a write of the
   countdown, a return, a call that does not return, a resx, a computed
   goto, an EH dispatch) at
   the start of a block of its own, and ends the block after a weighty
   call or a write: such a block has no site, so it has no slow copy, and
   the slow copy ends its region on the way into it (see clone_and_wire).
   A callee inlined later appears once, not once per copy.  Records the
   checks at entry and after the weighty calls and writes.

   A versioned loop's copy without sites takes its visits from the
   countdown where it writes it.  Its region must end there: a region
   running on past it would have taken the visits of the sites after the
   loop from the countdown as it was before the loop, which the loop then
   overwrites, so that they would rarely be sampled.  */
void
isolate_region_ends (function_state *st)
{
  auto_vec<gimple *> ends, calls;
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      {
	gimple *stmt = gsi_stmt (gsi);
	if ((is_gimple_call (stmt) && call_may_use_countdown (stmt))
	    || writes_countdown (stmt))
	  calls.safe_push (stmt);
	else if (leaves_function (stmt) || computed_goto_p (stmt)
		 || gimple_code (stmt) == GIMPLE_EH_DISPATCH)
	  ends.safe_push (stmt);
      }
  ends.safe_splice (calls);
  for (gimple *stmt : ends)
    {
      gimple_stmt_iterator gsi = gsi_for_stmt (stmt);
      gsi_prev (&gsi);
      while (!gsi_end_p (gsi) && is_gimple_debug (gsi_stmt (gsi)))
	gsi_prev (&gsi);
      if (!gsi_end_p (gsi) && gimple_code (gsi_stmt (gsi)) != GIMPLE_LABEL)
	split_block (gimple_bb (stmt), gsi_stmt (gsi));
    }
  for (gimple *stmt : calls)
    {
      basic_block call_bb = gimple_bb (stmt);
      edge after;
      if (gsi_stmt (gsi_last_bb (call_bb)) == stmt)
	{
	  /* A call ends its block when it may throw (its EH edge gets a
	     check of its own: isolate_landing_pads) or does not return.  */
	  after = normal_successor_edge (call_bb);
	  if (!after)
	    continue;
	}
      else
	after = split_block (call_bb, stmt);
      check_point cp = { after,
			 is_gimple_call (stmt)
			 ? CHECK_AFTER_CALL : CHECK_AFTER_VERSIONED,
			 gimple_location (stmt), 0 };
      st->checks.safe_push (cp);
    }
  check_point cp = { single_succ_edge (ENTRY_BLOCK_PTR_FOR_FN (cfun)),
		     CHECK_ENTRY,
		     DECL_SOURCE_LOCATION (current_function_decl), 0 };
  st->checks.safe_push (cp);
}

location_t
first_location (basic_block bb)
{
  for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
       gsi_next (&gsi))
    if (gimple_location (gsi_stmt (gsi)) != UNKNOWN_LOCATION)
      return gimple_location (gsi_stmt (gsi));
  return UNKNOWN_LOCATION;
}

/* Whether a computed goto may jump to BB.  */
static bool
goto_target_p (basic_block bb)
{
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE (e, ei, bb->preds)
    if (e->flags & EDGE_ABNORMAL)
      return true;
  return false;
}

/* Puts a check at the top of every block that a computed goto may jump
   to, after its labels.  A computed goto jumps to the fast copy's labels
   whichever copy it is in (block copies have no labels, and the addresses
   taken are the originals'), so a slow copy's region must end at it: its
   block is a region end (see isolate_region_ends) and, with every target
   starting a region, has no site ahead and no slow copy.  So the
   abnormal edges are never copied, split or given a check.  */
void
isolate_goto_targets (function_state *st)
{
  auto_vec<basic_block> targets;
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    if (goto_target_p (bb))
      targets.safe_push (bb);
  for (basic_block target : targets)
    {
      edge e = split_block_after_labels (target);
      check_point cp = { e, CHECK_GOTO_TARGET, first_location (e->dest), 0 };
      st->checks.safe_push (cp);
    }
}

/* Puts a check on every EH edge (where an exception thrown in the
   function, or passing through it, lands) and on every edge out of an EH
   dispatch (to a catch handler, or on to the next landing pad).  An
   exception that leaves a region halfway goes on in the fast copy, so
   each landing pad starts a region of its own: the EH edge gives back or
   pads what its region's check took and the path did not visit, as any
   other way out of a region does.  Landing pads are so never copied: the
   slow copy's throwing statements, copies in the same EH region, get
   landing pads of their own on the way to the same check (GCC's
   redirect_eh_edge), and the fast copy keeps the original ones.  An EH
   dispatch is never copied either (its block has no site and its edges
   have checks): its edges name the catch handlers' labels in the EH
   region, which both copies share.  */
void
isolate_landing_pads (function_state *st)
{
  auto_vec<check_point> found;
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    {
      gimple *last = last_stmt (bb);
      bool dispatch = last && gimple_code (last) == GIMPLE_EH_DISPATCH;
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->succs)
	if (e->flags & EDGE_EH || (dispatch && !(e->flags & EDGE_ABNORMAL)))
	  {
	    location_t loc = first_location (e->dest);
	    if (loc == UNKNOWN_LOCATION && last)
	      loc = gimple_location (last);
	    check_point cp = { e, dispatch ? CHECK_HANDLER : CHECK_LANDING_PAD,
			       loc, 0 };
	    found.safe_push (cp);
	  }
    }
  st->checks.safe_splice (found);
}

void
add_check (function_state *st, edge e, enum check_kind kind, location_t loc)
{
  check_point cp = { e, kind, loc, 0 };
  st->checks.safe_push (cp);
  st->cut.add (e);
}

/* The loop checks.  A natural loop's check sits at its head: on the edge
   from its header block (which keeps only the PHI nodes and labels) to
   the rest of it, which every iteration and every way into the loop
   crosses.  So the header never has a slow copy: every way into the loop,
   from the slow copy as from the fast one, goes through the header and
   its check, and the slow copy of an iteration is entered only from
   inside the loop.  The loops stay natural loops, as GCC's loop passes
   and register allocator need.  With the check on the back edge (as
   Liblit et al., PLDI 2003, place it), the slow copy of the code before a
   loop would run on into the slow copy of the loop's first iteration: a
   second way into the loop's cycle, which makes it irreducible, no longer
   a loop for GCC, whose register allocator then keeps the loop's values
   on the stack.  A cycle that is not a natural loop keeps a check on its
   DFS back edge.  */

/* Sets IN_LOOP to the blocks of the natural loop headed by HEADER: the
   header and the blocks that reach one of its latches without passing
   through it.  */
static void
loop_blocks (basic_block header, sbitmap in_loop)
{
  bitmap_clear (in_loop);
  bitmap_set_bit (in_loop, header->index);
  auto_vec<basic_block> work;
  edge p;
  edge_iterator ei;
  FOR_EACH_EDGE (p, ei, header->preds)
    if (dominated_by_p (CDI_DOMINATORS, p->src, header)
	&& bitmap_set_bit (in_loop, p->src->index))
      work.safe_push (p->src);
  while (!work.is_empty ())
    {
      basic_block bb = work.pop ();
      FOR_EACH_EDGE (p, ei, bb->preds)
	if (bitmap_set_bit (in_loop, p->src->index))
	  work.safe_push (p->src);
    }
}

/* Whether taking the check edge E out of the cut set would leave a cycle
   through a site without a check: a path from E's destination back to its
   source, on edges without a check, through a site.  */
static bool
closes_site_cycle (function_state *st, edge e)
{
  int n = last_basic_block_for_fn (cfun);
  /* Blocks reached, by paths without and with a site so far.  */
  auto_sbitmap reached (n), reached_site (n);
  bitmap_clear (reached);
  bitmap_clear (reached_site);
  auto_vec<std::pair<basic_block, bool> > paths;
  /* With a region scheme, every cycle needs a check: a region's
     traversal must be acyclic.  */
  bool site = st->regions || st->sites_in_block[e->dest->index] > 0;
  if (e->dest == e->src)
    return site;
  bitmap_set_bit (site ? reached_site : reached, e->dest->index);
  paths.safe_push (std::make_pair (e->dest, site));
  while (!paths.is_empty ())
    {
      std::pair<basic_block, bool> at = paths.pop ();
      edge s;
      edge_iterator ei;
      FOR_EACH_EDGE (s, ei, at.first->succs)
	{
	  basic_block dest = s->dest;
	  if (st->cut.contains (s) || dest == EXIT_BLOCK_PTR_FOR_FN (cfun))
	    continue;
	  bool through_site = (at.second || st->regions
			       || st->sites_in_block[dest->index] > 0);
	  if (dest == e->src && through_site)
	    return true;
	  if (bitmap_set_bit (through_site ? reached_site : reached,
			      dest->index))
	    paths.safe_push (std::make_pair (dest, through_site));
	}
    }
  return false;
}

/* A place for a loop check, and the depth of its loop.  */
struct loop_check_candidate
{
  edge e;
  enum check_kind kind;
  int depth;
};

static int
deeper_first (const void *a, const void *b, void *)
{
  return ((const loop_check_candidate *) b)->depth
	 - ((const loop_check_candidate *) a)->depth;
}

/* Chooses the loop checks: starting from a check at the head of every
   natural loop and on every other DFS back edge, drops each one whose
   removal leaves no cycle through a site without a check, innermost loops
   first, so that a loop whose every cycle passes through an inner loop
   keeps the inner loop's check only, and an inner loop without sites
   leaves the check to the outer one.  */
static void
place_loop_checks (function_state *st)
{
  mark_dfs_back_edges ();
  auto_vec<basic_block> headers;
  hash_set<basic_block> seen_headers;
  auto_vec<edge> back_edges;
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    {
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->succs)
	if ((e->flags & EDGE_DFS_BACK) && !st->cut.contains (e)
	    /* A goto target (as is every abnormal edge's destination) has
	       its check at its top already.  */
	    && !goto_target_p (e->dest))
	  {
	    if (!dominated_by_p (CDI_DOMINATORS, e->src, e->dest))
	      back_edges.safe_push (e);
	    else if (!seen_headers.add (e->dest))
	      headers.safe_push (e->dest);
	  }
    }
  auto_vec<loop_check_candidate> candidates;
  auto depth_of = [] (basic_block block)
    {
      return current_loops ? (int) loop_depth (block->loop_father) : 0;
    };
  for (basic_block header : headers)
    {
      loop_check_candidate c = { split_block_after_labels (header),
				 CHECK_LOOP_HEAD, depth_of (header) };
      candidates.safe_push (c);
    }
  for (edge e : back_edges)
    {
      loop_check_candidate c = { e, CHECK_BACK_EDGE, depth_of (e->dest) };
      candidates.safe_push (c);
    }
  if (candidates.is_empty ())
    return;
  count_sites_in_blocks (st);
  for (const loop_check_candidate &c : candidates)
    st->cut.add (c.e);
  candidates.stablesort (deeper_first, NULL);
  for (const loop_check_candidate &c : candidates)
    {
      if (!closes_site_cycle (st, c.e))
	{
	  st->cut.remove (c.e);
	  continue;
	}
      location_t loc = first_location (c.e->dest);
      if (c.kind == CHECK_BACK_EDGE)
	{
	  gimple *last = last_stmt (c.e->src);
	  if (last && gimple_location (last) != UNKNOWN_LOCATION)
	    loc = gimple_location (last);
	}
      check_point cp = { c.e, c.kind, loc, 0 };
      st->checks.safe_push (cp);
    }
}

/* Puts a check on each edge out of a loop that has a check at its head
   (but not on returns).  Without it, the loop's region would run on past
   the loop: every iteration would count as heavy as the code after the
   loop, and either give the difference back (an addition per iteration)
   or have the countdown run out that much sooner.  One check per exit is
   cheaper.  */
static void
place_loop_exit_checks (function_state *st)
{
  auto_vec<edge> exits;
  auto_sbitmap in_loop (last_basic_block_for_fn (cfun));
  for (const check_point &cp : st->checks)
    {
      if (cp.kind != CHECK_LOOP_HEAD)
	continue;
      loop_blocks (cp.fast_edge->src, in_loop);
      basic_block bb;
      FOR_EACH_BB_FN (bb, cfun)
	if (bitmap_bit_p (in_loop, bb->index))
	  {
	    edge e;
	    edge_iterator ei;
	    FOR_EACH_EDGE (e, ei, bb->succs)
	      if (!bitmap_bit_p (in_loop, e->dest->index)
		  && e->dest != EXIT_BLOCK_PTR_FOR_FN (cfun)
		  && !(e->flags & EDGE_ABNORMAL)
		  && !st->cut.contains (e))
		{
		  st->cut.add (e);
		  exits.safe_push (e);
		}
	  }
    }
  for (edge e : exits)
    {
      check_point cp = { e, CHECK_LOOP_EXIT, first_location (e->dest), 0 };
      if (cp.loc == UNKNOWN_LOCATION)
	{
	  gimple *last = last_stmt (e->src);
	  cp.loc = last ? gimple_location (last) : UNKNOWN_LOCATION;
	}
      st->checks.safe_push (cp);
    }
}

/* Places the checks and weighs them: entry and after-call checks are
   there already; loop checks (at loop heads, on loop exits, on the back
   edges of other cycles) cut every cycle through a site; more checks keep
   regions within the region limit.  */
void
place_checks_and_weigh (function_state *st)
{
  for (check_point &cp : st->checks)
    st->cut.add (cp.fast_edge);
  count_sites_in_blocks (st);
  if (sampler_opts.region_limit)
    split_heavy_blocks (st);
  check_block_weights (st);
  calculate_dominance_info (CDI_DOMINATORS);
  place_loop_checks (st);
  place_loop_exit_checks (st);
  free_dominance_info (CDI_DOMINATORS);
  if (sampler_opts.region_limit)
    limit_region_weights (st);
  if (st->regions)
    mark_region_exits (st);
  weigh_checks (st);
}
