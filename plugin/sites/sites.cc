/* sampler.so: finding the sites of the selected functions, for every
   scheme, and what the schemes' files share to describe and mark them.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).

   Runs in the sites pass, on each selected function, before the weightless
   fixpoint, GCC's optimisers and the countdown transformation.  It walks
   the function's statements and calls the hooks of each enabled scheme
   (plugin/schemes/<scheme>.cc, see schemes.h), which register their sites
   and put a marker where each observation happens: a volatile asm holding
   the site's index and the values it observes (see build_marker).  After
   the optimisers, the transformation replaces each marker by the site's
   sample call in the slow copy and by nothing in the fast copy, so it
   treats the sites of every scheme alike.  A check site's marker also
   says whether the call to the check function runs.  */

#include "schemes.h"

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
  const site_info &site = unit_sites[marker_site (stmt)];
  if (unsigned (*sites) (gimple *) = plugin_schemes[site.scheme]->marker_sites)
    return sites (stmt);
  return 1;
}

unsigned
marker_visits (gimple *stmt)
{
  const site_info &site = unit_sites[marker_site (stmt)];
  unsigned visits = site_count (stmt);
  if (unsigned (*scheme_visits) (gimple *)
      = plugin_schemes[site.scheme]->marker_visits)
    visits = scheme_visits (stmt);
  return visits * site.weight;
}

unsigned
marker_array_values (gimple *stmt)
{
  const site_info &site = unit_sites[marker_site (stmt)];
  if (unsigned (*values) (gimple *)
      = plugin_schemes[site.scheme]->marker_array_values)
    return values (stmt);
  return 0;
}

/* ---------------------------------------------------------------------
   The registry.  */

const plugin_scheme *const plugin_schemes[SAMPLER_N_SCHEMES] = {
#define SAMPLER_SCHEME(ID, NAME, N_COUNTERS, COUNTERS, MERGE, TEXT) \
  &ID##_scheme,
#include "../runtime/schemes.def"
};

static const char *const registry_counter_names[SAMPLER_N_SCHEMES] = {
#define SAMPLER_SCHEME(ID, NAME, N_COUNTERS, COUNTERS, MERGE, TEXT) COUNTERS,
#include "../runtime/schemes.def"
};

static const unsigned registry_counter_count[SAMPLER_N_SCHEMES] = {
#define SAMPLER_SCHEME(ID, NAME, N_COUNTERS, COUNTERS, MERGE, TEXT) N_COUNTERS,
#include "../runtime/schemes.def"
};

const char *
scheme_counter_names (enum sampler_scheme_id id)
{
  return registry_counter_names[id];
}

/* For a scheme whose sites have any number of counters, that of the
   registry's names.  */
unsigned
scheme_counter_count (enum sampler_scheme_id id)
{
  if (registry_counter_count[id])
    return registry_counter_count[id];
  unsigned n = 1;
  for (const char *p = registry_counter_names[id]; *p; p++)
    n += *p == ',';
  return n;
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

const char *
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


/* ---------------------------------------------------------------------
   Registering sites.  */

unsigned
new_site (enum sampler_scheme_id scheme, location_t loc, char *predicate,
	  const char *counter_names, unsigned n_counters)
{
  site_info site;
  memset (&site, 0, sizeof site);
  site.scheme = scheme;
  site.loc = loc;
  site.function = current_function_decl;
  site.predicate = predicate;
  site.counter_names = xstrdup (counter_names ? counter_names
				: scheme_counter_names (scheme));
  site.n_counters = n_counters ? n_counters : scheme_counter_count (scheme);
  site.first_counter = unit_counters;
  site.value_kind = site_info::VALUE_NONE;
  site.weight = sampler_opts.countdown_unit;
  unit_counters += site.n_counters;
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
gasm *
build_marker (unsigned index, location_t loc, const vec<tree> &values,
	      tree taken)
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
     result (-Wuse-after-free).  A warning about a marker
     says nothing about the user's code, and -Werror builds must build.  */
  suppress_warning (marker);
  return marker;
}

gasm *
build_marker (unsigned index, location_t loc, tree value)
{
  auto_vec<tree> values;
  if (value)
    values.safe_push (value);
  return build_marker (index, loc, values);
}

void
after_stmt_inserter::add (gimple *stmt)
{
  gimple_seq_add_stmt (&seq, stmt);
}

void
after_stmt_inserter::commit (gimple *where)
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

tree
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
   What the schemes share.  */

enum site_info::value_kind_t
value_kind_of (tree type)
{
  if (POINTER_TYPE_P (type))
    return site_info::VALUE_POINTER;
  if (SCALAR_FLOAT_TYPE_P (type))
    return site_info::VALUE_FLOAT;
  return TYPE_UNSIGNED (type) ? site_info::VALUE_UNSIGNED
			      : site_info::VALUE_SIGNED;
}

bool
integer_like_type (tree type)
{
  return INTEGRAL_TYPE_P (type) || POINTER_TYPE_P (type);
}

/* Whether LOC is the program's own code: it has a file, and it is not
   in a system header or in the expansion of a macro a system header
   defines (isinf, assert, putc: their conditionals and calls are the
   library's, and read as compiler temporaries).  */
bool
source_location_p (location_t loc)
{
  return expand_location (loc).file && !in_system_header_at (loc);
}

tree
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
   The walk.  */

/* Finds and marks the sites of the current function.  */
static void
discover_function_sites (void)
{
  auto_vec<const plugin_scheme *> schemes;
  for (unsigned id = 0; id < SAMPLER_N_SCHEMES; id++)
    if (sampler_opts.schemes & SCHEME_BIT (id))
      schemes.safe_push (plugin_schemes[id]);
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
  for (const plugin_scheme *scheme : schemes)
    if (scheme->begin_function)
      scheme->begin_function (stmts);
  for (unsigned i = 0; i < stmts.length (); i++)
    {
      gimple *stmt = stmts[i];
      bool block_start = i == 0 || stmt_blocks[i] != stmt_blocks[i - 1];
      for (const plugin_scheme *scheme : schemes)
	if (scheme->track_statement)
	  scheme->track_statement (stmt, stmt_blocks[i], block_start);
      /* A call to a check function is a site of the checks scheme, or
	 nothing: never another scheme's.  */
      if (gcall *call = dyn_cast <gcall *> (stmt))
	{
	  tree fndecl = gimple_call_fndecl (call);
	  if (fndecl && is_check_function (fndecl))
	    {
	      if (sampler_opts.schemes & SCHEME_BIT (SAMPLER_SCHEME_CHECKS))
		CHECKS_scheme.statement (call);
	      continue;
	    }
	}
      /* Assignment sites first: a returns site may move a call's result
	 into a temporary, stored to the variable after the call.  The
	 value's operand is made whichever schemes are on: a load that no
	 marker reads is left to GCC's dead-code elimination, which does not
	 run at -O0.  */
      tree x = assigned_variable (stmt);
      location_t loc = gimple_location (stmt);
      if (x && source_location_p (loc))
	{
	  after_stmt_inserter after;
	  tree value = as_operand (x, after, loc);
	  for (const plugin_scheme *scheme : schemes)
	    if (scheme->assignment)
	      scheme->assignment (stmt, x, value, after);
	  after.commit (stmt);
	}
      for (const plugin_scheme *scheme : schemes)
	if (scheme->statement && scheme != &CHECKS_scheme)
	  scheme->statement (stmt);
    }
  for (const plugin_scheme *scheme : schemes)
    if (scheme->end_function)
      scheme->end_function ();
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
      unsigned first = unit_sites.length ();
      discover_function_sites ();
      apply_rates (first);
      /* The call graph's references, built before this pass, learn what
	 the markers read: a variable that only markers read is then still
	 read, and kept, with its stores.  */
      cgraph_edge::rebuild_edges ();
      pop_cfun ();
    }
}
