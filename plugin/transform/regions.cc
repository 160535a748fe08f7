/* sampler.so: the region seam, for schemes that observe each traversal
   of a region rather than a visit to a point.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).

   What.  The checks of a cloned function cut it into regions: a region
   starts where a check leads (its destination) and runs to the next
   checks or region ends (returns, weighty calls, calls that do not
   return, computed gotos, countdown writes; a block that only leads into
   a check, as a loop's header does, counts as an end too, so that the
   header keeps no code and is never copied).  With a region scheme (one
   whose hooks region_number and region_slow_copy are set):
     - every cycle crosses a check (threshold-checks.cc), so a traversal is acyclic;
     - mark_region_exits puts an exit marker, a site of the scheme, in a
       block of its own on every edge that leaves a region: every
       traversal crosses exactly one, so weigh_checks adds 1 to every region's
       weight (the traversal is one visit on the countdown, made at its
       exit), the slow copy spans whole regions (every block of a region
       has a site ahead), and the fast copy deletes the markers as any
       others;
     - clone_and_wire tells the scheme the slow copy's edges and entries
       (region_view), before the markers become sample calls.

   Why: a traversal's visit is tossed like any other, and the check chose
   the slow copy on the region's weight alone, whatever path follows; so
   a sampled traversal ran in the slow copy from its region's entry, and
   which traversals are sampled does not depend on their paths.  */

#include "sampler-plugin.h"
#include "schemes.h"
#include "transform.h"

#include "function.h"
#include "basic-block.h"
#include "cfg.h"
#include "cfghooks.h"
#include "cfganal.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "tree-cfg.h"
#include "cgraph.h"
#include "bitmap.h"
#include "sbitmap.h"

static bool
region_scheme_p (enum sampler_scheme_id id)
{
  return plugin_schemes[id]->region_number != NULL;
}

/* Sites whose function has claimed them: a function and a copy IPA made
   of it (constant propagation, SRA) share the site; the first one
   transformed observes its regions, the other does not.  */
static hash_set<int_hash<int, -1, -2> > *claimed_sites;

region_view *
find_region_site (void)
{
  tree origin = current_function_decl;
  if (cgraph_node *node = cgraph_node::get (current_function_decl))
    if (node->former_clone_of)
      origin = node->former_clone_of;
  auto_vec<gimple *> markers;
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      if (is_site_marker (gsi_stmt (gsi))
	  && region_scheme_p (unit_sites[marker_site (gsi_stmt (gsi))].scheme))
	markers.safe_push (gsi_stmt (gsi));
  region_view *view = NULL;
  auto_bitmap dead;
  for (gimple *marker : markers)
    {
      unsigned site = marker_site (marker);
      /* A callee's marker, inlined: its code is part of this function's
	 regions.  */
      if (!view && (unit_sites[site].function == current_function_decl
		    || unit_sites[site].function == origin))
	{
	  if (!claimed_sites)
	    claimed_sites = new hash_set<int_hash<int, -1, -2> >;
	  if (!claimed_sites->add (site))
	    {
	      view = new region_view;
	      view->scheme = unit_sites[site].scheme;
	      view->site = site;
	    }
	}
      remove_marker (marker, dead);
    }
  return view;
}

bool
region_end_p (function_state *st, basic_block bb)
{
  if (bb == EXIT_BLOCK_PTR_FOR_FN (cfun) || bb == ENTRY_BLOCK_PTR_FOR_FN (cfun))
    return true;
  gimple_stmt_iterator gsi = gsi_start_nondebug_after_labels_bb (bb);
  if (!gsi_end_p (gsi))
    return ends_region (gsi_stmt (gsi));
  return single_succ_p (bb) && st->cut.contains (single_succ_edge (bb));
}

void
region_entries (function_state *st, vec<basic_block> &entries)
{
  hash_set<basic_block> seen;
  for (const check_point &cp : st->checks)
    {
      basic_block dest = cp.fast_edge->dest;
      if (!region_end_p (st, dest) && !seen.add (dest))
	entries.safe_push (dest);
    }
}

void
region_blocks_postorder (function_state *st, vec<basic_block> &order)
{
  auto_vec<basic_block> entries;
  region_entries (st, entries);
  auto_sbitmap visited (last_basic_block_for_fn (cfun));
  bitmap_clear (visited);
  struct frame
  {
    basic_block bb;
    unsigned next;
  };
  auto_vec<frame> stack;
  for (basic_block entry : entries)
    {
      if (!bitmap_set_bit (visited, entry->index))
	continue;
      stack.safe_push ({ entry, 0u });
      while (!stack.is_empty ())
	{
	  frame &top = stack.last ();
	  if (top.next < EDGE_COUNT (top.bb->succs))
	    {
	      edge e = EDGE_SUCC (top.bb, top.next++);
	      if (st->cut.contains (e) || region_end_p (st, e->dest))
		continue;
	      if (bitmap_set_bit (visited, e->dest->index))
		stack.safe_push ({ e->dest, 0u });
	      continue;
	    }
	  order.safe_push (top.bb);
	  stack.pop ();
	}
    }
}

/* Puts a marker of ST's region site on each edge leaving a region, in a
   block of its own; a check's edge moves to the new block's edge out.  */
static void
insert_exit_markers (function_state *st)
{
  region_view *view = st->regions;
  auto_vec<basic_block> blocks;
  region_blocks_postorder (st, blocks);
  auto_vec<edge> exits;
  for (basic_block bb : blocks)
    {
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->succs)
	if (st->cut.contains (e) || region_end_p (st, e->dest))
	  exits.safe_push (e);
    }
  for (edge e : exits)
    {
      bool is_cut = st->cut.contains (e);
      location_t loc = UNKNOWN_LOCATION;
      check_point *check = NULL;
      if (is_cut)
	for (check_point &cp : st->checks)
	  if (cp.fast_edge == e)
	    {
	      check = &cp;
	      loc = cp.loc;
	    }
      /* Into a block that only leads into a check (a loop's header): the
	 exit is that check's.  */
      if (!is_cut && single_succ_p (e->dest)
	  && st->cut.contains (single_succ_edge (e->dest)))
	for (check_point &cp : st->checks)
	  if (cp.fast_edge == single_succ_edge (e->dest))
	    loc = cp.loc;
      if (loc == UNKNOWN_LOCATION && e->dest != EXIT_BLOCK_PTR_FOR_FN (cfun))
	loc = first_location (e->dest);
      if (loc == UNKNOWN_LOCATION)
	if (gimple *last = last_stmt (e->src))
	  loc = gimple_location (last);
      /* A call before the function's return, marked as a sibling call
	 (tailc runs before this pass), is expanded as a jump that never
	 comes back to the marker after it: the traversal would be charged
	 on the countdown and never counted.  */
      for (gimple_stmt_iterator gsi = gsi_last_nondebug_bb (e->src);
	   !gsi_end_p (gsi); gsi_prev_nondebug (&gsi))
	{
	  gimple *stmt = gsi_stmt (gsi);
	  if (gimple_code (stmt) == GIMPLE_RETURN)
	    continue;
	  if (gcall *call = dyn_cast <gcall *> (stmt))
	    if (gimple_call_tail_p (call))
	      {
		gimple_call_set_tail (call, false);
		view->fast_tail_calls.safe_push (call);
	      }
	  break;
	}
      basic_block bb = split_edge (e);
      edge out = single_succ_edge (bb);
      if (is_cut)
	{
	  st->cut.remove (e);
	  st->cut.add (out);
	  if (check)
	    check->fast_edge = out;
	}
      /* The value, a placeholder, is the scheme's (region_number).  */
      gasm *marker = build_marker (view->site, loc,
				   build_int_cst (long_long_unsigned_type_node,
						  0));
      /* After the label that makes BB a landing pad, where E is an EH
	 edge.  */
      gimple_stmt_iterator gsi = gsi_after_labels (bb);
      gsi_insert_before (&gsi, marker, GSI_NEW_STMT);
      view->exits.safe_push (marker);
    }
}

void
mark_region_exits (function_state *st)
{
  const plugin_scheme *scheme = plugin_schemes[st->regions->scheme];
  if (scheme->region_prepare && !scheme->region_prepare (st, *st->regions))
    {
      delete st->regions;
      st->regions = NULL;
      return;
    }
  insert_exit_markers (st);
  for (gimple *marker : st->regions->exits)
    st->sites.safe_push (marker);
  st->n_sites += st->regions->exits.length ();
  count_sites_in_blocks (st);
  scheme->region_number (st, *st->regions);
}
