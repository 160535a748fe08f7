/* sampler.so: the unit's data: its site table, signature, descriptor
   and registering constructor.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).

   What.  emit_unit emits the unit's site table (a non-allocated section,
   and site-table=FILE), its descriptor (struct __sampler_unit) and the
   constructor and destructor that register and unregister it.

   Why: the runtime knows a unit only through its descriptor, and the
   report tool reads the sites only from the table; a unit's signature
   ties the counts of a report to the table of the build that made them.

   How to debug: site-table=FILE writes the table as text; `objdump -s -j
   .debug_sampler_sites' shows it in an object; `nm' shows
   __sampler_unit, __sampler_counters and the constructor.  */

#include "schemes.h"

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
#include "output.h"
#include "toplev.h"
#include "diagnostic-core.h"
#include "builtins.h"
#include "ggc.h"
#include "gimplify.h"

#include "runtime-decls.h"

void
define_variable (tree decl)
{
  varpool_node::finalize_decl (decl);
  varpool_node::get_create (decl)->analyze ();
}

/* ---------------------------------------------------------------------
   The site table.  */

void
append_escaped (auto_vec<char> &text, const char *field)
{
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

/* Appends FIELD to TEXT with the table's escapes, after a TAB unless it
   is the first field.  */
static void
append_field (auto_vec<char> &text, const char *field, bool first = false)
{
  if (!first)
    text.safe_push ('\t');
  append_escaped (text, field);
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
      append_field (text, site.function_name);
      append_number (text, site.n_counters);
      append_field (text, site.predicate);
      append_field (text, site.counter_names);
      if (sampler_opts.rates_file)
	append_number (text, site.weight);
      /* Last, and only where the name is not the symbol (C++).  */
      if (site.symbol)
	append_field (text, site.symbol);
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
  char schemes[32];
  if (sampler_opts.countdown_unit == 1)
    snprintf (schemes, sizeof schemes, "%x", sampler_opts.schemes);
  else
    snprintf (schemes, sizeof schemes, "%x/%u", sampler_opts.schemes,
	      sampler_opts.countdown_unit);
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
  /* Without rates every site weighs 1 in unit 1, which a table without
     weights says: default builds keep the table (and signature) they
     had.  */
  if (sampler_opts.rates_file)
    append_number (table, sampler_opts.countdown_unit);
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

/* A variable of the plugin's own: static storage, NAME of TYPE,
   addressable (asm statements and the runtime take it in memory).  */
tree
plugin_variable (const char *name, tree type)
{
  tree decl = build_decl (BUILTINS_LOCATION, VAR_DECL, get_identifier (name),
			  type);
  TREE_STATIC (decl) = 1;
  TREE_ADDRESSABLE (decl) = 1;
  DECL_ARTIFICIAL (decl) = 1;
  return decl;
}

static tree
static_variable (const char *name, tree type, tree init)
{
  tree decl = plugin_variable (name, type);
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
  fields = add_field (type, "countdown_unit", unsigned_type_node, fields);
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
  tree const_uchar = build_qualified_type (unsigned_char_type_node,
					   TYPE_QUAL_CONST);
  fields = add_field (type, "site_schemes", build_pointer_type (const_uchar),
		      fields);
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

  /* site_schemes[]: each site's scheme, which a release's field reports
     need to leave out the schemes it keeps on the machine.  */
  tree schemes_type = build_array_type_nelts (const_uchar, n_sites);
  vec<constructor_elt, va_gc> *schemes = NULL;
  for (unsigned i = 0; i < n_sites; i++)
    CONSTRUCTOR_APPEND_ELT (schemes, NULL_TREE,
			    build_int_cst (unsigned_char_type_node,
					   unit_sites[i].scheme));
  tree schemes_decl = static_variable ("__sampler_site_schemes", schemes_type,
				       build_constructor (schemes_type,
							  schemes));
  TREE_READONLY (schemes_decl) = 1;

  tree values[] = {
    build_int_cst (unsigned_type_node, SAMPLER_ABI_VERSION),
    build_int_cst (unsigned_type_node, n_sites),
    build_int_cst (unsigned_type_node, unit_counters),
    build_int_cst (unsigned_type_node,
		   sampler_opts.rates_file ? sampler_opts.countdown_unit : 0),
    string_pointer (signature),
    string_pointer (main_input_filename),
    build_fold_addr_expr (offsets_decl),
    fold_convert (build_pointer_type (long_long_unsigned_type_node),
		  build_fold_addr_expr (unit_counters_decl ())),
    null_pointer_node,
    build_fold_addr_expr (schemes_decl)
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
  cgraph_build_static_cdtor ('I', build_call_expr (runtime_function
						   ("__sampler_register_unit",
						    type), 1,
						   build_fold_addr_expr (unit)),
			     DEFAULT_INIT_PRIORITY);
  cgraph_build_static_cdtor ('D', build_call_expr (runtime_function
						   ("__sampler_unregister_unit",
						    type), 1,
						   build_fold_addr_expr (unit)),
			     DEFAULT_INIT_PRIORITY);
}

char unit_signature[33];

void
emit_text_section (const char *section, const char *text, size_t length)
{
  auto_vec<char> out;
  char head[128];
  snprintf (head, sizeof head, "\t.pushsection %s,\"\",@progbits\n",
	    section);
  append_text (out, head, strlen (head));
  for (size_t i = 0; i < length; i += 64)
    {
      const char *start = "\t.ascii \"";
      append_text (out, start, strlen (start));
      for (size_t j = i; j < length && j < i + 64; j++)
	{
	  unsigned char c = text[j];
	  if (c == '"' || c == '\\')
	    {
	      out.safe_push ('\\');
	      out.safe_push (c);
	    }
	  else if (c < 0x20 || c >= 0x7f)
	    {
	      char octal[8];
	      snprintf (octal, sizeof octal, "\\%03o", c);
	      append_text (out, octal, 4);
	    }
	  else
	    out.safe_push (c);
	}
      out.safe_push ('"');
      out.safe_push ('\n');
    }
  const char *tail = "\t.popsection\n";
  append_text (out, tail, strlen (tail));
  /* Until the unit is output, a top-level asm: output with it, or with
     -flto streamed with it (lto1 outputs it); after, straight into the
     assembler's file.  */
  if (symtab->state < EXPANSION)
    symtab->finalize_toplevel_asm (build_string (out.length (),
						 out.address ()));
  else if (asm_out_file)
    fwrite (out.address (), 1, out.length (), asm_out_file);
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
  memcpy (unit_signature, signature, sizeof signature);
  auto_vec<char> table;
  site_table (signature, table);
  emit_text_section (SAMPLER_SITE_SECTION, table.address (), table.length ());
  if (sampler_opts.site_table_file)
    write_site_table_file (table);
  emit_descriptor (signature);
}
