/* sampler.so: per-site weights from a rates file (rates=FILE).
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).

   What.  A rates file (written by `sampler-report rates', format in
   docs/rates.md) gives the countdown unit U and a weight for some sites,
   each named by its unit's source, its file, function, scheme, predicate
   and line.  A site of weight W takes W units of the countdown at each
   visit, so it is sampled with probability 1 - (1 - p)^W, where p =
   1 / (sparsity * U); sites the file does not name weigh U, about
   1 / sparsity.  Weight 0 leaves the site uninstrumented: its marker goes
   at once, so that its function may become plain and weightless.

   Matching.  Among the sites of one function with the same unit source
   and file (base names), scheme and predicate, and the file's entries
   with the same names: when there are as many of each, they pair in the
   order of their lines (lines that moved together still match);
   otherwise each site takes the entry on its own line, or
   failing that the unused entry on the nearest line.  A site with no
   entry keeps the default weight.  So code that moved keeps its rates,
   and new or changed code (other predicate text, a renamed function)
   starts at the default.

   Why in the sites pass: the weights decide which markers exist, and the
   checks' weights (region-weights.cc) are sums of the markers' weights.

   How to debug: verbose says, per unit, how many sites matched on their
   line, moved, or kept the default; the site table lists every site's
   weight.  */

#include "sampler-plugin.h"

#include <stdio.h>
#include <string.h>
#include <errno.h>

#include "function.h"
#include "basic-block.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "diagnostic-core.h"
#include "hash-map.h"
#include "input.h"

/* One rate of the file.  */
struct rate_entry
{
  unsigned line;
  unsigned weight;
  bool used;
};

typedef hash_map<nofree_string_hash, vec<rate_entry> *> rate_map;
static rate_map *rates;

/* What the unit's matching found, for verbose.  */
static unsigned matched_on_line, matched_moved, kept_default;

/* The key of a site or entry: its names, each after its length, so that
   no name can run into the next.  Files by their base names: a build in
   another directory (a fresh CI checkout) still finds its rates.  */
static char *
rate_key (const char *source, const char *file, const char *function,
	  const char *scheme, const char *predicate)
{
  const char *parts[] = { lbasename (source), lbasename (file), function,
			  scheme, predicate };
  size_t length = 0;
  for (const char *part : parts)
    length += strlen (part) + 12;
  char *key = XNEWVEC (char, length + 1);
  char *p = key;
  for (const char *part : parts)
    p += sprintf (p, "%zu:%s;", strlen (part), part);
  return key;
}

/* Unescapes FIELD in place (\\, \t, \n as in site tables); false if it
   holds another escape.  */
static bool
unescape (char *field)
{
  char *out = field;
  for (char *p = field; *p; p++)
    {
      if (*p != '\\')
	{
	  *out++ = *p;
	  continue;
	}
      p++;
      if (*p == '\\')
	*out++ = '\\';
      else if (*p == 't')
	*out++ = '\t';
      else if (*p == 'n')
	*out++ = '\n';
      else
	return false;
    }
  *out = 0;
  return true;
}

/* A decimal number from 0 to MAX, without sign or leading zeros.  */
static bool
parse_number (const char *text, unsigned long max, unsigned *out)
{
  if (!ISDIGIT (text[0]) || (text[0] == '0' && text[1]))
    return false;
  unsigned long value = 0;
  for (const char *p = text; *p; p++)
    {
      if (!ISDIGIT (*p))
	return false;
      value = value * 10 + (*p - '0');
      if (value > max)
	return false;
    }
  *out = (unsigned) value;
  return true;
}

static bool
known_scheme (const char *name)
{
  for (unsigned id = 0; id < SAMPLER_N_SCHEMES; id++)
    if (strcmp (scheme_name ((enum sampler_scheme_id) id), name) == 0)
      return true;
  return false;
}

/* See sampler-plugin.h.  */
int
read_text_line (FILE *in, const char *path, unsigned long *number,
		char **line, size_t *capacity)
{
  ssize_t length = getline (line, capacity, in);
  if (length < 0)
    return 0;
  ++*number;
  if ((size_t) length != strlen (*line))
    {
      error ("sampler: %s:%lu: a NUL byte in the line", path, *number);
      return -1;
    }
  if (length == 0 || (*line)[length - 1] != '\n')
    {
      error ("sampler: %s:%lu: the last line has no newline (truncated?)",
	     path, *number);
      return -1;
    }
  (*line)[length - 1] = 0;
  return 1;
}

/* The header line's FIELDS: the file's kind and version.  False after
   reporting an error at PATH:NUMBER.  */
static bool
parse_rates_header (const vec<char *> &fields, const char *path,
		    unsigned long number)
{
  if (strcmp (fields[0], "sampler-rates") != 0)
    {
      error ("sampler: %s:%lu: not a rates file (it starts with %qs, "
	     "expected %<sampler-rates%>)", path, number, fields[0]);
      return false;
    }
  if (fields.length () != 2 || strcmp (fields[1], "1") != 0)
    {
      error ("sampler: %s:%lu: unknown rates file version (this "
	     "plugin reads version 1)", path, number);
      return false;
    }
  return true;
}

/* The `unit' record's FIELDS: the countdown unit (sampler_opts), once;
   HAVE_UNIT says whether it was given before.  False after reporting an
   error at PATH:NUMBER.  */
static bool
parse_unit_record (const vec<char *> &fields, bool have_unit,
		   const char *path, unsigned long number)
{
  unsigned unit;
  if (have_unit)
    {
      error ("sampler: %s:%lu: a second %<unit%> record", path, number);
      return false;
    }
  if (fields.length () != 2
      || !parse_number (fields[1], SAMPLER_COUNTDOWN_UNIT_MAX, &unit)
      || unit == 0)
    {
      error ("sampler: %s:%lu: %<unit%> takes one whole number from "
	     "1 to %d", path, number, SAMPLER_COUNTDOWN_UNIT_MAX);
      return false;
    }
  sampler_opts.countdown_unit = unit;
  return true;
}

/* A `site' record's FIELDS, `site WEIGHT SOURCE FILE LINE FUNCTION SCHEME
   PREDICATE', into the rates, after the unit (HAVE_UNIT).  False after
   reporting an error at PATH:NUMBER.  */
static bool
parse_site_record (vec<char *> &fields, bool have_unit, const char *path,
		   unsigned long number)
{
  unsigned weight, site_line;
  if (!have_unit)
    {
      error ("sampler: %s:%lu: a %<site%> before the %<unit%> record",
	     path, number);
      return false;
    }
  if (fields.length () != 8)
    {
      error ("sampler: %s:%lu: a %<site%> record has 8 fields, not %u",
	     path, number, fields.length ());
      return false;
    }
  if (!parse_number (fields[1], SAMPLER_SITE_WEIGHT_MAX, &weight))
    {
      error ("sampler: %s:%lu: the weight %qs is not a whole number "
	     "from 0 to %d", path, number, fields[1],
	     SAMPLER_SITE_WEIGHT_MAX);
      return false;
    }
  if (!parse_number (fields[4], UINT_MAX, &site_line))
    {
      error ("sampler: %s:%lu: the line %qs is not a whole number",
	     path, number, fields[4]);
      return false;
    }
  if (!known_scheme (fields[6]))
    {
      error ("sampler: %s:%lu: unknown scheme %qs", path, number,
	     fields[6]);
      return false;
    }
  if (!unescape (fields[2]) || !unescape (fields[3])
      || !unescape (fields[5]) || !unescape (fields[7]))
    {
      error ("sampler: %s:%lu: a bad escape (only %<\\\\%>, %<\\t%> "
	     "and %<\\n%> are known)", path, number);
      return false;
    }
  if (!*fields[2] || !*fields[3] || !*fields[5])
    {
      error ("sampler: %s:%lu: an empty source, file or function",
	     path, number);
      return false;
    }
  char *key = rate_key (fields[2], fields[3], fields[5], fields[6],
			fields[7]);
  bool existed;
  vec<rate_entry> *&entries = rates->get_or_insert (key, &existed);
  if (existed)
    free (key);
  else
    {
      entries = new vec<rate_entry> ();
      entries->create (1);
    }
  rate_entry entry = { site_line, weight, false };
  entries->safe_push (entry);
  return true;
}

/* Reads the rates file PATH strictly: every error names PATH:LINE.
   Returns false after reporting them.  */
bool
load_rates (const char *path)
{
  FILE *in = fopen (path, "r");
  if (!in)
    {
      error ("sampler: cannot read the rates file %qs: %m", path);
      return false;
    }
  rates = new rate_map;
  char *line = NULL;
  size_t capacity = 0;
  unsigned long number = 0;
  bool ok = true, have_header = false, have_unit = false;
  int got;
  while ((got = read_text_line (in, path, &number, &line, &capacity)) > 0)
    {
      if (line[0] == '#')
	continue;
      auto_vec<char *> fields;
      for (char *p = line;;)
	{
	  fields.safe_push (p);
	  char *tab = strchr (p, '\t');
	  if (!tab)
	    break;
	  *tab = 0;
	  p = tab + 1;
	}
      const char *record = fields[0];
      if (!have_header)
	{
	  if (!parse_rates_header (fields, path, number))
	    {
	      ok = false;
	      break;
	    }
	  have_header = true;
	}
      else if (strcmp (record, "unit") == 0)
	{
	  if (parse_unit_record (fields, have_unit, path, number))
	    have_unit = true;
	  else
	    ok = false;
	}
      else if (strcmp (record, "site") == 0)
	ok &= parse_site_record (fields, have_unit, path, number);
      else
	{
	  error ("sampler: %s:%lu: unknown record %qs (expected %<unit%> or "
		 "%<site%>)", path, number, record);
	  ok = false;
	}
    }
  if (got < 0)
    ok = false;
  if (ok && ferror (in))
    {
      error ("sampler: cannot read the rates file %qs: %m", path);
      ok = false;
    }
  else if (ok && !have_header)
    {
      error ("sampler: %s: empty, not a rates file", path);
      ok = false;
    }
  else if (ok && !have_unit)
    {
      error ("sampler: %s: no %<unit%> record", path);
      ok = false;
    }
  free (line);
  fclose (in);
  return ok;
}

/* The entries of a key, in the file's order, by line.  */
static int
compare_entries (const void *a, const void *b)
{
  const rate_entry *x = (const rate_entry *) a;
  const rate_entry *y = (const rate_entry *) b;
  return x->line < y->line ? -1 : x->line > y->line;
}

/* Sites (indices into unit_sites) by line, then column, then index:
   the order of the entries.  The sites pass numbers sites in the order
   of the statements, which is not the lines' (a while loop's condition
   comes after its body).  */
static int
compare_sites_by_line (const void *a, const void *b)
{
  unsigned x = *(const unsigned *) a, y = *(const unsigned *) b;
  unsigned line_x = LOCATION_LINE (unit_sites[x].loc);
  unsigned line_y = LOCATION_LINE (unit_sites[y].loc);
  if (line_x != line_y)
    return line_x < line_y ? -1 : 1;
  unsigned column_x = LOCATION_COLUMN (unit_sites[x].loc);
  unsigned column_y = LOCATION_COLUMN (unit_sites[y].loc);
  if (column_x != column_y)
    return column_x < column_y ? -1 : 1;
  return x < y ? -1 : x > y;
}

/* Gives the sites SITES (indices, all with one key) their weights from
   ENTRIES.  */
static void
match_sites (const vec<unsigned> &sites, vec<rate_entry> &entries)
{
  entries.qsort (compare_entries);
  if (sites.length () == entries.length ())
    {
      auto_vec<unsigned> by_line;
      by_line.safe_splice (sites);
      by_line.qsort (compare_sites_by_line);
      for (unsigned i = 0; i < by_line.length (); i++)
	{
	  site_info &site = unit_sites[by_line[i]];
	  site.weight = entries[i].weight;
	  entries[i].used = true;
	  if ((unsigned) LOCATION_LINE (site.loc) == entries[i].line)
	    matched_on_line++;
	  else
	    matched_moved++;
	}
      return;
    }
  auto_vec<bool> done;
  done.safe_grow_cleared (sites.length ());
  /* Own lines first, so that a new site near an old one takes nothing
     from it.  */
  for (unsigned i = 0; i < sites.length (); i++)
    for (rate_entry &entry : entries)
      if (!entry.used
	  && entry.line == (unsigned) LOCATION_LINE (unit_sites[sites[i]].loc))
	{
	  unit_sites[sites[i]].weight = entry.weight;
	  entry.used = done[i] = true;
	  matched_on_line++;
	  break;
	}
  for (unsigned i = 0; i < sites.length (); i++)
    {
      if (done[i])
	continue;
      unsigned line = LOCATION_LINE (unit_sites[sites[i]].loc);
      rate_entry *nearest = NULL;
      unsigned distance = UINT_MAX;
      for (rate_entry &entry : entries)
	{
	  unsigned d = entry.line > line ? entry.line - line
					 : line - entry.line;
	  if (!entry.used && d < distance)
	    {
	      nearest = &entry;
	      distance = d;
	    }
	}
      if (nearest)
	{
	  unit_sites[sites[i]].weight = nearest->weight;
	  nearest->used = true;
	  matched_moved++;
	}
      else
	kept_default++;
    }
}

/* Gives the current function's sites, FIRST on, their weights, makes the
   sites of one marker weigh the same (they are observed together: the
   heaviest's weight), and removes the markers of weight 0.  */
void
apply_rates (unsigned first)
{
  if (!rates)
    return;
  const char *source = main_input_filename;
  hash_map<nofree_string_hash, vec<unsigned> *> groups;
  auto_vec<char *> keys;
  for (unsigned i = first; i < unit_sites.length (); i++)
    {
      const site_info &site = unit_sites[i];
      expanded_location xloc = expand_location (site.loc);
      char *key = rate_key (source, xloc.file ? xloc.file : "?",
			    site.function_name,
			    scheme_name (site.scheme), site.predicate);
      bool existed;
      vec<unsigned> *&group = groups.get_or_insert (key, &existed);
      if (existed)
	free (key);
      else
	{
	  keys.safe_push (key);
	  group = new vec<unsigned> ();
	  group->create (1);
	}
      group->safe_push (i);
    }
  for (char *key : keys)
    {
      vec<unsigned> *group = *groups.get (key);
      if (vec<rate_entry> **entries = rates->get (key))
	match_sites (*group, **entries);
      else
	kept_default += group->length ();
      group->release ();
      delete group;
      free (key);
    }

  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);)
      {
	gimple *stmt = gsi_stmt (gsi);
	if (!is_site_marker (stmt))
	  {
	    gsi_next (&gsi);
	    continue;
	  }
	unsigned index = marker_site (stmt), n = site_count (stmt);
	unsigned weight = 0;
	for (unsigned i = index; i < index + n; i++)
	  weight = MAX (weight, unit_sites[i].weight);
	for (unsigned i = index; i < index + n; i++)
	  unit_sites[i].weight = weight;
	if (weight > 0)
	  {
	    gsi_next (&gsi);
	    continue;
	  }
	/* Never sampled: a check's call never runs.  */
	if (is_taken_marker (stmt))
	  {
	    gimple *never = gimple_build_assign (marker_taken (stmt),
						 boolean_false_node);
	    gimple_set_location (never, gimple_location (stmt));
	    gsi_replace (&gsi, never, false);
	    gsi_next (&gsi);
	  }
	else
	  gsi_remove (&gsi, true);
      }
}

/* Says, with verbose, how the unit's sites found their rates.  */
void
report_rates (void)
{
  if (rates && sampler_opts.verbose)
    inform (UNKNOWN_LOCATION,
	    "sampler: rates for %qs: %u sites on their line, %u moved, "
	    "%u not in the rates file (weight %u)", main_input_filename,
	    matched_on_line, matched_moved, kept_default,
	    sampler_opts.countdown_unit);
}
