/* sampler.so: the paths scheme, Ball-Larus path profiles of the regions
   between checks (Ball and Larus, "Efficient Path Profiling", MICRO
   1996), one visit per traversal.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).

   What.  A region scheme (the region seam, regions.cc): each selected
   function gets one site, "paths of f", whose counters are a table of
   (path number + 1, count) pairs after two counts, the sampled
   traversals and those that found no room.  In the transformation:
     - paths_prepare cuts regions with more than paths-max paths by
       checks at the top of the blocks with the most paths below them
       (path-limit checks), or gives up on the function when a single
       block has more ways out than that;
     - paths_number numbers the paths of the function's regions, taken
       together as one DAG with a virtual root before every region's
       entry and a virtual sink after every exit: from 0 to N-1, each
       region's a range of its own.  The increments sit on the chords of
       a maximum spanning tree weighted by GCC's edge counts, so that the
       likeliest paths add nothing but at their entry and exit;
     - paths_slow_copy builds the path register in the slow copy only: a
       store at each way into it from a check, an addition on each chord;
     - at each exit marker, the sample call passes the register plus the
       exit's increment: the path's number;
     - with paths-interesting=FILE (ppp.cc), the paths the file names get
       preferential numbers 0 .. range-1 in a second register, and the
       sample call passes both numbers and the table of the interesting
       paths' Ball-Larus numbers (Vaswani, Nori and Chilimbi, POPL 2007).
   A function with at most paths-array paths counts them in an array (the
   pair of path P is the P-th); one with more, in a hash table of
   paths-array pairs.  The path table (.debug_sampler_paths, and
   site-table=FILE) says, for each function, how to decode a number into
   its blocks, lines and branch directions.

   Why.  The fast copy pays only the extra visit per traversal in its
   checks' weights: no register, no instruction.  docs/paths.md says which
   paths exist.  */

#include "schemes.h"
#include "transform.h"
#include "runtime-decls.h"
#include "preferential.h"

#include <string.h>

#include "function.h"
#include "basic-block.h"
#include "cfg.h"
#include "cfghooks.h"
#include "cfganal.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "tree-cfg.h"
#include "ssa.h"
#include "diagnostic-core.h"
#include "output.h"
#include "gimplify.h"

typedef unsigned long long path_count;
static const path_count MANY_PATHS = ~(path_count) 0;

static path_count
add_saturating (path_count a, path_count b)
{
  return a > MANY_PATHS - b ? MANY_PATHS : a + b;
}

/* ---------------------------------------------------------------------
   The site.  */

static char *
path_counter_names (unsigned k)
{
  auto_vec<char> text;
  const char *head = "sampled,lost";
  for (const char *p = head; *p; p++)
    text.safe_push (*p);
  for (unsigned i = 1; i <= k; i++)
    {
      char buf[48];
      snprintf (buf, sizeof buf, ",path%u,count%u", i, i);
      for (const char *p = buf; *p; p++)
	text.safe_push (*p);
    }
  text.safe_push (0);
  return xstrdup (text.address ());
}

/* The function's site, its marker on the edge out of the entry block,
   which the transformation takes out (find_region_site).  */
static void
paths_site (const vec<gimple *> &)
{
  location_t loc = DECL_SOURCE_LOCATION (current_function_decl);
  unsigned k = sampler_opts.paths_array;
  /* A pair more for each interesting path named, paths-array more for
     each line whose paths are: the array, with room for the others.  */
  auto_vec<const interesting_entry *> wanted;
  interesting_entries_for (IDENTIFIER_POINTER (DECL_NAME
					       (current_function_decl)),
			   LOCATION_FILE (loc), wanted);
  for (const interesting_entry *entry : wanted)
    k = MIN (k + (entry->through_line ? sampler_opts.paths_array : 1),
	     sampler_opts.paths_array + 4096);
  char *names = path_counter_names (k);
  unsigned index = new_site (SAMPLER_SCHEME_PATHS, loc,
			     concat ("paths of ", function_name (cfun), NULL),
			     names, 2 + 2 * k);
  free (names);
  gsi_insert_on_edge_immediate
    (single_succ_edge (ENTRY_BLOCK_PTR_FOR_FN (cfun)),
     build_marker (index, loc));
}

/* ---------------------------------------------------------------------
   Counting and cutting.  */

static bool
exit_edge_p (function_state *st, edge e)
{
  return st->cut.contains (e) || region_end_p (st, e->dest);
}

/* PATHS[bb->index]: the paths from BB to its region's exits, for the
   blocks of ORDER (successors first); an exit edge is one path.  */
static void
count_paths (function_state *st, const vec<basic_block> &order,
	     vec<path_count> &paths)
{
  paths.truncate (0);
  paths.safe_grow_cleared (last_basic_block_for_fn (cfun));
  for (basic_block bb : order)
    {
      path_count sum = 0;
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->succs)
	sum = add_saturating (sum, exit_edge_p (st, e)
				   ? 1 : paths[e->dest->index]);
      paths[bb->index] = sum;
    }
}

/* Cuts regions with more than paths-max paths: at the first block (from
   the exits up) with too many, a check at the top of its successor with
   the most paths, until none has.  False if a block has more ways out
   than paths-max, which no cut below it helps.  */
static bool
paths_prepare (function_state *st, region_view &)
{
  path_count limit = sampler_opts.paths_max;
  hash_set<basic_block> entries;
  {
    auto_vec<basic_block> list;
    region_entries (st, list);
    for (basic_block bb : list)
      entries.add (bb);
  }
  unsigned cuts = 0;
  for (;;)
    {
      auto_vec<basic_block> order;
      region_blocks_postorder (st, order);
      auto_vec<path_count> paths;
      count_paths (st, order, paths);
      basic_block over = NULL;
      for (basic_block bb : order)
	if (paths[bb->index] > limit)
	  {
	    over = bb;
	    break;
	  }
      if (!over)
	{
	  if (cuts && sampler_opts.verbose)
	    inform (DECL_SOURCE_LOCATION (current_function_decl),
		    "sampler: %qD: %u path-limit checks keep every region "
		    "within %u paths", current_function_decl, cuts,
		    sampler_opts.paths_max);
	  return true;
	}
      edge best = NULL;
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, over->succs)
	if (!exit_edge_p (st, e) && paths[e->dest->index] > 1
	    && !entries.contains (e->dest)
	    && (!best || paths[e->dest->index] > paths[best->dest->index]))
	  best = e;
      if (!best)
	{
	  if (sampler_opts.verbose)
	    inform (DECL_SOURCE_LOCATION (current_function_decl),
		    "sampler: %qD: a block has more than %u ways out: its "
		    "paths are not observed (paths-max)",
		    current_function_decl, sampler_opts.paths_max);
	  return false;
	}
      edge cut = split_block_after_labels (best->dest);
      add_check (st, cut, CHECK_PATH_LIMIT, first_location (cut->dest));
      entries.add (cut->dest);
      cuts++;
    }
}

/* ---------------------------------------------------------------------
   Numbering.  */

/* An edge of the DAG: between two blocks of the regions (E), from the
   virtual root to a region's entry (ENTRY), from an exit marker's block
   to the virtual sink (EXIT), or the sink's edge back to the root.  */
struct dag_edge
{
  int from, to;			/* Block indices; root and sink below.  */
  path_count val;		/* Ball-Larus value.  */
  gcov_type weight;		/* For the spanning tree.  */
  edge e;
  basic_block entry;
  gimple *exit;
  path_count preferred;		/* Preferential value (ppp.cc).  */
};

/* The root and sink: the indices of the entry and exit blocks, which no
   region holds.  */
static const int ROOT = ENTRY_BLOCK;
static const int SINK = EXIT_BLOCK;

/* What the slow copy of the current function needs (paths_number, for
   paths_slow_copy and paths_sample_call).  */
static hash_map<edge, path_count> *chord_increments;
static hash_map<basic_block, path_count> *entry_increments;
static tree path_register;
static bool counted_in_array;
/* With preferential numbering, the same for its register, which the
   chords and entries also update; and the table of the interesting
   paths' Ball-Larus numbers (NULL without).  */
static hash_map<edge, path_count> *preferred_chord_increments;
static hash_map<basic_block, path_count> *preferred_entry_increments;
static tree preferred_register;
static tree preferred_table;
/* Each exit marker's value is its index here: its Ball-Larus and
   preferential increments.  */
static auto_vec<std::pair<path_count, path_count> > exit_increments;

/* The unit's path table, text, emitted at the end of the unit.  */
static auto_vec<char> path_table;

static void
table_text (const char *text)
{
  for (const char *p = text; *p; p++)
    {
      if (*p == '\\' || *p == '\t' || *p == '\n')
	{
	  path_table.safe_push ('\\');
	  path_table.safe_push (*p == '\\' ? '\\' : *p == '\t' ? 't' : 'n');
	}
      else
	path_table.safe_push (*p);
    }
}

/* A line of the path table: FORMAT's fields are separated by tabs
   already; its conversions are %s, %d, %u and %L (unsigned long long),
   whose text is escaped.  */
static void
table_line (const char *format, ...)
{
  va_list ap;
  va_start (ap, format);
  for (const char *p = format; *p; p++)
    {
      if (*p != '%')
	{
	  path_table.safe_push (*p);
	  continue;
	}
      p++;
      char buf[48];
      if (*p == 's')
	table_text (va_arg (ap, const char *));
      else if (*p == 'd')
	{
	  snprintf (buf, sizeof buf, "%d", va_arg (ap, int));
	  table_text (buf);
	}
      else if (*p == 'u')
	{
	  snprintf (buf, sizeof buf, "%u", va_arg (ap, unsigned));
	  table_text (buf);
	}
      else if (*p == 'L')
	{
	  snprintf (buf, sizeof buf, "%llu", va_arg (ap, unsigned long long));
	  table_text (buf);
	}
      else
	gcc_unreachable ();
    }
  va_end (ap);
  path_table.safe_push ('\n');
}

static int
find_root (vec<int> &parent, int x)
{
  while (parent[x] != x)
    {
      parent[x] = parent[parent[x]];
      x = parent[x];
    }
  return x;
}

static gcov_type
count_weight (profile_count count)
{
  return count.initialized_p () ? count.to_gcov_type () : 0;
}

/* Heavier first; the order of the edges otherwise.  */
static int
heavier_first (const void *a, const void *b, void *data)
{
  const vec<dag_edge> &edges = *(const vec<dag_edge> *) data;
  const dag_edge &x = edges[*(const unsigned *) a];
  const dag_edge &y = edges[*(const unsigned *) b];
  if (x.weight != y.weight)
    return x.weight > y.weight ? -1 : 1;
  return (int) *(const unsigned *) a - (int) *(const unsigned *) b;
}

/* The first and last line of BB's statements in the function's file
   (markers aside), or 0 and 0.  */
static void
block_lines (basic_block bb, int *first, int *last)
{
  *first = *last = 0;
  const char *file = LOCATION_FILE (DECL_SOURCE_LOCATION
				    (current_function_decl));
  for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
       gsi_next (&gsi))
    {
      gimple *stmt = gsi_stmt (gsi);
      /* A marker has its site's line (a switch's arm: the switch's).  */
      if (is_gimple_debug (stmt) || is_site_marker (stmt)
	  || gimple_location (stmt) == UNKNOWN_LOCATION)
	continue;
      expanded_location x = expand_location (gimple_location (stmt));
      if (!x.file || !file || strcmp (x.file, file) != 0 || x.line <= 0)
	continue;
      if (!*first || x.line < *first)
	*first = x.line;
      if (x.line > *last)
	*last = x.line;
    }
}

/* How E leaves its block: a conditional's true or false side, a switch's
   arm, or the only way.  */
static const char *
edge_how (edge e)
{
  gimple *last = last_stmt (e->src);
  if (last && gimple_code (last) == GIMPLE_COND)
    return (e->flags & EDGE_TRUE_VALUE) ? "true" : "false";
  if (last && gimple_code (last) == GIMPLE_SWITCH)
    return "switch";
  return "-";
}

/* The line of STMT in the function's file: for a statement of a function
   inlined from another file (a header's getchar), the line of the call
   it was inlined at; 0 when there is none.  */
static int
stmt_line (gimple *stmt)
{
  if (!stmt)
    return 0;
  const char *file = LOCATION_FILE (DECL_SOURCE_LOCATION
				    (current_function_decl));
  location_t loc = gimple_location (stmt);
  tree block = gimple_block (stmt);
  for (;;)
    {
      if (loc != UNKNOWN_LOCATION)
	{
	  expanded_location x = expand_location (loc);
	  if (x.file && file && strcmp (x.file, file) == 0 && x.line > 0)
	    return x.line;
	}
      while (block && TREE_CODE (block) == BLOCK
	     && !inlined_function_outer_scope_p (block))
	block = BLOCK_SUPERCONTEXT (block);
      if (!block || TREE_CODE (block) != BLOCK)
	return 0;
      loc = BLOCK_SOURCE_LOCATION (block);
      block = BLOCK_SUPERCONTEXT (block);
    }
}

/* ---------------------------------------------------------------------
   Interesting paths (ppp.cc): the entries of the interesting-paths file
   matched to the DAG's paths.  */

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

/* The paths of the current function that its entries in the interesting-
   paths file name, as DAG edge indices from the root edge to the exit's,
   distinct; FUNCTION and FILE name it.  */
static void
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

/* The paths of a function with at most this many have their aliases
   counted for the dump.  */
static const path_count ALIAS_COUNT_MOST = 100000;

/* The paths from BLOCK on whose preferential number, PREFERRED plus the
   values ahead, is below KEYS' length and whose Ball-Larus number, PATH
   plus the values ahead, is not the interesting path's of that number.  */
static path_count
count_aliases_from (const vec<dag_edge> &edges, const vec<vec<unsigned> > &out,
		    const vec<path_count> &keys, int block, path_count preferred,
		    path_count path)
{
  path_count n = 0;
  for (unsigned i : out[block])
    {
      const dag_edge &d = edges[i];
      path_count p = preferred + d.preferred, bl = path + d.val;
      if (d.to == SINK)
	n += p < keys.length () && keys[p] != bl + 1;
      else
	n += count_aliases_from (edges, out, keys, d.to, p, bl);
    }
  return n;
}

static path_count
count_aliases (const vec<dag_edge> &edges, const vec<path_count> &keys)
{
  auto_vec<vec<unsigned> > out;
  out.safe_grow_cleared (last_basic_block_for_fn (cfun));
  for (unsigned i = 0; i + 1 < edges.length (); i++)
    out[edges[i].from].safe_push (i);
  path_count n = count_aliases_from (edges, out, keys, ROOT, 0, 0);
  for (vec<unsigned> &list : out)
    list.release ();
  return n;
}

/* Numbers the paths of the current function's regions (see the top of the
   file) and writes the function's path table.  */
static void
paths_number (function_state *st, region_view &view)
{
  auto_vec<basic_block> order, entries;
  region_blocks_postorder (st, order);
  region_entries (st, entries);
  auto_vec<path_count> paths;
  count_paths (st, order, paths);

  auto_vec<dag_edge> edges;
  for (basic_block bb : order)
    {
      path_count running = 0;
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->succs)
	{
	  if (exit_edge_p (st, e))
	    {
	      /* Out of an exit marker's block.  */
	      gimple *marker = gsi_stmt (gsi_start_bb (bb));
	      gcc_assert (is_site_marker (marker));
	      dag_edge d = { bb->index, SINK, running, count_weight (bb->count),
			     NULL, NULL, marker, 0 };
	      edges.safe_push (d);
	      running = add_saturating (running, 1);
	    }
	  else if (paths[e->dest->index])
	    {
	      dag_edge d = { bb->index, e->dest->index, running,
			     count_weight (e->count ()), e, NULL, NULL, 0 };
	      edges.safe_push (d);
	      running = add_saturating (running, paths[e->dest->index]);
	    }
	}
    }
  path_count total = 0;
  for (basic_block entry : entries)
    {
      gcov_type weight = 0;
      for (const check_point &cp : st->checks)
	if (cp.fast_edge->dest == entry)
	  weight += count_weight (cp.fast_edge->count ());
      dag_edge d = { ROOT, entry->index, total, weight, NULL, entry, NULL, 0 };
      edges.safe_push (d);
      total = add_saturating (total, paths[entry->index]);
    }
  /* The sink's edge back to the root: always in the tree, it has no
     place for code.  */
  dag_edge back = { SINK, ROOT, 0, 0, NULL, NULL, NULL, 0 };
  edges.safe_push (back);

  /* Preferential numbering (ppp.cc): the interesting paths numbered
     0 .. range-1.  In a function whose paths do not all fit its pairs,
     their pairs are the first range, the other pairs a hash table for
     the rest; the dump says how compact the numbers are either way.  */
  const site_info &the_site = unit_sites[view.site];
  unsigned capacity = (the_site.n_counters - 2) / 2;
  auto_vec<vec<unsigned> > interesting;
  auto_vec<unsigned long long> preferred_ids;
  /* Per preferential number, the Ball-Larus number + 1 of the
     interesting path it is, or 0.  */
  auto_vec<path_count> keys;
  path_count range = 0;
  preferred_table = NULL_TREE;
  if (interesting_paths_file ())
    {
      expanded_location sx = expand_location (the_site.loc);
      match_interesting (edges,
			 IDENTIFIER_POINTER (DECL_NAME (the_site.function)),
			 sx.file, interesting);
    }
  if (!interesting.is_empty ())
    {
      auto_vec<int> from, to;
      for (unsigned i = 0; i + 1 < edges.length (); i++)
	{
	  from.safe_push (edges[i].from);
	  to.safe_push (edges[i].to);
	}
      auto_vec<unsigned long long> values;
      range = ppp_number (last_basic_block_for_fn (cfun), from, to,
			  interesting, values, preferred_ids);
      for (unsigned i = 0; i + 1 < edges.length (); i++)
	edges[i].preferred = values[i];
      keys.safe_grow_cleared (range);
      for (unsigned p = 0; p < interesting.length (); p++)
	{
	  path_count number = 0;
	  for (unsigned i : interesting[p])
	    number += edges[i].val;
	  gcc_assert (keys[preferred_ids[p]] == 0);
	  keys[preferred_ids[p]] = number + 1;
	}
      if (total > capacity && range <= capacity)
	{
	  /* The table: the pairs, the range, then KEYS.  */
	  tree type = build_array_type_nelts (long_long_unsigned_type_node,
					      2 + range);
	  vec<constructor_elt, va_gc> *elts = NULL;
	  CONSTRUCTOR_APPEND_ELT (elts, NULL_TREE,
				  build_int_cst (long_long_unsigned_type_node,
						 capacity));
	  CONSTRUCTOR_APPEND_ELT (elts, NULL_TREE,
				  build_int_cst (long_long_unsigned_type_node,
						 range));
	  for (path_count key : keys)
	    CONSTRUCTOR_APPEND_ELT (elts, NULL_TREE,
				    build_int_cst (long_long_unsigned_type_node,
						   key));
	  char name[64];
	  snprintf (name, sizeof name, "__sampler_preferred_%u", view.site);
	  tree decl = plugin_variable (name, type);
	  TREE_READONLY (decl) = 1;
	  DECL_IGNORED_P (decl) = 1;
	  DECL_PRESERVE_P (decl) = 1;
	  DECL_INITIAL (decl) = build_constructor (type, elts);
	  define_variable (decl);
	  preferred_table = decl;
	}
      else if (total > capacity && sampler_opts.verbose)
	inform (DECL_SOURCE_LOCATION (current_function_decl),
		"sampler: %qD: its %u interesting paths need the numbers "
		"0 to %llu, more than its %u pairs: counted by their Ball-"
		"Larus numbers in a hash table", current_function_decl,
		interesting.length (), range - 1, capacity);
    }

  /* The maximum spanning tree (Kruskal).  */
  int n = last_basic_block_for_fn (cfun);
  auto_vec<int> parent;
  parent.safe_grow (n);
  for (int i = 0; i < n; i++)
    parent[i] = i;
  auto_vec<unsigned> by_weight;
  for (unsigned i = 0; i + 1 < edges.length (); i++)
    by_weight.safe_push (i);
  by_weight.stablesort (heavier_first, &edges);
  auto_vec<char> in_tree;
  in_tree.safe_grow_cleared (edges.length ());
  in_tree[edges.length () - 1] = 1;
  parent[find_root (parent, SINK)] = find_root (parent, ROOT);
  for (unsigned i : by_weight)
    {
      int a = find_root (parent, edges[i].from);
      int b = find_root (parent, edges[i].to);
      if (a != b)
	{
	  parent[a] = b;
	  in_tree[i] = 1;
	}
    }

  /* Potentials: PHI[v] = PHI[u] + val along every tree edge u -> v, from
     the root.  An edge's increment is then val + PHI[from] - PHI[to]:
     zero on the tree, and summed along a path from root to sink (whose
     edge back has val 0) the path's number.  */
  auto_vec<path_count> phi;
  phi.safe_grow_cleared (n);
  auto_vec<path_count> preferred_phi;
  preferred_phi.safe_grow_cleared (n);
  auto_vec<char> done;
  done.safe_grow_cleared (n);
  auto_vec<vec<unsigned> > adjacent;
  adjacent.safe_grow_cleared (n);
  for (unsigned i = 0; i < edges.length (); i++)
    if (in_tree[i])
      {
	adjacent[edges[i].from].safe_push (i);
	adjacent[edges[i].to].safe_push (i);
      }
  auto_vec<int> work;
  work.safe_push (ROOT);
  done[ROOT] = 1;
  while (!work.is_empty ())
    {
      int u = work.pop ();
      for (unsigned i : adjacent[u])
	{
	  const dag_edge &d = edges[i];
	  int v = d.from == u ? d.to : d.from;
	  if (done[v])
	    continue;
	  phi[v] = d.from == u ? phi[u] + d.val : phi[u] - d.val;
	  preferred_phi[v] = d.from == u ? preferred_phi[u] + d.preferred
			     : preferred_phi[u] - d.preferred;
	  done[v] = 1;
	  work.safe_push (v);
	}
    }
  for (vec<unsigned> &list : adjacent)
    list.release ();

  delete chord_increments;
  delete entry_increments;
  delete preferred_chord_increments;
  delete preferred_entry_increments;
  chord_increments = new hash_map<edge, path_count>;
  entry_increments = new hash_map<basic_block, path_count>;
  preferred_chord_increments = new hash_map<edge, path_count>;
  preferred_entry_increments = new hash_map<basic_block, path_count>;
  exit_increments.truncate (0);
  unsigned chords = 0;
  for (unsigned i = 0; i + 1 < edges.length (); i++)
    {
      const dag_edge &d = edges[i];
      path_count inc = d.val + phi[d.from] - phi[d.to];
      path_count preferred_inc
	= d.preferred + preferred_phi[d.from] - preferred_phi[d.to];
      if (d.entry)
	{
	  entry_increments->put (d.entry, inc);
	  preferred_entry_increments->put (d.entry, preferred_inc);
	}
      else if (d.exit)
	{
	  gasm *marker = as_a <gasm *> (d.exit);
	  TREE_VALUE (gimple_asm_input_op (marker, 1))
	    = build_int_cst (long_long_unsigned_type_node,
			     exit_increments.length ());
	  exit_increments.safe_push (std::make_pair (inc, preferred_inc));
	}
      else if (inc || (preferred_table && preferred_inc))
	{
	  chord_increments->put (d.e, inc);
	  if (preferred_table)
	    preferred_chord_increments->put (d.e, preferred_inc);
	  chords++;
	}
    }
  counted_in_array = total <= sampler_opts.paths_array;
  path_register = NULL_TREE;
  preferred_register = NULL_TREE;

  /* The path table.  */
  const site_info &site = unit_sites[view.site];
  expanded_location fx = expand_location (site.loc);
  table_line ("paths\t%u\t%s\t%s\t%L\t%s", view.site,
	      IDENTIFIER_POINTER (DECL_NAME (site.function)),
	      fx.file ? fx.file : "?", total,
	      counted_in_array ? "array" : "hash");
  for (basic_block entry : entries)
    {
      path_count *inc = entry_increments->get (entry);
      gcc_assert (inc);
      path_count first = 0;
      for (const dag_edge &d : edges)
	if (d.entry == entry)
	  first = d.val;
      int line_first, line_last;
      block_lines (entry, &line_first, &line_last);
      table_line ("region\t%d\t%L\t%L\t%d", entry->index, first,
		  paths[entry->index], line_first);
    }
  for (basic_block bb : order)
    {
      if (!paths[bb->index])
	continue;
      int line_first, line_last;
      block_lines (bb, &line_first, &line_last);
      table_line ("block\t%d\t%d\t%d", bb->index, line_first, line_last);
    }
  for (const dag_edge &d : edges)
    {
      if (d.e)
	table_line ("edge\t%d\t%d\t%L\t%s\t%d", d.from, d.to, d.val,
		    edge_how (d.e), stmt_line (last_stmt (d.e->src)));
      else if (d.exit)
	table_line ("exit\t%d\t%L\t%d", d.from, d.val, stmt_line (d.exit));
    }
  table_line ("end");

  if (FILE *f = open_sampler_dump ())
    {
      fprintf (f, "paths %s: %llu paths in %u regions, %u chords, %s\n",
	       function_name (cfun), total, entries.length (), chords,
	       counted_in_array ? "array" : "hash table");
      /* Compactness: the numbers the interesting paths need, per path
	 (Vaswani et al. 2007).  */
      if (!interesting.is_empty ())
	fprintf (f, "  preferred: %u interesting paths, numbers 0..%llu, "
		 "compactness %.3f, %u pairs, %s\n", interesting.length (),
		 range - 1, (double) range / interesting.length (), capacity,
		 preferred_table ? "array"
		 : total <= capacity ? "not used: every path has its pair"
		 : "too wide: hash table");
      for (unsigned p = 0; p < interesting.length (); p++)
	fprintf (f, "  preferred %llu: path %llu\n", preferred_ids[p],
		 keys[preferred_ids[p]] - 1);
      if (!interesting.is_empty () && total <= ALIAS_COUNT_MOST)
	fprintf (f, "  preferred aliases: %llu other paths share an "
		 "interesting path's number\n", count_aliases (edges, keys));
      for (basic_block entry : entries)
	fprintf (f, "  region line %d: %llu paths\n",
		 stmt_line (first_stmt (entry)) ? stmt_line (first_stmt (entry))
		 : LOCATION_LINE (first_location (entry)),
		 paths[entry->index]);
      fclose (f);
    }
  for (vec<unsigned> &path : interesting)
    path.release ();
}

/* ---------------------------------------------------------------------
   The register, in the slow copy.  */

static void
append_stmt (basic_block bb, gimple *stmt)
{
  gimple_stmt_iterator gsi = gsi_last_bb (bb);
  if (!gsi_end_p (gsi) && stmt_ends_bb_p (gsi_stmt (gsi)))
    gsi_insert_before (&gsi, stmt, GSI_NEW_STMT);
  else
    gsi_insert_after (&gsi, stmt, GSI_NEW_STMT);
}

/* A fresh path register, in memory (the slow copy keeps no register
   of its own), set where the slow copy is entered to the increments of
   INCREMENTS for the region entries.  */
static tree
new_path_register (const char *name, region_view &view,
		   hash_map<basic_block, path_count> *increments)
{
  tree type = long_long_unsigned_type_node;
  tree reg = create_tmp_var (type, name);
  TREE_ADDRESSABLE (reg) = 1;
  for (const region_view::slow_entry &entry : view.slow_entries)
    if (path_count *inc = increments->get (entry.dest))
      append_stmt (entry.join,
		   gimple_build_assign (reg, build_int_cst (type, *inc)));
  return reg;
}

static void
paths_slow_copy (function_state *, region_view &view)
{
  tree type = long_long_unsigned_type_node;
  path_register = new_path_register ("sampler_path", view, entry_increments);
  if (preferred_table)
    preferred_register = new_path_register ("sampler_preferred_path", view,
					    preferred_entry_increments);
  for (auto item : *chord_increments)
    {
      edge *slow = view.slow_edges.get (item.first);
      if (!slow)
	continue;
      basic_block bb = split_edge (*slow);
      path_count *preferred = preferred_chord_increments->get (item.first);
      for (int which = 0; which < (preferred_register ? 2 : 1); which++)
	{
	  tree reg = which ? preferred_register : path_register;
	  path_count inc = which ? *preferred : item.second;
	  if (!inc)
	    continue;
	  tree before = make_ssa_name (type);
	  append_stmt (bb, gimple_build_assign (before, reg));
	  tree after = make_ssa_name (type);
	  append_stmt (bb, gimple_build_assign (after, PLUS_EXPR, before,
						build_int_cst (type, inc)));
	  append_stmt (bb, gimple_build_assign (reg, after));
	}
    }
}

/* REG plus INC, before GSI.  */
static tree
register_plus (tree reg, path_count inc, location_t loc,
	       gimple_stmt_iterator *gsi)
{
  tree type = long_long_unsigned_type_node;
  tree before = make_ssa_name (type);
  gimple *load = gimple_build_assign (before, reg);
  gimple_set_location (load, loc);
  gsi_insert_before (gsi, load, GSI_SAME_STMT);
  tree sum = make_ssa_name (type);
  gimple *add = gimple_build_assign (sum, PLUS_EXPR, before,
				     build_int_cst (type, inc));
  gimple_set_location (add, loc);
  gsi_insert_before (gsi, add, GSI_SAME_STMT);
  return sum;
}

/* __sampler_path (COUNTERS, PATH, CAPACITY, IN_ARRAY): PATH the register
   plus the exit's increment.  With preferential numbering,
   __sampler_path_preferred (COUNTERS, PREFERRED, PATH, TABLE).  */
static void
paths_sample_call (gimple *marker, const site_info &site,
		   gimple_stmt_iterator *gsi, tree, sample_call &call)
{
  tree type = long_long_unsigned_type_node;
  location_t loc = gimple_location (marker);
  gcc_assert (path_register);
  unsigned exit = tree_to_uhwi (marker_value (marker, 0));
  gcc_assert (exit < exit_increments.length ());
  tree path = register_plus (path_register, exit_increments[exit].first,
			     loc, gsi);
  if (preferred_register)
    {
      tree preferred = register_plus (preferred_register,
				      exit_increments[exit].second, loc, gsi);
      tree pointer = build_pointer_type (type);
      call.fn = sample_function ("__sampler_path_preferred", type, type,
				 pointer);
      call.args.safe_push (preferred);
      call.args.safe_push (path);
      call.args.safe_push (build_fold_addr_expr
			   (build4 (ARRAY_REF, type, preferred_table,
				    size_int (0), NULL_TREE, NULL_TREE)));
      call.memory = preferred_table;
      return;
    }
  call.fn = sample_function ("__sampler_path", type, long_unsigned_type_node,
			     long_unsigned_type_node);
  call.args.safe_push (path);
  call.args.safe_push (build_int_cst (long_unsigned_type_node,
				      (site.n_counters - 2) / 2));
  call.args.safe_push (build_int_cst (long_unsigned_type_node,
				      counted_in_array));
}



/* The path table: a head line naming the unit, each function's table,
   and an end line.  */
static void
paths_finish_unit (void)
{
  if (path_table.is_empty () || seen_error () || !unit_signature[0])
    return;
  auto_vec<char> text;
  char head[128];
  snprintf (head, sizeof head, "pathunit\t%s\n", unit_signature);
  for (const char *p = head; *p; p++)
    text.safe_push (*p);
  text.safe_splice (path_table);
  for (const char *p = "pathunitend\n"; *p; p++)
    text.safe_push (*p);
  if (asm_out_file)
    emit_text_section (asm_out_file, SAMPLER_PATH_SECTION, text.address (),
		       text.length ());
  if (sampler_opts.site_table_file)
    {
      FILE *out = fopen (sampler_opts.site_table_file, "a");
      if (!out || fwrite (text.address (), 1, text.length (), out)
		     != text.length ()
	  || fclose (out) != 0)
	error ("sampler: cannot write the path table to %qs: %m",
	       sampler_opts.site_table_file);
    }
}

const plugin_scheme PATHS_scheme = {
  .begin_function = paths_site,
  .sample_call = paths_sample_call,
  .region_prepare = paths_prepare,
  .finish_unit = paths_finish_unit,
  .region_number = paths_number,
  .region_slow_copy = paths_slow_copy,
};
