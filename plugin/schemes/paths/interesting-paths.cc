/* sampler.so: the interesting-paths file of the paths scheme, and the
   paths of a function that its entries name.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).

   What.  load_interesting_paths reads the file (paths-interesting=FILE;
   docs/paths.md, "Preferential numbering") strictly, each error naming
   FILE:LINE.  match_interesting finds, in the DAG of a function's regions
   (ball-larus.cc), the paths its entries name: a path by its region's
   first line and its decisions, or every path through a line; the
   preferential numbering (preferential.cc) numbers them.

   How to debug: verbose says which entries match no path of their
   function, and where too many paths match.  */

#include "paths.h"

#include <string.h>
#include <limits.h>

#include "function.h"
#include "basic-block.h"
#include "gimple.h"
#include "tree-cfg.h"
#include "diagnostic-core.h"

static vec<interesting_entry> entries;
static const char *entries_file;

const char *
interesting_paths_file (void)
{
  return entries_file;
}

/* A whole number from 0 to INT_MAX spelled by TEXT up to END (or its
   end), in *OUT.  */
static bool
parse_line_number (const char *text, const char *end, int *out)
{
  if (!end)
    end = text + strlen (text);
  if (text == end)
    return false;
  long long n = 0;
  for (const char *p = text; p < end; p++)
    {
      if (*p < '0' || *p > '9')
	return false;
      n = n * 10 + (*p - '0');
      if (n > INT_MAX)
	return false;
    }
  *out = (int) n;
  return true;
}

/* A step: LINE:true, LINE:false, LINE:switch:TO or exit:LINE.  */
static bool
parse_step (const char *word, interesting_step *step)
{
  const char *colon = strchr (word, ':');
  if (!colon)
    return false;
  if (strncmp (word, "exit:", 5) == 0)
    {
      step->how = 'x';
      step->to_line = 0;
      return parse_line_number (word + 5, NULL, &step->line);
    }
  if (!parse_line_number (word, colon, &step->line))
    return false;
  const char *how = colon + 1;
  step->to_line = 0;
  if (strcmp (how, "true") == 0)
    step->how = 't';
  else if (strcmp (how, "false") == 0)
    step->how = 'f';
  else if (strncmp (how, "switch:", 7) == 0)
    {
      step->how = 's';
      return parse_line_number (how + 7, NULL, &step->to_line);
    }
  else
    return false;
  return true;
}

/* The header line's WORDS: the file's kind and version.  False after
   reporting an error at PATH:NUMBER.  */
static bool
parse_header (const vec<char *> &words, const char *path,
	      unsigned long number)
{
  if (strcmp (words[0], "sampler-interesting-paths") != 0)
    {
      error ("sampler: %s:%lu: not an interesting-paths file (it "
	     "starts with %qs, expected %<sampler-interesting-paths%>)",
	     path, number, words[0]);
      return false;
    }
  if (words.length () != 2 || strcmp (words[1], "1") != 0)
    {
      error ("sampler: %s:%lu: unknown interesting-paths file version "
	     "(this plugin reads version 1)", path, number);
      return false;
    }
  return true;
}

/* A path entry's steps, from WORDS[4] on, into ENTRY.  False after
   reporting an error at PATH:NUMBER.  */
static bool
parse_steps (const vec<char *> &words, const char *path,
	     unsigned long number, interesting_entry *entry)
{
  for (unsigned i = 4; i < words.length (); i++)
    {
      interesting_step step;
      if (!parse_step (words[i], &step))
	{
	  error ("sampler: %s:%lu: bad step %qs (expected LINE:true, "
		 "LINE:false, LINE:switch:LINE or exit:LINE)",
		 path, number, words[i]);
	  return false;
	}
      if ((step.how == 'x') != (i + 1 == words.length ()))
	{
	  error ("sampler: %s:%lu: a path ends with its one "
		 "%<exit:LINE%> step", path, number);
	  return false;
	}
      entry->steps.safe_push (step);
    }
  return true;
}

/* The entry of the line's WORDS (a `line' or a `path' record) into
   ENTRY, but for its function and file.  False after reporting an error
   at PATH:NUMBER.  */
static bool
parse_entry (const vec<char *> &words, const char *path,
	     unsigned long number, interesting_entry *entry)
{
  const char *record = words[0];
  if (strcmp (record, "line") == 0)
    {
      if (words.length () != 4
	  || !parse_line_number (words[3], NULL, &entry->line)
	  || entry->line == 0)
	{
	  error ("sampler: %s:%lu: expected %<line FUNCTION FILE LINE%> "
		 "(LINE a line number from 1)", path, number);
	  return false;
	}
      entry->through_line = true;
      return true;
    }
  if (strcmp (record, "path") == 0)
    {
      const char *slash = words.length () < 5 ? NULL
			  : strchr (words[3], '/');
      if (words.length () < 5 || strncmp (words[3], "from:", 5) != 0
	  || !parse_line_number (words[3] + 5, slash, &entry->from_line)
	  || (slash && (!parse_line_number (slash + 1, NULL,
					    &entry->from_index)
			|| entry->from_index == 0)))
	{
	  error ("sampler: %s:%lu: expected %<path FUNCTION FILE "
		 "from:LINE[/N] STEP... exit:LINE%>", path, number);
	  return false;
	}
      if (!parse_steps (words, path, number, entry))
	{
	  entry->steps.release ();
	  return false;
	}
      return true;
    }
  error ("sampler: %s:%lu: unknown record %qs (expected %<path%> or "
	 "%<line%>)", path, number, record);
  return false;
}

bool
load_interesting_paths (const char *path)
{
  FILE *in = fopen (path, "r");
  if (!in)
    {
      error ("sampler: cannot read the interesting-paths file %qs: %m", path);
      return false;
    }
  entries_file = path;
  char *line = NULL;
  size_t capacity = 0;
  unsigned long number = 0;
  bool ok = true, have_header = false;
  int got = 0;
  while (ok && (got = read_text_line (in, path, &number, &line, &capacity)) > 0)
    {
      auto_vec<char *> words;
      for (char *p = strtok (line, " \t\r"); p; p = strtok (NULL, " \t\r"))
	words.safe_push (p);
      if (words.is_empty () || words[0][0] == '#')
	continue;
      if (!have_header)
	{
	  ok = parse_header (words, path, number);
	  have_header = true;
	  continue;
	}
      interesting_entry entry = {};
      entry.where = number;
      if (!parse_entry (words, path, number, &entry))
	{
	  ok = false;
	  continue;
	}
      entry.function = xstrdup (words[1]);
      entry.file = xstrdup (words[2]);
      entries.safe_push (entry);
    }
  if (got < 0)
    ok = false;
  if (ok && ferror (in))
    {
      error ("sampler: cannot read the interesting-paths file %qs: %m", path);
      ok = false;
    }
  if (ok && !have_header)
    {
      error ("sampler: %s: empty: an interesting-paths file starts with "
	     "%<sampler-interesting-paths 1%>", path);
      ok = false;
    }
  free (line);
  fclose (in);
  return ok;
}

/* FILE is NAME, or ends with "/NAME".  */
static bool
same_file (const char *name, const char *file)
{
  size_t n = strlen (name), f = strlen (file);
  if (n == f)
    return strcmp (name, file) == 0;
  return f > n && file[f - n - 1] == '/' && strcmp (file + f - n, name) == 0;
}

void
interesting_entries_for (const char *function, const char *file,
			 vec<const interesting_entry *> &out)
{
  for (const interesting_entry &entry : entries)
    if (strcmp (entry.function, function) == 0 && file
	&& same_file (entry.file, file))
      out.safe_push (&entry);
}

/* ---------------------------------------------------------------------
   The entries matched to the DAG's paths.  */

/* What an entry can say of a DAG edge: how it leaves its block ('t',
   'f', 's', or '-' for the only way; 'x' an exit, 'r' from the root),
   the line of its branch, exit or region, and the first line of the
   block it leads to.  */
struct edge_words
{
  char how;
  int line, to_line;
};

struct path_matcher
{
  const vec<dag_edge> *edges;
  auto_vec<edge_words> words;
  auto_vec<vec<unsigned> > out;	/* Per block, its edges.  */
  auto_vec<char> on_line;	/* Per block, holds the line sought.  */
  const interesting_entry *entry;
  auto_vec<unsigned> trail;
  vec<vec<unsigned> > *found;
  unsigned long budget;
  ~path_matcher ()
  {
    for (vec<unsigned> &list : out)
      list.release ();
  }
};

/* Steps of an interesting path and the most of them searched, and the
   most paths through one line taken.  */
static const unsigned long MATCH_BUDGET = 2000000;
static const unsigned LINE_PATHS_MOST = 4096;

static void
match_steps (path_matcher &m, int block, unsigned step)
{
  const vec<interesting_step> &steps = m.entry->steps;
  for (unsigned i : m.out[block])
    {
      if (!m.budget || m.found->length () >= LINE_PATHS_MOST)
	return;
      m.budget--;
      const edge_words &w = m.words[i];
      m.trail.safe_push (i);
      if (w.how == 'x')
	{
	  if (step + 1 == steps.length () && steps[step].line == w.line)
	    m.found->safe_push (m.trail.copy ());
	}
      else if (w.how == '-')
	match_steps (m, (*m.edges)[i].to, step);
      else if (step + 1 < steps.length () && steps[step].how == w.how
	       && steps[step].line == w.line
	       && (w.how != 's' || steps[step].to_line == w.to_line))
	match_steps (m, (*m.edges)[i].to, step + 1);
      m.trail.pop ();
    }
}

static void
match_through_line (path_matcher &m, int block, bool through)
{
  through |= m.on_line[block];
  for (unsigned i : m.out[block])
    {
      if (!m.budget || m.found->length () >= LINE_PATHS_MOST)
	return;
      m.budget--;
      m.trail.safe_push (i);
      if (m.words[i].how == 'x')
	{
	  if (through)
	    m.found->safe_push (m.trail.copy ());
	}
      else
	match_through_line (m, (*m.edges)[i].to, through);
      m.trail.pop ();
    }
}

static int
compare_paths (const void *a, const void *b)
{
  const vec<unsigned> &x = *(const vec<unsigned> *) a;
  const vec<unsigned> &y = *(const vec<unsigned> *) b;
  for (unsigned i = 0; i < x.length () && i < y.length (); i++)
    if (x[i] != y[i])
      return x[i] < y[i] ? -1 : 1;
  return (x.length () > y.length ()) - (x.length () < y.length ());
}

void
match_interesting (const vec<dag_edge> &edges, const char *function,
		   const char *file, vec<vec<unsigned> > &paths)
{
  auto_vec<const interesting_entry *> wanted;
  interesting_entries_for (function, file, wanted);
  if (wanted.is_empty ())
    return;
  path_matcher m;
  m.edges = &edges;
  int n = last_basic_block_for_fn (cfun);
  m.out.safe_grow_cleared (n);
  m.on_line.safe_grow_cleared (n);
  for (unsigned i = 0; i + 1 < edges.length (); i++)
    {
      const dag_edge &d = edges[i];
      edge_words w = { '-', 0, 0 };
      int first, last;
      if (d.entry)
	{
	  block_lines (d.entry, &first, &last);
	  w.how = 'r';
	  w.line = first;
	}
      else if (d.exit)
	{
	  w.how = 'x';
	  w.line = stmt_line (d.exit);
	}
      else
	{
	  w.how = edge_how (d.e)[0];
	  w.line = stmt_line (last_stmt (d.e->src));
	  block_lines (d.e->dest, &first, &last);
	  w.to_line = first;
	}
      m.words.safe_push (w);
      m.out[d.from].safe_push (i);
    }
  for (const interesting_entry *entry : wanted)
    {
      unsigned before = paths.length ();
      m.entry = entry;
      m.found = &paths;
      m.budget = MATCH_BUDGET;
      if (entry->through_line)
	{
	  basic_block bb;
	  FOR_EACH_BB_FN (bb, cfun)
	    {
	      int first, last;
	      block_lines (bb, &first, &last);
	      m.on_line[bb->index] = first && first <= entry->line
				     && entry->line <= last;
	    }
	}
      /* The regions in the path table's order: the Nth starting at the
	 entry's line, or every one.  */
      int seen_at_line = 0;
      for (unsigned r : m.out[ROOT])
	{
	  if (!entry->through_line
	      && (m.words[r].line != entry->from_line
		  || (++seen_at_line != entry->from_index
		      && entry->from_index)))
	    continue;
	  m.trail.truncate (0);
	  m.trail.safe_push (r);
	  if (entry->through_line)
	    match_through_line (m, edges[r].to, false);
	  else
	    match_steps (m, edges[r].to, 0);
	}
      if (sampler_opts.verbose && paths.length () == before)
	inform (DECL_SOURCE_LOCATION (current_function_decl),
		"sampler: %s:%lu: the interesting path matches no path of "
		"%qD", interesting_paths_file (), entry->where,
		current_function_decl);
      if (sampler_opts.verbose && (!m.budget
				   || paths.length () >= LINE_PATHS_MOST))
	inform (DECL_SOURCE_LOCATION (current_function_decl),
		"sampler: %s:%lu: too many paths match; the first %u taken",
		interesting_paths_file (), entry->where,
		paths.length () - before);
    }
  /* Distinct, in a fixed order.  */
  paths.qsort (compare_paths);
  unsigned kept = 0;
  for (unsigned i = 0; i < paths.length (); i++)
    if (kept && compare_paths (&paths[kept - 1], &paths[i]) == 0)
      paths[i].release ();
    else
      paths[kept++] = paths[i];
  paths.truncate (kept);
}
