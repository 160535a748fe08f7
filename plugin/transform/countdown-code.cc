/* sampler.so: the code that reads and writes the countdown: the checks,
   the sites of the slow copy, padding, and the per-site fallback.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).

   What.  build_check makes a check: it subtracts the check's weight from
   the countdown and, when that borrows or leaves zero, goes to the slow
   copy through a slow entry that gives the weight back (and starts the
   thread, or goes to the unsampled clone, where the countdown is zero).
   make_slow_site puts in a site marker's place `countdown -= visits; if
   (countdown <= 0) sample', count_padding counts visits to no site.  A
   function that cannot be cloned gets such a test at each site instead
   (guard_without_cloning).  The slow copy and the wiring that calls
   these are slow-copy.cc's.

   Why.  The countdown stays in memory: no register is kept for sampling
   (see "The countdown in memory" below).

   How to debug: with -fdump-tree-all, the dump file *.sampler-transform
   shows each function after the transformation.  */

#include "sampler-plugin.h"
#include "transform.h"
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
basic_block
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
void
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
void
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
profile_count
slow_count (void)
{
  return profile_count::zero ();
}

/* A new empty block at the end of the function, in DEST's loop, for code
   of the slow copy on the way to DEST.  */
basic_block
slow_block (basic_block dest, profile_count count)
{
  basic_block bb = create_empty_bb (EXIT_BLOCK_PTR_FOR_FN (cfun)->prev_bb);
  if (current_loops)
    add_bb_to_loop (bb, dest->loop_father);
  bb->count = count;
  return bb;
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
basic_block
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

/* Counts PAD visits to no site at the end of BB, which has one successor:
   the slow copy's side of padding (see clone_and_wire), `countdown -= PAD',
   drawing new countdowns past those it runs out on, as none of them is
   observed.  */
void
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

/* The way into the slow copy DEST_SLOW of DEST from a check block CHECK
   that has taken BUDGET (less any refund) from the thread's countdown and
   borrowed or left zero: `countdown += BUDGET', the countdown as it was
   before the check (with the refund of the check's edge); a countdown of
   zero there means that the thread has not started sampling, and the
   runtime starts it.  The edge into DEST_SLOW gets the PHI arguments of
   the edge CHECK -> DEST.

   At the function's entry, with DISPATCH_FN, the function's unsampled
   clone (see unsampled.cc): a countdown of zero in a run with sampling
   off, found before or after the start, goes to the clone instead,
   leaving the countdown at zero.

   With OUTLINED_FN, the entry region's slow copy out of line
   (outline-entry.cc): the way leads to `return OUTLINED_FN (the
   parameters)' instead of DEST_SLOW, with the countdown as it was at the
   function's entry.  Else the way is noted in REGIONS, the region
   scheme's view, if any.  */
static basic_block
build_slow_entry (basic_block check, basic_block dest, basic_block dest_slow,
		  int budget, location_t loc, region_view *regions,
		  tree dispatch_fn, tree outlined_fn)
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
  if (dispatch_fn)
    {
      to_clone = slow_block (dest_slow, count);
      build_dispatch (to_clone, dispatch_fn, loc);
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
  if (dispatch_fn)
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
  if (regions)
    regions->slow_entries.safe_push ({ join, dest });
  return entry;
}

/* Makes the empty block CHECK, whose one successor is DEST, the check:
   `__sampler_countdown -= DECREMENT', and when that borrows or leaves zero
   (the countdown was at most DECREMENT: a site of the region ahead may be
   sampled) on to DEST_SLOW through a slow entry that adds BUDGET back.  A
   check whose refund is at least its weight cannot borrow: it just adds;
   unless it goes to an unsampled clone (DISPATCH_FN), a check that weighs
   nothing is nothing.  REGIONS, DISPATCH_FN and OUTLINED_FN: see
   build_slow_entry.  */
void
build_check (basic_block check, basic_block dest, basic_block dest_slow,
	     int budget, int decrement, location_t loc, region_view *regions,
	     tree dispatch_fn, tree outlined_fn)
{
  if (decrement < 0 || (decrement == 0 && !dispatch_fn))
    {
      if (decrement < 0)
	append_add (check, countdown_reference (), -decrement, loc);
      return;
    }
  tree within = append_subtract (check, countdown_reference (), decrement, "be",
				 loc);
  basic_block entry = build_slow_entry (check, dest, dest_slow, budget, loc,
					regions, dispatch_fn, outlined_fn);
  end_with_condition (check, NE_EXPR, within, boolean_false_node, entry,
		      dest, loc);
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
