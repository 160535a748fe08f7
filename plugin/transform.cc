/* sampler.so: the sampling transformation of seed 000 on GIMPLE.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).

   For every function with sites:
     - the countdown lives in a local, imported from the thread-local
       __sampler_countdown at entry and after calls to weighty functions,
       exported before such calls and before every return;
     - threshold checks sit at function entry, after weighty calls and on
       enough DFS back edges that every cycle holding a site crosses a check;
       a check's weight is the largest number of sites on a path from it to
       the next checks, and zero-weight checks are dropped;
     - the body is cloned, as far as sites lie ahead before a check: the
       fast copy only decrements the countdown at sites, the slow copy
       decrements, tests and runs the site at zero, and returns to the fast
       copy after its region's last site; each check goes to the fast copy
       when the countdown exceeds its weight.
   Functions whose CFG cannot be cloned safely (setjmp, abnormal or EH edges,
   asm goto) get the slow copy's per-site guards without cloning.  */

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
#include "print-tree.h"
#include "predict.h"
#include "hash-set.h"
#include "gimple-walk.h"
#include "ssa.h"

#include "../runtime/sampler-abi.h"

/* Runtime symbols, declared once per unit.  */
static tree countdown_global;
static tree thread_start_fn;
static tree next_countdown_fn;

static tree
runtime_function (const char *name)
{
  tree type = build_function_type_list (long_integer_type_node, NULL_TREE);
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

static void
declare_runtime (void)
{
  if (countdown_global)
    return;
  countdown_global = build_decl (BUILTINS_LOCATION, VAR_DECL,
				 get_identifier ("__sampler_countdown"),
				 long_integer_type_node);
  TREE_PUBLIC (countdown_global) = 1;
  DECL_EXTERNAL (countdown_global) = 1;
  TREE_STATIC (countdown_global) = 1;
  DECL_ARTIFICIAL (countdown_global) = 1;
  /* Same model as the runtime's definition: one %fs-relative access.  */
  set_decl_tls_model (countdown_global, TLS_MODEL_INITIAL_EXEC);
  thread_start_fn = runtime_function ("__sampler_thread_start");
  next_countdown_fn = runtime_function ("__sampler_next_countdown");
}

/* ---------------------------------------------------------------------
   Classifying calls and the weightless fixpoint.  */

enum call_kind
{
  CALL_SITE,		/* A checks-scheme site: call to a `sampled' function.  */
  CALL_WEIGHTLESS,	/* Cannot touch the countdown.  */
  CALL_WEIGHTY,		/* May use the countdown: export, import, check.  */
  CALL_LOCAL		/* Defined in this unit: as the fixpoint says.  */
};

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

/* The function defined in this unit that a call to FNDECL reaches, if any.  */
static cgraph_node *
local_definition (tree fndecl)
{
  cgraph_node *node = cgraph_node::get (fndecl);
  if (!node)
    return NULL;
  node = node->ultimate_alias_target ();
  if (!node || !node->has_gimple_body_p ())
    return NULL;
  return node;
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

/* The longjmp family: they leave the caller for a setjmp receiver that
   imports the countdown, so the countdown must be exported before them.  */
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

static enum call_kind
classify_call (gimple *stmt, bool caller_selected)
{
  gcall *call = as_a <gcall *> (stmt);
  if (gimple_call_internal_p (call))
    return CALL_WEIGHTLESS;
  tree fndecl = gimple_call_fndecl (call);
  if (!fndecl)
    return CALL_WEIGHTY;
  if (fndecl == site_marker_fn)
    return CALL_SITE;
  if (caller_selected && (sampler_opts.schemes & SCHEME_CHECKS)
      && is_check_function (fndecl))
    return CALL_SITE;
  /* A second return from setjmp, or a longjmp to it, moves the countdown
     between functions behind the calls' backs.  */
  if ((gimple_call_flags (call) & ECF_RETURNS_TWICE) || longjmp_like (fndecl))
    return CALL_WEIGHTY;
  if (sampled_attribute_form (fndecl) == SAMPLED_WEIGHTLESS
      || user_asserts_weightless (fndecl))
    return CALL_WEIGHTLESS;
  if (local_definition (fndecl))
    return CALL_LOCAL;
  /* Library code never touches the countdown, unless it calls back into
     ours (qsort, bsearch, pthread_once...).  */
  if (fndecl_built_in_p (fndecl) || DECL_IN_SYSTEM_HEADER (fndecl))
    return passes_function_pointer (call) ? CALL_WEIGHTY : CALL_WEIGHTLESS;
  return CALL_WEIGHTY;
}

/* Functions of this unit that have sites or may reach a site.  */
static hash_set<tree> *weighty_functions;

static bool
call_is_weighty (gimple *stmt, bool caller_selected)
{
  switch (classify_call (stmt, caller_selected))
    {
    case CALL_WEIGHTY:
      return true;
    case CALL_LOCAL:
      return weighty_functions->contains
	(local_definition (gimple_call_fndecl (stmt))->decl);
    default:
      return false;
    }
}

/* Seed 000's fixpoint: a function is weightless when it has no sites and
   calls only weightless functions.  Computed as the set of functions that
   reach a site or an unknown callee, by propagating backwards over the
   unit's call edges: linear in the size of the unit.  */
static void
compute_weighty_functions (void)
{
  hash_map<tree, vec<tree> > callers;
  auto_vec<tree> worklist;
  cgraph_node *node;
  FOR_EACH_FUNCTION_WITH_GIMPLE_BODY (node)
    {
      function *fn = DECL_STRUCT_FUNCTION (node->decl);
      if (!fn || !fn->cfg)
	continue;
      bool selected = function_selected (node->decl);
      bool weighty = false;
      basic_block bb;
      FOR_EACH_BB_FN (bb, fn)
	for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	     gsi_next (&gsi))
	  {
	    gimple *stmt = gsi_stmt (gsi);
	    if (!is_gimple_call (stmt))
	      continue;
	    switch (classify_call (stmt, selected))
	      {
	      case CALL_SITE:
	      case CALL_WEIGHTY:
		weighty = true;
		break;
	      case CALL_LOCAL:
		{
		  tree callee
		    = local_definition (gimple_call_fndecl (stmt))->decl;
		  vec<tree> &list = callers.get_or_insert (callee);
		  list.safe_push (node->decl);
		}
		break;
	      default:
		break;
	      }
	  }
      if (weighty && !weighty_functions->add (node->decl))
	worklist.safe_push (node->decl);
    }
  while (!worklist.is_empty ())
    {
      tree callee = worklist.pop ();
      vec<tree> *list = callers.get (callee);
      if (!list)
	continue;
      for (tree caller : *list)
	if (!weighty_functions->add (caller))
	  worklist.safe_push (caller);
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
insert_before (gimple *where, gimple *stmt)
{
  gimple_set_location (stmt, gimple_location (where));
  gimple_stmt_iterator gsi = gsi_for_stmt (where);
  gsi_insert_before (&gsi, stmt, GSI_SAME_STMT);
}

/* The edge a block falls out of when its last statement returns normally
   (not an abnormal or EH edge), or NULL.  */
static edge
normal_successor (basic_block bb)
{
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE (e, ei, bb->succs)
    if (!(e->flags & (EDGE_ABNORMAL | EDGE_EH | EDGE_FAKE)))
      return e;
  return NULL;
}

/* Inserts STMT right after WHERE, on its block's normal out edge when WHERE
   ends the block.  Returns false when control never continues after WHERE.  */
static bool
insert_after (gimple *where, gimple *stmt)
{
  gimple_set_location (stmt, gimple_location (where));
  basic_block bb = gimple_bb (where);
  if (stmt_ends_bb_p (where))
    {
      edge e = normal_successor (bb);
      if (!e)
	return false;
      gsi_insert_on_edge_immediate (e, stmt);
      return true;
    }
  gimple_stmt_iterator gsi = gsi_for_stmt (where);
  gsi_insert_after (&gsi, stmt, GSI_NEW_STMT);
  return true;
}

/* An empty block placed before DEST and in DEST's loop.  */
static basic_block
new_block_for (basic_block dest)
{
  basic_block bb = create_empty_bb (dest->prev_bb);
  if (current_loops)
    add_bb_to_loop (bb, dest->loop_father);
  return bb;
}

static void
append (basic_block bb, gimple *stmt, location_t loc)
{
  gimple_set_location (stmt, loc);
  gimple_stmt_iterator gsi = gsi_last_bb (bb);
  gsi_insert_after (&gsi, stmt, GSI_NEW_STMT);
}

/* Marks BB as rarely executed, for block layout and the branch on it.  */
static void
predict_cold (basic_block bb)
{
  gimple_stmt_iterator gsi = gsi_after_labels (bb);
  gsi_insert_before (&gsi, gimple_build_predict (PRED_COLD_LABEL, NOT_TAKEN),
		     GSI_SAME_STMT);
}

/* Makes the (empty, single-successor) block BB end in `if (LHS CODE RHS)'
   with TRUE_DEST and FALSE_DEST, the true side being the unlikely one when
   TRUE_UNLIKELY.  */
static void
end_with_condition (basic_block bb, enum tree_code code, tree lhs, tree rhs,
		    basic_block true_dest, basic_block false_dest,
		    bool true_unlikely, location_t loc)
{
  while (EDGE_COUNT (bb->succs))
    remove_edge (EDGE_SUCC (bb, 0));
  append (bb, gimple_build_cond (code, lhs, rhs, NULL_TREE, NULL_TREE), loc);
  edge t = make_edge (bb, true_dest, EDGE_TRUE_VALUE);
  edge f = make_edge (bb, false_dest, EDGE_FALSE_VALUE);
  profile_probability rare = profile_probability::very_unlikely ();
  t->probability = true_unlikely ? rare : rare.invert ();
  f->probability = t->probability.invert ();
}

/* ---------------------------------------------------------------------
   The per-function transformation.  */

enum check_kind
{
  CHECK_ENTRY,
  CHECK_AFTER_CALL,
  CHECK_BACK_EDGE
};

static const char *const check_kind_names[]
  = { "entry", "after-call", "back-edge" };

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
  function *fn;
  tree countdown;		/* The function-local copy.  */
  auto_vec<gimple *> sites;
  auto_vec<check_point> checks;
  auto_vec<int> sites_in_block;	/* By block index.  */
  hash_set<edge> cut;		/* Edges that carry a check.  */
  basic_block entry_import;	/* The block holding the entry import.  */
  const char *fallback_reason;	/* Why not cloned, or NULL.  */
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
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->succs)
	{
	  if (e->flags & EDGE_ABNORMAL)
	    return "has abnormal edges (computed goto or non-local goto)";
	  if (e->flags & EDGE_EH)
	    return "has exception-handling edges";
	}
      gimple *last = last_stmt (bb);
      if (last && gimple_code (last) == GIMPLE_ASM
	  && gimple_asm_nlabels (as_a <gasm *> (last)) > 0)
	return "uses asm goto";
      if (!can_duplicate_block_p (bb))
	return "has a block GCC cannot duplicate";
    }
  return NULL;
}

/* The import `countdown = __sampler_countdown'.  */
static gimple *
build_import (function_state *st)
{
  return gimple_build_assign (st->countdown, countdown_global);
}

static gimple *
build_export (function_state *st)
{
  return gimple_build_assign (countdown_global, st->countdown);
}

static gimple *
build_decrement (function_state *st)
{
  return gimple_build_assign (st->countdown, MINUS_EXPR, st->countdown,
			      long_cst (1));
}

/* Puts `if (countdown == 0) countdown = __sampler_thread_start ();' in new
   blocks in front of DEST, and returns the first of them.  A countdown of 0
   right after an import means the thread has not started sampling yet.  */
static basic_block
build_thread_start_guard (function_state *st, basic_block dest,
			  location_t loc)
{
  basic_block test = new_block_for (dest);
  basic_block start = new_block_for (dest);
  gcall *call = gimple_build_call (thread_start_fn, 0);
  gimple_call_set_lhs (call, st->countdown);
  append (start, call, loc);
  make_single_succ_edge (start, dest, EDGE_FALLTHRU);
  end_with_condition (test, EQ_EXPR, st->countdown, long_cst (0), start, dest,
		      true, loc);
  return test;
}

/* Collects the function's sites; exports before weighty calls and returns,
   imports after weighty calls and at entry.  Records the after-call check
   points (the edge that follows each import) when CLONING.  */
static void
insert_imports_and_exports (function_state *st, bool cloning)
{
  bool selected = function_selected (current_function_decl);
  auto_vec<gimple *> weighty_calls;
  auto_vec<gimple *> returns;	/* And calls that never return.  */
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      {
	gimple *stmt = gsi_stmt (gsi);
	if (gimple_code (stmt) == GIMPLE_RETURN)
	  returns.safe_push (stmt);
	else if (is_gimple_call (stmt) && call_is_weighty (stmt, selected))
	  weighty_calls.safe_push (stmt);
	else if (is_gimple_call (stmt) && gimple_call_noreturn_p (stmt)
		 && !gimple_call_internal_p (stmt))
	  /* exit runs destructors, which may be instrumented.  Internal
	     calls are GCC's own control flow: .ABNORMAL_DISPATCHER must
	     begin its block, or the inliner cannot find it and drops the
	     abnormal edges of the calls it inlines (a store before a
	     longjmp is then lost).  */
	  returns.safe_push (stmt);
      }

  for (gimple *ret : returns)
    insert_before (ret, build_export (st));

  for (gimple *call : weighty_calls)
    {
      gimple *export_stmt = build_export (st);
      insert_before (call, export_stmt);
      gimple *import = build_import (st);
      if (!insert_after (call, import))
	continue;		/* Does not return: nothing to import.  */
      if (!cloning)
	continue;
      /* The call gets a block of its own, `export; call; import', with no
	 site in it or ahead of it before the after-call check: so it has no
	 slow copy (see blocks_with_sites_ahead), and a callee inlined later
	 appears once, not once per copy, which would compound to 2^depth
	 through nested inline functions (lz4's always_inline helpers).  A
	 call that is itself a site stays where it is.  */
      if (gimple_uid (call) == 0 && gimple_bb (import) == gimple_bb (call))
	{
	  gimple_stmt_iterator gsi = gsi_for_stmt (export_stmt);
	  gsi_prev (&gsi);
	  if (!gsi_end_p (gsi))
	    split_block (gimple_bb (call), gsi_stmt (gsi));
	}
      /* Cloned functions have no EH or abnormal edges, so the import is in
	 the call's block: the edge after it carries the check.  */
      basic_block call_bb = gimple_bb (import);
      edge after;
      if (gsi_stmt (gsi_last_bb (call_bb)) == import)
	after = single_succ_edge (call_bb);
      else
	after = split_block (call_bb, import);
      check_point cp = { after, CHECK_AFTER_CALL, gimple_location (call), 0 };
      st->checks.safe_push (cp);
    }

  edge entry = single_succ_edge (ENTRY_BLOCK_PTR_FOR_FN (cfun));
  st->entry_import = split_edge (entry);
  gimple *import = build_import (st);
  append (st->entry_import, import,
	  DECL_SOURCE_LOCATION (current_function_decl));
  if (cloning)
    {
      check_point cp = { single_succ_edge (st->entry_import), CHECK_ENTRY,
			 DECL_SOURCE_LOCATION (current_function_decl), 0 };
      st->checks.safe_push (cp);
    }
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

/* Number of sites in each component, and whether it holds a cycle.  */
static void
component_sites (function_state *st, const vec<int> &comp, int ncomp,
		 vec<int> &sites, vec<char> &cyclic)
{
  sites.truncate (0);
  sites.safe_grow_cleared (ncomp);
  cyclic.truncate (0);
  cyclic.safe_grow_cleared (ncomp);
  auto_vec<int> size;
  size.safe_grow_cleared (ncomp);
  basic_block bb;
  FOR_ALL_BB_FN (bb, cfun)
    {
      int c = comp[bb->index];
      sites[c] += st->sites_in_block[bb->index];
      if (++size[c] > 1)
	cyclic[c] = 1;
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->succs)
	if (e->dest == bb && !st->cut.contains (e))
	  cyclic[c] = 1;
    }
}

/* Chooses the back-edge checks: starting from a check on every DFS back
   edge, drops each one whose removal leaves no cycle through a site (the
   cycles it would open all run through it, so only its component needs
   looking at).  Then gives every check its weight.  */
static void
place_checks_and_weigh (function_state *st)
{
  for (check_point &cp : st->checks)
    st->cut.add (cp.fast_edge);

  mark_dfs_back_edges ();
  auto_vec<edge> back_edges;
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    {
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->succs)
	if ((e->flags & EDGE_DFS_BACK) && !st->cut.contains (e))
	  {
	    back_edges.safe_push (e);
	    st->cut.add (e);
	  }
    }

  auto_vec<int> comp, sites;
  auto_vec<char> cyclic;
  for (edge e : back_edges)
    {
      st->cut.remove (e);
      int ncomp = strongly_connected_components (st->cut, comp);
      int c = comp[e->src->index];
      component_sites (st, comp, ncomp, sites, cyclic);
      if (c == comp[e->dest->index] && sites[c] > 0)
	{
	  st->cut.add (e);
	  gimple *last = last_stmt (e->src);
	  location_t loc = last ? gimple_location (last) : UNKNOWN_LOCATION;
	  if (loc == UNKNOWN_LOCATION)
	    {
	      gimple_stmt_iterator gsi = gsi_after_labels (e->dest);
	      if (!gsi_end_p (gsi))
		loc = gimple_location (gsi_stmt (gsi));
	    }
	  check_point cp = { e, CHECK_BACK_EDGE, loc, 0 };
	  st->checks.safe_push (cp);
	}
    }

  /* Longest site count from each component to the cut edges, in completion
     order: every successor component is finished first.  */
  int ncomp = strongly_connected_components (st->cut, comp);
  component_sites (st, comp, ncomp, sites, cyclic);
  /* Blocks sorted by component (counting sort).  */
  auto_vec<int> first;
  first.safe_grow_cleared (ncomp + 1);
  FOR_ALL_BB_FN (bb, cfun)
    first[comp[bb->index] + 1]++;
  for (int c = 0; c < ncomp; c++)
    first[c + 1] += first[c];
  auto_vec<basic_block> sorted;
  sorted.safe_grow_cleared (first[ncomp]);
  auto_vec<int> fill;
  fill.safe_splice (first);
  FOR_ALL_BB_FN (bb, cfun)
    sorted[fill[comp[bb->index]]++] = bb;

  auto_vec<int> weight;
  weight.safe_grow_cleared (ncomp);
  for (int c = 0; c < ncomp; c++)
    {
      /* The chosen checks cut every cycle through a site.  */
      gcc_assert (!cyclic[c] || sites[c] == 0);
      int longest = 0;
      for (int i = first[c]; i < first[c + 1]; i++)
	{
	  edge e;
	  edge_iterator ei;
	  FOR_EACH_EDGE (e, ei, sorted[i]->succs)
	    if (!st->cut.contains (e) && comp[e->dest->index] != c)
	      longest = MAX (longest, weight[comp[e->dest->index]]);
	}
      weight[c] = sites[c] + longest;
    }
  for (check_point &cp : st->checks)
    cp.weight = weight[comp[cp.fast_edge->dest->index]];
}

/* Turns the fast copy's site STMT into a decrement of the countdown.  A
   skipped call's result reads as zero.  */
static void
make_fast_site (function_state *st, gimple *stmt)
{
  insert_before (stmt, build_decrement (st));
  tree lhs = gimple_call_lhs (stmt);
  if (lhs)
    insert_before (stmt, gimple_build_assign (lhs,
					      build_zero_cst (TREE_TYPE (lhs))));
  gimple_stmt_iterator gsi = gsi_for_stmt (stmt);
  gsi_remove (&gsi, true);
}

/* Guards the site STMT: `if (--countdown == 0) { countdown = next;
   instrumentation }', where a check's instrumentation is `export; count;
   STMT; import' and a marker's is what emit_instrumentation puts in its
   place.  A skipped check's result reads as zero.  A check call keeps its
   block's end, so abnormal and EH edges stay right.  */
static void
make_slow_site (function_state *st, gimple *stmt)
{
  location_t loc = gimple_location (stmt);
  gimple *decrement = build_decrement (st);
  insert_before (stmt, decrement);
  basic_block test = gimple_bb (decrement);
  basic_block site = split_block (test, decrement)->dest;
  if (gsi_stmt (gsi_last_bb (site)) != stmt)
    split_block (site, stmt);
  edge normal = normal_successor (site);
  gcc_assert (normal);
  basic_block after = normal->dest;

  /* The test block's single edge becomes the unlikely true edge.  */
  edge to_site = single_succ_edge (test);
  to_site->flags &= ~EDGE_FALLTHRU;
  to_site->flags |= EDGE_TRUE_VALUE;
  to_site->probability = profile_probability::very_unlikely ();
  append (test, gimple_build_cond (EQ_EXPR, st->countdown, long_cst (0),
				   NULL_TREE, NULL_TREE), loc);
  edge skip = make_edge (test, after, EDGE_FALSE_VALUE);
  skip->probability = to_site->probability.invert ();

  gcall *next = gimple_build_call (next_countdown_fn, 0);
  gimple_call_set_lhs (next, st->countdown);
  insert_before (stmt, next);
  predict_cold (site);
  bool check = !is_site_marker (stmt);
  if (check)
    {
      /* The check function may itself be instrumented.  */
      insert_before (stmt, build_export (st));
      insert_after (stmt, build_import (st));
    }
  emit_instrumentation (stmt);

  tree lhs = check ? gimple_call_lhs (stmt) : NULL_TREE;
  if (lhs)
    {
      gimple *zero = gimple_build_assign (lhs, build_zero_cst (TREE_TYPE (lhs)));
      gimple_set_location (zero, loc);
      gsi_insert_on_edge_immediate (skip, zero);
    }
}

/* Maps each original block to its slow copy.  */
typedef hash_map<basic_block, basic_block> copy_map;

/* Wires the check CP: its edge in the fast copy and, when the source block
   was copied, the same edge in the slow copy each get a block testing
   `countdown > weight', true to the fast copy of the destination, false to
   the slow copy through the thread-start guard.  */
static void
wire_check (function_state *st, const check_point &cp, edge slow_edge,
	    copy_map &copies, copy_map &slow_entries)
{
  basic_block fast_dest = cp.fast_edge->dest;
  basic_block slow_dest = *copies.get (fast_dest);
  bool existed;
  basic_block &slow_entry = slow_entries.get_or_insert (fast_dest, &existed);
  if (!existed)
    {
      slow_entry = build_thread_start_guard (st, slow_dest, cp.loc);
      predict_cold (slow_entry);
    }
  edge edges[2] = { cp.fast_edge, slow_edge };
  for (edge e : edges)
    {
      if (!e)
	continue;
      basic_block check = split_edge (e);
      end_with_condition (check, GT_EXPR, st->countdown, long_cst (cp.weight),
			  fast_dest, slow_entry, false, cp.loc);
    }
}

/* Copies the blocks of BODY, statements and edges, with the edges between
   them redirected to the copies; COPIES maps originals to copies.  Done by
   hand because GCC's block duplication expects SSA form, and this pass runs
   before it.  */
static void
copy_body (const vec<basic_block> &body, copy_map &copies)
{
  basic_block after = EXIT_BLOCK_PTR_FOR_FN (cfun)->prev_bb;
  for (basic_block bb : body)
    {
      basic_block copy = create_empty_bb (after);
      after = copy;
      if (current_loops)
	add_bb_to_loop (copy, bb->loop_father);
      copy->count = bb->count;
      gimple_stmt_iterator to = gsi_start_bb (copy);
      for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	   gsi_next (&gsi))
	{
	  /* Labels stay with the original: a copied label would be a second
	     definition.  Jumps reach the copies through their edges.  */
	  if (gimple_code (gsi_stmt (gsi)) == GIMPLE_LABEL)
	    continue;
	  gsi_insert_after (&to, gimple_copy (gsi_stmt (gsi)), GSI_NEW_STMT);
	}
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->succs)
	make_edge (copy, e->dest, e->flags)->probability = e->probability;
      copies.put (bb, copy);
    }
  for (basic_block bb : body)
    {
      basic_block copy = *copies.get (bb);
      auto_vec<edge> inside;
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, copy->succs)
	if (copies.get (e->dest))
	  inside.safe_push (e);
      for (edge in : inside)
	{
	  edge redirected = redirect_edge_and_branch (in, *copies.get (in->dest));
	  gcc_assert (redirected);
	}
    }
}

/* walk_gimple_op callback: replaces SSA names by their variables.  */
static tree
replace_ssa_name (tree *tp, int *walk_subtrees, void *data)
{
  if (TREE_CODE (*tp) != SSA_NAME)
    {
      if (TYPE_P (*tp))
	*walk_subtrees = 0;
      return NULL_TREE;
    }
  walk_stmt_info *wi = (walk_stmt_info *) data;
  hash_map<tree, tree> *vars = (hash_map<tree, tree> *) wi->info;
  bool existed;
  tree &var = vars->get_or_insert (*tp, &existed);
  if (!existed)
    var = create_tmp_reg (TREE_TYPE (*tp), "sampler_tmp");
  *tp = var;
  *walk_subtrees = 0;
  return NULL_TREE;
}

/* The gimplifier writes its temporaries as SSA names even before into-SSA,
   so a copied definition would define one twice.  Turns them into plain
   temporaries, which into-SSA renames again right after this pass.  */
static void
demote_ssa_temporaries (void)
{
  hash_map<tree, tree> vars;
  walk_stmt_info wi;
  memset (&wi, 0, sizeof wi);
  wi.info = &vars;
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      walk_gimple_op (gsi_stmt (gsi), replace_ssa_name, &wi);
  for (auto entry : vars)
    release_ssa_name (entry.first);
}

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

/* Clones the blocks with sites ahead into slow copies (the originals are
   the fast copy) and wires the checks of nonzero weight.  */
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

  demote_ssa_temporaries ();
  copy_map copies;
  copy_body (body, copies);

  /* Each check's edge in the slow copy, found before any edge is split.  */
  auto_vec<edge> slow_edges;
  for (const check_point &cp : st->checks)
    {
      /* No slow edge from a block without a copy (no site ahead of it, as
	 the entry import).  A check's destination has one unless the check
	 weighs nothing.  */
      edge slow = NULL;
      basic_block *src = copies.get (cp.fast_edge->src);
      basic_block *dest = copies.get (cp.fast_edge->dest);
      gcc_assert (dest || cp.weight == 0);
      if (src && dest)
	slow = find_edge (*src, *dest);
      slow_edges.safe_push (slow);
    }

  copy_map slow_entries;
  for (unsigned i = 0; i < st->checks.length (); i++)
    if (st->checks[i].weight > 0)
      wire_check (st, st->checks[i], slow_edges[i], copies, slow_entries);

  /* Sites carry their uid, copied along with the statements.  */
  hash_set<basic_block> slow_blocks;
  for (basic_block original : body)
    slow_blocks.add (*copies.get (original));
  auto_vec<gimple *> fast_sites, slow_sites;
  FOR_EACH_BB_FN (bb, cfun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      if (gimple_uid (gsi_stmt (gsi)) > 0)
	(slow_blocks.contains (bb) ? slow_sites : fast_sites)
	  .safe_push (gsi_stmt (gsi));

  for (gimple *stmt : fast_sites)
    make_fast_site (st, stmt);
  for (gimple *stmt : slow_sites)
    make_slow_site (st, stmt);
}

/* The fallback for functions that cannot be cloned: every site guarded,
   every import followed by the thread-start guard.  */
static void
guard_without_cloning (function_state *st)
{
  auto_vec<gimple *> imports;
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      {
	gimple *stmt = gsi_stmt (gsi);
	if (gimple_assign_single_p (stmt)
	    && gimple_assign_rhs1 (stmt) == countdown_global)
	  imports.safe_push (stmt);
      }
  for (gimple *import : imports)
    {
      basic_block import_bb = gimple_bb (import);
      edge after;
      if (gsi_stmt (gsi_last_bb (import_bb)) == import)
	after = single_succ_edge (import_bb);
      else
	after = split_block (import_bb, import);
      basic_block guard
	= build_thread_start_guard (st, after->dest, gimple_location (import));
      redirect_edge_and_branch_force (after, guard);
    }
  for (gimple *stmt : st->sites)
    make_slow_site (st, stmt);
}

static FILE *
open_dump (void)
{
  if (!sampler_opts.dump_file)
    return NULL;
  FILE *f = fopen (sampler_opts.dump_file, "a");
  if (!f)
    error ("sampler: cannot open dump file %qs: %m", sampler_opts.dump_file);
  return f;
}

/* Writes what was done to the current function: the mode, its sites and
   every check with its weight (dropped ones included).  */
static void
describe_function (FILE *out, function_state *st)
{
  const char *name = function_name (cfun);
  fprintf (out, "function %s: %s, %u sites, %s\n", name,
	   st->fallback_reason ? "per-site" : "cloned", st->sites.length (),
	   st->fallback_reason ? st->fallback_reason : "fast and slow copies");
  for (const check_point &cp : st->checks)
    {
      expanded_location xloc = expand_location (cp.loc);
      fprintf (out, "  check %s line %d weight %d%s\n",
	       check_kind_names[cp.kind], xloc.line, cp.weight,
	       cp.weight ? "" : " (dropped)");
    }
}

static void
transform_function (FILE *dump)
{
  function_state st;
  st.fn = cfun;
  st.entry_import = NULL;
  st.fallback_reason = NULL;
  /* discover_sites left uid INDEX + 1 on every site statement.  */
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      if (gimple_uid (gsi_stmt (gsi)) > 0)
	st.sites.safe_push (gsi_stmt (gsi));
  if (st.sites.is_empty ())
    return;

  declare_runtime ();
  st.countdown = create_tmp_var (long_integer_type_node, "sampler_countdown");
  st.fallback_reason = why_not_clonable ();
  bool cloning = !st.fallback_reason;
  insert_imports_and_exports (&st, cloning);

  if (cloning)
    {
      st.sites_in_block.safe_grow_cleared (last_basic_block_for_fn (cfun));
      for (gimple *stmt : st.sites)
	st.sites_in_block[gimple_bb (stmt)->index]++;
      place_checks_and_weigh (&st);
      clone_and_wire (&st);
    }
  else
    guard_without_cloning (&st);

  if (sampler_opts.verbose)
    {
      if (cloning)
	inform (DECL_SOURCE_LOCATION (current_function_decl),
		"sampler: %qD: %u sites, cloned into fast and slow copies",
		current_function_decl, st.sites.length ());
      else
	inform (DECL_SOURCE_LOCATION (current_function_decl),
		"sampler: %qD %s: not cloned, each of its %u sites checks "
		"the countdown itself", current_function_decl,
		st.fallback_reason, st.sites.length ());
    }
  if (dump)
    describe_function (dump, &st);
  if (dump_file)
    describe_function (dump_file, &st);

  free_dominance_info (CDI_DOMINATORS);
  free_dominance_info (CDI_POST_DOMINATORS);
  delete_unreachable_blocks ();
  if (current_loops)
    {
      loops_state_set (LOOPS_NEED_FIXUP);
      calculate_dominance_info (CDI_DOMINATORS);
      fix_loop_structure (NULL);
      free_dominance_info (CDI_DOMINATORS);
    }
  cgraph_edge::rebuild_edges ();
}

/* ---------------------------------------------------------------------
   The pass.  */

static const pass_data sampler_pass_data = {
  SIMPLE_IPA_PASS,
  "sampler",
  OPTGROUP_NONE,
  TV_NONE,
  PROP_cfg,
  0,
  0,
  0,
  0
};

class sampler_pass : public simple_ipa_opt_pass
{
public:
  sampler_pass (gcc::context *ctxt)
    : simple_ipa_opt_pass (sampler_pass_data, ctxt)
  {
  }

  virtual bool gate (function *)
  {
    return !seen_error ();
  }

  virtual unsigned int execute (function *)
  {
    discover_sites ();
    hash_set<tree> weighty;
    weighty_functions = &weighty;
    compute_weighty_functions ();

    FILE *dump = open_dump ();
    cgraph_node *node;
    FOR_EACH_FUNCTION_WITH_GIMPLE_BODY (node)
      {
	function *fn = DECL_STRUCT_FUNCTION (node->decl);
	if (!fn || !fn->cfg || !function_selected (node->decl))
	  continue;
	push_cfun (fn);
	transform_function (dump);
	pop_cfun ();
      }
    if (dump)
      fclose (dump);
    weighty_functions = NULL;
    emit_unit ();
    return 0;
  }
};

opt_pass *
make_sampler_pass (gcc::context *ctxt)
{
  return new sampler_pass (ctxt);
}
