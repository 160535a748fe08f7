/* sampler.so: the sampling transformation of seed 000 on GIMPLE.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).

   Two passes.  The first, before GCC's optimisers, finds the sites (site
   markers, see sites.cc) and which functions of the unit are weightless.
   The second runs after the optimisers, on each function in SSA form, so
   that the fast copy is the code GCC optimised as if the program had no
   sites; for every function with markers:
     - threshold checks sit at function entry, after calls to weighty
       functions and on enough DFS back edges that every cycle holding a
       site crosses a check; a check's weight is the largest number of
       sites on a path from it to the next checks;
     - the blocks from which a site is reachable before the next checks
       are copied: the original blocks without their markers are the fast
       copy, the copies observe each site when the countdown runs out there
       (the slow copy) and return to the fast copy after their region's
       last site;
     - each check takes its region's weight from the thread's countdown
       at once, in memory (no register is kept for it, nothing is saved
       around calls), and goes to the slow copy only when that borrows or
       leaves zero.
   Functions whose CFG cannot be copied safely (setjmp, non-local gotos,
   EH edges, asm goto) get a test of the countdown at each site instead.  */

#include "sampler-plugin.h"

#include <string.h>

#include "context.h"
#include "tree-pass.h"
#include "function.h"
#include "basic-block.h"
#include "cfg.h"
#include "cfghooks.h"
#include "cfganal.h"
#include "cfgloop.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "gimple-predict.h"
#include "tree-cfg.h"
#include "cgraph.h"
#include "diagnostic-core.h"
#include "stringpool.h"
#include "attribs.h"
#include "gimple-pretty-print.h"
#include "predict.h"
#include "hash-set.h"
#include "ssa.h"
#include "tree-ssa.h"
#include "tree-into-ssa.h"
#include "tree-ssa-dce.h"
#include "tree-phinodes.h"
#include "bitmap.h"
#include "gimplify.h"
#include "ggc.h"

#include "../runtime/sampler-abi.h"

/* Runtime symbols, declared once per unit: the thread's countdown (see
   sampler-abi.h).  */
static tree countdown_state;
static tree thread_start_fn;
static tree skip_fn;
static tree sampling_off;

/* They live in GCC's garbage-collected memory, which collects between the
   functions the second pass transforms.  */
const struct ggc_root_tab transform_gc_roots[] = {
  { &countdown_state, 1, sizeof (tree), &gt_ggc_mx_tree_node,
    &gt_pch_nx_tree_node },
  { &thread_start_fn, 1, sizeof (tree), &gt_ggc_mx_tree_node,
    &gt_pch_nx_tree_node },
  { &skip_fn, 1, sizeof (tree), &gt_ggc_mx_tree_node, &gt_pch_nx_tree_node },
  { &sampling_off, 1, sizeof (tree), &gt_ggc_mx_tree_node,
    &gt_pch_nx_tree_node },
  LAST_GGC_ROOT_TAB
};

/* A runtime function of no arguments: `long NAME (void)', returning a
   countdown, or `void NAME (void)', setting the thread's, with
   SETS_COUNTDOWN.  */
static tree
runtime_function (const char *name, bool sets_countdown = false)
{
  tree type = build_function_type_list (sets_countdown
					? void_type_node
					: long_integer_type_node, NULL_TREE);
  tree decl = build_fn_decl (name, type);
  TREE_PUBLIC (decl) = 1;
  DECL_EXTERNAL (decl) = 1;
  DECL_ARTIFICIAL (decl) = 1;
  TREE_NOTHROW (decl) = 1;
  /* Leaf: never calls back into this unit nor longjmps, so the calls need
     no abnormal edges in setjmp-calling functions.  */
  DECL_ATTRIBUTES (decl)
    = tree_cons (get_identifier ("leaf"), NULL_TREE, DECL_ATTRIBUTES (decl));
  return decl;
}

/* The thread's countdown, __sampler_countdown, zero at a thread's start.

   Code for a shared library reaches it as the runtime defines it,
   initial-exec: the address of its slot, relative to the thread pointer,
   is loaded from the GOT once per function, and the checks subtract from
   %fs:(reg).  Code for an executable uses local-exec, %fs:NAME@tpoff, with
   no load and no register: that register was held in every instrumented
   function, whose slow copies need many (bzip2, static builds, at
   sparsity 0: 1.277 -> 1.249 of plain's instructions).  Local-exec needs the variable in the executable, so each unit
   for one defines it, weak: the units share one definition, a static
   libsampler's strong one replaces it, and a libsampler.so that defines
   it too is bound to the executable's, which the linker exports because
   the library defines the symbol.  */
static tree
countdown_variable (void)
{
  tree decl = plugin_variable ("__sampler_countdown", long_integer_type_node);
  TREE_PUBLIC (decl) = 1;
  if (flag_shlib)
    {
      DECL_EXTERNAL (decl) = 1;
      set_decl_tls_model (decl, TLS_MODEL_INITIAL_EXEC);
      return decl;
    }
  DECL_WEAK (decl) = 1;
  /* Whatever -fvisibility says: the runtime must find it.  */
  DECL_VISIBILITY (decl) = VISIBILITY_DEFAULT;
  DECL_VISIBILITY_SPECIFIED (decl) = 1;
  /* Referenced only from code the pass builds after symbol removal.  */
  DECL_PRESERVE_P (decl) = 1;
  set_decl_tls_model (decl, TLS_MODEL_LOCAL_EXEC);
  define_variable (decl);
  return decl;
}

static void
declare_runtime (void)
{
  if (countdown_state)
    return;
  countdown_state = countdown_variable ();
  thread_start_fn = runtime_function ("__sampler_thread_start_preserving");
  skip_fn = runtime_function ("__sampler_skip", true);
  sampling_off = build_decl (BUILTINS_LOCATION, VAR_DECL,
			     get_identifier ("__sampler_off"),
			     integer_type_node);
  TREE_PUBLIC (sampling_off) = 1;
  DECL_EXTERNAL (sampling_off) = 1;
  DECL_ARTIFICIAL (sampling_off) = 1;
}

/* The countdown, for a statement of its own (GIMPLE does not share
   references).  */
static tree
countdown_ref ()
{
  return unshare_expr (countdown_state);
}

tree
countdown_reference (void)
{
  declare_runtime ();
  return countdown_ref ();
}

/* ---------------------------------------------------------------------
   Classifying calls and the weightless fixpoint.  */

/* Is NAME in the user's comma-separated weightless= list?  */
static bool
user_asserts_weightless (tree fndecl)
{
  const char *list = sampler_opts.weightless_names;
  if (!list || !DECL_NAME (fndecl))
    return false;
  const char *name = IDENTIFIER_POINTER (DECL_NAME (fndecl));
  size_t len = strlen (name);
  for (const char *p = list; *p;)
    {
      const char *end = strchr (p, ',');
      size_t item = end ? (size_t) (end - p) : strlen (p);
      if (item == len && strncmp (p, name, len) == 0)
	return true;
      if (!end)
	break;
      p = end + 1;
    }
  return false;
}

/* Does CALL hand a function to its callee, which may call it back?  */
static bool
passes_function_pointer (gcall *call)
{
  for (unsigned i = 0; i < gimple_call_num_args (call); i++)
    {
      tree type = TREE_TYPE (gimple_call_arg (call, i));
      if (POINTER_TYPE_P (type) && FUNC_OR_METHOD_TYPE_P (TREE_TYPE (type)))
	return true;
    }
  return false;
}

/* The longjmp family: they leave the caller for a setjmp receiver, which
   must see the countdown the region has used.  */
static bool
longjmp_like (tree fndecl)
{
  static const char *const names[]
    = { "longjmp", "_longjmp", "siglongjmp", "__longjmp_chk",
	"__builtin_longjmp" };
  if (!DECL_NAME (fndecl))
    return false;
  const char *name = IDENTIFIER_POINTER (DECL_NAME (fndecl));
  for (const char *known : names)
    if (strcmp (name, known) == 0)
      return true;
  return false;
}

/* Functions of the unit as the first pass found them, by DECL_UID: true
   for those that have sites or may reach one (weighty).  */
static hash_map<int_hash<int, -1, -2>, bool> *unit_functions;

/* The function of this unit a call to FNDECL reaches, if any.  */
static cgraph_node *
local_definition (tree fndecl)
{
  cgraph_node *node = cgraph_node::get (fndecl);
  if (!node)
    return NULL;
  node = node->ultimate_alias_target ();
  if (!node || !node->definition)
    return NULL;
  return node;
}

/* Whether the unit's function NODE is weighty, as the first pass found it
   or the function it was cloned from (IPA clones keep their original's
   sites); a function the first pass did not see is taken to be.  */
static bool
local_function_weighty (cgraph_node *node)
{
  tree decls[] = { node->decl, node->former_clone_of };
  for (tree decl : decls)
    if (decl)
      if (bool *weighty = unit_functions->get (DECL_UID (decl)))
	return *weighty;
  return true;
}

/* Whether the call STMT may use the countdown: a call to an unknown
   function, to a weighty one of the unit, or one that may call back into
   the program.  The first pass asks before the weightless fixpoint, with
   LOCAL_CALLEE set: a call to a function of the unit is then answered by
   *LOCAL_CALLEE.  */
static bool
call_is_weighty (gimple *stmt, cgraph_node **local_callee = NULL)
{
  gcall *call = as_a <gcall *> (stmt);
  if (gimple_call_internal_p (call))
    return false;
  tree fndecl = gimple_call_fndecl (call);
  if (!fndecl)
    return true;
  /* A second return from setjmp, or a longjmp to it, moves the countdown
     between functions behind the calls' backs.  */
  if ((gimple_call_flags (call) & ECF_RETURNS_TWICE) || longjmp_like (fndecl))
    return true;
  if (sampled_attribute_form (fndecl) == SAMPLED_WEIGHTLESS
      || user_asserts_weightless (fndecl))
    return false;
  if (cgraph_node *node = local_definition (fndecl))
    {
      if (local_callee)
	{
	  *local_callee = node;
	  return false;
	}
      return local_function_weighty (node);
    }
  /* Library code never touches the countdown, unless it calls back into
     ours (qsort, bsearch, pthread_once...).  */
  if (fndecl_built_in_p (fndecl) || DECL_IN_SYSTEM_HEADER (fndecl))
    return passes_function_pointer (call);
  return true;
}

bool
call_may_use_countdown (gimple *call)
{
  return call_is_weighty (call);
}

/* Seed 000's fixpoint: a function is weightless when it has no sites and
   calls only weightless functions.  Computed as the set of functions that
   reach a site or an unknown callee, by propagating backwards over the
   unit's call edges: linear in the size of the unit.  */
static void
find_weighty_functions (void)
{
  if (!unit_functions)
    unit_functions = new hash_map<int_hash<int, -1, -2>, bool>;
  hash_map<tree, vec<tree> > callers;
  auto_vec<tree> worklist;
  cgraph_node *node;
  FOR_EACH_FUNCTION_WITH_GIMPLE_BODY (node)
    {
      function *fn = DECL_STRUCT_FUNCTION (node->decl);
      if (!fn || !fn->cfg)
	continue;
      bool weighty = false;
      basic_block bb;
      FOR_EACH_BB_FN (bb, fn)
	for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	     gsi_next (&gsi))
	  {
	    gimple *stmt = gsi_stmt (gsi);
	    if (is_site_marker (stmt))
	      weighty = true;
	    if (!is_gimple_call (stmt))
	      continue;
	    cgraph_node *callee = NULL;
	    if (call_is_weighty (stmt, &callee))
	      weighty = true;
	    else if (callee)
	      callers.get_or_insert (callee->decl).safe_push (node->decl);
	  }
      unit_functions->put (DECL_UID (node->decl), weighty);
      if (weighty)
	worklist.safe_push (node->decl);
    }
  while (!worklist.is_empty ())
    {
      tree callee = worklist.pop ();
      vec<tree> *list = callers.get (callee);
      if (!list)
	continue;
      for (tree caller : *list)
	{
	  bool &weighty = unit_functions->get_or_insert (DECL_UID (caller));
	  if (!weighty)
	    {
	      weighty = true;
	      worklist.safe_push (caller);
	    }
	}
    }
  for (auto entry : callers)
    entry.second.release ();
}

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
   The per-function transformation.  */

enum check_kind
{
  CHECK_ENTRY,
  CHECK_AFTER_CALL,
  CHECK_AFTER_VERSIONED,	/* After a versioned loop took its visits.  */
  CHECK_LOOP_HEAD,		/* At the head of a natural loop.  */
  CHECK_BACK_EDGE,		/* On a cycle that is not a natural loop.  */
  CHECK_LONG_PATH,		/* Bounds the weight of long regions.  */
  CHECK_LOOP_EXIT,		/* Starts a region after a loop.  */
  CHECK_GOTO_TARGET		/* Where a computed goto may land.  */
};

static const char *const check_kind_names[]
  = { "entry", "after-call", "after-versioned-loop", "loop-head",
      "back-edge", "long-path", "loop-exit", "goto-target" };

struct check_point
{
  edge fast_edge;		/* Where the check goes in the original body.  */
  enum check_kind kind;
  location_t loc;
  int weight;
};

/* Everything the transformation of one function works with.  */
struct function_state
{
  auto_vec<gimple *> sites;	/* The markers.  */
  tree values;			/* See values_array, or NULL.  */
  unsigned n_sites;		/* The sites they stand for.  */
  auto_vec<check_point> checks;
  auto_vec<int> sites_in_block;	/* By block index.  */
  /* By block index: the longest site count from the block's start to the
     end of its region.  */
  auto_vec<int> block_weight;
  hash_set<edge> cut;		/* Edges that carry a check.  */
  const char *fallback_reason;	/* Why not cloned, or NULL.  */
  /* The unsampled clone the entry check's slow entry goes to when sampling
     is off (see unsampled.cc), or NULL.  */
  tree dispatch_fn;
};

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
	  if (e->flags & EDGE_EH)
	    return "has exception-handling edges";
	}
      if (last && gimple_code (last) == GIMPLE_ASM
	  && gimple_asm_nlabels (as_a <gasm *> (last)) > 0)
	return "uses asm goto";
      if (!can_duplicate_block_p (bb))
	return "has a block GCC cannot duplicate";
    }
  return NULL;
}

/* Whether control may leave the function at STMT, or go where the
   countdown matters, without coming back to the code after it: a return,
   or a call that does not return (exit runs destructors, which may be
   instrumented).  Internal calls are GCC's own control flow.  */
static bool
leaves_function (gimple *stmt)
{
  if (gimple_code (stmt) == GIMPLE_RETURN)
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
  return lhs == countdown_state;
}

/* Puts each statement that ends a region (a weighty call, a write of the
   countdown, a return, a call that does not return, a computed goto) at
   the start of a block of its own, and ends the block after a weighty
   call or a write: such a block has no site, so it has no slow copy, and
   the slow copy ends its region on the way into it (see clone_and_wire).
   A callee inlined later appears once, not once per copy.  Records the
   checks at entry and after the weighty calls and writes.

   A versioned loop's copy without sites takes its visits from the
   countdown where it writes it.  Its region must end there: a region
   running on past it would have taken the visits of the sites after
   the loop from the countdown before the loop's (they were never sampled
   at sparsity 1000 in a loop of 20 iterations).  */
static void
isolate_region_ends (function_state *st)
{
  auto_vec<gimple *> ends, calls;
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      {
	gimple *stmt = gsi_stmt (gsi);
	if ((is_gimple_call (stmt) && call_is_weighty (stmt))
	    || writes_countdown (stmt))
	  calls.safe_push (stmt);
	else if (leaves_function (stmt) || computed_goto_p (stmt))
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
	  /* Cloned functions have no EH or abnormal edges: a call ends its
	     block only when it does not return.  */
	  if (EDGE_COUNT (call_bb->succs) == 0)
	    continue;
	  after = single_succ_edge (call_bb);
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

/* Tarjan's strongly connected components of the CFG without the CUT edges,
   iteratively.  COMP gets each block's component; components are numbered
   in the order they complete, so every edge between components goes from a
   higher number to a lower one.  Returns the number of components.  */
static int
strongly_connected_components (hash_set<edge> &cut, vec<int> &comp)
{
  int n = last_basic_block_for_fn (cfun);
  auto_vec<int> index (n), low (n);
  auto_vec<char> on_stack (n);
  index.quick_grow_cleared (n);
  low.quick_grow_cleared (n);
  on_stack.quick_grow_cleared (n);
  comp.truncate (0);
  comp.safe_grow (n);
  for (int i = 0; i < n; i++)
    comp[i] = -1, index[i] = 0;

  auto_vec<basic_block> stack;
  /* The DFS path: each block with the number of its next edge to visit.  */
  struct dfs_frame
  {
    basic_block bb;
    unsigned next;
  };
  auto_vec<dfs_frame> path;
  int counter = 0, ncomp = 0;
  basic_block root;
  FOR_ALL_BB_FN (root, cfun)
    {
      if (index[root->index])
	continue;
      path.safe_push ({ root, 0u });
      index[root->index] = low[root->index] = ++counter;
      stack.safe_push (root);
      on_stack[root->index] = 1;
      while (!path.is_empty ())
	{
	  basic_block bb = path.last ().bb;
	  unsigned &next = path.last ().next;
	  if (next < EDGE_COUNT (bb->succs))
	    {
	      edge e = EDGE_SUCC (bb, next++);
	      if (cut.contains (e))
		continue;
	      basic_block dest = e->dest;
	      if (!index[dest->index])
		{
		  index[dest->index] = low[dest->index] = ++counter;
		  stack.safe_push (dest);
		  on_stack[dest->index] = 1;
		  path.safe_push ({ dest, 0u });
		}
	      else if (on_stack[dest->index])
		low[bb->index] = MIN (low[bb->index], index[dest->index]);
	      continue;
	    }
	  path.pop ();
	  if (!path.is_empty ())
	    {
	      basic_block parent = path.last ().bb;
	      low[parent->index] = MIN (low[parent->index], low[bb->index]);
	    }
	  if (low[bb->index] == index[bb->index])
	    {
	      basic_block member;
	      do
		{
		  member = stack.pop ();
		  on_stack[member->index] = 0;
		  comp[member->index] = ncomp;
		}
	      while (member != bb);
	      ncomp++;
	    }
	}
    }
  return ncomp;
}

/* A component: its sites, blocks and whether it holds a cycle.  */
struct component_info
{
  int sites;
  int size;
  bool cyclic;
};

/* The components of the CFG without the cut edges (see
   strongly_connected_components), each block's in COMP.  */
static int
find_components (function_state *st, vec<int> &comp,
		 vec<component_info> &info)
{
  int ncomp = strongly_connected_components (st->cut, comp);
  info.truncate (0);
  info.safe_grow_cleared (ncomp);
  basic_block bb;
  FOR_ALL_BB_FN (bb, cfun)
    {
      component_info &c = info[comp[bb->index]];
      c.sites += st->sites_in_block[bb->index];
      if (++c.size > 1)
	c.cyclic = true;
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->succs)
	if (e->dest == bb && !st->cut.contains (e))
	  c.cyclic = true;
    }
  return ncomp;
}

static void
count_sites_in_blocks (function_state *st)
{
  st->sites_in_block.truncate (0);
  st->sites_in_block.safe_grow_cleared (last_basic_block_for_fn (cfun));
  for (gimple *stmt : st->sites)
    st->sites_in_block[gimple_bb (stmt)->index] += site_count (stmt);
}

static location_t
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
static void
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

/* The components of the CFG without the cut edges (see find_components),
   with their blocks sorted by component (counting sort): component C's
   are SORTED[FIRST[C]] to SORTED[FIRST[C + 1] - 1].  */
struct component_graph
{
  auto_vec<int> comp;
  auto_vec<component_info> info;
  int count;
  auto_vec<int> first;
  auto_vec<basic_block> sorted;

  component_graph (function_state *st)
  {
    count = find_components (st, comp, info);
    first.safe_grow_cleared (count + 1);
    basic_block bb;
    FOR_ALL_BB_FN (bb, cfun)
      first[comp[bb->index] + 1]++;
    for (int c = 0; c < count; c++)
      first[c + 1] += first[c];
    sorted.safe_grow_cleared (first[count]);
    auto_vec<int> fill;
    fill.safe_splice (first);
    FOR_ALL_BB_FN (bb, cfun)
      sorted[fill[comp[bb->index]]++] = bb;
  }
};

/* A check of KIND on the edge E, which becomes a cut edge.  */
static void
add_check (function_state *st, edge e, enum check_kind kind, location_t loc)
{
  check_point cp = { e, kind, loc, 0 };
  st->checks.safe_push (cp);
  st->cut.add (e);
}

/* Splits blocks holding more sites than the region limit into pieces
   that do not, with a check between pieces.  */
static void
split_heavy_blocks (function_state *st)
{
  int limit = sampler_opts.region_limit;
  auto_vec<gimple *> split_before;
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    {
      if (st->sites_in_block[bb->index] <= limit)
	continue;
      int count = 0;
      for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	   gsi_next (&gsi))
	if (is_site_marker (gsi_stmt (gsi)))
	  {
	    int k = site_count (gsi_stmt (gsi));
	    if (count > 0 && count + k > limit)
	      {
		split_before.safe_push (gsi_stmt (gsi));
		count = 0;
	      }
	    count += k;
	  }
    }
  for (gimple *stmt : split_before)
    {
      gimple_stmt_iterator gsi = gsi_for_stmt (stmt);
      gsi_prev (&gsi);
      edge e = split_block (gimple_bb (stmt), gsi_stmt (gsi));
      add_check (st, e, CHECK_LONG_PATH, gimple_location (stmt));
    }
  if (!split_before.is_empty ())
    count_sites_in_blocks (st);
}

/* The loop checks.  A natural loop's check sits at its head: on the edge
   from its header block (which keeps only the PHI nodes and labels) to
   the rest of it, which every iteration and every way into the loop
   crosses.  So the header never has a slow copy: every way into the loop,
   from the slow copy as from the fast one, goes through the header and
   its check, and the slow copy of an iteration is entered only from
   inside the loop.  The loops stay natural loops, as GCC's loop passes
   and register allocator need.  With the check on the back edge, as seed
   000 places it, the slow copy of the code before a loop would run on
   into the slow copy of the loop's first iteration: a second way into the
   loop's cycle, which makes it irreducible, no longer a loop for GCC
   (bzip2's mainSort lost all but 3 of its loops, and kept their values on
   the stack).  A cycle that is not a natural loop keeps a check on its
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
  bool site = st->sites_in_block[e->dest->index] > 0;
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
	  bool through_site = at.second || st->sites_in_block[dest->index] > 0;
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

/* Components in topological order: every edge between components goes
   from a higher number to a lower one, so from the last to the first.  For
   each component, the longest site count from the start of a region to
   its own start; where that and its own sites exceed the region limit, a
   check at the top of its (single) block starts a new region.  Bounds the
   weight of every region, so that the countdown is rarely within reach of
   a check's weight (the slow copy runs about weight / sparsity of the
   time), at the cost of a check on long paths.  */
static void
limit_region_weights (function_state *st)
{
  int limit = sampler_opts.region_limit;
  component_graph g (st);
  auto_vec<int> reach;
  reach.safe_grow_cleared (g.count);
  auto_vec<basic_block> leaders;	/* Blocks that get a check on top.  */
  for (int c = g.count - 1; c >= 0; c--)
    {
      basic_block only = g.sorted[g.first[c]];
      if (reach[c] > 0 && reach[c] + g.info[c].sites > limit
	  && !g.info[c].cyclic && only != EXIT_BLOCK_PTR_FOR_FN (cfun))
	{
	  leaders.safe_push (only);
	  reach[c] = 0;
	}
      int out = reach[c] + g.info[c].sites;
      for (int i = g.first[c]; i < g.first[c + 1]; i++)
	{
	  edge e;
	  edge_iterator ei;
	  FOR_EACH_EDGE (e, ei, g.sorted[i]->succs)
	    {
	      int d = g.comp[e->dest->index];
	      if (!st->cut.contains (e) && d != c)
		reach[d] = MAX (reach[d], out);
	    }
	}
    }
  for (basic_block bb : leaders)
    {
      edge e = split_block_after_labels (bb);
      add_check (st, e, CHECK_LONG_PATH, first_location (e->dest));
    }
  if (!leaders.is_empty ())
    count_sites_in_blocks (st);
}

/* Gives every check its weight, the longest site count from it to the
   next checks (site-free cycles count zero), and every block the longest
   site count from its start to the end of its region.  */
static void
weigh (function_state *st)
{
  component_graph g (st);
  basic_block bb;

  /* In completion order: every successor component is finished first.  */
  auto_vec<int> weight;
  weight.safe_grow_cleared (g.count);
  for (int c = 0; c < g.count; c++)
    {
      /* The chosen checks cut every cycle through a site.  */
      gcc_assert (!g.info[c].cyclic || g.info[c].sites == 0);
      int longest = 0;
      for (int i = g.first[c]; i < g.first[c + 1]; i++)
	{
	  edge e;
	  edge_iterator ei;
	  FOR_EACH_EDGE (e, ei, g.sorted[i]->succs)
	    if (!st->cut.contains (e) && g.comp[e->dest->index] != c)
	      longest = MAX (longest, weight[g.comp[e->dest->index]]);
	}
      weight[c] = g.info[c].sites + longest;
    }
  for (check_point &cp : st->checks)
    cp.weight = weight[g.comp[cp.fast_edge->dest->index]];
  st->block_weight.truncate (0);
  st->block_weight.safe_grow_cleared (last_basic_block_for_fn (cfun));
  FOR_ALL_BB_FN (bb, cfun)
    st->block_weight[bb->index] = weight[g.comp[bb->index]];
}

/* Places the checks and weighs them: entry and after-call checks are
   there already; back-edge checks cut every cycle through a site; more
   checks keep regions within the region limit.  */
static void
place_checks_and_weigh (function_state *st)
{
  for (check_point &cp : st->checks)
    st->cut.add (cp.fast_edge);
  count_sites_in_blocks (st);
  if (sampler_opts.region_limit)
    split_heavy_blocks (st);
  calculate_dominance_info (CDI_DOMINATORS);
  place_loop_checks (st);
  place_loop_exit_checks (st);
  free_dominance_info (CDI_DOMINATORS);
  if (sampler_opts.region_limit)
    limit_region_weights (st);
  weigh (st);
}


/* ---------------------------------------------------------------------
   Sites in the copies.  */

/* How often the slow copy runs, for the profile the register allocator,
   block layout and the other RTL passes go by: never, as far as they can
   tell, so that GCC puts it in .text.unlikely, out of the fast copy's way,
   and weighs none of its costs against the fast copy's (bzip2, branches,
   returns and scalar-pairs at sparsity 0: 1.4% fewer instructions than
   with a count of 1/1024 of the fast copy's).  */
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
  append (bb, gimple_build_assign (flag, unshare_expr (sampling_off)), loc);
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
   STMT, standing for K sites, by
   `countdown -= K; if (countdown <= 0) SAMPLE (...)', where SAMPLE is
   the runtime function that observes the sampled visits and sets the next
   countdown (see sampler-abi.h).  A check's marker says
   whether the check call runs: when sampled.  Returns the block after the
   site.  */
static basic_block
make_slow_site (function_state *st, gimple *stmt)
{
  location_t loc = gimple_location (stmt);
  unsigned k = site_count (stmt);
  gimple_seq seq = NULL;
  tree ran_out = subtract (&seq, countdown_ref (), long_cst (k), "le", loc);
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
     sampled, and the countdown stays zero (lua runs its whole program
     inside the setjmp of luaD_rawrunprotected, whose first visit would
     otherwise have started the thread, and every function called from
     there would have run instrumented).  */
  edge not_run = NULL;
  if (st->fallback_reason && sampler_opts.unsampled)
    {
      basic_block check_off = split_edge (find_edge (test, site));
      basic_block reset = slow_block (after, slow_count ());
      append (reset, gimple_build_assign (countdown_ref (), long_cst (0)),
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
  tree ran_out = subtract (&seq, countdown_ref (), long_cst (pad), "le", loc);
  append_seq (bb, seq);
  basic_block after = block_on_edge (single_succ_edge (bb), bb->count);
  basic_block skip = slow_block (after, bb->count);
  append (skip, build_preserving_call (skip_fn, vNULL, NULL_TREE), loc);
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

   At the function's entry, with ST's unsampled clone (see unsampled.cc):
   a countdown of zero in a run with sampling off, found before or after
   the start, goes to the clone instead, leaving the countdown at zero.  */
static basic_block
build_slow_entry (basic_block check, basic_block dest, basic_block dest_slow,
		  int budget, location_t loc, function_state *dispatch)
{
  profile_count count = slow_count ();
  basic_block entry = slow_block (dest_slow, count);
  basic_block start = slow_block (dest_slow, count);
  basic_block join = slow_block (dest_slow, count);
  gimple_seq seq = NULL;
  tree taken = load (&seq, countdown_ref (), loc);
  tree before = make_ssa_name (long_integer_type_node);
  add_stmt (&seq, gimple_build_assign (before, PLUS_EXPR, taken,
				       long_cst (budget)), loc);
  add_stmt (&seq, gimple_build_assign (countdown_ref (), before), loc);
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
      append (off, gimple_build_assign (countdown_ref (),
					long_cst (SAMPLER_COUNTDOWN_OFF)),
	      loc);
      make_single_succ_edge (off, join, EDGE_FALLTHRU);
      start = go_to_if_off (start, off, loc);
    }
  tree first = make_ssa_name (long_integer_type_node);
  append (start, build_preserving_call (thread_start_fn, vNULL, first), loc);
  SSA_NAME_DEF_STMT (first) = last_stmt (start);
  /* Off since the start, which configured the process?  */
  if (dispatch)
    start = go_to_if_off (start, to_clone, loc);
  append (start, gimple_build_assign (countdown_ref (), first), loc);
  make_single_succ_edge (start, join, EDGE_FALLTHRU);
  make_single_succ_edge (entry, join, EDGE_FALLTHRU);
  end_with_condition (entry, EQ_EXPR, before, long_cst (0), unstarted, join,
		      loc);
  edge into = make_single_succ_edge (join, dest_slow, EDGE_FALLTHRU);
  copy_phi_args (find_edge (check, dest), into);
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
	     function_state *dispatch = NULL)
{
  if (decrement < 0 || (decrement == 0 && !dispatch))
    {
      if (decrement < 0)
	append_add (check, countdown_ref (), -decrement, loc);
      return;
    }
  tree within = append_subtract (check, countdown_ref (), decrement, "be",
				 loc);
  basic_block entry = build_slow_entry (check, dest, dest_slow, budget, loc,
					dispatch);
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
};

/* Clones the body into fast (the original blocks) and slow copies and wires
   the checks.

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
static void
clone_and_wire (function_state *st)
{
  hash_set<basic_block> ahead;
  blocks_with_sites_ahead (st, ahead);
  auto_vec<basic_block> body;
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    if (ahead.contains (bb))
      body.safe_push (bb);

  /* What each edge out of the body gives back or pads, from the original
     CFG.  */
  hash_map<edge, int> refunds, pads;
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

  /* The fast checks' blocks, before the copying, so that the copies of
     their sources lead to them too.  A check that weighs nothing is no
     more than its edge's refund.  */
  auto_vec<wired_check> wired;
  hash_set<edge> in_checks;
  for (const check_point &cp : st->checks)
    {
      /* The entry check of a function with an unsampled clone is the way
	 to it: it stays, weighing nothing if it must.  */
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
      wired.safe_push (w);
    }

  copy_map copies;
  copy_blocks (body, copies);
  copy_map originals;
  for (basic_block original : body)
    originals.put (*copies.get (original), original);
  auto_vec<gimple *> fast_sites, slow_sites;
  for (basic_block original : body)
    {
      basic_block copy = *copies.get (original);
      for (gimple_stmt_iterator gsi = gsi_start_bb (copy); !gsi_end_p (gsi);
	   gsi_next (&gsi))
	if (is_site_marker (gsi_stmt (gsi)))
	  slow_sites.safe_push (gsi_stmt (gsi));
    }

  /* The slow copy's edges that pad, before anything else splits the
     copies' edges (those to checks: below).  */
  auto_vec<std::pair<edge, int> > slow_pads;
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

  /* The checks, fast and slow.  */
  for (const wired_check &w : wired)
    {
      basic_block *slow = copies.get (w.dest);
      /* Only an entry check that weighs nothing has no slow copy ahead:
	 after the start it goes on in the fast copy.  */
      gcc_assert (slow || (w.dispatch && w.budget == 0));
      basic_block dest_slow = slow ? *slow : w.dest;
      /* The slow copy's way to the check first: its edge to the fast
	 check block gets the edge's padding and a check of its own, which
	 takes the whole budget (the slow copy made no visit it would give
	 back).  */
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
		   w.budget - w.refund, w.loc, w.dispatch ? st : NULL);
    }

  for (auto item : slow_pads)
    {
      basic_block end = block_on_edge (item.first, item.first->src->count);
      count_padding (end, item.second, UNKNOWN_LOCATION);
    }
  /* The fast copy's refunds, on its edges that are not checks.  */
  for (auto entry : refunds)
    if (!in_checks.contains (entry.first))
      {
	basic_block add = block_on_edge (entry.first, entry.first->count ());
	append_add (add, countdown_ref (), entry.second, UNKNOWN_LOCATION);
      }

  for (gimple *stmt : slow_sites)
    make_slow_site (st, stmt);
}

/* The fallback for functions that cannot be cloned: every site counts
   itself off the thread's countdown.  A thread that has not started
   sampling counts off 0 and starts at its first visit (see sample.c),
   which may then be found not sampled: a check's marker, which says
   whether the check runs, starts the thread first.  */
static void
guard_without_cloning (function_state *st)
{
  for (gimple *stmt : st->sites)
    {
      if (is_taken_marker (stmt))
	{
	  location_t loc = gimple_location (stmt);
	  gimple_seq seq = NULL;
	  tree countdown = load (&seq, countdown_ref (), loc);
	  gimple_stmt_iterator gsi = gsi_for_stmt (stmt);
	  gsi_insert_seq_before (&gsi, seq, GSI_SAME_STMT);
	  basic_block test = gimple_bb (stmt);
	  basic_block rest
	    = split_block (test, SSA_NAME_DEF_STMT (countdown))->dest;
	  basic_block start = slow_block (rest, slow_count ());
	  tree first = make_ssa_name (long_integer_type_node);
	  append (start, build_preserving_call (thread_start_fn, vNULL, first),
		  loc);
	  SSA_NAME_DEF_STMT (first) = last_stmt (start);
	  append (start, gimple_build_assign (countdown_ref (), first), loc);
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
   functions the thread calls later go to their clones again (lua calls
   luaL_error-like functions with variable arguments; once one ran, the
   whole run stayed instrumented).  */
static void
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
      append (reset, gimple_build_assign (countdown_ref (), long_cst (0)),
	      loc);
      make_single_succ_edge (reset, rest, EDGE_FALLTHRU);
      end_with_off_test (test, reset, loc);
    }
}

/* ---------------------------------------------------------------------
   The dump, the function's transformation and the passes.  */

/* Writes what was done to the current function: the mode, its sites and
   every check with its weight (dropped ones included).  */
static void
describe_function (FILE *out, function_state *st)
{
  const char *name = function_name (cfun);
  fprintf (out, "function %s: %s, %u sites, %s\n", name,
	   st->fallback_reason ? "per-site" : "cloned", st->n_sites,
	   st->fallback_reason ? st->fallback_reason : "fast and slow copies");
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
   slower, where it runs after the transformation, and is a third of
   their compile time: bzip2 with branches, returns and scalar-pairs ran
   1.2% of plain's instructions more with it at sparsity 10^9 (the fast
   copies), 1.1% at 1000, and compiled compress.c in 3.4 s against 2.45 s
   without (plain: 0.78 s).  The unsampled clones keep it (0.6% fewer
   instructions with it at sparsity 0, as plain code).  */
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
	  if (unit_sites[marker_site (marker)].scheme == SCHEME_SCALAR_PAIRS)
	    most_values = MAX (most_values, marker_num_values (marker));
	}
  if (st.sites.is_empty ())
    return;
  if (most_values)
    st.values = values_array (most_values);

  declare_runtime ();
  st.fallback_reason = why_not_clonable ();
  if (!st.fallback_reason)
    {
      st.dispatch_fn = unsampled_clone_to_call ();
      isolate_region_ends (&st);
      isolate_goto_targets (&st);
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

  free_dominance_info (CDI_DOMINATORS);
  free_dominance_info (CDI_POST_DOMINATORS);
  if (current_loops)
    loops_state_set (LOOPS_NEED_FIXUP);
  cgraph_edge::rebuild_edges ();
}

/* The first pass: finds the sites of the unit's selected functions and
   which functions are weightless, and emits the unit's data.  */

static const pass_data sites_pass_data = {
  SIMPLE_IPA_PASS,
  "sampler",
  OPTGROUP_NONE,
  TV_PLUGIN_RUN,
  PROP_cfg,
  0,
  0,
  0,
  0
};

class sites_pass : public simple_ipa_opt_pass
{
public:
  sites_pass (gcc::context *ctxt)
    : simple_ipa_opt_pass (sites_pass_data, ctxt)
  {
  }

  virtual bool gate (function *)
  {
    return !seen_error ();
  }

  virtual unsigned int execute (function *)
  {
    create_unsampled_clones ();
    discover_sites ();
    keep_unsampled_clones ();
    find_weighty_functions ();
    emit_unit ();
    return 0;
  }
};

opt_pass *
make_sites_pass (gcc::context *ctxt)
{
  return new sites_pass (ctxt);
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
