/* sampler.so: finding the sites of each scheme and describing them.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).

   Runs on each selected function before the weightless fixpoint and the
   countdown transformation.  Checks sites are calls to check functions and
   stay as they are; every other site gets a marker call, __sampler_site
   (INDEX, VALUES...), placed where its observation happens and holding the
   values it observes.  Markers look like calls to the rest of the plugin,
   so the transformation treats every site alike.  */

#include "sampler-plugin.h"

#include <string.h>

#include "context.h"
#include "tree-pass.h"
#include "function.h"
#include "basic-block.h"
#include "cfg.h"
#include "cfghooks.h"
#include "cfganal.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "gimple-walk.h"
#include "tree-cfg.h"
#include "cgraph.h"
#include "stringpool.h"
#include "attribs.h"
#include "tree-pretty-print.h"
#include "cfgexpand.h"
#include "ssa.h"
#include "gimplify.h"
#include "diagnostic-core.h"

vec<site_info> unit_sites;
unsigned unit_counters;

/* The template of every marker: an assembler comment, should one ever
   reach the output.  */
static const char marker_template[] = "# sampler site";

bool
is_site_marker (gimple *stmt)
{
  gasm *marker = dyn_cast <gasm *> (stmt);
  return marker && strcmp (gimple_asm_string (marker), marker_template) == 0;
}

int
count_markers (function *fn)
{
  int markers = 0;
  basic_block bb;
  FOR_EACH_BB_FN (bb, fn)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      if (is_site_marker (gsi_stmt (gsi)))
	markers++;
  return markers;
}

bool
is_taken_marker (gimple *stmt)
{
  return is_site_marker (stmt) && gimple_asm_noutputs (as_a <gasm *> (stmt));
}

unsigned
marker_site (gimple *stmt)
{
  tree index = TREE_VALUE (gimple_asm_input_op (as_a <gasm *> (stmt), 0));
  return tree_to_uhwi (index);
}

unsigned
marker_num_values (gimple *stmt)
{
  return gimple_asm_ninputs (as_a <gasm *> (stmt)) - 1;
}

tree
marker_value (gimple *stmt, unsigned i)
{
  return TREE_VALUE (gimple_asm_input_op (as_a <gasm *> (stmt), i + 1));
}

tree
marker_taken (gimple *stmt)
{
  return TREE_VALUE (gimple_asm_output_op (as_a <gasm *> (stmt), 0));
}

unsigned
site_count (gimple *stmt)
{
  if (unit_sites[marker_site (stmt)].scheme == SCHEME_SCALAR_PAIRS)
    return marker_num_values (stmt) - 1;
  return 1;
}

/* ---------------------------------------------------------------------
   Source-like text for predicates.  The gimplifier has split expressions
   into temporaries; put them back together for printing.  */

/* The bit-field of OBJECT that `BIT_FIELD_REF <OBJECT, SIZE, POS> & MASK'
   reads (GCC folds a test of a one-bit field into that form), or
   NULL_TREE.  */
static tree
bit_field_of_mask (tree bit_ref, tree mask)
{
  tree object = TREE_OPERAND (bit_ref, 0);
  if (TREE_CODE (TREE_TYPE (object)) != RECORD_TYPE
      || !tree_fits_uhwi_p (TREE_OPERAND (bit_ref, 2))
      || TREE_CODE (mask) != INTEGER_CST || integer_zerop (mask))
    return NULL_TREE;
  wide_int bits = wi::to_wide (mask);
  unsigned low = wi::ctz (bits);
  unsigned width = wi::popcount (bits);
  if (wi::ne_p (wi::lrshift (bits, low),
		wi::mask (width, false, bits.get_precision ())))
    return NULL_TREE;		/* Not one run of bits.  */
  /* Bit numbering of BIT_FIELD_REF follows the target's bit order; on
     little-endian targets bit 0 of the mask is the lowest position.  */
  if (BYTES_BIG_ENDIAN)
    return NULL_TREE;
  unsigned HOST_WIDE_INT position
    = tree_to_uhwi (TREE_OPERAND (bit_ref, 2)) + low;
  for (tree field = TYPE_FIELDS (TREE_TYPE (object)); field;
       field = DECL_CHAIN (field))
    if (TREE_CODE (field) == FIELD_DECL && DECL_BIT_FIELD (field)
	&& DECL_NAME (field)
	&& tree_fits_uhwi_p (bit_position (field))
	&& tree_to_uhwi (bit_position (field)) == position
	&& tree_fits_uhwi_p (DECL_SIZE (field))
	&& tree_to_uhwi (DECL_SIZE (field)) == width)
      return build3 (COMPONENT_REF, TREE_TYPE (field), object, field,
		     NULL_TREE);
  return NULL_TREE;
}

static tree source_expression (tree t, int depth);

/* Whether converting to TO keeps every value of FROM: a widening between
   integers that keeps the sign, or between floating types, or a change of
   pointer type.  The text leaves such conversions out; others (narrowing,
   signedness, between integers and floating point) change the value and
   are printed.  */
static bool
value_preserving_conversion_p (tree to, tree from)
{
  if (POINTER_TYPE_P (to) || POINTER_TYPE_P (from))
    return POINTER_TYPE_P (to) == POINTER_TYPE_P (from);
  if (SCALAR_FLOAT_TYPE_P (to) && SCALAR_FLOAT_TYPE_P (from))
    return TYPE_PRECISION (to) >= TYPE_PRECISION (from);
  if (!INTEGRAL_TYPE_P (to) || !INTEGRAL_TYPE_P (from))
    return false;
  if (TREE_CODE (from) == BOOLEAN_TYPE)
    return true;
  if (TYPE_PRECISION (to) > TYPE_PRECISION (from))
    return TYPE_UNSIGNED (from) || !TYPE_UNSIGNED (to);
  return (TYPE_PRECISION (to) == TYPE_PRECISION (from)
	  && TYPE_UNSIGNED (to) == TYPE_UNSIGNED (from));
}

/* P + X of pointer type TYPE, a tree for printing only (build2 refuses
   PLUS_EXPR on pointers).  */
static tree
pointer_sum (tree type, tree p, tree x)
{
  tree sum = make_node (PLUS_EXPR);
  TREE_TYPE (sum) = type;
  TREE_OPERAND (sum, 0) = p;
  TREE_OPERAND (sum, 1) = x;
  return sum;
}

/* The pointer P plus OFFSET bytes (GCC's POINTER_PLUS_EXPR) in C's terms:
   P + OFFSET / size when OFFSET is a multiple of the pointed-to size,
   else (T *) ((char *) P + OFFSET).  */
static tree
pointer_plus_in_c (tree type, tree p, tree offset)
{
  tree size = TYPE_SIZE_UNIT (TREE_TYPE (type));
  if (size && TREE_CODE (size) == INTEGER_CST && !integer_zerop (size))
    {
      if (TREE_CODE (offset) == INTEGER_CST)
	{
	  wide_int bytes = wi::sext (wi::to_wide (offset),
				     TYPE_PRECISION (TREE_TYPE (offset)));
	  wide_int unit = wi::to_wide (size, bytes.get_precision ());
	  if (wi::multiple_of_p (bytes, unit, SIGNED))
	    return pointer_sum (type, p,
				wide_int_to_tree (ssizetype,
						  wi::sdiv_trunc (bytes, unit)));
	}
      if (TREE_CODE (offset) == MULT_EXPR
	  && TREE_CODE (TREE_OPERAND (offset, 1)) == INTEGER_CST
	  && tree_int_cst_equal (TREE_OPERAND (offset, 1), size))
	return pointer_sum (type, p, TREE_OPERAND (offset, 0));
    }
  tree bytes = build_pointer_type (char_type_node);
  return build1 (NOP_EXPR, type,
		 pointer_sum (bytes, build1 (NOP_EXPR, bytes, p), offset));
}

/* GCC's codes that C has no operator for, in C's terms (their operands
   appear twice: copies), or NULL_TREE.  */
static tree
in_c_terms (tree t)
{
  tree type = TREE_TYPE (t);
  tree a = TREE_OPERAND (t, 0);
  switch (TREE_CODE (t))
    {
    case MIN_EXPR:
    case MAX_EXPR:
      {
	tree b = TREE_OPERAND (t, 1);
	return build3 (COND_EXPR, type,
		       build2 (TREE_CODE (t) == MIN_EXPR ? LT_EXPR : GT_EXPR,
			       boolean_type_node, a, b),
		       unshare_expr (a), unshare_expr (b));
      }
    case ABS_EXPR:
    case ABSU_EXPR:
      return build3 (COND_EXPR, type,
		     build2 (LT_EXPR, boolean_type_node, a,
			     build_zero_cst (TREE_TYPE (a))),
		     build1 (NEGATE_EXPR, type, unshare_expr (a)),
		     unshare_expr (a));
    case LROTATE_EXPR:
    case RROTATE_EXPR:
      {
	tree n = TREE_OPERAND (t, 1);
	if (TREE_CODE (n) != INTEGER_CST || !tree_fits_uhwi_p (n)
	    || !TYPE_UNSIGNED (type))
	  return NULL_TREE;
	unsigned HOST_WIDE_INT bits = TYPE_PRECISION (type);
	unsigned HOST_WIDE_INT count = tree_to_uhwi (n) % bits;
	if (count == 0)
	  return a;
	tree first = build_int_cst (integer_type_node, count);
	tree second = build_int_cst (integer_type_node, bits - count);
	bool left = TREE_CODE (t) == LROTATE_EXPR;
	return build2 (BIT_IOR_EXPR, type,
		       build2 (left ? LSHIFT_EXPR : RSHIFT_EXPR, type, a, first),
		       build2 (left ? RSHIFT_EXPR : LSHIFT_EXPR, type,
			       unshare_expr (a), second));
      }
    /* Floating comparisons that are also true when unordered: the
       negation of the opposite ordered comparison.  */
    case UNLT_EXPR:
    case UNLE_EXPR:
    case UNGT_EXPR:
    case UNGE_EXPR:
      {
	static const struct { tree_code code, opposite; } opposites[] = {
	  { UNLT_EXPR, GE_EXPR }, { UNLE_EXPR, GT_EXPR },
	  { UNGT_EXPR, LE_EXPR }, { UNGE_EXPR, LT_EXPR },
	};
	for (auto pair : opposites)
	  if (pair.code == TREE_CODE (t))
	    return build1 (TRUTH_NOT_EXPR, type,
			   build2 (pair.opposite, type, a,
				   TREE_OPERAND (t, 1)));
	return NULL_TREE;
      }
    case UNEQ_EXPR:
    case LTGT_EXPR:
      {
	tree b = TREE_OPERAND (t, 1);
	tree apart = build2 (TRUTH_ORIF_EXPR, type,
			     build2 (LT_EXPR, type, a, b),
			     build2 (GT_EXPR, type, unshare_expr (a),
				     unshare_expr (b)));
	return (TREE_CODE (t) == LTGT_EXPR ? apart
		: build1 (TRUTH_NOT_EXPR, type, apart));
      }
    case ORDERED_EXPR:
    case UNORDERED_EXPR:
      {
	tree b = TREE_OPERAND (t, 1);
	bool ordered = TREE_CODE (t) == ORDERED_EXPR;
	tree_code same = ordered ? EQ_EXPR : NE_EXPR;
	return build2 (ordered ? TRUTH_ANDIF_EXPR : TRUTH_ORIF_EXPR, type,
		       build2 (same, type, a, unshare_expr (a)),
		       build2 (same, type, b, unshare_expr (b)));
      }
    default:
      return NULL_TREE;
    }
}

/* Whether T is arithmetic that wraps in a type narrower than int, whose
   value C (which computes in int) gives only with a cast: a sum, product,
   negation, left shift or complement of unsigned chars, say.  */
static bool
narrow_arithmetic_p (tree t)
{
  if (!INTEGRAL_TYPE_P (TREE_TYPE (t))
      || TYPE_PRECISION (TREE_TYPE (t)) >= TYPE_PRECISION (integer_type_node))
    return false;
  switch (TREE_CODE (t))
    {
    case PLUS_EXPR: case MINUS_EXPR: case MULT_EXPR: case NEGATE_EXPR:
    case LSHIFT_EXPR: case BIT_NOT_EXPR: case TRUNC_DIV_EXPR:
    case TRUNC_MOD_EXPR: case EXACT_DIV_EXPR: case LROTATE_EXPR:
    case RROTATE_EXPR: case ABS_EXPR:
      return true;
    default:
      return false;
    }
}

static tree
substitute_temporaries (tree *tp, int *walk_subtrees, void *data)
{
  int depth = *(int *) data;
  /* Conversions that keep the value are noise in the text.  */
  while ((CONVERT_EXPR_P (*tp) || TREE_CODE (*tp) == NON_LVALUE_EXPR)
	 && value_preserving_conversion_p (TREE_TYPE (*tp),
					   TREE_TYPE (TREE_OPERAND (*tp, 0))))
    *tp = TREE_OPERAND (*tp, 0);
  /* Narrow arithmetic: computed in int, as C does, then cast back to its
     type, where it wraps.  */
  if (narrow_arithmetic_p (*tp))
    {
      tree in_int = copy_node (*tp);
      TREE_TYPE (in_int) = integer_type_node;
      *tp = build1 (NOP_EXPR, TREE_TYPE (*tp), in_int);
      return NULL_TREE;
    }
  if (EXPR_P (*tp) && TREE_CODE_LENGTH (TREE_CODE (*tp)) >= 1)
    if (tree rewritten = in_c_terms (*tp))
      *tp = rewritten;
  /* A memory reference *(P + OFFSET bytes): in C's terms, with P's own
     text.  A TARGET_MEM_REF is left as it is.  */
  if (TREE_CODE (*tp) == MEM_REF)
    {
      tree type = TREE_TYPE (*tp);
      tree address = TREE_OPERAND (*tp, 0);
      walk_tree (&address, substitute_temporaries, data, NULL);
      tree pointer = build_pointer_type (type);
      if (!POINTER_TYPE_P (TREE_TYPE (address))
	  || TYPE_MAIN_VARIANT (TREE_TYPE (TREE_TYPE (address)))
	     != TYPE_MAIN_VARIANT (type))
	address = build1 (NOP_EXPR, pointer, address);
      tree offset = TREE_OPERAND (*tp, 1);
      if (!integer_zerop (offset))
	address = pointer_plus_in_c (TREE_TYPE (address), address,
				     wide_int_to_tree (sizetype,
						       wi::to_wide (offset)));
      *tp = build1 (INDIRECT_REF, type, address);
      *walk_subtrees = 0;
      return NULL_TREE;
    }
  if (TREE_CODE (*tp) == TARGET_MEM_REF)
    {
      walk_tree (&TREE_OPERAND (*tp, 0), substitute_temporaries, data, NULL);
      *walk_subtrees = 0;
      return NULL_TREE;
    }
  if (TREE_CODE (*tp) == POINTER_PLUS_EXPR)
    {
      tree p = TREE_OPERAND (*tp, 0), offset = TREE_OPERAND (*tp, 1);
      walk_tree (&p, substitute_temporaries, data, NULL);
      walk_tree (&offset, substitute_temporaries, data, NULL);
      *tp = pointer_plus_in_c (TREE_TYPE (*tp), p, offset);
      *walk_subtrees = 0;
      return NULL_TREE;
    }
  /* Print as C would be written: a null pointer as 0 (not 0B), and logical
     operations on truth values as && and ||.  */
  if (TREE_CODE (*tp) == INTEGER_CST && POINTER_TYPE_P (TREE_TYPE (*tp)))
    *tp = wide_int_to_tree (long_integer_type_node, wi::to_wide (*tp));
  else if ((TREE_CODE (*tp) == BIT_AND_EXPR || TREE_CODE (*tp) == BIT_IOR_EXPR)
	   && TREE_CODE (TREE_TYPE (*tp)) == BOOLEAN_TYPE)
    *tp = build2 (TREE_CODE (*tp) == BIT_AND_EXPR ? TRUTH_ANDIF_EXPR
		  : TRUTH_ORIF_EXPR, TREE_TYPE (*tp), TREE_OPERAND (*tp, 0),
		  TREE_OPERAND (*tp, 1));
  if (TREE_CODE (*tp) == BIT_AND_EXPR
      && TREE_CODE (TREE_OPERAND (*tp, 0)) == SSA_NAME)
    walk_tree (&TREE_OPERAND (*tp, 0), substitute_temporaries, data, NULL);
  if (TREE_CODE (*tp) == BIT_AND_EXPR
      && TREE_CODE (TREE_OPERAND (*tp, 0)) == BIT_FIELD_REF)
    if (tree field = bit_field_of_mask (TREE_OPERAND (*tp, 0),
					TREE_OPERAND (*tp, 1)))
      {
	/* Only the field's zero-ness is kept: right for the `!= 0' and
	   `== 0' tests GCC folds into this form.  */
	*tp = field;
	*walk_subtrees = 0;
	return NULL_TREE;
      }
  if (TREE_CODE (*tp) == SSA_NAME)
    {
      *tp = source_expression (*tp, depth);
      *walk_subtrees = 0;
    }
  else if (TYPE_P (*tp) || DECL_P (*tp))
    *walk_subtrees = 0;
  return NULL_TREE;
}

/* A stand-in whose printed name is TEXT.  */
static tree
named_placeholder (const char *text, tree type)
{
  return build_decl (UNKNOWN_LOCATION, VAR_DECL, get_identifier (text), type);
}

static const char *
callee_text (gimple *call)
{
  tree fndecl = gimple_call_fndecl (call);
  if (fndecl && DECL_NAME (fndecl))
    return IDENTIFIER_POINTER (DECL_NAME (fndecl));
  return "(*fn)";
}

static tree
source_expression (tree t, int depth)
{
  if (TREE_CODE (t) != SSA_NAME)
    return t;
  gimple *def = SSA_NAME_DEF_STMT (t);
  if (depth > 0 && def && is_gimple_assign (def))
    {
      tree rhs = unshare_expr (gimple_assign_rhs_to_tree (def));
      int inner = depth - 1;
      walk_tree (&rhs, substitute_temporaries, &inner, NULL);
      return rhs;
    }
  if (def && is_gimple_call (def))
    {
      char *text = concat (callee_text (def), " (...)", NULL);
      tree stand_in = named_placeholder (text, TREE_TYPE (t));
      free (text);
      return stand_in;
    }
  return named_placeholder ("(...)", TREE_TYPE (t));
}

/* Source-like text for the value T (xmalloc'd).  GCC's printer puts in
   the parentheses that C's precedence needs (op_prio); the text is built
   as one tree so that it can.  */
static char *
expression_text (tree t)
{
  int depth = 4;
  tree expr = unshare_expr (t);
  walk_tree (&expr, substitute_temporaries, &depth, NULL);
  return print_generic_expr_to_str (expr);
}



/* ---------------------------------------------------------------------
   Registering sites.  */

static unsigned
new_site (unsigned scheme, location_t loc, char *predicate,
	  const char *counter_names, unsigned n_counters)
{
  site_info site;
  memset (&site, 0, sizeof site);
  site.scheme = scheme;
  site.loc = loc;
  site.function = current_function_decl;
  site.predicate = predicate;
  site.counter_names = xstrdup (counter_names);
  site.n_counters = n_counters;
  site.first_counter = unit_counters;
  site.value_kind = site_info::VALUE_NONE;
  unit_counters += n_counters;
  unit_sites.safe_push (site);
  return unit_sites.length () - 1;
}

tree
asm_operand (const char *constraint, tree value)
{
  tree text = build_string (strlen (constraint) + 1, constraint);
  return build_tree_list (build_tree_list (NULL_TREE, text), value);
}

/* A marker for site INDEX observing VALUES (with TAKEN, for a check: the
   output that says whether the check call runs).  A volatile asm without
   a memory clobber: the optimisers keep it where the site is, run it as
   often as the site runs (copies of it included, as when a loop is
   unrolled) and keep its operands, yet move memory accesses freely around
   it.  The transformation replaces every marker after the optimisers.  */
static gasm *
build_marker (unsigned index, location_t loc, const vec<tree> &values,
	      tree taken = NULL_TREE)
{
  vec<tree, va_gc> *inputs = NULL, *outputs = NULL;
  vec_safe_push (inputs, asm_operand ("i", build_int_cst (unsigned_type_node,
							  index)));
  for (tree value : values)
    vec_safe_push (inputs, asm_operand (is_gimple_val (value) ? "X" : "m",
					value));
  if (taken)
    vec_safe_push (outputs, asm_operand ("=r", taken));
  gasm *marker = gimple_build_asm_vec (marker_template, inputs, outputs, NULL,
				       NULL);
  gimple_asm_set_volatile (marker, true);
  gimple_set_location (marker, loc);
  /* GCC's late warnings see a marker read what the program may no longer
     read: scalar-pairs compares a pointer just passed to realloc with its
     result (-Wuse-after-free in xz's xrealloc).  A warning about a marker
     says nothing about the user's code, and -Werror builds must build.  */
  suppress_warning (marker);
  return marker;
}

static gasm *
build_marker (unsigned index, location_t loc, tree value = NULL_TREE)
{
  auto_vec<tree> values;
  if (value)
    values.safe_push (value);
  return build_marker (index, loc, values);
}

/* Statements inserted after WHERE, in order: directly, or on the normal
   out edge when WHERE ends its block.  */
struct after_stmt_inserter
{
  gimple_seq seq;
  after_stmt_inserter () : seq (NULL) {}
  void add (gimple *stmt) { gimple_seq_add_stmt (&seq, stmt); }
  void commit (gimple *where)
  {
    if (!seq)
      return;
    if (stmt_ends_bb_p (where))
      {
	edge e;
	edge_iterator ei;
	FOR_EACH_EDGE (e, ei, gimple_bb (where)->succs)
	  if (!(e->flags & (EDGE_ABNORMAL | EDGE_EH)))
	    {
	      gsi_insert_seq_on_edge_immediate (e, seq);
	      return;
	    }
	return;			/* Control never continues after WHERE.  */
      }
    gimple_stmt_iterator gsi = gsi_for_stmt (where);
    gsi_insert_seq_after (&gsi, seq, GSI_NEW_STMT);
  }
};

/* VALUE as an operand a call can take: itself, or a temporary loaded from
   it by a statement added to SEQ.  */
static tree
as_operand (tree value, after_stmt_inserter &seq, location_t loc)
{
  if (is_gimple_val (value))
    return value;
  tree tmp = create_tmp_reg (TREE_TYPE (value), "sampler_value");
  gimple *load = gimple_build_assign (tmp, value);
  gimple_set_location (load, loc);
  suppress_warning (load);
  seq.add (load);
  return tmp;
}

/* ---------------------------------------------------------------------
   The schemes.  */

static enum site_info::value_kind_t
value_kind_of (tree type)
{
  if (POINTER_TYPE_P (type))
    return site_info::VALUE_POINTER;
  if (SCALAR_FLOAT_TYPE_P (type))
    return site_info::VALUE_FLOAT;
  return TYPE_UNSIGNED (type) ? site_info::VALUE_UNSIGNED
			      : site_info::VALUE_SIGNED;
}

static bool
integer_like_type (tree type)
{
  return INTEGRAL_TYPE_P (type) || POINTER_TYPE_P (type);
}

static void
function_entry_site (void)
{
  location_t loc = DECL_SOURCE_LOCATION (current_function_decl);
  unsigned index = new_site (SCHEME_FUNCTION_ENTRIES, loc,
			     concat (function_name (cfun), " ()", NULL),
			     "entered", 1);
  gsi_insert_on_edge_immediate
    (single_succ_edge (ENTRY_BLOCK_PTR_FOR_FN (cfun)), build_marker (index, loc));
}

/* Whether LOC is the program's own code: it has a file, and it is not
   in a system header or in the expansion of a macro a system header
   defines (isinf, assert, putc: their conditionals and calls are the
   library's, and read as compiler temporaries).  */
static bool
source_location_p (location_t loc)
{
  return expand_location (loc).file && !in_system_header_at (loc);
}

static void
branch_site (gcond *cond)
{
  location_t loc = gimple_location (cond);
  char *lhs = expression_text (gimple_cond_lhs (cond));
  char *text;
  /* `if (b)' is `b != 0' in GIMPLE: show it as `b' when b is a truth
     value.  */
  if (gimple_cond_code (cond) == NE_EXPR
      && integer_zerop (gimple_cond_rhs (cond))
      && TREE_CODE (TREE_TYPE (gimple_cond_lhs (cond))) == BOOLEAN_TYPE)
    text = xstrdup (lhs);
  else
    text = expression_text (build2 (gimple_cond_code (cond), boolean_type_node,
				    gimple_cond_lhs (cond),
				    gimple_cond_rhs (cond)));
  free (lhs);
  unsigned index = new_site (SCHEME_BRANCHES, loc, text, "false,true", 2);
  tree outcome = create_tmp_reg (boolean_type_node, "sampler_outcome");
  gimple *test = gimple_build_assign (outcome, gimple_cond_code (cond),
				      gimple_cond_lhs (cond),
				      gimple_cond_rhs (cond));
  gimple_set_location (test, loc);
  gimple_stmt_iterator gsi = gsi_for_stmt (cond);
  gsi_insert_before (&gsi, test, GSI_SAME_STMT);
  gsi_insert_before (&gsi, build_marker (index, loc, outcome), GSI_SAME_STMT);
}

/* The text naming the case labels of SWITCH that lead to DEST.  */
static char *
arm_name (gswitch *sw, basic_block dest)
{
  char *name = NULL;
  for (unsigned i = 0; i < gimple_switch_num_labels (sw); i++)
    {
      tree label = gimple_switch_label (sw, i);
      if (label_to_block (cfun, CASE_LABEL (label)) != dest)
	continue;
      char *part;
      if (!CASE_LOW (label))
	part = xstrdup ("default");
      else
	{
	  char *low = print_generic_expr_to_str (CASE_LOW (label));
	  char *high = CASE_HIGH (label)
		       ? print_generic_expr_to_str (CASE_HIGH (label)) : NULL;
	  part = concat ("case ", low, high ? "..." : "", high ? high : "",
			 NULL);
	  free (low);
	  free (high);
	}
      char *joined = name ? concat (name, "|", part, NULL) : xstrdup (part);
      free (name);
      free (part);
      name = joined;
    }
  /* Counter names are comma-separated.  */
  for (char *p = name; p && *p; p++)
    if (*p == ',')
      *p = ';';
  return name ? name : xstrdup ("?");
}

/* One site for the whole switch, with a counter per arm (distinct target);
   each arm's edge gets a marker naming its counter.  */
static void
switch_site (gswitch *sw)
{
  location_t loc = gimple_location (sw);
  basic_block bb = gimple_bb (sw);
  auto_vec<edge> arms;
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE (e, ei, bb->succs)
    arms.safe_push (e);
  char *names = NULL;
  for (edge arm : arms)
    {
      char *name = arm_name (sw, arm->dest);
      char *joined = names ? concat (names, ",", name, NULL) : xstrdup (name);
      free (names);
      free (name);
      names = joined;
    }
  char *index_text = expression_text (gimple_switch_index (sw));
  unsigned index = new_site (SCHEME_BRANCHES, loc,
			     concat ("switch (", index_text, ")", NULL),
			     names, arms.length ());
  free (index_text);
  free (names);
  for (unsigned k = 0; k < arms.length (); k++)
    gsi_insert_on_edge_immediate
      (arms[k], build_marker (index, loc, build_int_cst (unsigned_type_node,
							  k)));
}

/* Whether CALL's result is one the returns scheme observes.  */
static bool
observable_return (gcall *call)
{
  if (gimple_call_internal_p (call)
      || (gimple_call_flags (call) & (ECF_RETURNS_TWICE | ECF_NORETURN)))
    return false;
  tree type = gimple_call_return_type (call);
  if (!type || !integer_like_type (type))
    return false;
  tree fndecl = gimple_call_fndecl (call);
  /* Compiler helpers (__builtin_*, __atomic_*, __sync_*) are not the
     source's calls; library functions GCC knows (malloc, strlen) are.  */
  if (fndecl && fndecl_built_in_p (fndecl) && DECL_NAME (fndecl)
      && strncmp (IDENTIFIER_POINTER (DECL_NAME (fndecl)), "__", 2) == 0)
    return false;
  return true;
}

static void
return_site (gcall *call)
{
  location_t loc = gimple_location (call);
  tree type = gimple_call_return_type (call);
  after_stmt_inserter after;
  tree lhs = gimple_call_lhs (call);
  tree result;
  if (lhs && is_gimple_reg (lhs))
    result = lhs;
  else
    {
      /* Observe the value itself, not a memory location it is stored to.  */
      result = create_tmp_reg (type, "sampler_result");
      gimple_call_set_lhs (call, result);
      if (lhs)
	{
	  gimple *store = gimple_build_assign (lhs, result);
	  gimple_set_location (store, loc);
	  after.add (store);
	}
    }
  char *text = concat (callee_text (call), " (...)", NULL);
  unsigned index = new_site (SCHEME_RETURNS, loc, text, "<0,==0,>0", 3);
  unit_sites[index].value_kind = value_kind_of (type);
  after.add (build_marker (index, loc, result));
  after.commit (call);
}

/* The variable a statement assigns, if it is a user's scalar variable.  */
static tree
assigned_variable (gimple *stmt)
{
  /* `x = {CLOBBER}' ends x's life (it takes the location of the return or
     goto that leaves the scope): nothing assigned, only a dead value.  */
  if (gimple_clobber_p (stmt))
    return NULL_TREE;
  tree lhs = gimple_get_lhs (stmt);
  if (!lhs || (TREE_CODE (lhs) != VAR_DECL && TREE_CODE (lhs) != PARM_DECL)
      || DECL_ARTIFICIAL (lhs) || !DECL_NAME (lhs)
      || TREE_THIS_VOLATILE (lhs) || DECL_HARD_REGISTER (lhs))
    return NULL_TREE;
  tree type = TREE_TYPE (lhs);
  if (!integer_like_type (type) && !SCALAR_FLOAT_TYPE_P (type))
    return NULL_TREE;
  return lhs;
}

/* ---------------------------------------------------------------------
   Definite assignment of the current function's locals, for scalar-pairs:
   a partner not yet assigned on some path would be compared by its stale
   stack bits, a meaningless predicate and a read of an uninitialized value
   that valgrind and MSan rightly report (sed's valgrind tests failed on
   `b ? b2' with b2 assigned two lines later).  A forward dataflow over the
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

/* The assignment sites of STMT: scalar-pairs, float-kinds, bounds.  */
static void
assignment_sites (gimple *stmt, unsigned schemes)
{
  tree x = assigned_variable (stmt);
  if (!x)
    return;
  location_t loc = gimple_location (stmt);
  if (!source_location_p (loc))
    return;			/* The compiler's, not the source's.  */
  tree type = TREE_TYPE (x);
  const char *name = IDENTIFIER_POINTER (DECL_NAME (x));
  after_stmt_inserter after;
  tree value = as_operand (x, after, loc);

  if ((schemes & SCHEME_SCALAR_PAIRS) && integer_like_type (type))
    {
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
	    = new_site (SCHEME_SCALAR_PAIRS, loc,
			concat (name, " ? ",
				IDENTIFIER_POINTER (DECL_NAME (y)), NULL),
			"<,==,>", 3);
	  unit_sites[index].value_kind = value_kind_of (type);
	  /* A partner in memory is read where the site is sampled, and
	     nowhere else: a value loaded for every marker would be loaded
	     (hoisted, kept in a register or on the stack) in the fast copy
	     too, where nothing uses it (gzip's longest_match loaded and
	     spilled ten globals per call).  A constant is loaded at the
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
	    = new_site (SCHEME_SCALAR_PAIRS, loc,
			concat (name, " ? ", c_text, NULL), "<,==,>", 3);
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
  if ((schemes & SCHEME_FLOAT_KINDS) && SCALAR_FLOAT_TYPE_P (type))
    {
      unsigned index
	= new_site (SCHEME_FLOAT_KINDS, loc, xstrdup (name),
		    "nan,-inf,-normal,-subnormal,-0,+0,+subnormal,+normal,+inf",
		    9);
      unit_sites[index].value_kind = site_info::VALUE_FLOAT;
      after.add (build_marker (index, loc, value));
    }
  /* A pointer's range is an address, different in every run (ASLR):
     bounds are for numbers.  */
  if ((schemes & SCHEME_BOUNDS) && !POINTER_TYPE_P (type))
    {
      enum site_info::value_kind_t kind = value_kind_of (type);
      const char *kind_text = kind == site_info::VALUE_FLOAT ? "double"
			      : kind == site_info::VALUE_SIGNED ? "signed"
			      : "unsigned";
      unsigned index = new_site (SCHEME_BOUNDS, loc,
				 concat (name, " (", kind_text, ")", NULL),
				 "count,min,max", 3);
      unit_sites[index].value_kind = kind;
      after.add (build_marker (index, loc, value));
    }
  after.commit (stmt);
}

/* Makes the call to a check function CALL, site INDEX, run only when the
   site is sampled: `if (TAKEN) CALL', TAKEN set by the site's marker; a
   skipped call's result reads as zero.  The arguments are evaluated
   either way.  */
static void
check_site (gcall *call, unsigned index)
{
  location_t loc = gimple_location (call);
  tree taken = create_tmp_reg (boolean_type_node, "sampler_taken");
  auto_vec<tree> no_values;
  gasm *marker = build_marker (index, loc, no_values, taken);
  gimple_stmt_iterator gsi = gsi_for_stmt (call);
  gsi_insert_before (&gsi, marker, GSI_SAME_STMT);
  basic_block test = gimple_bb (marker);
  basic_block body = split_block (test, marker)->dest;
  /* Where an unsampled visit goes: a block of its own on the way out of
     the call, which zeroes the result.  */
  edge out;
  if (stmt_ends_bb_p (call))
    {
      edge e;
      edge_iterator ei;
      out = NULL;
      FOR_EACH_EDGE (e, ei, body->succs)
	if (!(e->flags & (EDGE_ABNORMAL | EDGE_EH)))
	  out = e;
      gcc_assert (out);
    }
  else
    out = split_block (body, call);
  basic_block after = split_edge (out);
  edge run = single_succ_edge (test);
  run->flags &= ~EDGE_FALLTHRU;
  run->flags |= EDGE_TRUE_VALUE;
  run->probability = profile_probability::very_unlikely ();
  gcond *cond = gimple_build_cond (NE_EXPR, taken, boolean_false_node,
				   NULL_TREE, NULL_TREE);
  gimple_set_location (cond, loc);
  gsi = gsi_last_bb (test);
  gsi_insert_after (&gsi, cond, GSI_NEW_STMT);
  edge skip = make_edge (test, after, EDGE_FALSE_VALUE);
  skip->probability = run->probability.invert ();
  if (tree lhs = gimple_call_lhs (call))
    {
      gimple *zero = gimple_build_assign (lhs, build_zero_cst (TREE_TYPE (lhs)));
      gimple_set_location (zero, loc);
      gsi_insert_on_edge_immediate (skip, zero);
    }
}

/* Finds and marks the sites of the current function.  */
static void
discover_function_sites (void)
{
  unsigned schemes = sampler_opts.schemes;
  auto_vec<gimple *> stmts;
  auto_vec<int> stmt_blocks;	/* Each statement's block, before any split.  */
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      {
	stmts.safe_push (gsi_stmt (gsi));
	stmt_blocks.safe_push (bb->index);
      }
  sbitmap *assigned_on_entry = NULL;
  if (schemes & SCHEME_SCALAR_PAIRS)
    {
      assigned_on_entry = definitely_assigned_on_entry ();
      assigned_now = sbitmap_alloc (SBITMAP_SIZE (assigned_on_entry[0]));
    }

  if ((schemes & SCHEME_SCALAR_PAIRS) && sampler_opts.pairs_constants)
    collect_function_constants (stmts);
  if (schemes & SCHEME_SCALAR_PAIRS)
    collect_function_externals (stmts);
  if (schemes & SCHEME_FUNCTION_ENTRIES)
    function_entry_site ();
  for (unsigned i = 0; i < stmts.length (); i++)
    {
      gimple *stmt = stmts[i];
      /* Pairs are read right after their statement.  */
      if (assigned_on_entry)
	{
	  if (i == 0 || stmt_blocks[i] != stmt_blocks[i - 1])
	    bitmap_copy (assigned_now, assigned_on_entry[stmt_blocks[i]]);
	  assignment_transfer (stmt, assigned_now);
	}
      location_t loc = gimple_location (stmt);
      if (gcond *cond = dyn_cast <gcond *> (stmt))
	{
	  if ((schemes & SCHEME_BRANCHES) && source_location_p (loc))
	    branch_site (cond);
	}
      else if (gswitch *sw = dyn_cast <gswitch *> (stmt))
	{
	  if ((schemes & SCHEME_BRANCHES) && source_location_p (loc))
	    switch_site (sw);
	}
      else if (gcall *call = dyn_cast <gcall *> (stmt))
	{
	  tree fndecl = gimple_call_fndecl (call);
	  if (fndecl && is_check_function (fndecl))
	    {
	      if ((schemes & SCHEME_CHECKS) && gimple_call_noreturn_p (call))
		/* An unsampled visit skips the call and goes on after it,
		   which a noreturn function does not allow.  */
		error_at (loc, "sampler: %qD is %<noreturn%> and cannot be a "
			  "sampled check: unsampled calls would fall through",
			  fndecl);
	      else if (schemes & SCHEME_CHECKS)
		{
		  char *text = concat (callee_text (call), " (...)", NULL);
		  check_site (call, new_site (SCHEME_CHECKS, loc, text,
					      "sampled", 1));
		}
	      continue;
	    }
	  /* Assignment sites first: a returns site may move the result into
	     a temporary, stored to the variable after the call.  */
	  assignment_sites (call, schemes);
	  if ((schemes & SCHEME_RETURNS) && source_location_p (loc)
	      && observable_return (call))
	    return_site (call);
	}
      else if (is_gimple_assign (stmt))
	assignment_sites (stmt, schemes);
    }
  if (assigned_on_entry)
    {
      sbitmap_vector_free (assigned_on_entry);
      sbitmap_free (assigned_now);
      assigned_now = NULL;
    }
}

void
discover_sites (void)
{
  cgraph_node *node;
  FOR_EACH_FUNCTION_WITH_GIMPLE_BODY (node)
    {
      function *fn = DECL_STRUCT_FUNCTION (node->decl);
      if (!fn || !fn->cfg || !function_selected (node->decl))
	continue;
      push_cfun (fn);
      discover_function_sites ();
      /* The call graph's references, built before this pass, learn what
	 the markers read: a variable that only markers read is then still
	 read, and kept, with its stores.  */
      cgraph_edge::rebuild_edges ();
      pop_cfun ();
    }
}
