/* sampler.so: the fast and slow copies of a function, and their wiring.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).

   What.  Once the checks are placed and weighed (threshold-checks.cc,
   region-weights.cc), clone_and_wire copies the blocks from which a site
   is reachable before the next checks: the original blocks, whose markers
   the driver then removes, are the fast copy, which is the code GCC
   optimised; the copies are the slow copy, where each site decrements the
   countdown and calls the runtime when it runs out.  Each check subtracts
   its weight from the countdown and goes to the slow copy only when that
   borrows or leaves zero.  The code of the checks, of the slow copy's
   sites and of padding is countdown-code.cc's.

   Why.  The fast copy runs nearly always and does nothing per site; the
   slow copy makes the same count one visit at a time, so that every visit
   gets its own toss and sampling stays fair (Liblit et al., PLDI 2003).
   The countdown stays in memory: no register is kept for sampling.

   How to debug: with -fdump-tree-all, the dump file *.sampler-transform
   shows each function after the transformation, the slow copy's blocks
   at the end with a count of zero; dump=FILE lists the checks and their
   weights.  The slow copy's edges back into the fast copy are where its
   regions end (see blocks_with_sites_ahead).  */

#include "sampler-plugin.h"
#include "transform.h"
#include "schemes.h"
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
#include "ssa.h"
#include "tree-ssa.h"
#include "tree-phinodes.h"
#include "bitmap.h"
#include "gimplify.h"

/* ---------------------------------------------------------------------
   Copying and wiring.  */

/* Maps each original block to its slow copy.  */
typedef hash_map<basic_block, basic_block> copy_map;

/* Adds to AHEAD the blocks from which a site can be reached without
   crossing a check: the only ones that need a slow copy.  Elsewhere the
   slow copy would be the fast one, as the two differ only at sites, so the
   slow copy's edges lead back into the fast blocks there: a region's slow
   copy ends after its last site, not at its checks.  */
static void
blocks_with_sites_ahead (function_state *st, hash_set<basic_block> &ahead)
{
  auto_vec<basic_block> worklist;
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    if (st->sites_in_block[bb->index] > 0)
      {
	ahead.add (bb);
	worklist.safe_push (bb);
      }
  while (!worklist.is_empty ())
    {
      bb = worklist.pop ();
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->preds)
	if (!st->cut.contains (e)
	    && e->src != ENTRY_BLOCK_PTR_FOR_FN (cfun)
	    && !ahead.add (e->src))
	  worklist.safe_push (e->src);
    }
}

/* Copies the blocks of BODY, statements and edges, with the edges between
   them redirected to the copies, at the end of the function; COPIES maps
   originals to copies.  The copies define new SSA names, which update_ssa
   puts in place of the originals where the copies' definitions reach.  */
static void
copy_blocks (const vec<basic_block> &body, copy_map &copies)
{
  initialize_original_copy_tables ();
  for (basic_block bb : body)
    {
      /* A computed goto's block has no slow copy (see
	 isolate_goto_targets).  */
      gimple *last = last_stmt (bb);
      gcc_assert (!last || !computed_goto_p (last));
      bb->flags |= BB_DUPLICATED;
    }
  basic_block after = EXIT_BLOCK_PTR_FOR_FN (cfun)->prev_bb;
  auto_vec<basic_block> made;
  for (basic_block bb : body)
    {
      basic_block copy = duplicate_block (bb, NULL, after);
      copy->count = slow_count ();
      after = copy;
      copies.put (bb, copy);
      made.safe_push (copy);
    }
  for (basic_block copy : made)
    {
      auto_vec<edge> inside;
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, copy->succs)
	if (e->dest->flags & BB_DUPLICATED)
	  inside.safe_push (e);
      for (edge in : inside)
	{
	  edge redirected = redirect_edge_and_branch (in,
						      get_bb_copy (in->dest));
	  gcc_assert (redirected);
	  redirect_edge_var_map_clear (redirected);
	}
    }
  for (basic_block bb : body)
    bb->flags &= ~BB_DUPLICATED;
  add_phi_args_after_copy (made.address (), made.length (), NULL);
  free_original_copy_tables ();
}

/* A check that weighs something, as wired.  */
struct wired_check
{
  basic_block src;		/* Where its edge comes from.  */
  basic_block check;		/* The fast copy's check block.  */
  basic_block dest;
  int budget;			/* What it takes: its weight.  */
  int refund;			/* What its edge gives back...  */
  int pad;			/* ... or pads.  */
  location_t loc;
  bool dispatch;		/* To the unsampled clone: at entry.  */
  /* The sampled clone its slow entry calls, instead of a slow copy
     (outline-entry.cc): at entry.  */
  tree outlined_fn;
};

/* Cloning and wiring: clone_and_wire clones the body into fast (the
   original blocks) and slow copies and wires the checks, in the phases
   that follow, in order.

   Each check of weight W takes W visits from the countdown at once, with
   one subtraction whose flags are the test: unless it borrows or leaves
   zero, no site of the region ahead can be sampled, and the fast copy,
   which is the original code without its sites, runs to the next checks.
   A path with fewer sites than W gives the difference back on the edge
   where it leaves the heaviest continuation (a refund: one addition to the
   countdown), unless the difference is at most the pad limit: then the
   path simply counts as that many visits more, to no site, never observed
   (padding).  Each site visit still gets a toss of its own, and which
   tosses go to sites depends only on the path taken, so sampling stays
   fair; the countdown just runs out a little sooner.

   The slow copy makes the same count, one visit at a time.  Entering it
   from a check gives the check's W back (the countdown is as before the
   check); then it decrements the countdown at each site and samples where
   it runs out (a sample draws a new countdown), and counts the padding on
   the edges that pad, drawing past the countdowns that run out there.  It
   needs nothing for refunds and nothing where its region ends (at its
   checks, and where it leads back into the fast copy: only the blocks with
   a site ahead are copied, see blocks_with_sites_ahead; returns and
   weighty calls are in blocks of their own): its countdown is always the
   count itself.  So it notes nothing of its own that a callee could
   overwrite: a function declared in a system header counts as weightless,
   but may have sites (gnulib's replacements, callbacks), and its slow
   copies run while the caller's does.  */

/* What each edge out of a block of BODY gives back (REFUNDS) or pads
   (PADS): the block's weight less its own sites and the weight of what
   follows the edge (nothing, across a check), when that is positive; a
   refund when it is above the pad limit, else padding.  REFUND_EDGES
   lists the refunds' edges in the order of BODY and of their blocks'
   edges.  Reads the weights of the original CFG, which it leaves as it
   is.  */
static void
find_refunds_and_pads (function_state *st, const vec<basic_block> &body,
		       hash_map<edge, int> &refunds, vec<edge> &refund_edges,
		       hash_map<edge, int> &pads)
{
  for (basic_block u : body)
    {
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, u->succs)
	{
	  int after = st->cut.contains (e) ? 0 : st->block_weight[e->dest->index];
	  int refund = st->block_weight[u->index]
		       - st->sites_in_block[u->index] - after;
	  gcc_assert (refund >= 0);
	  if (refund > sampler_opts.pad_limit)
	    {
	      refunds.put (e, refund);
	      refund_edges.safe_push (e);
	    }
	  else if (refund > 0)
	    pads.put (e, refund);
	}
    }
}

/* Puts an empty block on the edge of each check that is wired (WIRED):
   one that weighs something, or the entry check of a function with an
   unsampled clone, which is the way to the clone and stays, weighing
   nothing if it must.  A check that weighs nothing is no more than its
   edge's refund.  Runs before the copying, so that the copies of the
   checks' sources lead to the same check blocks.  Leaves each wired
   check's block with one successor, the check's destination; IN_CHECKS
   holds the wired checks' edges (the keys of REFUNDS and PADS, now the
   edges into the check blocks), whose refund the check takes in.  */
static void
split_check_blocks (function_state *st, hash_map<edge, int> &refunds,
		    hash_map<edge, int> &pads, vec<wired_check> &wired,
		    hash_set<edge> &in_checks)
{
  for (const check_point &cp : st->checks)
    {
      bool dispatch = cp.kind == CHECK_ENTRY && st->dispatch_fn;
      if (cp.weight == 0 && !dispatch)
	continue;
      int *refund = refunds.get (cp.fast_edge);
      in_checks.add (cp.fast_edge);
      wired_check w;
      w.src = cp.fast_edge->src;
      w.dest = cp.fast_edge->dest;
      w.check = block_on_edge (cp.fast_edge, cp.fast_edge->count ());
      w.budget = cp.weight;
      w.refund = refund ? *refund : 0;
      int *pad = pads.get (cp.fast_edge);
      w.pad = pad ? *pad : 0;
      w.loc = cp.loc;
      w.dispatch = dispatch;
      w.outlined_fn = (cp.kind == CHECK_ENTRY && cp.weight > 0
		       ? st->sampled_fn : NULL_TREE);
      wired.safe_push (w);
    }
}

/* Copies the blocks of BODY (copy_blocks): COPIES maps each to its copy,
   ORIGINALS each copy back, and SLOW_SITES gets the copies' markers.
   Leaves the copies' edges between blocks of BODY leading to copies, and
   their other edges leading into the fast copy (its check blocks
   included), as the originals' do.  */
static void
make_slow_copy (const vec<basic_block> &body, copy_map &copies,
		copy_map &originals, vec<gimple *> &slow_sites)
{
  copy_blocks (body, copies);
  for (basic_block original : body)
    originals.put (*copies.get (original), original);
  for (basic_block original : body)
    {
      basic_block copy = *copies.get (original);
      for (gimple_stmt_iterator gsi = gsi_start_bb (copy); !gsi_end_p (gsi);
	   gsi_next (&gsi))
	if (is_site_marker (gsi_stmt (gsi)))
	  slow_sites.safe_push (gsi_stmt (gsi));
    }
}

/* The slow copy's edges that pad (SLOW_PADS, with the padding), found
   from the edges of their originals in PADS before anything else splits
   the copies' edges.  The edges into the fast check blocks are not among
   them: wire_checks gives those their padding.  Changes nothing.  */
static void
find_slow_pads (const vec<basic_block> &body, copy_map &copies,
		copy_map &originals, vec<wired_check> &wired,
		hash_map<edge, int> &pads,
		vec<std::pair<edge, int> > &slow_pads)
{
  hash_set<basic_block> check_blocks;
  for (const wired_check &w : wired)
    check_blocks.add (w.check);
  for (basic_block original : body)
    {
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, (*copies.get (original))->succs)
	{
	  gcc_assert (e->dest != EXIT_BLOCK_PTR_FOR_FN (cfun));
	  if (check_blocks.contains (e->dest))
	    continue;
	  basic_block *dest_original = originals.get (e->dest);
	  int *pad = pads.get (find_edge (original, dest_original
					  ? *dest_original : e->dest));
	  if (pad)
	    slow_pads.safe_push (std::make_pair (e, *pad));
	}
    }
}

/* Builds the checks, fast and slow.  The slow copy's edge to a fast check
   block goes instead to a block of its own that counts the edge's padding
   and then a check that takes the whole budget (the slow copy made no
   visit it would give back).  Each fast check block becomes the check
   proper, whose slow entry leads to the slow copy of its destination.
   Leaves no edge from the slow copy into a fast check block.  */
static void
wire_checks (function_state *st, vec<wired_check> &wired, copy_map &copies)
{
  for (const wired_check &w : wired)
    {
      basic_block *slow = copies.get (w.dest);
      /* Only an entry check that weighs nothing has no slow copy ahead:
	 after the start it goes on in the fast copy; and an entry check
	 whose slow copy is out of line.  */
      gcc_assert (slow || (w.dispatch && w.budget == 0) || w.outlined_fn);
      basic_block dest_slow = slow ? *slow : w.dest;
      if (basic_block *src_slow = copies.get (w.src))
	{
	  edge e = find_edge (*src_slow, w.check);
	  basic_block end = slow_block (w.dest, (*src_slow)->count);
	  basic_block check = slow_block (w.dest, (*src_slow)->count);
	  make_single_succ_edge (end, check, EDGE_FALLTHRU);
	  edge to_dest = make_single_succ_edge (check, w.dest, EDGE_FALLTHRU);
	  copy_phi_args (single_succ_edge (w.check), to_dest);
	  edge redirected = redirect_edge_and_branch (e, end);
	  gcc_assert (redirected);
	  redirect_edge_var_map_clear (redirected);
	  if (w.pad > 0)
	    count_padding (end, w.pad, w.loc);
	  build_check (check, w.dest, dest_slow, w.budget, w.budget, w.loc,
		       st->regions);
	}
      build_check (w.check, w.dest, dest_slow, w.budget,
		   w.budget - w.refund, w.loc, st->regions,
		   w.dispatch ? st->dispatch_fn : NULL_TREE, w.outlined_fn);
    }
}

/* Counts the padding of the slow copy's edges in SLOW_PADS, each in a
   block of its own on the edge.  */
static void
count_slow_pads (const vec<std::pair<edge, int> > &slow_pads)
{
  for (auto item : slow_pads)
    {
      basic_block end = block_on_edge (item.first, item.first->src->count);
      count_padding (end, item.second, UNKNOWN_LOCATION);
    }
}

/* The fast copy's refunds, on its edges that are not checks' (IN_CHECKS),
   each an addition to the countdown in a block of its own on the edge, in
   the order of REFUND_EDGES: the order of the blocks and SSA names made
   is the same in every compilation of the unit, and so is the code.  */
static void
add_fast_refunds (hash_map<edge, int> &refunds,
		  const vec<edge> &refund_edges, hash_set<edge> &in_checks)
{
  for (edge e : refund_edges)
    if (!in_checks.contains (e))
      {
	basic_block add = block_on_edge (e, e->count ());
	append_add (add, countdown_reference (), *refunds.get (e),
		    UNKNOWN_LOCATION);
      }
}

/* For the region seam: each edge between two blocks of BODY to its copy
   in the slow copy, in VIEW.  */
static void
note_slow_edges (const vec<basic_block> &body, copy_map &copies,
		 region_view *view)
{
  for (basic_block bb : body)
    {
      basic_block copy = *copies.get (bb);
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->succs)
	if (basic_block *dest = copies.get (e->dest))
	  if (edge slow = find_edge (copy, *dest))
	    view->slow_edges.put (e, slow);
    }
}

/* With the entry region's slow copy out of line: removes from AHEAD the
   blocks that only the entry check's region reaches, which need no slow
   copy in the function: every other check's region, and so its slow
   copy, reaches only blocks reached from the check's destination without
   crossing a check.  */
static void
keep_blocks_of_other_regions (function_state *st, hash_set<basic_block> &ahead)
{
  hash_set<basic_block> reached;
  auto_vec<basic_block> worklist;
  for (const check_point &cp : st->checks)
    if (cp.kind != CHECK_ENTRY && cp.weight > 0
	&& !reached.add (cp.fast_edge->dest))
      worklist.safe_push (cp.fast_edge->dest);
  while (!worklist.is_empty ())
    {
      basic_block bb = worklist.pop ();
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->succs)
	if (!st->cut.contains (e)
	    && e->dest != EXIT_BLOCK_PTR_FOR_FN (cfun)
	    && !reached.add (e->dest))
	  worklist.safe_push (e->dest);
    }
  auto_vec<basic_block> entry_only;
  for (basic_block bb : ahead)
    if (!reached.contains (bb))
      entry_only.safe_push (bb);
  for (basic_block bb : entry_only)
    ahead.remove (bb);
}

/* Is the current function's entry region's slow copy out of line: has it
   a sampled clone and an entry check that weighs something?  */
static bool
entry_outlined (function_state *st)
{
  if (!st->sampled_fn)
    return false;
  for (const check_point &cp : st->checks)
    if (cp.kind == CHECK_ENTRY && cp.weight > 0)
      return true;
  return false;
}

/* Clones the body into fast and slow copies and wires the checks, phase
   by phase (see "Cloning and wiring" above).  */
void
clone_and_wire (function_state *st)
{
  hash_set<basic_block> ahead;
  blocks_with_sites_ahead (st, ahead);
  auto_vec<basic_block> with_sites_ahead;
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    if (ahead.contains (bb))
      with_sites_ahead.safe_push (bb);
  /* The fast copy's refunds and pads are on the edges of every block with
     a site ahead; with the entry region out of line, the slow copy has
     only the blocks that the other regions reach.  */
  hash_map<edge, int> refunds, pads;
  auto_vec<edge> refund_edges;
  find_refunds_and_pads (st, with_sites_ahead, refunds, refund_edges, pads);
  if (entry_outlined (st))
    keep_blocks_of_other_regions (st, ahead);
  else
    st->sampled_fn = NULL_TREE;
  auto_vec<basic_block> body;
  FOR_EACH_BB_FN (bb, cfun)
    if (ahead.contains (bb))
      body.safe_push (bb);

  auto_vec<wired_check> wired;
  hash_set<edge> in_checks;
  split_check_blocks (st, refunds, pads, wired, in_checks);
  copy_map copies, originals;
  auto_vec<gimple *> slow_sites;
  make_slow_copy (body, copies, originals, slow_sites);
  if (st->regions)
    {
      note_slow_edges (body, copies, st->regions);
      for (gcall *call : st->regions->fast_tail_calls)
	if (copies.get (gimple_bb (call)))
	  gimple_call_set_tail (call, true);
    }
  auto_vec<std::pair<edge, int> > slow_pads;
  find_slow_pads (body, copies, originals, wired, pads, slow_pads);
  wire_checks (st, wired, copies);
  count_slow_pads (slow_pads);
  add_fast_refunds (refunds, refund_edges, in_checks);
  if (st->regions)
    plugin_schemes[st->regions->scheme]->region_slow_copy (st, *st->regions);
  for (gimple *stmt : slow_sites)
    make_slow_site (st, stmt);
}
