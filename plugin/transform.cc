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
#include "tree-inline.h"
#include "ipa-utils.h"

#include "../runtime/sampler-abi.h"

/* Runtime symbols, declared once per unit.  */
static tree countdown_global;
static tree thread_start_fn;
static tree skip_fn;

/* A runtime function returning a countdown: `long NAME (void)', or
   `long NAME (long)' when TAKES_COUNTDOWN.  */
static tree
runtime_function (const char *name, bool takes_countdown = false)
{
  tree type = build_function_type_list (long_integer_type_node,
					takes_countdown
					? long_integer_type_node : NULL_TREE,
					NULL_TREE);
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
  thread_start_fn = runtime_function ("__sampler_thread_start_preserving");
  skip_fn = runtime_function ("__sampler_skip", true);
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
  CHECK_BACK_EDGE,
  CHECK_LONG_PATH,		/* Bounds the weight of long regions.  */
  CHECK_LOOP_EXIT		/* Starts a region after a loop.  */
};

static const char *const check_kind_names[]
  = { "entry", "after-call", "back-edge", "long-path", "loop-exit" };

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
  /* In the slow copy: the countdown as it will be at the end of the
     region, once the visits not yet made there are counted (see
     clone_and_wire).  NULL in functions that are not cloned.  */
  tree region_end;
  auto_vec<gimple *> sites;	/* Site statements.  */
  tree values;			/* See values_array, or NULL.  */
  unsigned n_sites;		/* The sites they stand for.  */
  auto_vec<check_point> checks;
  auto_vec<int> sites_in_block;	/* By block index.  */
  /* By block index: the longest site count from the block's start to the
     end of its region.  */
  auto_vec<int> block_weight;
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
build_decrement (function_state *st, int k)
{
  return gimple_build_assign (st->countdown, MINUS_EXPR, st->countdown,
			      long_cst (k));
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
  gimple *call = build_preserving_call (thread_start_fn, vNULL,
					st->countdown);
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
	if (gimple_uid (gsi_stmt (gsi)) > 0)
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

/* Sets in IN_LOOP the blocks of the natural loop of the back edge E (its
   header dominates its source): those that reach its source without going
   through its header, on any edge (THROUGH_CUTS) or on edges without a
   check.  */
static void
natural_loop (function_state *st, edge e, bool through_cuts, sbitmap in_loop)
{
  bitmap_clear (in_loop);
  bitmap_set_bit (in_loop, e->dest->index);
  auto_vec<basic_block> work;
  if (bitmap_set_bit (in_loop, e->src->index))
    work.safe_push (e->src);
  while (!work.is_empty ())
    {
      basic_block bb = work.pop ();
      edge p;
      edge_iterator ei;
      FOR_EACH_EDGE (p, ei, bb->preds)
	if ((through_cuts || !st->cut.contains (p))
	    && bitmap_set_bit (in_loop, p->src->index))
	  work.safe_push (p->src);
    }
}

/* Whether taking the back edge E out of the cut set would close a cycle
   through a site.  For a natural loop, only its blocks need looking at:
   every path from its header to its latch stays in it.  */
static bool
closes_site_cycle (function_state *st, edge e)
{
  basic_block header = e->dest, latch = e->src;
  if (!dominated_by_p (CDI_DOMINATORS, latch, header))
    {
      /* Irreducible: look at the whole CFG.  */
      st->cut.remove (e);
      auto_vec<int> comp;
      auto_vec<component_info> info;
      find_components (st, comp, info);
      st->cut.add (e);
      int c = comp[latch->index];
      return c == comp[header->index] && info[c].sites > 0;
    }
  int n = last_basic_block_for_fn (cfun);
  auto_sbitmap in_loop (n);
  natural_loop (st, e, false, in_loop);
  /* Paths from the header to the latch, remembering whether they went
     through a site.  */
  auto_sbitmap reached (n), reached_site (n);
  bitmap_clear (reached);
  bitmap_clear (reached_site);
  auto_vec<std::pair<basic_block, bool> > paths;
  bool site = st->sites_in_block[header->index] > 0;
  bitmap_set_bit (site ? reached_site : reached, header->index);
  paths.safe_push (std::make_pair (header, site));
  while (!paths.is_empty ())
    {
      std::pair<basic_block, bool> at = paths.pop ();
      edge s;
      edge_iterator ei;
      FOR_EACH_EDGE (s, ei, at.first->succs)
	{
	  basic_block dest = s->dest;
	  if (st->cut.contains (s) || !bitmap_bit_p (in_loop, dest->index))
	    continue;
	  bool through_site = at.second || st->sites_in_block[dest->index] > 0;
	  if (bitmap_set_bit (through_site ? reached_site : reached,
			      dest->index))
	    paths.safe_push (std::make_pair (dest, through_site));
	}
    }
  return bitmap_bit_p (reached_site, latch->index);
}

/* Chooses the back-edge checks: starting from a check on every DFS back
   edge, drops each one whose removal leaves no cycle through a site.  */
static void
place_back_edge_checks (function_state *st)
{
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
  for (edge e : back_edges)
    {
      if (!closes_site_cycle (st, e))
	{
	  st->cut.remove (e);
	  continue;
	}
      gimple *last = last_stmt (e->src);
      location_t loc = last ? gimple_location (last) : UNKNOWN_LOCATION;
      if (loc == UNKNOWN_LOCATION)
	loc = first_location (e->dest);
      check_point cp = { e, CHECK_BACK_EDGE, loc, 0 };
      st->checks.safe_push (cp);
    }
}

/* Puts a check on each edge out of a loop that has a back-edge check
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
      if (cp.kind != CHECK_BACK_EDGE
	  || !dominated_by_p (CDI_DOMINATORS, cp.fast_edge->src,
			      cp.fast_edge->dest))
	continue;
      natural_loop (st, cp.fast_edge, true, in_loop);
      basic_block bb;
      FOR_EACH_BB_FN (bb, cfun)
	if (bitmap_bit_p (in_loop, bb->index))
	  {
	    edge e;
	    edge_iterator ei;
	    FOR_EACH_EDGE (e, ei, bb->succs)
	      if (!bitmap_bit_p (in_loop, e->dest->index)
		  && e->dest != EXIT_BLOCK_PTR_FOR_FN (cfun)
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
  place_back_edge_checks (st);
  place_loop_exit_checks (st);
  free_dominance_info (CDI_DOMINATORS);
  if (sampler_opts.region_limit)
    limit_region_weights (st);
  weigh (st);
}

/* Removes the fast copy's site STMT: the check at the top of its region
   has counted its visit already.  A skipped call's result reads as
   zero.  */
static void
make_fast_site (gimple *stmt)
{
  tree lhs = gimple_call_lhs (stmt);
  if (lhs)
    insert_before (stmt, gimple_build_assign (lhs,
					      build_zero_cst (TREE_TYPE (lhs))));
  gimple_stmt_iterator gsi = gsi_for_stmt (stmt);
  gsi_remove (&gsi, true);
}

/* ADDEND += NEXT - LEFT, before GSI: the region's end moves with the
   countdown when a sample draws a new one (the visits left to the region
   stay as many).  */
static void
move_region_end (function_state *st, gimple_stmt_iterator *gsi, tree next,
		 tree left, location_t loc)
{
  tree drawn = create_tmp_reg (long_integer_type_node, "sampler_drawn");
  gimple *diff = gimple_build_assign (drawn, MINUS_EXPR, next, left);
  gimple *sum = gimple_build_assign (st->region_end, PLUS_EXPR,
				     st->region_end, drawn);
  gimple_set_location (diff, loc);
  gimple_set_location (sum, loc);
  gsi_insert_before (gsi, diff, GSI_SAME_STMT);
  gsi_insert_before (gsi, sum, GSI_SAME_STMT);
}

/* Guards the site statement STMT, standing for K sites:
   `countdown -= K; if (countdown <= 0) countdown = SAMPLE (...)', where
   SAMPLE is the runtime function that observes the sampled ones and
   returns the next countdown (see sampler-abi.h).  A check also runs
   when sampled, between an export and an import of the countdown (it may
   be instrumented itself); skipped, its result reads as zero.  A check
   call keeps its block's end, so abnormal and EH edges stay right.  */
static void
make_slow_site (function_state *st, gimple *stmt)
{
  location_t loc = gimple_location (stmt);
  unsigned k = site_count (stmt);
  gimple *decrement = build_decrement (st, k);
  insert_before (stmt, decrement);
  basic_block test = gimple_bb (decrement);
  basic_block site = split_block (test, decrement)->dest;
  if (gsi_stmt (gsi_last_bb (site)) != stmt)
    split_block (site, stmt);
  edge normal = normal_successor (site);
  gcc_assert (normal);
  basic_block after = normal->dest;

  /* The test block's single edge becomes the unlikely true edge.  One site
     runs out exactly at zero, which tells the optimisers more.  */
  edge to_site = single_succ_edge (test);
  to_site->flags &= ~EDGE_FALLTHRU;
  to_site->flags |= EDGE_TRUE_VALUE;
  to_site->probability = profile_probability::very_unlikely ();
  append (test, gimple_build_cond (k == 1 ? EQ_EXPR : LE_EXPR, st->countdown,
				   long_cst (0), NULL_TREE, NULL_TREE), loc);
  edge skip = make_edge (test, after, EDGE_FALSE_VALUE);
  skip->probability = to_site->probability.invert ();
  predict_cold (site);

  tree next = create_tmp_reg (long_integer_type_node, "sampler_next");
  build_sample_call (stmt, st->countdown, next, st->values);
  gimple_stmt_iterator gsi = gsi_for_stmt (stmt);
  if (st->region_end)
    move_region_end (st, &gsi, next, st->countdown, loc);
  gimple *set = gimple_build_assign (st->countdown, next);
  gimple_set_location (set, loc);
  gsi_insert_before (&gsi, set, GSI_SAME_STMT);

  if (is_site_marker (stmt))
    {
      gsi_remove (&gsi, true);
      return;
    }
  /* The check function may itself be instrumented, and take visits from
     the countdown in between.  */
  tree exported = create_tmp_reg (long_integer_type_node, "sampler_exported");
  insert_before (stmt, gimple_build_assign (exported, st->countdown));
  insert_before (stmt, build_export (st));
  gimple *import = build_import (st);
  insert_after (stmt, import);
  if (st->region_end)
    {
      gimple_stmt_iterator after_import = gsi_for_stmt (import);
      gsi_next (&after_import);
      if (gsi_end_p (after_import))
	{
	  /* The import ends the block only when it was put on its own
	     edge: add after it.  */
	  after_import = gsi_last_bb (gimple_bb (import));
	  gimple *nop = gimple_build_nop ();
	  gsi_insert_after (&after_import, nop, GSI_NEW_STMT);
	  move_region_end (st, &after_import, st->countdown, exported, loc);
	  gsi_remove (&after_import, true);
	}
      else
	move_region_end (st, &after_import, st->countdown, exported, loc);
    }
  tree lhs = gimple_call_lhs (stmt);
  if (lhs)
    {
      gimple *zero = gimple_build_assign (lhs, build_zero_cst (TREE_TYPE (lhs)));
      gimple_set_location (zero, loc);
      gsi_insert_on_edge_immediate (skip, zero);
    }
}

/* Makes BB, which has one successor, end in
   `if (countdown <= 0) countdown = __sampler_skip (countdown)'.  */
static void
end_with_skip (function_state *st, basic_block bb, location_t loc)
{
  basic_block dest = single_succ (bb);
  basic_block call_bb = new_block_for (dest);
  auto_vec<tree> args;
  args.safe_push (st->countdown);
  gimple *call = build_preserving_call (skip_fn, args, st->countdown);
  append (call_bb, call, loc);
  make_single_succ_edge (call_bb, dest, EDGE_FALLTHRU);
  predict_cold (call_bb);
  end_with_condition (bb, LE_EXPR, st->countdown, long_cst (0), call_bb, dest,
		      true, loc);
}

/* The end of a region in the slow copy, on the edge E: the visits the
   region still had to make are counted, `countdown = region_end' (see
   clone_and_wire), drawing new countdowns past those it runs out on.
   Returns the block that now comes before E's destination.  */
static void
end_region_on_edge (function_state *st, edge e, int refund, location_t loc)
{
  basic_block bb = split_edge (e);
  if (refund)
    append (bb, gimple_build_assign (st->region_end, PLUS_EXPR,
				     st->region_end, long_cst (refund)), loc);
  append (bb, gimple_build_assign (st->countdown, st->region_end), loc);
  end_with_skip (st, bb, loc);
}

/* VAR += AMOUNT on the edge E.  */
static void
add_on_edge (edge e, tree var, int amount, location_t loc)
{
  basic_block bb = split_edge (e);
  append (bb, gimple_build_assign (var, PLUS_EXPR, var, long_cst (amount)),
	  loc);
}

/* DEST = SRC through an empty asm, so that the optimisers cannot see that
   DEST is SRC.  */
static void
append_opaque_copy (basic_block bb, tree dest, tree src, location_t loc)
{
  vec<tree, va_gc> *inputs = NULL, *outputs = NULL;
  const char *out = "=r", *in = "0";
  vec_safe_push (outputs,
		 build_tree_list (build_tree_list
				  (NULL_TREE, build_string (strlen (out) + 1,
							    out)), dest));
  vec_safe_push (inputs,
		 build_tree_list (build_tree_list
				  (NULL_TREE, build_string (strlen (in) + 1,
							    in)), src));
  append (bb, gimple_build_asm_vec ("", inputs, outputs, NULL, NULL), loc);
}

/* The same before the export STMT (before a return or a weighty call).  */
static void
end_region_before (function_state *st, gimple *stmt)
{
  location_t loc = gimple_location (stmt);
  gimple *set = gimple_build_assign (st->countdown, st->region_end);
  insert_before (stmt, set);
  basic_block bb = gimple_bb (set);
  split_block (bb, set);
  end_with_skip (st, bb, loc);
}

/* Maps each original block to its slow copy.  */
typedef hash_map<basic_block, basic_block> copy_map;

/* The way into the slow copy at DEST_SLOW from a check that has taken
   WEIGHT from the countdown already: `region_end = countdown; countdown
   += WEIGHT', and a countdown of zero (just imported: the thread has not
   started sampling) starts the thread.  */
static basic_block
build_slow_entry (function_state *st, basic_block dest_slow, int weight,
		  location_t loc)
{
  basic_block entry = new_block_for (dest_slow);
  basic_block start = new_block_for (dest_slow);
  /* The check's block keeps only the decremented countdown alive: the
     optimisers would rather keep the one from before if they could see
     that this sum is it.  */
  append_opaque_copy (entry, st->region_end, st->countdown, loc);
  append (entry, gimple_build_assign (st->countdown, PLUS_EXPR,
				      st->region_end, long_cst (weight)), loc);
  gimple *call = build_preserving_call (thread_start_fn, vNULL,
					st->countdown);
  append (start, call, loc);
  append (start, gimple_build_assign (st->region_end, MINUS_EXPR,
				      st->countdown, long_cst (weight)), loc);
  make_single_succ_edge (start, dest_slow, EDGE_FALLTHRU);
  end_with_condition (entry, EQ_EXPR, st->countdown, long_cst (0), start,
		      dest_slow, true, loc);
  predict_cold (entry);
  return entry;
}

/* Makes the edge E carry the check CP: DECREMENT comes off the countdown
   as an unsigned subtraction; one that borrows (the countdown was below
   DECREMENT) goes to the slow copy through SLOW_ENTRY, any other on to
   the fast copy of the destination.  The test is the subtraction's own
   carry flag: two instructions.  A check that cannot fail (its refund is
   at least its weight) just adds to the countdown.  Returns the check's
   block.  */
static basic_block
build_check (function_state *st, edge e, const check_point &cp,
	     int decrement, basic_block fast_dest, basic_block slow_entry)
{
  basic_block check = split_edge (e);
  if (decrement <= 0)
    {
      append (check, build_decrement (st, decrement), cp.loc);
      return check;
    }
  tree type = long_unsigned_type_node;
  tree before = create_tmp_reg (type, "sampler_before");
  append (check, gimple_build_assign (before, NOP_EXPR, st->countdown),
	  cp.loc);
  tree pair = create_tmp_reg (build_complex_type (type), "sampler_check");
  gcall *sub = gimple_build_call_internal (IFN_SUB_OVERFLOW, 2, before,
					   build_int_cst (type, decrement));
  gimple_call_set_lhs (sub, pair);
  append (check, sub, cp.loc);
  tree after = create_tmp_reg (type, "sampler_after");
  append (check, gimple_build_assign (after, build1 (REALPART_EXPR, type,
						     pair)), cp.loc);
  append (check, gimple_build_assign (st->countdown, NOP_EXPR, after),
	  cp.loc);
  tree borrow = create_tmp_reg (type, "sampler_borrow");
  append (check, gimple_build_assign (borrow, build1 (IMAGPART_EXPR, type,
						      pair)), cp.loc);
  end_with_condition (check, NE_EXPR, borrow, build_zero_cst (type),
		      slow_entry, fast_dest, true, cp.loc);
  return check;
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

/* Clones the body into fast (the original blocks) and slow copies and wires
   the checks.

   Each check of weight W takes W visits from the countdown at once: if
   some remain, no site of the region ahead can be sampled, and the fast
   copy, which is the original code without its sites, runs to the next
   checks.  A path with fewer sites than W gives the difference back on
   the edge where it leaves the heaviest continuation (a refund: one
   addition to the countdown), unless the difference is at most the pad
   limit: then the path simply counts as that many visits more, to no
   site, never observed (padding).  Each site visit still gets a toss of
   its own, and which tosses go to sites depends only on the path taken,
   so sampling stays fair; the countdown just runs out a little sooner.
   Padding keeps small branches free of countdown arithmetic, so that the
   optimisers treat them as without sampler; refunds keep paths that leave
   a heavy region early from using up the countdown.

   The slow copy makes the same count.  Entering it from a check, it notes
   in region_end what the countdown will be at the end of the region if no
   sample is taken (the countdown minus W), decrements the countdown at
   each site and samples where it runs out; a sample draws a new countdown,
   and region_end moves by as much; refunds go to region_end.  Where the
   region ends (on the back-edge and long-path checks, and before each
   export of the countdown), the visits it did not make are counted at
   once: the countdown becomes region_end, plus new countdowns if that runs
   out.  It ends as well where the slow copy leads back into the fast one:
   only the blocks with a site ahead are copied (see
   blocks_with_sites_ahead), and zero-weight checks lead back too.  */
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

  /* What each edge out of the body gives back, from the original CFG.  */
  hash_map<edge, int> refunds;
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
	}
    }

  demote_ssa_temporaries ();
  copy_map copies;
  copy_body (body, copies);
  st->region_end = create_tmp_var (long_integer_type_node, "sampler_end");
  /* Set on every way into the slow copy, which into-SSA cannot know.  */
  suppress_warning (st->region_end);

  /* Each edge's copy in the slow copy, found before any edge is split.  */
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
  /* Where the slow copy leads back into the fast one, with no site ahead
     before the next checks (see blocks_with_sites_ahead), its region ends:
     the visits it did not make are counted there, with what the edge
     gives back.  */
  hash_set<basic_block> slow_blocks;
  for (basic_block original : body)
    slow_blocks.add (*copies.get (original));
  auto_vec<std::pair<edge, int> > rejoins;
  for (basic_block original : body)
    {
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, (*copies.get (original))->succs)
	if (!slow_blocks.contains (e->dest)
	    && e->dest != EXIT_BLOCK_PTR_FOR_FN (cfun))
	  {
	    int *refund = refunds.get (find_edge (original, e->dest));
	    rejoins.safe_push (std::make_pair (e, refund ? *refund : 0));
	  }
    }
  auto_vec<std::pair<edge, int> > fast_refunds, slow_refunds;
  for (auto entry : refunds)
    if (!st->cut.contains (entry.first))
      {
	edge e = entry.first;
	fast_refunds.safe_push (entry);
	if (basic_block *dest = copies.get (e->dest))
	  slow_refunds.safe_push
	    (std::make_pair (find_edge (*copies.get (e->src), *dest),
			     entry.second));
      }

  /* Sites carry their uid, copied along with the statements; exports are
     the assignments to the global countdown.  */
  auto_vec<gimple *> fast_sites, slow_sites, slow_exports;
  FOR_EACH_BB_FN (bb, cfun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      {
	gimple *stmt = gsi_stmt (gsi);
	bool slow = slow_blocks.contains (bb);
	if (gimple_uid (stmt) > 0)
	  (slow ? slow_sites : fast_sites).safe_push (stmt);
	else if (slow && gimple_assign_single_p (stmt)
		 && gimple_assign_lhs (stmt) == countdown_global)
	  slow_exports.safe_push (stmt);
      }

  for (auto entry : fast_refunds)
    add_on_edge (entry.first, st->countdown, entry.second, UNKNOWN_LOCATION);
  for (auto entry : slow_refunds)
    add_on_edge (entry.first, st->region_end, entry.second, UNKNOWN_LOCATION);
  for (auto entry : rejoins)
    end_region_on_edge (st, entry.first, entry.second, UNKNOWN_LOCATION);

  /* The slow entries, one per destination (its weight is the
     destination's).  */
  copy_map slow_entries;
  for (unsigned i = 0; i < st->checks.length (); i++)
    {
      const check_point &cp = st->checks[i];
      edge slow = slow_edges[i];
      basic_block fast_dest = cp.fast_edge->dest;
      int *found = refunds.get (cp.fast_edge);
      int refund = found ? *found : 0;
      /* After a call, the region before it ended at the export.  */
      bool ends_region = cp.kind == CHECK_BACK_EDGE
			 || cp.kind == CHECK_LONG_PATH
			 || cp.kind == CHECK_LOOP_EXIT;
      gcc_assert (ends_region || refund == 0);
      if (cp.weight == 0)
	{
	  if (refund)
	    add_on_edge (cp.fast_edge, st->countdown, refund, cp.loc);
	  if (slow)
	    {
	      edge to_fast = redirect_edge_and_branch (slow, fast_dest);
	      gcc_assert (to_fast);
	      if (ends_region)
		end_region_on_edge (st, to_fast, refund, cp.loc);
	    }
	  continue;
	}
      bool existed;
      basic_block &slow_entry = slow_entries.get_or_insert (fast_dest,
							     &existed);
      /* A check takes one visit more than its weight, one that never
	 samples anything, so that it can test the carry flag alone (see
	 build_check).  */
      int budget = cp.weight + 1;
      if (!existed)
	slow_entry = build_slow_entry (st, *copies.get (fast_dest), budget,
				       cp.loc);
      build_check (st, cp.fast_edge, cp, budget - refund, fast_dest,
		   slow_entry);
      if (slow)
	{
	  basic_block check = build_check (st, slow, cp, budget, fast_dest,
					   slow_entry);
	  if (ends_region)
	    end_region_on_edge (st, single_pred_edge (check), refund, cp.loc);
	}
    }

  for (gimple *stmt : fast_sites)
    make_fast_site (stmt);
  for (gimple *stmt : slow_exports)
    end_region_before (st, stmt);
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

/* Whether GCC would be likely to inline FNDECL as it is: its estimated
   size is within the limits of the inliner for small functions (or for
   functions declared inline).  */
static bool
inlined_as_plain (tree fndecl)
{
  int limit = DECL_DECLARED_INLINE_P (fndecl)
	      ? param_max_inline_insns_single / 2
	      : param_max_inline_insns_auto;
  return estimate_num_insns_fn (fndecl, &eni_size_weights) <= limit;
}

/* Adds to RECURSIVE the functions of the unit that may call themselves,
   directly or through others of the unit (those in a cycle of the call
   graph).  */
static void
find_recursive_functions (hash_set<tree> &recursive)
{
  cgraph_node **order = XCNEWVEC (cgraph_node *, symtab->cgraph_count);
  int n = ipa_reduced_postorder (order, true, NULL);
  for (int i = 0; i < n; i++)
    for (cgraph_node *node = order[i]; node;
	 node = ((ipa_dfs_info *) node->aux)->next_cycle)
      {
	bool in_cycle = ((ipa_dfs_info *) order[i]->aux)->next_cycle != NULL;
	for (cgraph_edge *e = node->callees; e && !in_cycle; e = e->next_callee)
	  in_cycle = e->callee->ultimate_alias_target () == node;
	if (in_cycle)
	  recursive.add (node->decl);
      }
  ipa_free_postorder_info ();
  free (order);
}

/* Transforms the current function; returns whether it had sites.  */
static bool
transform_function (FILE *dump)
{
  function_state st;
  st.fn = cfun;
  st.entry_import = NULL;
  st.fallback_reason = NULL;
  st.region_end = NULL_TREE;
  st.values = NULL_TREE;
  st.n_sites = 0;
  /* discover_sites left uid INDEX + 1 on every site statement.  */
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      if (gimple_uid (gsi_stmt (gsi)) > 0)
	{
	  st.sites.safe_push (gsi_stmt (gsi));
	  st.n_sites += site_count (gsi_stmt (gsi));
	}
  if (st.sites.is_empty ())
    return false;
  unsigned most_values = 0;
  for (gimple *site : st.sites)
    if (is_site_marker (site)
	&& unit_sites[gimple_uid (site) - 1].scheme == SCHEME_SCALAR_PAIRS)
      most_values = MAX (most_values, gimple_call_num_args (site) - 1);
  if (most_values)
    st.values = values_array (most_values);

  declare_runtime ();
  st.countdown = create_tmp_var (long_integer_type_node, "sampler_countdown");
  st.fallback_reason = why_not_clonable ();
  bool cloning = !st.fallback_reason;
  insert_imports_and_exports (&st, cloning);

  if (cloning)
    {
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
		current_function_decl, st.n_sites);
      else
	inform (DECL_SOURCE_LOCATION (current_function_decl),
		"sampler: %qD %s: not cloned, each of its %u sites checks "
		"the countdown itself", current_function_decl,
		st.fallback_reason, st.n_sites);
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
  return true;
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
    /* The functions small enough for GCC to inline them, before the
       transformation makes them bigger (see keep_inlining).  */
    hash_set<tree> small;
    /* Recursive ones stay within the limits: disregarding them makes the
       inliner unroll the recursion for as long as it may.  */
    hash_set<tree> recursive;
    find_recursive_functions (recursive);
    cgraph_node *node;
    FOR_EACH_FUNCTION_WITH_GIMPLE_BODY (node)
      {
	function *fn = DECL_STRUCT_FUNCTION (node->decl);
	if (fn && fn->cfg && function_selected (node->decl)
	    && !recursive.contains (node->decl)
	    && inlined_as_plain (node->decl))
	  small.add (node->decl);
      }
    discover_sites ();
    hash_set<tree> weighty;
    weighty_functions = &weighty;
    compute_weighty_functions ();

    FILE *dump = open_dump ();
    FOR_EACH_FUNCTION_WITH_GIMPLE_BODY (node)
      {
	function *fn = DECL_STRUCT_FUNCTION (node->decl);
	if (!fn || !fn->cfg || !function_selected (node->decl))
	  continue;
	push_cfun (fn);
	bool transformed = transform_function (dump);
	pop_cfun ();
	if (transformed && small.contains (node->decl))
	  /* Its fast copy is about as small as the function was: let GCC
	     inline it where it would have inlined the plain function,
	     whatever the slow copy adds to its size.  */
	  DECL_DISREGARD_INLINE_LIMITS (node->decl) = 1;
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
