/* sampler.so: preferential path numbering for the paths scheme
   (Vaswani, Nori and Chilimbi, "Preferential Path Profiling: Compactly
   Numbering Interesting Paths", POPL 2007).
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).

   What.  load_interesting_paths reads the interesting-paths file
   (docs/paths.md, "Preferential numbering"); paths.cc matches its
   entries to a function's paths and asks ppp_number for edge values that
   number those paths 0 .. range-1, range as close to their number as it
   can.

   How (ppp_number).  Nodes from the sink up, as Ball and Larus number
   them; at node V, each interesting path through V has a partial number,
   the sum of the values ahead of V.  Two interesting paths first part at
   some node, with the same prefix before it: so it is enough that, at
   each node, the paths that share a prefix (their context) have distinct
   partial numbers there.  The value of an edge out of V is the least
   W >= 0 such that, in every context the edge is taken in, W plus the
   partial numbers at its head meet none of those the edges already
   valued took in the same context.  Paths of different contexts may
   share numbers, which is where PPP gains over Ball and Larus; with every
   path interesting, each context sees all of a node's paths and the
   values are Ball and Larus's.  An uninteresting path may add up to an
   interesting path's number: the runtime tells them apart by the Ball-
   Larus number, which the slow copy keeps too (as PPP does).  */

#include "preferential.h"

#include <string.h>
#include <limits.h>

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
      const char *record = words[0];
      if (!have_header)
	{
	  if (strcmp (record, "sampler-interesting-paths") != 0)
	    {
	      error ("sampler: %s:%lu: not an interesting-paths file (it "
		     "starts with %qs, expected %<sampler-interesting-paths%>)",
		     path, number, record);
	      ok = false;
	    }
	  else if (words.length () != 2 || strcmp (words[1], "1") != 0)
	    {
	      error ("sampler: %s:%lu: unknown interesting-paths file version "
		     "(this plugin reads version 1)", path, number);
	      ok = false;
	    }
	  have_header = true;
	  continue;
	}
      interesting_entry entry = {};
      entry.where = number;
      if (strcmp (record, "line") == 0)
	{
	  if (words.length () != 4
	      || !parse_line_number (words[3], NULL, &entry.line)
	      || entry.line == 0)
	    {
	      error ("sampler: %s:%lu: expected %<line FUNCTION FILE LINE%> "
		     "(LINE a line number from 1)", path, number);
	      ok = false;
	      continue;
	    }
	  entry.through_line = true;
	}
      else if (strcmp (record, "path") == 0)
	{
	  const char *slash = words.length () < 5 ? NULL
			      : strchr (words[3], '/');
	  if (words.length () < 5 || strncmp (words[3], "from:", 5) != 0
	      || !parse_line_number (words[3] + 5, slash, &entry.from_line)
	      || (slash && (!parse_line_number (slash + 1, NULL,
						&entry.from_index)
			    || entry.from_index == 0)))
	    {
	      error ("sampler: %s:%lu: expected %<path FUNCTION FILE "
		     "from:LINE[/N] STEP... exit:LINE%>", path, number);
	      ok = false;
	      continue;
	    }
	  for (unsigned i = 4; i < words.length (); i++)
	    {
	      interesting_step step;
	      if (!parse_step (words[i], &step))
		{
		  error ("sampler: %s:%lu: bad step %qs (expected LINE:true, "
			 "LINE:false, LINE:switch:LINE or exit:LINE)",
			 path, number, words[i]);
		  ok = false;
		  break;
		}
	      if ((step.how == 'x') != (i + 1 == words.length ()))
		{
		  error ("sampler: %s:%lu: a path ends with its one "
			 "%<exit:LINE%> step", path, number);
		  ok = false;
		  break;
		}
	      entry.steps.safe_push (step);
	    }
	  if (!ok)
	    {
	      entry.steps.release ();
	      continue;
	    }
	}
      else
	{
	  error ("sampler: %s:%lu: unknown record %qs (expected %<path%> or "
		 "%<line%>)", path, number, record);
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
   The numbering.  */

static int
compare_values (const void *a, const void *b)
{
  unsigned long long x = *(const unsigned long long *) a;
  unsigned long long y = *(const unsigned long long *) b;
  return (x > y) - (x < y);
}

unsigned long long
ppp_number (unsigned n_nodes, const vec<int> &edge_from,
	    const vec<int> &edge_to, const vec<vec<unsigned> > &paths,
	    vec<unsigned long long> &values, vec<unsigned long long> &ids)
{
  unsigned n_edges = edge_from.length ();
  values.truncate (0);
  values.safe_grow_cleared (n_edges);
  ids.truncate (0);
  ids.safe_grow_cleared (paths.length ());
  if (paths.is_empty ())
    return 0;

  /* Nodes from the sink up: the reverse of a topological order.  */
  auto_vec<unsigned> in_degree;
  in_degree.safe_grow_cleared (n_nodes);
  auto_vec<vec<unsigned> > out;
  out.safe_grow_cleared (n_nodes);
  for (unsigned e = 0; e < n_edges; e++)
    {
      in_degree[edge_to[e]]++;
      out[edge_from[e]].safe_push (e);
    }
  auto_vec<int> order;
  for (unsigned v = 0; v < n_nodes; v++)
    if (!in_degree[v])
      order.safe_push (v);
  for (unsigned i = 0; i < order.length (); i++)
    for (unsigned e : out[order[i]])
      if (--in_degree[edge_to[e]] == 0)
	order.safe_push (edge_to[e]);
  for (vec<unsigned> &list : out)
    list.release ();

  /* Contexts: paths sorted by their edges; the context of path P at
     position I (its prefix of I edges) is named by the first path in
     that order with the same prefix.  */
  unsigned n_paths = paths.length ();
  auto_vec<unsigned> sorted;
  for (unsigned p = 0; p < n_paths; p++)
    sorted.safe_push (p);
  sorted.stablesort ([] (const void *a, const void *b, void *data) -> int
    {
      const vec<vec<unsigned> > &all = *(const vec<vec<unsigned> > *) data;
      const vec<unsigned> &x = all[*(const unsigned *) a];
      const vec<unsigned> &y = all[*(const unsigned *) b];
      for (unsigned i = 0; i < x.length () && i < y.length (); i++)
	if (x[i] != y[i])
	  return x[i] < y[i] ? -1 : 1;
      return (x.length () > y.length ()) - (x.length () < y.length ());
    }, const_cast<vec<vec<unsigned> > *> (&paths));
  auto_vec<vec<unsigned> > context;
  context.safe_grow_cleared (n_paths);
  for (unsigned s = 0; s < n_paths; s++)
    {
      unsigned p = sorted[s];
      unsigned common = 0;
      if (s)
	{
	  const vec<unsigned> &prev = paths[sorted[s - 1]];
	  while (common < prev.length () && common < paths[p].length ()
		 && prev[common] == paths[p][common])
	    common++;
	}
      for (unsigned i = 0; i < paths[p].length (); i++)
	context[p].safe_push (s && i <= common ? context[sorted[s - 1]][i]
			      : p);
    }

  /* Partial numbers: AHEAD[p][i], the sum of path P's values from its
     edge I on.  Edges at each node: (path, position) pairs.  */
  auto_vec<vec<unsigned long long> > ahead;
  ahead.safe_grow_cleared (n_paths);
  auto_vec<vec<std::pair<unsigned, unsigned> > > at_node;
  at_node.safe_grow_cleared (n_nodes);
  for (unsigned p = 0; p < n_paths; p++)
    {
      ahead[p].safe_grow_cleared (paths[p].length () + 1);
      for (unsigned i = 0; i < paths[p].length (); i++)
	at_node[edge_from[paths[p][i]]].safe_push (std::make_pair (p, i));
    }

  /* Per context, the partial numbers taken at the current node.  */
  hash_map<int_hash<int, -1, -2>, vec<unsigned long long> > taken;
  for (unsigned k = order.length (); k-- > 0;)
    {
      int v = order[k];
      vec<std::pair<unsigned, unsigned> > &here = at_node[v];
      if (here.is_empty ())
	continue;
      /* The edges out of V, most paths first.  */
      auto_vec<unsigned> edges_here;
      hash_map<int_hash<int, -1, -2>, unsigned> uses;
      for (auto &pi : here)
	{
	  bool existed;
	  unsigned &n = uses.get_or_insert (paths[pi.first][pi.second],
					    &existed);
	  if (!existed)
	    {
	      n = 0;
	      edges_here.safe_push (paths[pi.first][pi.second]);
	    }
	  n++;
	}
      edges_here.stablesort ([] (const void *a, const void *b, void *data)
	{
	  auto &counts = *(hash_map<int_hash<int, -1, -2>, unsigned> *) data;
	  unsigned x = *counts.get (*(const unsigned *) a);
	  unsigned y = *counts.get (*(const unsigned *) b);
	  if (x != y)
	    return x > y ? -1 : 1;
	  return (int) *(const unsigned *) a - (int) *(const unsigned *) b;
	}, &uses);
      for (auto item : taken)
	item.second.release ();
      taken.empty ();
      for (unsigned e : edges_here)
	{
	  /* The values W that would meet a taken number: o - a.  */
	  auto_vec<unsigned long long> bad;
	  for (auto &pi : here)
	    {
	      if (paths[pi.first][pi.second] != e)
		continue;
	      unsigned long long a = ahead[pi.first][pi.second + 1];
	      if (vec<unsigned long long> *t
		  = taken.get (context[pi.first][pi.second]))
		for (unsigned long long o : *t)
		  if (o >= a)
		    bad.safe_push (o - a);
	    }
	  bad.qsort (compare_values);
	  unsigned long long w = 0;
	  for (unsigned long long b : bad)
	    if (b == w)
	      w++;
	    else if (b > w)
	      break;
	  values[e] = w;
	  for (auto &pi : here)
	    {
	      if (paths[pi.first][pi.second] != e)
		continue;
	      unsigned long long number = w + ahead[pi.first][pi.second + 1];
	      ahead[pi.first][pi.second] = number;
	      bool existed;
	      vec<unsigned long long> &t
		= taken.get_or_insert (context[pi.first][pi.second], &existed);
	      if (!existed)
		t = vNULL;
	      t.safe_push (number);
	    }
	}
    }
  for (auto item : taken)
    item.second.release ();

  unsigned long long range = 0;
  for (unsigned p = 0; p < n_paths; p++)
    {
      ids[p] = ahead[p][0];
      if (ids[p] + 1 > range)
	range = ids[p] + 1;
      ahead[p].release ();
      context[p].release ();
    }
  for (auto &list : at_node)
    list.release ();
  return range;
}
