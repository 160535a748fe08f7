/* sampler.so: plugin entry, command-line arguments and the `sampled'
   attribute.  Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later.  */

#include "schemes.h"
#include "runtime-decls.h"
#include "schemes/paths/preferential.h"
#include "plugin-version.h"

#include <dlfcn.h>
#include <fnmatch.h>
#include <string.h>

#include "context.h"
#include "tree-pass.h"
#include "diagnostic-core.h"
#include "stringpool.h"
#include "attribs.h"
#include "cpplib.h"
#include "options.h"

/* GCC refuses plugins that do not say they are GPL-compatible.  */
int plugin_is_GPL_compatible;

struct sampler_options sampler_opts;

/* The help text; the list of schemes comes from the registry, in
   sampler_help.  */
static const char help_schemes[]
  = "  -fplugin-arg-sampler-schemes=LIST   instrumentation schemes: ";
static const char help_rest[]
  = "  -fplugin-arg-sampler-include-function=PATTERN, exclude-function=PATTERN,\n"
  "  -fplugin-arg-sampler-include-file=PATTERN, exclude-file=PATTERN\n"
  "      scope rules, in order; the first that matches decides (fnmatch)\n"
  "  -fplugin-arg-sampler-weightless=F,G functions asserted weightless\n"
  "  -fplugin-arg-sampler-pairs-limit=N  most scalar-pairs per assignment (16)\n"
  "  -fplugin-arg-sampler-pairs-sites=assignment|pair  an assignment's pairs\n"
  "      are sampled together, one visit (assignment, the default), or each\n"
  "      pair on its own (pair)\n"
  "  -fplugin-arg-sampler-hotlist=K      values a values site's hot-list\n"
  "      holds (16)\n"
  "  -fplugin-arg-sampler-subpath-max=2^N longest subpath, in blocks, a power\n"
  "      of two from 2 to 1024 (2^8)\n"
  "  -fplugin-arg-sampler-pairs-constants also pair assignments with the\n"
  "      integer constants of the function\n"
  "  -fplugin-arg-sampler-region-limit=N most sites between two checks on\n"
  "      any path (0: no limit; the default, but 64 with rates=)\n"
  "  -fplugin-arg-sampler-pad-limit=N    paths this many sites lighter than\n"
  "      the heaviest are counted as the heaviest (16)\n"
  "  -fplugin-arg-sampler-paths-array=K  path counters of a function (paths):\n"
  "      an array when it has at most K paths, else a hash table of K (32)\n"
  "  -fplugin-arg-sampler-paths-max=N    most paths a region may have before\n"
  "      a check cuts it (paths; 4096)\n"
  "  -fplugin-arg-sampler-paths-interesting=FILE  number these paths\n"
  "      compactly, counted in an array (paths; docs/paths.md)\n"
  "  -fplugin-arg-sampler-unsampled=0|1  unsampled copies of instrumented\n"
  "      functions, for runs with sampling off (1)\n"
  "  -fplugin-arg-sampler-outline-entry=0|1  the entry region's slow copy\n"
  "      in a clone of the function, called from the entry check (0)\n"
  "  -fplugin-arg-sampler-rates=FILE     per-site weights from FILE (made by\n"
  "      sampler-report rates; docs/rates.md)\n"
  "  -fplugin-arg-sampler-site-table=FILE append the unit's site table to FILE\n"
  "  -fplugin-arg-sampler-verbose        say how each function was treated\n"
  "  -fplugin-arg-sampler-dump=FILE      append checks and weights to FILE\n"
  "  -fplugin-arg-sampler-help           print this text\n";

static struct plugin_info sampler_plugin_info = { "0.1.0", NULL };

static const char *const scheme_names[SAMPLER_N_SCHEMES] = {
#define SAMPLER_SCHEME(ID, NAME, N_COUNTERS, COUNTERS, MERGE, TEXT) NAME,
#include "../runtime/schemes.def"
};

const char *
scheme_name (enum sampler_scheme_id id)
{
  return scheme_names[id];
}

/* "checks, branches, ...": the registry's schemes, for messages.  */
static const char *
scheme_list (void)
{
  static char *list;
  if (!list)
    {
      list = xstrdup (scheme_names[0]);
      for (unsigned i = 1; i < SAMPLER_N_SCHEMES; i++)
	{
	  char *longer = concat (list, ", ", scheme_names[i], NULL);
	  free (list);
	  list = longer;
	}
    }
  return list;
}

/* The plugin's help text, with the schemes' names filled in lines of at
   most 79 columns.  */
static const char *
sampler_help (void)
{
  static char *help;
  if (help)
    return help;
  auto_vec<char> text;
  auto add = [&text] (const char *part)
    {
      for (const char *c = part; *c; c++)
	text.safe_push (*c);
    };
  add ("sampler: statistically fair sampled instrumentation.  Arguments:\n");
  add (help_schemes);
  unsigned column = strlen (help_schemes);
  for (unsigned i = 0; i < SAMPLER_N_SCHEMES; i++)
    {
      const char *separator = i + 1 < SAMPLER_N_SCHEMES ? "," : "";
      unsigned width = strlen (scheme_names[i]) + strlen (separator);
      if (i > 0 && column + 1 + width > 79)
	{
	  add ("\n      ");
	  column = 6;
	}
      else if (i > 0)
	{
	  add (" ");
	  column++;
	}
      add (scheme_names[i]);
      add (separator);
      column += width;
    }
  add ("\n");
  add (help_rest);
  text.safe_push (0);
  help = xstrdup (text.address ());
  return help;
}

static const char *const accepted_keys
  = "schemes, include-function, exclude-function, include-file, "
    "exclude-file, weightless, pairs-limit, pairs-sites, pairs-constants, hotlist, "
    "subpath-max, region-limit, pad-limit, paths-array, paths-max, "
    "paths-interesting, unsampled, outline-entry, rates, "
    "site-table, "
    "verbose, dump, help";

/* Parses a comma-separated list of scheme names into *BITS.  Returns false,
   after an error naming the bad item, if any name is unknown.  */
static bool
parse_schemes (const char *value, unsigned *bits)
{
  *bits = 0;
  const char *p = value;
  while (true)
    {
      const char *end = strchr (p, ',');
      size_t len = end ? (size_t) (end - p) : strlen (p);
      bool known = false;
      for (unsigned i = 0; i < SAMPLER_N_SCHEMES; i++)
	if (strlen (scheme_names[i]) == len
	    && strncmp (scheme_names[i], p, len) == 0)
	  {
	    *bits |= SCHEME_BIT (i);
	    known = true;
	  }
      if (!known)
	{
	  error ("sampler: unknown scheme %<%.*s%> in "
		 "%<-fplugin-arg-sampler-schemes=%s%>; accepted schemes: %s",
		 (int) len, p, value, scheme_list ());
	  return false;
	}
      if (!end)
	return true;
      p = end + 1;
    }
}

/* Complains that KEY needs a value, or takes none.  */
static void
bad_value (const char *key, const char *value, const char *accepted)
{
  if (value)
    error ("sampler: bad value %<%s%> in %<-fplugin-arg-sampler-%s=%s%>; "
	   "accepted: %s", value, key, value, accepted);
  else
    error ("sampler: %<-fplugin-arg-sampler-%s%> needs a value: %s",
	   key, accepted);
}

/* A flag: no value or 1 sets *FLAG, 0 clears it.  */
static bool
parse_flag (const char *key, const char *value, bool *flag)
{
  if (value && strcmp (value, "1") != 0 && strcmp (value, "0") != 0)
    {
      bad_value (key, value, "no value, 1 or 0");
      return false;
    }
  *flag = !value || strcmp (value, "1") == 0;
  return true;
}

/* Reads -fplugin-arg-sampler-* strictly.  Returns false after reporting
   every bad argument.  */
static bool
parse_arguments (struct plugin_name_args *info)
{
  bool ok = true;
  /* With rates and no region-limit: visits of default weight per region.  */
  const int rates_region_limit = 64;
  bool region_limit_given = false;
  sampler_opts.schemes = SCHEME_BIT (SAMPLER_SCHEME_CHECKS);
  sampler_opts.pairs_limit = 16;
  sampler_opts.pairs_per_pair = false;
  sampler_opts.hotlist = 16;
  sampler_opts.subpath_max_log2 = 8;
  sampler_opts.region_limit = 0;
  sampler_opts.pad_limit = 16;
  sampler_opts.paths_array = 32;
  sampler_opts.paths_max = 4096;
  sampler_opts.unsampled = true;
  sampler_opts.outline_entry = false;
  sampler_opts.rules = vNULL;
  sampler_opts.rates_file = NULL;
  sampler_opts.paths_interesting = NULL;
  sampler_opts.countdown_unit = 1;
  for (int i = 0; i < info->argc; i++)
    {
      const char *key = info->argv[i].key;
      const char *value = info->argv[i].value;
      if (strcmp (key, "schemes") == 0)
	{
	  if (!value || !*value)
	    {
	      char *accepted = concat ("a comma-separated list of: ",
				       scheme_list (), NULL);
	      bad_value (key, value, accepted);
	      free (accepted);
	      ok = false;
	    }
	  else if (!parse_schemes (value, &sampler_opts.schemes))
	    ok = false;
	}
      else if (strcmp (key, "weightless") == 0)
	{
	  if (!value || !*value)
	    {
	      bad_value (key, value, "a comma-separated list of function names");
	      ok = false;
	    }
	  else
	    sampler_opts.weightless_names = value;
	}
      else if (strcmp (key, "include-function") == 0
	       || strcmp (key, "exclude-function") == 0
	       || strcmp (key, "include-file") == 0
	       || strcmp (key, "exclude-file") == 0)
	{
	  if (!value || !*value)
	    {
	      bad_value (key, value, "a name or fnmatch pattern");
	      ok = false;
	    }
	  else
	    {
	      scope_rule rule = { key[0] == 'i', strstr (key, "file") != NULL,
				  value };
	      sampler_opts.rules.safe_push (rule);
	    }
	}
      else if (strcmp (key, "pairs-limit") == 0)
	{
	  char *end;
	  long n = value ? strtol (value, &end, 10) : -1;
	  if (!value || !ISDIGIT (*value) || *end || n < 0 || n > 1000)
	    {
	      bad_value (key, value, "a whole number from 0 to 1000");
	      ok = false;
	    }
	  else
	    sampler_opts.pairs_limit = (unsigned) n;
	}
      else if (strcmp (key, "pairs-sites") == 0)
	{
	  if (value && strcmp (value, "assignment") == 0)
	    sampler_opts.pairs_per_pair = false;
	  else if (value && strcmp (value, "pair") == 0)
	    sampler_opts.pairs_per_pair = true;
	  else
	    {
	      bad_value (key, value, "assignment or pair");
	      ok = false;
	    }
	}
      else if (strcmp (key, "hotlist") == 0)
	{
	  char *end;
	  long n = value ? strtol (value, &end, 10) : -1;
	  if (!value || !*value || *end || n < 1 || n > 1024)
	    {
	      bad_value (key, value, "a whole number from 1 to 1024");
	      ok = false;
	    }
	  else
	    sampler_opts.hotlist = (unsigned) n;
	}
      else if (strcmp (key, "subpath-max") == 0)
	{
	  /* 2^N or its value, a power of two from 2 to 1024.  */
	  char *end;
	  long n = -1;
	  if (value && value[0] == '2' && value[1] == '^' && ISDIGIT (value[2]))
	    {
	      long e = strtol (value + 2, &end, 10);
	      if (!*end && e >= 1 && e <= 10)
		n = 1L << e;
	    }
	  else if (value && ISDIGIT (*value))
	    {
	      n = strtol (value, &end, 10);
	      if (*end)
		n = -1;
	    }
	  if (n < 2 || n > 1024 || (n & (n - 1)) != 0)
	    {
	      bad_value (key, value, "a power of two from 2 to 1024 (2^1 to 2^10)");
	      ok = false;
	    }
	  else
	    sampler_opts.subpath_max_log2 = (unsigned) exact_log2 (n);
	}
      else if (strcmp (key, "region-limit") == 0
	       || strcmp (key, "pad-limit") == 0)
	{
	  char *end;
	  long n = value ? strtol (value, &end, 10) : -1;
	  if (!value || !ISDIGIT (*value) || *end || n < 0 || n > 100000)
	    {
	      bad_value (key, value, "a whole number from 0 to 100000");
	      ok = false;
	    }
	  else if (key[0] == 'r')
	    {
	      sampler_opts.region_limit = (int) n;
	      region_limit_given = true;
	    }
	  else
	    sampler_opts.pad_limit = (int) n;
	}
      else if (strcmp (key, "paths-array") == 0
	       || strcmp (key, "paths-max") == 0)
	{
	  char *end;
	  long n = value ? strtol (value, &end, 10) : -1;
	  /* A function's site has 2 + 2K counters for paths-array=K.  */
	  long most = strcmp (key, "paths-array") == 0 ? 4096 : 1000000;
	  if (!value || !ISDIGIT (*value) || *end || n < 1 || n > most)
	    {
	      bad_value (key, value, most == 4096 ? "a whole number from 1 to 4096"
			 : "a whole number from 1 to 1000000");
	      ok = false;
	    }
	  else if (strcmp (key, "paths-array") == 0)
	    sampler_opts.paths_array = (unsigned) n;
	  else
	    sampler_opts.paths_max = (unsigned) n;
	}
      else if (strcmp (key, "paths-interesting") == 0)
	{
	  if (!value || !*value)
	    {
	      bad_value (key, value, "a file name");
	      ok = false;
	    }
	  else
	    sampler_opts.paths_interesting = value;
	}
      else if (strcmp (key, "site-table") == 0)
	{
	  if (!value || !*value)
	    {
	      bad_value (key, value, "a file name");
	      ok = false;
	    }
	  else
	    sampler_opts.site_table_file = value;
	}
      else if (strcmp (key, "rates") == 0)
	{
	  if (!value || !*value)
	    {
	      bad_value (key, value, "a file name");
	      ok = false;
	    }
	  else
	    sampler_opts.rates_file = value;
	}
      else if (strcmp (key, "verbose") == 0)
	ok &= parse_flag (key, value, &sampler_opts.verbose);
      else if (strcmp (key, "pairs-constants") == 0)
	ok &= parse_flag (key, value, &sampler_opts.pairs_constants);
      else if (strcmp (key, "unsampled") == 0)
	ok &= parse_flag (key, value, &sampler_opts.unsampled);
      else if (strcmp (key, "outline-entry") == 0)
	ok &= parse_flag (key, value, &sampler_opts.outline_entry);
      else if (strcmp (key, "dump") == 0)
	{
	  if (!value || !*value)
	    {
	      bad_value (key, value, "a file name");
	      ok = false;
	    }
	  else
	    sampler_opts.dump_file = value;
	}
      else if (strcmp (key, "help") == 0)
	fputs (sampler_plugin_info.help, stderr);
      else
	{
	  error ("sampler: unknown argument %<-fplugin-arg-sampler-%s%>; "
		 "accepted: %s", key, accepted_keys);
	  ok = false;
	}
    }
  if (ok && sampler_opts.paths_interesting
      && !load_interesting_paths (sampler_opts.paths_interesting))
    return false;
  if (ok && sampler_opts.rates_file)
    {
      /* A pair's own visits count one by one in the runtime: weights
	 there would need the runtime to know them.  */
      if (sampler_opts.pairs_per_pair)
	{
	  error ("sampler: %<-fplugin-arg-sampler-rates%> needs "
		 "%<pairs-sites=assignment%> (the default)");
	  return false;
	}
      if (!load_rates (sampler_opts.rates_file))
	return false;
      /* A site trained to be sampled at (nearly) every visit weighs
	 about sparsity times the mean countdown: a region that merely
	 passes by it would fail its check at almost every entry.  So with
	 rates regions are limited by default, and such a site starts a
	 region of its own.  */
      if (!region_limit_given)
	sampler_opts.region_limit = rates_region_limit;
      /* The limits count visits of default weight.  */
      sampler_opts.pad_limit *= sampler_opts.countdown_unit;
      sampler_opts.region_limit *= sampler_opts.countdown_unit;
    }
  return ok;
}

/* Where a plain `sampled' was written: the name of the function and the
   location of the declaration or definition carrying it.  */
struct attribute_note
{
  tree name;
  location_t loc;
};
static vec<attribute_note> attribute_notes;

void
note_sampled_attribute (tree decl)
{
  attribute_note note = { DECL_NAME (decl), DECL_SOURCE_LOCATION (decl) };
  attribute_notes.safe_push (note);
}

/* Was the plain attribute written on FNDECL's definition (AT_DEFINITION) or
   on some other declaration of it?  */
static bool
attribute_written (tree fndecl, bool at_definition)
{
  location_t def = DECL_SOURCE_LOCATION (fndecl);
  for (const attribute_note &note : attribute_notes)
    if (note.name == DECL_NAME (fndecl) && (note.loc == def) == at_definition)
      return true;
  return false;
}

static bool
defined_here (tree fndecl)
{
  return DECL_INITIAL (fndecl) != NULL_TREE && !DECL_EXTERNAL (fndecl);
}

bool
is_check_function (tree fndecl)
{
  if (sampled_attribute_form (fndecl) != SAMPLED_PLAIN)
    return false;
  return !defined_here (fndecl) || attribute_written (fndecl, false);
}

bool
selected_by_attribute (tree fndecl)
{
  return sampled_attribute_form (fndecl) == SAMPLED_PLAIN
	 && defined_here (fndecl) && attribute_written (fndecl, true);
}

bool
function_selected (tree fndecl)
{
  if (is_unsampled_clone (fndecl) || is_sampled_clone (fndecl))
    return false;
  if (sampled_attribute_form (fndecl) == SAMPLED_OFF
      || lookup_attribute ("no_instrument_function",
			   DECL_ATTRIBUTES (fndecl)))
    return false;
  if (selected_by_attribute (fndecl))
    return true;
  const char *name = IDENTIFIER_POINTER (DECL_NAME (fndecl));
  const char *file = DECL_SOURCE_FILE (fndecl);
  for (const scope_rule &rule : sampler_opts.rules)
    if (fnmatch (rule.pattern, rule.by_file ? file : name, 0) == 0)
      return rule.include;
  /* Inline functions of system headers are the library's code, not the
     program's; an explicit rule above can still include them.  */
  return !in_system_header_at (DECL_SOURCE_LOCATION (fndecl));
}

enum sampled_form
sampled_attribute_form (tree decl)
{
  tree attr = lookup_attribute (SAMPLED_ATTR, DECL_ATTRIBUTES (decl));
  if (!attr)
    return SAMPLED_NONE;
  tree args = TREE_VALUE (attr);
  if (!args)
    return SAMPLED_PLAIN;
  const char *arg = TREE_STRING_POINTER (TREE_VALUE (args));
  if (strcmp (arg, SAMPLED_ARG_OFF) == 0)
    return SAMPLED_OFF;
  return SAMPLED_WEIGHTLESS;
}

/* `sampled' goes on function declarations: plain, calls to the function
   are sites of the checks scheme; ("off"), the function is not
   instrumented; ("weightless"), the user asserts that the function neither
   has sites nor calls functions that do.  */
static tree
handle_sampled_attribute (tree *node, tree name, tree args, int,
			  bool *no_add_attrs)
{
  tree decl = *node;
  if (TREE_CODE (decl) != FUNCTION_DECL)
    {
      warning (OPT_Wattributes,
	       "%qE attribute ignored: it goes on a function (on a "
	       "declaration, calls to it become sampled checks; on a "
	       "definition, it selects the function; %<sampled(\"off\")%> "
	       "keeps a function uninstrumented)", name);
      *no_add_attrs = true;
      return NULL_TREE;
    }
  if (!args)
    note_sampled_attribute (decl);
  else
    {
      tree arg = TREE_VALUE (args);
      if (TREE_CODE (arg) != STRING_CST
	  || (strcmp (TREE_STRING_POINTER (arg), SAMPLED_ARG_OFF) != 0
	      && strcmp (TREE_STRING_POINTER (arg), SAMPLED_ARG_WEIGHTLESS) != 0))
	{
	  error ("%qE attribute argument must be %<\"off\"%> or "
		 "%<\"weightless\"%>", name);
	  *no_add_attrs = true;
	  return NULL_TREE;
	}
    }
  return NULL_TREE;
}

static struct attribute_spec sampled_attribute_spec;

static void
register_sampled_attribute (void *, void *)
{
  sampled_attribute_spec.name = SAMPLED_ATTR;
  sampled_attribute_spec.min_length = 0;
  sampled_attribute_spec.max_length = 1;
  sampled_attribute_spec.decl_required = true;
  sampled_attribute_spec.type_required = false;
  sampled_attribute_spec.function_type_required = false;
  sampled_attribute_spec.affects_type_identity = false;
  sampled_attribute_spec.handler = handle_sampled_attribute;
  sampled_attribute_spec.exclude = NULL;
  register_attribute (&sampled_attribute_spec);
}

/* Defines __SAMPLER__ so sources can use the attribute only when the plugin
   is there.  parse_in exists only in the C-family front ends, so look it up
   rather than link against it (the plugin may be loaded by lto1).  */
static void
define_sampler_macro (void *, void *)
{
  cpp_reader **reader = (cpp_reader **) dlsym (RTLD_DEFAULT, "parse_in");
  /* Already-preprocessed input (-fpreprocessed, -save-temps, ccache) has
     its macros expanded, and cpp_define would crash on it.  */
  if (reader && *reader && !cpp_get_options (*reader)->preprocessed)
    cpp_define (*reader, "__SAMPLER__=1");
}

/* Puts PASS at POSITION relative to instance INSTANCE of REFERENCE (0:
   every instance).  */
static void
add_pass (struct plugin_name_args *info, opt_pass *pass, const char *reference,
	  enum pass_positioning_ops position, int instance = 1)
{
  struct register_pass_info where;
  where.pass = pass;
  where.reference_pass_name = reference;
  where.ref_pass_instance_number = instance;
  where.pos_op = position;
  register_callback (info->base_name, PLUGIN_PASS_MANAGER_SETUP, NULL, &where);
}

/* PLUGIN_FINISH_UNIT: the clone fallbacks, then each enabled scheme's
   finish_unit hook.  */
static void
finish_unit (void *gcc_data, void *user_data)
{
  emit_clone_fallbacks (gcc_data, user_data);
  for (unsigned id = 0; id < SAMPLER_N_SCHEMES; id++)
    if ((sampler_opts.schemes & SCHEME_BIT (id)) && plugin_schemes[id]->finish_unit)
      plugin_schemes[id]->finish_unit ();
}

int
plugin_init (struct plugin_name_args *info, struct plugin_gcc_version *version)
{
  if (!plugin_default_version_check (version, &gcc_version))
    {
      error ("sampler: this plugin was built for GCC %s and cannot be loaded "
	     "by GCC %s", gcc_version.basever, version->basever);
      return 1;
    }
  sampler_plugin_info.help = sampler_help ();
  register_callback (info->base_name, PLUGIN_INFO, NULL, &sampler_plugin_info);
  /* Register the attribute first, so annotated code builds even when the
     arguments are wrong and the compile is about to fail.  */
  register_callback (info->base_name, PLUGIN_ATTRIBUTES,
		     register_sampled_attribute, NULL);
  register_callback (info->base_name, PLUGIN_ALL_IPA_PASSES_END,
		     release_unneeded_clones, NULL);
  register_callback (info->base_name, PLUGIN_START_UNIT,
		     define_sampler_macro, NULL);
  register_callback (info->base_name, PLUGIN_FINISH_UNIT, finish_unit, NULL);
  if (!parse_arguments (info))
    return 0;
  /* With -flto the transformation would run again in lto1, on functions
     whose unit (sites, counters) this compilation has already emitted.  */
  if (flag_lto)
    {
      error ("sampler: %<-flto%> is not supported: each unit is "
	     "instrumented when it is compiled; build without %<-flto%>");
      return 0;
    }
  register_callback (info->base_name, PLUGIN_REGISTER_GGC_ROOTS, NULL,
		     (void *) runtime_decls_gc_roots);

  for (unsigned id = 0; id < SAMPLER_N_SCHEMES; id++)
    if ((sampler_opts.schemes & SCHEME_BIT (id)) && plugin_schemes[id]->setup)
      plugin_schemes[id]->setup ();

  /* After all functions are lowered to GIMPLE with a CFG, before
     into-SSA and early inlining: the weightless fixpoint sees the whole
     unit, and the sites are the source's own conditionals, calls and
     assignments.  */
  add_pass (info, make_sites_pass (g), "visibility", PASS_POS_INSERT_AFTER);
  /* After GCC's optimisers, at every level, just before the last clean-up
     of the CFG: the fast copy is the optimised code.  */
  add_pass (info, make_transform_pass (g), "optimized",
	    PASS_POS_INSERT_BEFORE);
  /* Among the loop optimisers, before if-conversion and vectorisation,
     which the version without sites is for.  */
  add_pass (info, make_versioning_pass (g), "ifcvt", PASS_POS_INSERT_BEFORE);
  /* The markers' weight out of the inliners' estimates (inline-weight.cc):
     after every local summary, and before the IPA inliner.  */
  add_pass (info, make_local_weight_pass (g), "local-fnsummary",
	    PASS_POS_INSERT_AFTER, 0);
  add_pass (info, make_ipa_weight_pass (g), "inline", PASS_POS_INSERT_BEFORE);
  register_callback (info->base_name, PLUGIN_OVERRIDE_GATE,
		    skip_rtl_pre_in_cloned_functions, NULL);
  /* Once the frame is laid out (the prologue made): the red-zone skips out
     of the runtime calls where the red zone is unused.  */
  add_pass (info, make_red_zone_pass (g), "pro_and_epilogue",
	    PASS_POS_INSERT_AFTER);
  /* Right after the sites pass, before any inlining.  */
  add_pass (info, make_redirect_pass (g), "sampler", PASS_POS_INSERT_AFTER);
  return 0;
}
