/* sampler.so: the fast and slow copies of a function, the code of its
   checks and of its sites, and the per-site fallback.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).

   What.  Once the checks are placed and weighed (checks.cc),
   clone_and_wire copies the blocks from which a site is reachable before
   the next checks: the original blocks, whose markers the driver then
   removes, are the fast copy, which is the code GCC optimised; the copies
   are the slow copy, where each site decrements the countdown and calls
   the runtime when it runs out.  Each check subtracts its weight from the
   countdown and goes to the slow copy only when that borrows or leaves
   zero.  A function that cannot be cloned gets a test of the countdown at
   each site instead (guard_without_cloning).

   Why.  The fast copy runs nearly always and does nothing per site; the
   slow copy makes the same count one visit at a time, so that every visit
   gets its own toss and sampling stays fair (Liblit et al., PLDI 2003).
   The countdown stays in memory: no register is kept for sampling.

   How to debug: with -fdump-tree-all, the dump file *.sampler-transform
   shows each function after the transformation, the slow copy's blocks
   at the end with a count of zero; dump=FILE lists the checks and their
   weights.  The slow copy's
   edges back into the fast copy are where its regions end (see
   blocks_with_sites_ahead).  */

#include "sampler-plugin.h"
#include "transform.h"
#include "schemes.h"
#include "runtime-decls.h"

#include <string.h>

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
   Small CFG and statement helpers.  */

static tree
long_cst (HOST_WIDE_INT value)
{
  return build_int_cst (long_integer_type_node, value);
}

static void
append (basic_block bb, gimple *stmt, location_t loc)
{
  gimple_set_location (stmt, loc);
  gimple_stmt_iterator gsi = gsi_last_bb (bb);
  gsi_insert_after (&gsi, stmt, GSI_NEW_STMT);
}

/* Splits the edge E and returns the new block, run as often as COUNT
   says.  */
static basic_block
block_on_edge (edge e, profile_count count)
{
  basic_block bb = split_edge (e);
  bb->count = count;
  return bb;
}

/* Makes the (empty, single-successor) block BB end in `if (LHS CODE RHS)'
   with TRUE_DEST and FALSE_DEST, the true side being the unlikely one.  */
static void
end_with_condition (basic_block bb, enum tree_code code, tree lhs, tree rhs,
		    basic_block true_dest, basic_block false_dest,
		    location_t loc)
{
  edge only = single_succ_edge (bb);
  bool to_true = only->dest == true_dest;
  gcc_assert (to_true || only->dest == false_dest);
  only->flags &= ~EDGE_FALLTHRU;
  only->flags |= to_true ? EDGE_TRUE_VALUE : EDGE_FALSE_VALUE;
  append (bb, gimple_build_cond (code, lhs, rhs, NULL_TREE, NULL_TREE), loc);
  edge other = make_edge (bb, to_true ? false_dest : true_dest,
			  to_true ? EDGE_FALSE_VALUE : EDGE_TRUE_VALUE);
  edge t = to_true ? only : other;
  t->probability = profile_probability::very_unlikely ();
  (to_true ? other : only)->probability = t->probability.invert ();
}

/* Gives the new edge E into a block with PHI nodes the arguments that the
   edge FROM gives the PHI nodes of its own destination (the same block, or
   the block that E's destination is a copy of).  */
static void
copy_phi_args (edge from, edge e)
{
  gphi_iterator to_phi = gsi_start_phis (e->dest);
  for (gphi_iterator phi = gsi_start_phis (from->dest); !gsi_end_p (phi);
       gsi_next (&phi), gsi_next (&to_phi))
    add_phi_arg (to_phi.phi (), PHI_ARG_DEF_FROM_EDGE (phi.phi (), from), e,
		 gimple_phi_arg_location_from_edge (phi.phi (), from));
}
/* ---------------------------------------------------------------------
   The countdown in memory.  Instrumented code keeps no register for
   sampling: the fast copy changes the thread's countdown where it is, with
   one instruction on x86-64, and the slow copy does the same, with the end
   of its region noted in memory too.  A register for either would be one
   fewer for the program wherever the slow copy is, and the register
   allocator gives a value one place in both copies.  */

/* The thread-local VAR, in a new SSA name, added to SEQ.  */
static tree
load (gimple_seq *seq, tree var, location_t loc)
{
  tree value = make_ssa_name (long_integer_type_node);
  gimple *stmt = gimple_build_assign (value, var);
  gimple_set_location (stmt, loc);
  gimple_seq_add_stmt (seq, stmt);
  return value;
}

static void
add_stmt (gimple_seq *seq, gimple *stmt, location_t loc)
{
  gimple_set_location (stmt, loc);
  gimple_seq_add_stmt (seq, stmt);
}

/* `VAR -= AMOUNT', added to SEQ, VAR a thread-local of the runtime; when
   TEST is not NULL, returns whether VAR was at most AMOUNT, as unsigned
   numbers (TEST "be": the subtraction borrowed or left zero) or whether VAR
   is now at most zero (TEST "le").  AMOUNT is a constant or a long.  */
static tree
subtract (gimple_seq *seq, tree var, tree amount, const char *test,
	  location_t loc)
{
  tree flag = test ? make_ssa_name (boolean_type_node) : NULL_TREE;
#if defined(__x86_64__)
  /* sub sets the flags the branch tests.  */
  vec<tree, va_gc> *inputs = NULL, *outputs = NULL;
  vec_safe_push (outputs, asm_operand ("=m", var));
  if (flag)
    vec_safe_push (outputs, asm_operand (strcmp (test, "be") == 0
					 ? "=@ccbe" : "=@ccle", flag));
  vec_safe_push (inputs, asm_operand ("m", unshare_expr (var)));
  vec_safe_push (inputs, asm_operand ("er", amount));
  const char *text = flag ? "subq %3, %0" : "subq %2, %0";
  gasm *sub = gimple_build_asm_vec (text, inputs, outputs, NULL, NULL);
  if (flag)
    SSA_NAME_DEF_STMT (flag) = sub;
  add_stmt (seq, sub, loc);
#else
  tree type = long_unsigned_type_node;
  /* In unsigned arithmetic, which wraps.  */
  tree before = make_ssa_name (type);
  add_stmt (seq, gimple_build_assign (before, NOP_EXPR, load (seq, var, loc)),
	    loc);
  tree by = make_ssa_name (type);
  add_stmt (seq, gimple_build_assign (by, NOP_EXPR, amount), loc);
  tree uafter = make_ssa_name (type);
  add_stmt (seq, gimple_build_assign (uafter, MINUS_EXPR, before, by), loc);
  tree after = make_ssa_name (long_integer_type_node);
  add_stmt (seq, gimple_build_assign (after, NOP_EXPR, uafter), loc);
  add_stmt (seq, gimple_build_assign (unshare_expr (var), after), loc);
  if (flag && strcmp (test, "be") == 0)
    add_stmt (seq, gimple_build_assign (flag, LE_EXPR, before, by), loc);
  else if (flag)
    add_stmt (seq, gimple_build_assign (flag, LE_EXPR, after, long_cst (0)),
	      loc);
#endif
  return flag;
}

/* Adds SEQ at the end of BB.  */
static void
append_seq (basic_block bb, gimple_seq seq)
{
  gimple_stmt_iterator gsi = gsi_last_bb (bb);
  gsi_insert_seq_after (&gsi, seq, GSI_NEW_STMT);
}

/* `VAR -= AMOUNT' at the end of BB (see subtract).  */
static tree
append_subtract (basic_block bb, tree var, HOST_WIDE_INT amount,
		 const char *test, location_t loc)
{
  gimple_seq seq = NULL;
  tree flag = subtract (&seq, var, long_cst (amount), test, loc);
  append_seq (bb, seq);
  return flag;
}

/* `VAR += AMOUNT' at the end of BB.  */
static void
append_add (basic_block bb, tree var, HOST_WIDE_INT amount, location_t loc)
{
  append_subtract (bb, var, -amount, NULL, loc);
}
/* ---------------------------------------------------------------------
   Sites in the copies.  */

/* How often the slow copy runs, for the profile the register allocator,
   block layout and the other RTL passes go by: never, as far as they can
   tell, so that GCC puts it in .text.unlikely, out of the fast copy's way,
   and weighs none of its costs against the fast copy's.  */
static profile_count
slow_count (void)
{
  return profile_count::zero ();
}

/* In the fast copy: the check at the top of its region has counted the
   site's visit already (see sampler-plugin.h).  */
void
remove_marker (gimple *stmt, bitmap dead)
{
  if (is_taken_marker (stmt))
    {
      tree taken = marker_taken (stmt);
      replace_uses_by (taken, boolean_false_node);
    }
  for (unsigned i = 0; i < marker_num_values (stmt); i++)
    {
      tree value = marker_value (stmt, i);
      if (TREE_CODE (value) == SSA_NAME && !SSA_NAME_IS_DEFAULT_DEF (value))
	bitmap_set_bit (dead, SSA_NAME_VERSION (value));
    }
  gimple_stmt_iterator gsi = gsi_for_stmt (stmt);
  unlink_stmt_vdef (stmt);
  gsi_remove (&gsi, true);
  if (is_taken_marker (stmt))
    release_ssa_name (marker_taken (stmt));
}

static basic_block slow_block (basic_block dest, profile_count count);

/* Ends BB, which has one successor, with `if (__sampler_off) goto OFF'.  */
static void
end_with_off_test (basic_block bb, basic_block off, location_t loc)
{
  tree flag = make_ssa_name (integer_type_node);
  append (bb, gimple_build_assign (flag, unshare_expr (runtime_decls.off)), loc);
  end_with_condition (bb, NE_EXPR, flag, integer_zero_node, off,
		      single_succ (bb), loc);
}

/* Ends the empty block BB with `if (__sampler_off) goto OFF' and returns
   the new block it goes to otherwise.  */
static basic_block
go_to_if_off (basic_block bb, basic_block off, location_t loc)
{
  basic_block on = slow_block (off, bb->count);
  make_single_succ_edge (bb, on, EDGE_FALLTHRU);
  end_with_off_test (bb, off, loc);
  return on;
}

/* In a slow copy, or in a function that is not cloned, replaces the marker
   STMT, which takes K visits from the countdown (marker_visits), by
   `countdown -= K; if (countdown <= 0) SAMPLE (...)', where SAMPLE is
   the runtime function that observes the sampled visits and sets the next
   countdown (see sampler-abi.h).  A check's marker says
   whether the check call runs: when sampled.  Returns the block after the
   site.  */
static basic_block
make_slow_site (function_state *st, gimple *stmt)
{
  location_t loc = gimple_location (stmt);
  unsigned k = marker_visits (stmt);
  gimple_seq seq = NULL;
  tree ran_out = subtract (&seq, countdown_reference (), long_cst (k), "le", loc);
  gimple_stmt_iterator gsi = gsi_for_stmt (stmt);
  gsi_insert_seq_before (&gsi, seq, GSI_SAME_STMT);
  gsi = gsi_for_stmt (stmt);
  gsi_prev (&gsi);
  basic_block test = gimple_bb (stmt);
  basic_block site = split_block (test, gsi_stmt (gsi))->dest;
  basic_block after = split_block (site, stmt)->dest;
  site->count = slow_count ();
  end_with_condition (test, NE_EXPR, ran_out, boolean_false_node, site,
		      after, loc);

  build_sample_call (stmt, st->values);
  gsi = gsi_for_stmt (stmt);
  gsi_remove (&gsi, true);

  /* A function that is not cloned, with sampling off, in a thread whose
     countdown stays zero for the unsampled clones: the visit is not
     sampled, and the countdown stays zero.  Otherwise a program that runs
     inside a function that calls setjmp (lua's luaD_rawrunprotected) would
     start the thread at the first visit there, and every function called
     from there would run instrumented.  */
  edge not_run = NULL;
  if (st->fallback_reason && sampler_opts.unsampled)
    {
      basic_block check_off = split_edge (find_edge (test, site));
      basic_block reset = slow_block (after, slow_count ());
      append (reset, gimple_build_assign (countdown_reference (), long_cst (0)),
	      loc);
      not_run = make_single_succ_edge (reset, after, EDGE_FALLTHRU);
      end_with_off_test (check_off, reset, loc);
    }

  if (is_taken_marker (stmt))
    {
      gphi *phi = create_phi_node (marker_taken (stmt), after);
      add_phi_arg (phi, boolean_true_node, single_succ_edge (site), loc);
      add_phi_arg (phi, boolean_false_node, find_edge (test, after), loc);
      if (not_run)
	add_phi_arg (phi, boolean_false_node, not_run, loc);
    }
  return after;
}
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

/* A new empty block at the end of the function, in DEST's loop, for code
   of the slow copy on the way to DEST.  */
static basic_block
slow_block (basic_block dest, profile_count count)
{
  basic_block bb = create_empty_bb (EXIT_BLOCK_PTR_FOR_FN (cfun)->prev_bb);
  if (current_loops)
    add_bb_to_loop (bb, dest->loop_father);
  bb->count = count;
  return bb;
}

/* Counts PAD visits to no site at the end of BB, which has one successor:
   the slow copy's side of padding (see clone_and_wire), `countdown -= PAD',
   drawing new countdowns past those it runs out on, as none of them is
   observed.  */
static void
count_padding (basic_block bb, int pad, location_t loc)
{
  gimple_seq seq = NULL;
  tree ran_out = subtract (&seq, countdown_reference (), long_cst (pad), "le", loc);
  append_seq (bb, seq);
  basic_block after = block_on_edge (single_succ_edge (bb), bb->count);
  basic_block skip = slow_block (after, bb->count);
  append (skip, build_preserving_call (runtime_decls.skip, vNULL, NULL_TREE), loc);
  make_single_succ_edge (skip, after, EDGE_FALLTHRU);
  end_with_condition (bb, NE_EXPR, ran_out, boolean_false_node, skip, after,
		      loc);
}

/* The region scheme's view of the function being wired, or NULL.  */
static region_view *wiring_regions;

/* The way into the slow copy DEST_SLOW of DEST from a check block CHECK
   that has taken BUDGET (less any refund) from the thread's countdown and
   borrowed or left zero: `countdown += BUDGET', the countdown as it was
   before the check (with the refund of the check's edge); a countdown of
   zero there means that the thread has not started sampling, and the
   runtime starts it.  The edge into DEST_SLOW gets the PHI arguments of
   the edge CHECK -> DEST.

   At the function's entry, with ST's unsampled clone (see unsampled.cc):
   a countdown of zero in a run with sampling off, found before or after
   the start, goes to the clone instead, leaving the countdown at zero.

   With OUTLINED_FN, the entry region's slow copy out of line
   (outline-entry.cc): the way leads to `return OUTLINED_FN (the
   parameters)' instead of DEST_SLOW, with the countdown as it was at the
   function's entry.  */
static basic_block
build_slow_entry (basic_block check, basic_block dest, basic_block dest_slow,
		  int budget, location_t loc, function_state *dispatch,
		  tree outlined_fn)
{
  profile_count count = slow_count ();
  basic_block entry = slow_block (dest_slow, count);
  basic_block start = slow_block (dest_slow, count);
  basic_block join = slow_block (dest_slow, count);
  gimple_seq seq = NULL;
  tree taken = load (&seq, countdown_reference (), loc);
  tree before = make_ssa_name (long_integer_type_node);
  add_stmt (&seq, gimple_build_assign (before, PLUS_EXPR, taken,
				       long_cst (budget)), loc);
  add_stmt (&seq, gimple_build_assign (countdown_reference (), before), loc);
  append_seq (entry, seq);
  basic_block unstarted = start, to_clone = NULL;
  if (dispatch)
    {
      to_clone = slow_block (dest_slow, count);
      build_dispatch (to_clone, dispatch->dispatch_fn, loc);
      /* Off already?  */
      start = go_to_if_off (start, to_clone, loc);
    }
  else if (sampler_opts.unsampled)
    {
      /* No clone to go to: with sampling off, the countdown that takes
	 every check's fast path, until the function returns (see
	 zero_countdown_on_return); no call to start the thread.  */
      basic_block off = slow_block (dest_slow, count);
      append (off, gimple_build_assign (countdown_reference (),
					long_cst (SAMPLER_COUNTDOWN_OFF)),
	      loc);
      make_single_succ_edge (off, join, EDGE_FALLTHRU);
      start = go_to_if_off (start, off, loc);
    }
  tree first = make_ssa_name (long_integer_type_node);
  append (start, build_preserving_call (runtime_decls.thread_start, vNULL, first), loc);
  SSA_NAME_DEF_STMT (first) = last_stmt (start);
  /* Off since the start, which configured the process?  */
  if (dispatch)
    start = go_to_if_off (start, to_clone, loc);
  append (start, gimple_build_assign (countdown_reference (), first), loc);
  make_single_succ_edge (start, join, EDGE_FALLTHRU);
  make_single_succ_edge (entry, join, EDGE_FALLTHRU);
  end_with_condition (entry, EQ_EXPR, before, long_cst (0), unstarted, join,
		      loc);
  if (outlined_fn)
    {
      build_dispatch (join, outlined_fn, loc);
      return entry;
    }
  edge into = make_single_succ_edge (join, dest_slow, EDGE_FALLTHRU);
  copy_phi_args (find_edge (check, dest), into);
  if (wiring_regions)
    wiring_regions->slow_entries.safe_push ({ join, dest });
  return entry;
}

/* Makes the empty block CHECK, whose one successor is DEST, the check:
   `__sampler_countdown -= DECREMENT', and when that borrows or leaves zero
   (the countdown was at most DECREMENT: a site of the region ahead may be
   sampled) on to DEST_SLOW through a slow entry that adds BUDGET back.  A
   check whose refund is at least its weight cannot borrow: it just adds;
   unless it goes to an unsampled clone (DISPATCH), a check that weighs
   nothing is nothing.  */
static void
build_check (basic_block check, basic_block dest, basic_block dest_slow,
	     int budget, int decrement, location_t loc,
	     function_state *dispatch = NULL, tree outlined_fn = NULL_TREE)
{
  if (decrement < 0 || (decrement == 0 && !dispatch))
    {
      if (decrement < 0)
	append_add (check, countdown_reference (), -decrement, loc);
      return;
    }
  tree within = append_subtract (check, countdown_reference (), decrement, "be",
				 loc);
  basic_block entry = build_slow_entry (check, dest, dest_slow, budget, loc,
					dispatch, outlined_fn);
  end_with_condition (check, NE_EXPR, within, boolean_false_node, entry,
		      dest, loc);
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
   refund when it is above the pad limit, else padding.  Reads the weights
   of the original CFG, which it leaves as it is.  */
static void
find_refunds_and_pads (function_state *st, const vec<basic_block> &body,
		       hash_map<edge, int> &refunds, hash_map<edge, int> &pads)
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
	    refunds.put (e, refund);
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
	  build_check (check, w.dest, dest_slow, w.budget, w.budget, w.loc);
	}
      build_check (w.check, w.dest, dest_slow, w.budget,
		   w.budget - w.refund, w.loc, w.dispatch ? st : NULL,
		   w.outlined_fn);
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
   each an addition to the countdown in a block of its own on the edge.  */
static void
add_fast_refunds (hash_map<edge, int> &refunds, hash_set<edge> &in_checks)
{
  for (auto entry : refunds)
    if (!in_checks.contains (entry.first))
      {
	basic_block add = block_on_edge (entry.first, entry.first->count ());
	append_add (add, countdown_reference (), entry.second,
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
  find_refunds_and_pads (st, with_sites_ahead, refunds, pads);
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
  wiring_regions = st->regions;
  auto_vec<std::pair<edge, int> > slow_pads;
  find_slow_pads (body, copies, originals, wired, pads, slow_pads);
  wire_checks (st, wired, copies);
  wiring_regions = NULL;
  count_slow_pads (slow_pads);
  add_fast_refunds (refunds, in_checks);
  if (st->regions)
    plugin_schemes[st->regions->scheme]->region_slow_copy (st, *st->regions);
  for (gimple *stmt : slow_sites)
    make_slow_site (st, stmt);
}

/* The fallback for functions that cannot be cloned: every site counts
   itself off the thread's countdown.  A thread that has not started
   sampling counts off 0 and starts at its first visit (see runtime/sample.h),
   which may then be found not sampled: a check's marker, which says
   whether the check runs, starts the thread first.  */
void
guard_without_cloning (function_state *st)
{
  for (gimple *stmt : st->sites)
    {
      if (is_taken_marker (stmt))
	{
	  location_t loc = gimple_location (stmt);
	  gimple_seq seq = NULL;
	  tree countdown = load (&seq, countdown_reference (), loc);
	  gimple_stmt_iterator gsi = gsi_for_stmt (stmt);
	  gsi_insert_seq_before (&gsi, seq, GSI_SAME_STMT);
	  basic_block test = gimple_bb (stmt);
	  basic_block rest
	    = split_block (test, SSA_NAME_DEF_STMT (countdown))->dest;
	  basic_block start = slow_block (rest, slow_count ());
	  tree first = make_ssa_name (long_integer_type_node);
	  append (start, build_preserving_call (runtime_decls.thread_start, vNULL, first),
		  loc);
	  SSA_NAME_DEF_STMT (first) = last_stmt (start);
	  append (start, gimple_build_assign (countdown_reference (), first), loc);
	  make_single_succ_edge (start, rest, EDGE_FALLTHRU);
	  end_with_condition (test, EQ_EXPR, countdown, long_cst (0), start,
			      rest, loc);
	}
      make_slow_site (st, stmt);
    }
}

/* In a run with sampling off a thread's countdown stays zero, so that
   the instrumented functions go to their unsampled clones.  The current
   function has no clone to go to: in such a thread it starts the thread,
   whose countdown is then SAMPLER_COUNTDOWN_OFF (its checks take the fast
   path), and its returns give the countdown its zero back, so that the
   functions the thread calls later go to their clones again: one call to
   a function without a clone (one with variable arguments, say) would
   otherwise leave the rest of the thread's run instrumented.  */
void
zero_countdown_on_return (void)
{
  auto_vec<gimple *> returns;
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    if (gimple *last = last_stmt (bb))
      if (gimple_code (last) == GIMPLE_RETURN)
	returns.safe_push (last);
  for (gimple *ret : returns)
    {
      basic_block test = gimple_bb (ret);
      gimple_stmt_iterator gsi = gsi_for_stmt (ret);
      gsi_prev_nondebug (&gsi);
      edge e = gsi_end_p (gsi) ? split_block_after_labels (test)
	       : split_block (test, gsi_stmt (gsi));
      basic_block rest = e->dest;
      location_t loc = gimple_location (ret);
      basic_block reset = slow_block (rest, profile_count::zero ());
      append (reset, gimple_build_assign (countdown_reference (), long_cst (0)),
	      loc);
      make_single_succ_edge (reset, rest, EDGE_FALLTHRU);
      end_with_off_test (test, reset, loc);
    }
}
