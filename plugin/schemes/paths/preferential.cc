/* sampler.so: preferential path numbering for the paths scheme
   (Vaswani, Nori and Chilimbi, "Preferential Path Profiling: Compactly
   Numbering Interesting Paths", POPL 2007).
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).

   What.  number_preferentially matches the entries of the interesting-
   paths file to a function's paths (interesting-paths.cc) and asks
   ppp_number for edge values that number those paths 0 .. range-1, range
   as close to their number as it can.  In a function whose paths do not
   all fit its pairs, the interesting paths' pairs are the first range,
   the other pairs a hash table for the rest (preferred_table).

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
   Larus number, which the slow copy keeps too (as PPP does).

   How to debug: dump=FILE says, per function, the interesting paths'
   numbers, their compactness and how many other paths alias them.  */

#include "paths.h"

#include "function.h"
#include "basic-block.h"
#include "diagnostic-core.h"

/* The table the runtime reads for SITE's preferential numbers, KEYS
   (__sampler_path_preferred): the pairs CAPACITY, the range, then each
   number's Ball-Larus number + 1, or 0.  */
static tree
preferred_table_decl (unsigned site, unsigned capacity,
		      const vec<path_count> &keys)
{
  path_count range = keys.length ();
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
			    build_int_cst (long_long_unsigned_type_node, key));
  char name[64];
  snprintf (name, sizeof name, "__sampler_preferred_%u", site);
  tree decl = plugin_variable (name, type);
  TREE_READONLY (decl) = 1;
  DECL_IGNORED_P (decl) = 1;
  DECL_PRESERVE_P (decl) = 1;
  DECL_INITIAL (decl) = build_constructor (type, elts);
  define_variable (decl);
  return decl;
}

void
number_preferentially (path_dag &dag, const region_view &view,
		       preferred_numbering &pref)
{
  vec<dag_edge> &edges = dag.edges;
  const site_info &the_site = unit_sites[view.site];
  pref.capacity = (the_site.n_counters - 2) / 2;
  pref.range = 0;
  pref.table = NULL_TREE;
  if (interesting_paths_file ())
    {
      expanded_location sx = expand_location (the_site.loc);
      match_interesting (edges,
			 the_site.function_name,
			 sx.file, pref.interesting);
    }
  if (pref.interesting.is_empty ())
    return;
  auto_vec<int> from, to;
  for (unsigned i = 0; i + 1 < edges.length (); i++)
    {
      from.safe_push (edges[i].from);
      to.safe_push (edges[i].to);
    }
  auto_vec<unsigned long long> values;
  pref.range = ppp_number (last_basic_block_for_fn (cfun), from, to,
			   pref.interesting, values, pref.ids);
  for (unsigned i = 0; i + 1 < edges.length (); i++)
    edges[i].preferred = values[i];
  pref.keys.safe_grow_cleared (pref.range);
  for (unsigned p = 0; p < pref.interesting.length (); p++)
    {
      path_count number = 0;
      for (unsigned i : pref.interesting[p])
	number += edges[i].val;
      gcc_assert (pref.keys[pref.ids[p]] == 0);
      pref.keys[pref.ids[p]] = number + 1;
    }
  if (dag.total > pref.capacity && pref.range <= pref.capacity)
    pref.table = preferred_table_decl (view.site, pref.capacity, pref.keys);
  else if (dag.total > pref.capacity && sampler_opts.verbose)
    inform (DECL_SOURCE_LOCATION (current_function_decl),
	    "sampler: %qD: its %u interesting paths need the numbers "
	    "0 to %llu, more than its %u pairs: counted by their Ball-"
	    "Larus numbers in a hash table", current_function_decl,
	    pref.interesting.length (), pref.range - 1, pref.capacity);
}

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

path_count
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

/* ---------------------------------------------------------------------
   The numbering.  */

static int
compare_values (const void *a, const void *b)
{
  unsigned long long x = *(const unsigned long long *) a;
  unsigned long long y = *(const unsigned long long *) b;
  return (x > y) - (x < y);
}

/* The nodes of the DAG of N_NODES nodes and the edges EDGE_FROM ->
   EDGE_TO, in a topological order (the numbering goes from its end).  */
static void
topological_order (unsigned n_nodes, const vec<int> &edge_from,
		   const vec<int> &edge_to, vec<int> &order)
{
  unsigned n_edges = edge_from.length ();
  auto_vec<unsigned> in_degree;
  in_degree.safe_grow_cleared (n_nodes);
  auto_vec<vec<unsigned> > out;
  out.safe_grow_cleared (n_nodes);
  for (unsigned e = 0; e < n_edges; e++)
    {
      in_degree[edge_to[e]]++;
      out[edge_from[e]].safe_push (e);
    }
  for (unsigned v = 0; v < n_nodes; v++)
    if (!in_degree[v])
      order.safe_push (v);
  for (unsigned i = 0; i < order.length (); i++)
    for (unsigned e : out[order[i]])
      if (--in_degree[edge_to[e]] == 0)
	order.safe_push (edge_to[e]);
  for (vec<unsigned> &list : out)
    list.release ();
}

/* Contexts: PATHS sorted by their edges; CONTEXT[p][i], the context of
   path P at position I (its prefix of I edges), is named by the first
   path in that order with the same prefix.  */
static void
path_contexts (const vec<vec<unsigned> > &paths,
	       vec<vec<unsigned> > &context)
{
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
}

/* Per context, the partial numbers taken at the current node.  */
typedef hash_map<int_hash<int, -1, -2>, vec<unsigned long long> >
  taken_numbers;

/* The values of the edges out of one node, whose (path, position) pairs
   are HERE, the paths' partial numbers from the edges after them on in
   AHEAD (see ppp_number): the edges most paths take first, each the least
   value that meets no number TAKEN in a context it is taken in.  Sets
   VALUES and, for HERE, AHEAD and TAKEN.  */
static void
value_node_edges (const vec<std::pair<unsigned, unsigned> > &here,
		  const vec<vec<unsigned> > &paths,
		  const vec<vec<unsigned> > &context,
		  vec<vec<unsigned long long> > &ahead,
		  vec<unsigned long long> &values, taken_numbers &taken)
{
  /* The edges out of the node, most paths first.  */
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

  auto_vec<int> order;
  topological_order (n_nodes, edge_from, edge_to, order);
  unsigned n_paths = paths.length ();
  auto_vec<vec<unsigned> > context;
  path_contexts (paths, context);

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

  /* Nodes from the sink up: the reverse of the topological order.  */
  taken_numbers taken;
  for (unsigned k = order.length (); k-- > 0;)
    if (!at_node[order[k]].is_empty ())
      value_node_edges (at_node[order[k]], paths, context, ahead, values,
			taken);
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
