/* sampler.so: source-like text for the sites' predicates.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).

   What.  expression_text prints a value of the program as C would write
   it, for a predicate of the site table ("x < y", "p->next == 0"): the
   gimplifier has split the source's expressions into temporaries, which
   it puts back together (source_expression), and GCC's codes that C has
   no operator for become C (in_c_terms, pointer_plus_in_c).

   Why: the report shows a predicate to a person, who reads C; and the
   text is part of a site's identity, which rates files and reports of
   other builds match.

   How to debug: site-table=FILE lists every site's predicate;
   testsuite/plugin/predicate-text.py checks that the branches' texts
   mean what their conditions mean.  */

#include "schemes.h"

#include "tree-pretty-print.h"
#include "gimple.h"
#include "stringpool.h"
#include "ssa.h"
#include "gimplify.h"
#include "cfgexpand.h"

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

const char *
callee_text (gimple *call)
{
  tree fndecl = gimple_call_fndecl (call);
  if (fndecl && DECL_NAME (fndecl))
    return callee_display_name (fndecl);
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

/* GCC's printer puts in the parentheses that C's precedence needs
   (op_prio); the text is built as one tree so that it can.  */
char *
expression_text (tree t)
{
  int depth = 4;
  tree expr = unshare_expr (t);
  walk_tree (&expr, substitute_temporaries, &depth, NULL);
  return print_generic_expr_to_str (expr);
}
