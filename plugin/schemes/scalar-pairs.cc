/* sampler.so: the scalar-pairs scheme (Liblit et al., PLDI 2005).  An
   assignment to an integer or pointer variable x of the user's is compared
   with each variable y of the same type in scope ("x ? y", counters <, ==
   and >), and, with pairs-constants, with the function's integer
   constants; one site per pair, up to pairs-limit per assignment.  The
   pairs of an assignment are consecutive sites behind one marker that
   holds x's value then the partners', so that the slow copy tests the
   countdown once for the group (marker_sites).  The assignment is one
   visit on the countdown, and its sampled visits observe every pair
   (pairs-sites=assignment, the default); or each pair is a visit of its
   own, sampled alone, as in CBI (pairs-sites=pair).
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).  */

#include "schemes.h"
#include "runtime-decls.h"

#include <string.h>

#include "function.h"
#include "basic-block.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "tree-cfg.h"
#include "cfganal.h"
#include "gimple-walk.h"
#include "cgraph.h"
#include "tree-pretty-print.h"
#include "ssa.h"
#include "gimplify.h"

/* Definite assignment of the current function's locals: a partner not
   yet assigned on some path would be compared by its stale stack bits, a
   meaningless predicate and a read of an uninitialized value that
   valgrind and MSan rightly report.  A forward dataflow over the
   CFG, meeting by intersection; a local whose address a statement takes
   counts as assigned from there on, as whatever it was passed to may fill
   it, and a clobber (the end of its scope) unassigns it.  */

static hash_map<tree, unsigned> local_numbers;
/* The locals definitely assigned after the statement being looked at.  */
static sbitmap assigned_now;

static tree
note_address_taken (tree *tp, int *walk_subtrees, void *data)
{
  if (TREE_CODE (*tp) == ADDR_EXPR)
    {
      tree base = get_base_address (TREE_OPERAND (*tp, 0));
      if (base && DECL_P (base))
	if (unsigned *n = local_numbers.get (base))
	  bitmap_set_bit ((sbitmap) ((walk_stmt_info *) data)->info, *n);
    }
  if (TYPE_P (*tp))
    *walk_subtrees = 0;
  return NULL_TREE;
}

/* Updates SET, the locals definitely assigned, for what STMT does.  */
static void
assignment_transfer (gimple *stmt, sbitmap set)
{
  if (gimple_clobber_p (stmt))
    {
      if (unsigned *n = local_numbers.get (gimple_assign_lhs (stmt)))
	bitmap_clear_bit (set, *n);
      return;
    }
  if (tree lhs = gimple_get_lhs (stmt))
    if (unsigned *n = local_numbers.get (lhs))
      bitmap_set_bit (set, *n);
  if (gasm *asm_stmt = dyn_cast <gasm *> (stmt))
    for (unsigned i = 0; i < gimple_asm_noutputs (asm_stmt); i++)
      if (unsigned *n
	  = local_numbers.get (TREE_VALUE (gimple_asm_output_op (asm_stmt, i))))
	bitmap_set_bit (set, *n);
  walk_stmt_info wi;
  memset (&wi, 0, sizeof wi);
  wi.info = set;
  walk_gimple_op (stmt, note_address_taken, &wi);
}

/* Numbers the current function's automatic locals and returns, by block
   index, the set of those definitely assigned on entry to each block
   (sbitmap_vector_free it).  Blocks unreachable from the entry keep every
   bit set: their code never runs.  */
static sbitmap *
definitely_assigned_on_entry (void)
{
  local_numbers.empty ();
  unsigned n = 0, ix;
  tree var;
  FOR_EACH_LOCAL_DECL (cfun, ix, var)
    if (VAR_P (var) && !TREE_STATIC (var) && !DECL_EXTERNAL (var)
	&& !local_numbers.get (var))
      local_numbers.put (var, n++);
  unsigned bits = MAX (n, 1u);
  int n_blocks = last_basic_block_for_fn (cfun);
  sbitmap *in = sbitmap_vector_alloc (n_blocks, bits);
  sbitmap *out = sbitmap_vector_alloc (n_blocks, bits);
  bitmap_vector_ones (in, n_blocks);
  bitmap_vector_ones (out, n_blocks);
  bitmap_clear (out[ENTRY_BLOCK]);
  int *order = XNEWVEC (int, n_basic_blocks_for_fn (cfun));
  int count = pre_and_rev_post_order_compute (NULL, order, false);
  auto_sbitmap set (bits);
  for (bool changed = true; changed;)
    {
      changed = false;
      for (int i = 0; i < count; i++)
	{
	  basic_block bb = BASIC_BLOCK_FOR_FN (cfun, order[i]);
	  bitmap_ones (set);
	  edge e;
	  edge_iterator ei;
	  FOR_EACH_EDGE (e, ei, bb->preds)
	    bitmap_and (set, set, out[e->src->index]);
	  bitmap_copy (in[bb->index], set);
	  for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	       gsi_next (&gsi))
	    assignment_transfer (gsi_stmt (gsi), set);
	  if (!bitmap_equal_p (set, out[bb->index]))
	    {
	      bitmap_copy (out[bb->index], set);
	      changed = true;
	    }
	}
    }
  free (order);
  sbitmap_vector_free (out);
  return in;
}

/* The global variables defined in other units that the current
   function's own statements read or write, in order of first use.  Only
   these are paired: the function already refers to them, so the pair adds
   no symbol the link might lack.  */
static auto_vec<tree> function_externals;

static void
note_external (tree op)
{
  if (op && TREE_CODE (op) == VAR_DECL && DECL_EXTERNAL (op)
      && !function_externals.contains (op))
    function_externals.safe_push (op);
}

/* Calls VISIT on each operand of the current function's own statements
   (assignments, both sides of conditions, call arguments, return values),
   never on the parts of memory references (offsets, field sizes).  */
static void
for_each_source_operand (const vec<gimple *> &stmts, void (*visit) (tree))
{
  for (gimple *stmt : stmts)
    {
      if (!source_location_p (gimple_location (stmt)))
	continue;
      if (is_gimple_assign (stmt))
	for (unsigned i = 0; i < gimple_num_ops (stmt); i++)
	  visit (gimple_op (stmt, i));
      else if (gcond *cond = dyn_cast <gcond *> (stmt))
	{
	  visit (gimple_cond_lhs (cond));
	  visit (gimple_cond_rhs (cond));
	}
      else if (gcall *call = dyn_cast <gcall *> (stmt))
	for (unsigned i = 0; i < gimple_call_num_args (call); i++)
	  visit (gimple_call_arg (call, i));
      else if (greturn *ret = dyn_cast <greturn *> (stmt))
	visit (gimple_return_retval (ret));
    }
}

static void
collect_function_externals (const vec<gimple *> &stmts)
{
  function_externals.truncate (0);
  for_each_source_operand (stmts, note_external);
}

/* Could VAR be compared with an assignment to X at LOC: a different,
   readable user variable of the same type, declared before LOC (a global
   of another unit only if the function uses it; a local only if assigned
   on every path to here).  */
static bool
pair_candidate (tree var, tree x, location_t loc)
{
  if ((TREE_CODE (var) != VAR_DECL && TREE_CODE (var) != PARM_DECL)
      || var == x || DECL_ARTIFICIAL (var) || !DECL_NAME (var)
      || TREE_THIS_VOLATILE (var) || DECL_HARD_REGISTER (var)
      || TYPE_MAIN_VARIANT (TREE_TYPE (var)) != TYPE_MAIN_VARIANT (TREE_TYPE (x)))
    return false;
  if (TREE_CODE (var) == VAR_DECL && DECL_EXTERNAL (var)
      && !function_externals.contains (var))
    return false;
  /* A local declared later in its block is not in scope yet.  (Globals,
     extern ones too, are in scope wherever the function uses them; their
     declarations may be in another file, where lines do not compare.)  */
  if (TREE_CODE (var) == VAR_DECL && !is_global_var (var))
    {
      expanded_location decl = expand_location (DECL_SOURCE_LOCATION (var));
      expanded_location use = expand_location (loc);
      if (decl.line > use.line
	  || (decl.line == use.line && decl.column >= use.column))
	return false;
      unsigned *n = local_numbers.get (var);
      if (!n || !bitmap_bit_p (assigned_now, *n))
	return false;
    }
  return true;
}

/* The variables an assignment to X in STMT is compared with: locals of
   the enclosing scopes (innermost first), parameters, the unit's globals,
   then the other units' globals the function uses, up to the limit.  */
static void
pair_partners (gimple *stmt, tree x, auto_vec<tree> &partners)
{
  unsigned limit = sampler_opts.pairs_limit;
  location_t loc = gimple_location (stmt);
  for (tree block = gimple_block (stmt);
       block && TREE_CODE (block) == BLOCK;
       block = BLOCK_SUPERCONTEXT (block))
    for (tree var = BLOCK_VARS (block); var; var = DECL_CHAIN (var))
      if (partners.length () < limit && pair_candidate (var, x, loc))
	partners.safe_push (var);
  for (tree parm = DECL_ARGUMENTS (current_function_decl); parm;
       parm = DECL_CHAIN (parm))
    if (partners.length () < limit && pair_candidate (parm, x, loc))
      partners.safe_push (parm);
  varpool_node *vnode;
  FOR_EACH_VARIABLE (vnode)
    {
      tree var = vnode->decl;
      if (partners.length () < limit && TREE_STATIC (var)
	  && (!DECL_CONTEXT (var)
	      || TREE_CODE (DECL_CONTEXT (var)) == TRANSLATION_UNIT_DECL)
	  && !partners.contains (var) && pair_candidate (var, x, loc))
	partners.safe_push (var);
    }
  for (tree var : function_externals)
    if (partners.length () < limit && !partners.contains (var)
	&& pair_candidate (var, x, loc))
      partners.safe_push (var);
}

/* The distinct integer constants the current function's own statements
   use as operands (in order of first use), for pairs-constants.  */
static auto_vec<tree> function_constants;

static void
note_constant (tree op)
{
  if (!op || TREE_CODE (op) != INTEGER_CST || !INTEGRAL_TYPE_P (TREE_TYPE (op))
      || TREE_CODE (TREE_TYPE (op)) == BOOLEAN_TYPE)
    return;
  for (tree known : function_constants)
    if (wi::to_widest (known) == wi::to_widest (op))
      return;
  function_constants.safe_push (op);
}

/* The constants a person wrote in conditions, assignments, calls and
   returns.  */
static void
collect_function_constants (const vec<gimple *> &stmts)
{
  function_constants.truncate (0);
  for_each_source_operand (stmts, note_constant);
}

/* The sets of definitely assigned locals on entry to each block, while a
   function is being looked at.  */
static sbitmap *assigned_on_entry;

static void
pairs_begin_function (const vec<gimple *> &stmts)
{
  assigned_on_entry = definitely_assigned_on_entry ();
  assigned_now = sbitmap_alloc (SBITMAP_SIZE (assigned_on_entry[0]));
  if (sampler_opts.pairs_constants)
    collect_function_constants (stmts);
  collect_function_externals (stmts);
}

/* Pairs are read right after their statement.  */
static void
pairs_track_statement (gimple *stmt, int block, bool block_start)
{
  if (block_start)
    bitmap_copy (assigned_now, assigned_on_entry[block]);
  assignment_transfer (stmt, assigned_now);
}

static void
pairs_end_function (void)
{
  sbitmap_vector_free (assigned_on_entry);
  assigned_on_entry = NULL;
  sbitmap_free (assigned_now);
  assigned_now = NULL;
}

static void
pairs_assignment (gimple *stmt, tree x, tree value, after_stmt_inserter &after)
{
  tree type = TREE_TYPE (x);
  if (!integer_like_type (type))
    return;
  location_t loc = gimple_location (stmt);
  const char *name = IDENTIFIER_POINTER (DECL_NAME (x));
  auto_vec<tree> partners;
  pair_partners (stmt, x, partners);
  /* One marker for all the pairs of the assignment: the sites are
     consecutive, and the slow copy tests the countdown once for them.  */
  auto_vec<tree> operands;
  operands.safe_push (value);
  unsigned first = unit_sites.length ();
  for (tree y : partners)
    {
      unsigned index
	= new_site (SAMPLER_SCHEME_SCALAR_PAIRS, loc,
		    concat (name, " ? ",
			    IDENTIFIER_POINTER (DECL_NAME (y)), NULL));
      unit_sites[index].value_kind = value_kind_of (type);
      /* A partner in memory is read where the site is sampled, and
	 nowhere else: a value loaded for every marker would be loaded
	 (hoisted, kept in a register or on the stack) in the fast copy
	 too, where nothing uses it.  A constant is loaded at the
	 marker, which GCC folds: it drops a static constant whose every
	 read it has folded, and the slow copy's read would then be left
	 without a definition.  */
      operands.safe_push (TREE_READONLY (y) ? as_operand (y, after, loc)
			  : y);
    }
  /* The constants X's type can hold, within what is left of the
     limit; each value once (10 and 10L are one to a long).  */
  auto_vec<tree> constants;
  if (sampler_opts.pairs_constants && INTEGRAL_TYPE_P (type))
    for (tree c : function_constants)
      if (partners.length () + constants.length () < sampler_opts.pairs_limit
	  && int_fits_type_p (c, type))
	{
	  tree converted = fold_convert (type, c);
	  bool seen = false;
	  for (tree known : constants)
	    seen |= tree_int_cst_equal (known, converted);
	  if (!seen)
	    constants.safe_push (converted);
	}
  for (tree c : constants)
    {
      char *c_text = print_generic_expr_to_str (c);
      unsigned index
	= new_site (SAMPLER_SCHEME_SCALAR_PAIRS, loc,
		    concat (name, " ? ", c_text, NULL));
      free (c_text);
      unit_sites[index].value_kind = value_kind_of (type);
      operands.safe_push (c);
    }
  /* One marker for the pairs of the assignment, so that the slow copy
     tests the countdown once for them (their sites are consecutive); a
     few markers for very many pairs, as an asm takes at most 255
     operands.  */
  const unsigned per_marker = 64;
  for (unsigned done = 1; done < operands.length (); done += per_marker)
    {
      auto_vec<tree> chunk;
      chunk.safe_push (value);
      for (unsigned i = done;
	   i < MIN (done + per_marker, operands.length ()); i++)
	chunk.safe_push (operands[i]);
      after.add (build_marker (first + done - 1, loc, chunk));
    }
}

/* A marker holds the assigned value, then one value per site.  */
static unsigned
pairs_marker_sites (gimple *marker)
{
  return marker_num_values (marker) - 1;
}

/* One visit per marker, or one per pair with pairs-sites=pair (an
   assignment with more pairs than a marker holds has a few markers, and
   as many visits).  */
static unsigned
pairs_marker_visits (gimple *marker)
{
  return sampler_opts.pairs_per_pair ? pairs_marker_sites (marker) : 1;
}

/* The sample call passes all of the marker's values in the array.  */
static unsigned
pairs_marker_array_values (gimple *marker)
{
  return marker_num_values (marker);
}

/* __sampler_assignment_pairs_signed or _unsigned (COUNTERS, K, VALUES),
   or with pairs-sites=pair __sampler_pairs_signed or _unsigned: the
   marker's values go into the function's values array, the assigned one
   first, then the K it is compared with.  The runtime reads unsigned
   values as unsigned long long: the same bits.  */
static void
pairs_sample_call (gimple *marker, const site_info &site,
		   gimple_stmt_iterator *gsi, tree values, sample_call &call)
{
  location_t loc = gimple_location (marker);
  tree ll = long_long_integer_type_node, ull = long_long_unsigned_type_node;
  bool is_unsigned = observed_unsigned (site);
  const char *fn_name;
  if (sampler_opts.pairs_per_pair)
    fn_name = (is_unsigned ? "__sampler_pairs_unsigned"
	       : "__sampler_pairs_signed");
  else
    fn_name = (is_unsigned ? "__sampler_assignment_pairs_unsigned"
	       : "__sampler_assignment_pairs_signed");
  call.fn = sample_function (fn_name,
			     long_unsigned_type_node,
			     build_pointer_type (build_qualified_type
						 (is_unsigned ? ull : ll,
						  TYPE_QUAL_CONST)));
  unsigned n = marker_num_values (marker);
  for (unsigned i = 0; i < n; i++)
    {
      tree element = build4 (ARRAY_REF, ll, values, size_int (i), NULL_TREE,
			     NULL_TREE);
      gimple *store
	= gimple_build_assign (element, converted (gsi,
						   marker_value (marker, i),
						   ll, loc));
      gimple_set_location (store, loc);
      gsi_insert_before (gsi, store, GSI_SAME_STMT);
    }
  call.args.safe_push (build_int_cst (long_unsigned_type_node, n - 1));
  call.args.safe_push (build_fold_addr_expr (values));
  call.memory = values;
}

const plugin_scheme SCALAR_PAIRS_scheme = {
  .begin_function = pairs_begin_function,
  .track_statement = pairs_track_statement,
  .assignment = pairs_assignment,
  .end_function = pairs_end_function,
  .marker_sites = pairs_marker_sites,
  .marker_visits = pairs_marker_visits,
  .marker_array_values = pairs_marker_array_values,
  .sample_call = pairs_sample_call,
};
