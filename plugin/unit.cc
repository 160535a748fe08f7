/* sampler.so: what a site does when sampled, and the unit's data: counters,
   descriptor, registering constructor and site table.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).  */

#include "sampler-plugin.h"

#include <stdio.h>
#include <string.h>

#include "context.h"
#include "function.h"
#include "basic-block.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "tree-cfg.h"
#include "cgraph.h"
#include "stringpool.h"
#include "attribs.h"
#include "stor-layout.h"
#include "varasm.h"
#include "toplev.h"
#include "diagnostic-core.h"
#include "builtins.h"

#include "../runtime/sampler-abi.h"

static tree counters_decl;

/* Adds DECL to the unit.  The pass runs after the symbol table has analysed
   its variables, so new ones are analysed here, or they would never be
   output.  */
static void
define_variable (tree decl)
{
  varpool_node::finalize_decl (decl);
  varpool_node::get_create (decl)->analyze ();
}

tree
unit_counters_decl (void)
{
  if (counters_decl)
    return counters_decl;
  tree type = build_array_type_nelts (long_long_unsigned_type_node,
				      MAX (unit_counters, 1u));
  counters_decl = build_decl (BUILTINS_LOCATION, VAR_DECL,
			      get_identifier ("__sampler_counters"), type);
  TREE_STATIC (counters_decl) = 1;
  TREE_ADDRESSABLE (counters_decl) = 1;
  DECL_ARTIFICIAL (counters_decl) = 1;
  DECL_IGNORED_P (counters_decl) = 1;
  /* Referenced only from code and the descriptor, which may be finished
     after symbol removal has looked.  */
  DECL_PRESERVE_P (counters_decl) = 1;
  define_variable (counters_decl);
  return counters_decl;
}

static tree
runtime_observer (const char *name, tree value_type, tree type = NULL_TREE)
{
  if (!type)
    type = build_function_type_list
      (void_type_node, build_pointer_type (long_long_unsigned_type_node),
       value_type, NULL_TREE);
  tree decl = build_fn_decl (name, type);
  TREE_PUBLIC (decl) = 1;
  DECL_EXTERNAL (decl) = 1;
  DECL_ARTIFICIAL (decl) = 1;
  TREE_NOTHROW (decl) = 1;
  DECL_ATTRIBUTES (decl)
    = tree_cons (get_identifier ("leaf"), NULL_TREE, NULL_TREE);
  return decl;
}

/* ---------------------------------------------------------------------
   Instrumentation, inserted before the statement at GSI.  */

static tree
new_temporary (tree type, const char *name)
{
  return create_tmp_reg (type, name);
}

static void
add (gimple_stmt_iterator *gsi, gimple *stmt, location_t loc)
{
  gimple_set_location (stmt, loc);
  suppress_warning (stmt);
  gsi_insert_before (gsi, stmt, GSI_SAME_STMT);
}

/* &counters[FIRST + OFFSET], OFFSET a long value or NULL.  */
static tree
counter_address (gimple_stmt_iterator *gsi, unsigned first, tree offset,
		 location_t loc)
{
  tree counters = unit_counters_decl ();
  tree index;
  if (!offset)
    index = build_int_cst (long_integer_type_node, first);
  else
    {
      index = new_temporary (long_integer_type_node, "sampler_index");
      add (gsi, gimple_build_assign (index, PLUS_EXPR, offset,
				     build_int_cst (long_integer_type_node,
						    first)), loc);
    }
  tree ref = build4 (ARRAY_REF, long_long_unsigned_type_node, counters, index,
		     NULL_TREE, NULL_TREE);
  tree address = build_fold_addr_expr (ref);
  if (is_gimple_min_invariant (address))
    return address;
  tree pointer = new_temporary (TREE_TYPE (address), "sampler_counter");
  add (gsi, gimple_build_assign (pointer, address), loc);
  return pointer;
}

/* A relaxed atomic increment of counters[FIRST + OFFSET].  */
static void
increment (gimple_stmt_iterator *gsi, unsigned first, tree offset,
	   location_t loc)
{
  tree address = counter_address (gsi, first, offset, loc);
  tree fetch_add = builtin_decl_explicit (BUILT_IN_ATOMIC_FETCH_ADD_8);
  add (gsi, gimple_build_call (fetch_add, 3, address,
			       build_int_cst (long_long_unsigned_type_node, 1),
			       build_int_cst (integer_type_node,
					      0 /* __ATOMIC_RELAXED */)), loc);
}

static tree
converted (gimple_stmt_iterator *gsi, tree value, tree type, location_t loc)
{
  tree result = new_temporary (type, "sampler_conv");
  add (gsi, gimple_build_assign (result, NOP_EXPR, value), loc);
  return result;
}

/* VALUE as a 64-bit (or wider) integer of its signedness, with no value
   the optimisers can know.  An observed variable may be uninitialized (a
   scalar-pairs partner not yet assigned; the program's own read of one):
   GCC then assumes whatever suits it -- that a variable only ever set to 0
   or 1 holds 0 or 1, that a _Bool's byte is 0 or 1 -- and may use the
   stale bits themselves as the comparison's result, sending the counter
   index anywhere.  Widening first drops the type's narrow range; the
   volatile slot drops the range of the values assigned.  Slow path only:
   one store and one load.  */
static tree
opaque_integer (gimple_stmt_iterator *gsi, tree value, location_t loc)
{
  tree type = TREE_TYPE (value);
  tree wide = type;
  if (POINTER_TYPE_P (type) || TYPE_PRECISION (type) < 64
      || TREE_CODE (type) != INTEGER_TYPE)
    wide = (POINTER_TYPE_P (type) || TYPE_UNSIGNED (type))
	   ? long_long_unsigned_type_node : long_long_integer_type_node;
  tree widened = wide == type ? value : converted (gsi, value, wide, loc);
  if (CONSTANT_CLASS_P (value))
    return widened;
  tree slot = create_tmp_var (build_qualified_type (wide, TYPE_QUAL_VOLATILE),
			      "sampler_opaque");
  TREE_THIS_VOLATILE (slot) = 1;
  add (gsi, gimple_build_assign (slot, widened), loc);
  tree result = new_temporary (wide, "sampler_observed");
  add (gsi, gimple_build_assign (result, slot), loc);
  return result;
}

/* (A > B) - (A < B) + 1 as a long: 0, 1 or 2 for <, ==, >.  A and B are
   integers or pointers of one type.  */
static tree
three_way (gimple_stmt_iterator *gsi, tree a, tree b, location_t loc)
{
  a = opaque_integer (gsi, a, loc);
  b = opaque_integer (gsi, b, loc);
  tree greater = new_temporary (boolean_type_node, "sampler_gt");
  tree less = new_temporary (boolean_type_node, "sampler_lt");
  add (gsi, gimple_build_assign (greater, GT_EXPR, a, b), loc);
  add (gsi, gimple_build_assign (less, LT_EXPR, a, b), loc);
  tree result = new_temporary (long_integer_type_node, "sampler_cmp");
  add (gsi, gimple_build_assign (result, MINUS_EXPR,
				 converted (gsi, greater, long_integer_type_node,
					    loc),
				 converted (gsi, less, long_integer_type_node,
					    loc)), loc);
  tree shifted = new_temporary (long_integer_type_node, "sampler_cmp");
  add (gsi, gimple_build_assign (shifted, PLUS_EXPR, result,
				 build_int_cst (long_integer_type_node, 1)),
       loc);
  return shifted;
}

static tree observe_signed_fn, observe_unsigned_fn, observe_double_fn,
  observe_float_kind_fn;

static void
observe (gimple_stmt_iterator *gsi, const site_info &site, tree value,
	 location_t loc)
{
  if (!observe_signed_fn)
    {
      observe_signed_fn = runtime_observer ("__sampler_observe_signed",
					    long_long_integer_type_node);
      observe_unsigned_fn = runtime_observer ("__sampler_observe_unsigned",
					      long_long_unsigned_type_node);
      observe_double_fn = runtime_observer ("__sampler_observe_double",
					    double_type_node);
      tree type = build_function_type_list
	(void_type_node, build_pointer_type (long_long_unsigned_type_node),
	 long_double_type_node, integer_type_node, NULL_TREE);
      observe_float_kind_fn = runtime_observer ("__sampler_observe_float_kind",
						long_double_type_node, type);
    }
  tree fn, type;
  if (site.scheme == SCHEME_FLOAT_KINDS)
    fn = observe_float_kind_fn, type = long_double_type_node;
  else if (site.value_kind == site_info::VALUE_FLOAT)
    fn = observe_double_fn, type = double_type_node;
  else if (site.value_kind == site_info::VALUE_SIGNED)
    fn = observe_signed_fn, type = long_long_integer_type_node;
  else
    fn = observe_unsigned_fn, type = long_long_unsigned_type_node;
  tree address = counter_address (gsi, site.first_counter, NULL_TREE, loc);
  tree operand = converted (gsi, value, type, loc);
  if (site.scheme == SCHEME_FLOAT_KINDS)
    {
      /* What is subnormal depends on the value's own type.  */
      tree source = TYPE_MAIN_VARIANT (TREE_TYPE (value));
      int source_type = source == float_type_node ? SAMPLER_FLOAT_TYPE_FLOAT
			: source == double_type_node ? SAMPLER_FLOAT_TYPE_DOUBLE
			: SAMPLER_FLOAT_TYPE_LONG_DOUBLE;
      add (gsi, gimple_build_call (fn, 3, address, operand,
				   build_int_cst (integer_type_node,
						  source_type)), loc);
    }
  else
    add (gsi, gimple_build_call (fn, 2, address, operand), loc);
}

void
emit_instrumentation (gimple *stmt)
{
  const site_info &site = unit_sites[gimple_uid (stmt) - 1];
  location_t loc = gimple_location (stmt);
  gimple_stmt_iterator gsi = gsi_for_stmt (stmt);
  if (!is_site_marker (stmt))
    {
      /* A check: count it; the call itself stays and runs.  */
      increment (&gsi, site.first_counter, NULL_TREE, loc);
      return;
    }
  gcall *marker = as_a <gcall *> (stmt);
  switch (site.scheme)
    {
    case SCHEME_FUNCTION_ENTRIES:
      increment (&gsi, site.first_counter, NULL_TREE, loc);
      break;
    case SCHEME_BRANCHES:
      {
	/* The outcome (0 or 1), or the switch arm's number (a constant).  */
	tree arm = gimple_call_arg (marker, 1);
	if (!CONSTANT_CLASS_P (arm))
	  {
	    tree opaque = opaque_integer (&gsi, arm, loc);
	    tree outcome = new_temporary (boolean_type_node, "sampler_outcome");
	    add (&gsi, gimple_build_assign (outcome, NE_EXPR, opaque,
					    build_zero_cst (TREE_TYPE (opaque))),
		 loc);
	    arm = outcome;
	  }
	increment (&gsi, site.first_counter,
		   converted (&gsi, arm, long_integer_type_node, loc), loc);
      }
      break;
    case SCHEME_RETURNS:
      {
	tree value = gimple_call_arg (marker, 1);
	tree zero = build_zero_cst (TREE_TYPE (value));
	increment (&gsi, site.first_counter,
		   three_way (&gsi, value, zero, loc), loc);
      }
      break;
    case SCHEME_SCALAR_PAIRS:
      increment (&gsi, site.first_counter,
		 three_way (&gsi, gimple_call_arg (marker, 1),
			    gimple_call_arg (marker, 2), loc), loc);
      break;
    case SCHEME_FLOAT_KINDS:
    case SCHEME_BOUNDS:
      observe (&gsi, site, gimple_call_arg (marker, 1), loc);
      break;
    default:
      gcc_unreachable ();
    }
  gsi_remove (&gsi, true);
}

/* ---------------------------------------------------------------------
   The site table.  */

/* Appends FIELD to TEXT with the table's escapes (backslash, TAB,
   newline), after a TAB unless it is the first field.  */
static void
append_field (auto_vec<char> &text, const char *field, bool first = false)
{
  if (!first)
    text.safe_push ('\t');
  for (const char *p = field; *p; p++)
    {
      if (*p == '\\' || *p == '\t' || *p == '\n')
	{
	  text.safe_push ('\\');
	  text.safe_push (*p == '\\' ? '\\' : *p == '\t' ? 't' : 'n');
	}
      else
	text.safe_push (*p);
    }
}

static void
append_number (auto_vec<char> &text, unsigned long value)
{
  char buf[32];
  snprintf (buf, sizeof buf, "%lu", value);
  append_field (text, buf);
}

/* The site lines (without the unit line).  */
static void
site_lines (auto_vec<char> &text)
{
  for (unsigned i = 0; i < unit_sites.length (); i++)
    {
      const site_info &site = unit_sites[i];
      expanded_location xloc = expand_location (site.loc);
      append_field (text, "site", true);
      append_number (text, i);
      append_field (text, scheme_name (site.scheme));
      append_field (text, xloc.file ? xloc.file : "?");
      append_number (text, xloc.line);
      append_number (text, xloc.column);
      append_field (text, IDENTIFIER_POINTER (DECL_NAME (site.function)));
      append_number (text, site.n_counters);
      append_field (text, site.predicate);
      append_field (text, site.counter_names);
      text.safe_push ('\n');
    }
}

/* FNV-1a, 64 bits, continued from HASH.  */
static unsigned long long
fnv1a (unsigned long long hash, const char *data, size_t len)
{
  for (size_t i = 0; i < len; i++)
    {
      hash ^= (unsigned char) data[i];
      hash *= 0x100000001b3ULL;
    }
  return hash;
}

/* The unit's signature: a hash of its sites, the schemes and the main
   source file's bytes, so unchanged code keeps its identity across builds
   and changed code gets a new one.  */
static void
compute_signature (const auto_vec<char> &sites, char signature[33])
{
  unsigned long long h1 = 0xcbf29ce484222325ULL;
  unsigned long long h2 = 0x84222325cbf29ce4ULL;
  h1 = fnv1a (h1, sites.address (), sites.length ());
  h2 = fnv1a (h2, sites.address (), sites.length ());
  char schemes[16];
  snprintf (schemes, sizeof schemes, "%x", sampler_opts.schemes);
  h1 = fnv1a (h1, schemes, strlen (schemes));
  h2 = fnv1a (h2, schemes, strlen (schemes));
  if (FILE *source = fopen (main_input_filename, "rb"))
    {
      char buf[65536];
      size_t n;
      while ((n = fread (buf, 1, sizeof buf, source)) > 0)
	{
	  h1 = fnv1a (h1, buf, n);
	  h2 = fnv1a (h2, buf, n);
	}
      fclose (source);
    }
  snprintf (signature, 33, "%016llx%016llx", h1, h2);
}

/* The whole table: unit line, site lines, end.  */
static void
site_table (const char *signature, auto_vec<char> &table)
{
  append_field (table, "unit", true);
  append_field (table, signature);
  append_field (table, main_input_filename);
  append_number (table, unit_sites.length ());
  append_number (table, unit_counters);
  table.safe_push ('\n');
  site_lines (table);
  append_field (table, "end", true);
  table.safe_push ('\n');
}

static void
append_text (auto_vec<char> &text, const char *s, size_t len)
{
  for (size_t i = 0; i < len; i++)
    text.safe_push (s[i]);
}

/* Puts TABLE into the unit's non-allocated site-table section.  */
static void
emit_site_table_section (const auto_vec<char> &table)
{
  auto_vec<char> text;
  const char *head = "\t.pushsection " SAMPLER_SITE_SECTION ",\"\",@progbits\n";
  append_text (text, head, strlen (head));
  for (unsigned i = 0; i < table.length (); i += 64)
    {
      const char *start = "\t.ascii \"";
      append_text (text, start, strlen (start));
      for (unsigned j = i; j < table.length () && j < i + 64; j++)
	{
	  unsigned char c = table[j];
	  if (c == '"' || c == '\\')
	    {
	      text.safe_push ('\\');
	      text.safe_push (c);
	    }
	  else if (c < 0x20 || c >= 0x7f)
	    {
	      char octal[8];
	      snprintf (octal, sizeof octal, "\\%03o", c);
	      append_text (text, octal, 4);
	    }
	  else
	    text.safe_push (c);
	}
      text.safe_push ('"');
      text.safe_push ('\n');
    }
  const char *tail = "\t.popsection\n";
  append_text (text, tail, strlen (tail));
  symtab->finalize_toplevel_asm (build_string (text.length (),
					       text.address ()));
}

static void
write_site_table_file (const auto_vec<char> &table)
{
  const char *path = sampler_opts.site_table_file;
  FILE *out = fopen (path, "a");
  if (!out || fwrite (table.address (), 1, table.length (), out)
		 != table.length ()
      || fclose (out) != 0)
    error ("sampler: cannot write the site table to %qs: %m", path);
}

/* ---------------------------------------------------------------------
   The unit descriptor and its constructor.  */

static tree
add_field (tree type, const char *name, tree field_type, tree chain)
{
  tree field = build_decl (BUILTINS_LOCATION, FIELD_DECL, get_identifier (name),
			   field_type);
  DECL_FIELD_CONTEXT (field) = type;
  DECL_CHAIN (field) = chain;
  return field;
}

static tree
static_variable (const char *name, tree type, tree init)
{
  tree decl = build_decl (BUILTINS_LOCATION, VAR_DECL, get_identifier (name),
			  type);
  TREE_STATIC (decl) = 1;
  TREE_ADDRESSABLE (decl) = 1;
  DECL_ARTIFICIAL (decl) = 1;
  DECL_IGNORED_P (decl) = 1;
  DECL_INITIAL (decl) = init;
  DECL_PRESERVE_P (decl) = 1;
  define_variable (decl);
  return decl;
}

static tree
string_pointer (const char *text)
{
  return build_string_literal (strlen (text) + 1, text);
}

/* The runtime's __sampler_register_unit or __sampler_unregister_unit.  */
static tree
registry_function (const char *name, tree type)
{
  tree decl = build_fn_decl (name, type);
  TREE_PUBLIC (decl) = 1;
  DECL_EXTERNAL (decl) = 1;
  DECL_ARTIFICIAL (decl) = 1;
  TREE_NOTHROW (decl) = 1;
  return decl;
}

/* struct __sampler_unit, field by field as in sampler-abi.h.  */
static void
emit_descriptor (const char *signature)
{
  tree type = make_node (RECORD_TYPE);
  tree const_char_ptr
    = build_pointer_type (build_qualified_type (char_type_node,
						TYPE_QUAL_CONST));
  tree fields = NULL_TREE;
  /* finish_builtin_struct takes the fields in reverse order.  */
  fields = add_field (type, "version", unsigned_type_node, fields);
  fields = add_field (type, "n_sites", unsigned_type_node, fields);
  fields = add_field (type, "n_counters", unsigned_type_node, fields);
  fields = add_field (type, "reserved", unsigned_type_node, fields);
  fields = add_field (type, "signature", const_char_ptr, fields);
  fields = add_field (type, "source", const_char_ptr, fields);
  fields = add_field (type, "site_offsets",
		      build_pointer_type (build_qualified_type
					  (unsigned_type_node,
					   TYPE_QUAL_CONST)), fields);
  fields = add_field (type, "counters",
		      build_pointer_type (long_long_unsigned_type_node),
		      fields);
  fields = add_field (type, "next", ptr_type_node, fields);
  finish_builtin_struct (type, "__sampler_unit", fields, NULL_TREE);

  /* site_offsets[]: n_sites + 1 entries.  */
  unsigned n_sites = unit_sites.length ();
  tree offsets_type = build_array_type_nelts
    (build_qualified_type (unsigned_type_node, TYPE_QUAL_CONST), n_sites + 1);
  vec<constructor_elt, va_gc> *offsets = NULL;
  for (unsigned i = 0; i <= n_sites; i++)
    CONSTRUCTOR_APPEND_ELT (offsets, NULL_TREE,
			    build_int_cst (unsigned_type_node,
					   i < n_sites
					   ? unit_sites[i].first_counter
					   : unit_counters));
  tree offsets_decl = static_variable ("__sampler_site_offsets", offsets_type,
				       build_constructor (offsets_type,
							  offsets));
  TREE_READONLY (offsets_decl) = 1;

  tree values[] = {
    build_int_cst (unsigned_type_node, SAMPLER_ABI_VERSION),
    build_int_cst (unsigned_type_node, n_sites),
    build_int_cst (unsigned_type_node, unit_counters),
    build_int_cst (unsigned_type_node, 0),
    string_pointer (signature),
    string_pointer (main_input_filename),
    build_fold_addr_expr (offsets_decl),
    fold_convert (build_pointer_type (long_long_unsigned_type_node),
		  build_fold_addr_expr (unit_counters_decl ())),
    null_pointer_node
  };
  vec<constructor_elt, va_gc> *elts = NULL;
  unsigned i = 0;
  for (tree field = TYPE_FIELDS (type); field; field = DECL_CHAIN (field))
    CONSTRUCTOR_APPEND_ELT (elts, field,
			    fold_convert (TREE_TYPE (field), values[i++]));
  tree unit = static_variable ("__sampler_unit", type,
			       build_constructor (type, elts));

  /* Registered by a constructor; unregistered by a destructor, before the
     descriptor's memory goes (dlclose), so that the runtime keeps a copy
     of the counts.  */
  tree registry_type = build_function_type_list
    (void_type_node, build_pointer_type (type), NULL_TREE);
  cgraph_build_static_cdtor ('I', build_call_expr (registry_function
						   ("__sampler_register_unit",
						    registry_type), 1,
						   build_fold_addr_expr (unit)),
			     DEFAULT_INIT_PRIORITY);
  cgraph_build_static_cdtor ('D', build_call_expr (registry_function
						   ("__sampler_unregister_unit",
						    registry_type), 1,
						   build_fold_addr_expr (unit)),
			     DEFAULT_INIT_PRIORITY);
}

void
emit_unit (void)
{
  if (unit_sites.is_empty ())
    return;
  auto_vec<char> sites;
  site_lines (sites);
  char signature[33];
  compute_signature (sites, signature);
  auto_vec<char> table;
  site_table (signature, table);
  emit_site_table_section (table);
  if (sampler_opts.site_table_file)
    write_site_table_file (table);
  emit_descriptor (signature);
}
