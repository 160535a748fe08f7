/* sampler.so: the plugin's arguments, -fplugin-arg-sampler-KEY=VALUE.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).  */

#include "schemes.h"

#include <string.h>

#include "diagnostic-core.h"

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
const char *
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
bool
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
	fputs (sampler_help (), stderr);
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
