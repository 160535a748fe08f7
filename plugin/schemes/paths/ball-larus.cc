/* sampler.so: the paths scheme's numbering, Ball and Larus's ("Efficient
   Path Profiling", MICRO 1996), of the paths of a function's regions.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).

   What.  paths_number, the scheme's region_number hook, takes the
   function's regions together as one DAG (build_dag), with a virtual
   root before every region's entry and a virtual sink after every exit,
   and numbers its paths from 0 to N-1, each region's a range of its own:
   an edge's value is the number of paths from its source that the edges
   before it lead to.  With an interesting-paths file, the paths it names
   get preferential numbers too (preferential.cc).  The increments that
   the path register adds then sit on the chords of a maximum spanning
   tree weighted by GCC's edge counts (maximum_spanning_tree, potentials,
   place_increments), so that the likeliest paths add nothing but at
   their entry and exit.  Last, the function's path table
   (path-table.cc).

   Why.  The numbering runs at compile time, and the slow copy alone adds
   the increments: the fast copy pays only the extra visit per traversal
   in its checks' weights.

   How to debug: dump=FILE says, per function, how many paths and chords
   it has, and whether they are counted in an array or a hash table.  */

#include "paths.h"

#include "function.h"
#include "basic-block.h"
#include "cfg.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "tree-cfg.h"

auto_vec<chord_increment> chord_increments;
hash_map<basic_block, path_count> *entry_increments;
hash_map<basic_block, path_count> *preferred_entry_increments;
auto_vec<std::pair<path_count, path_count> > exit_increments;
bool counted_in_array;
tree preferred_table;
tree path_register;
tree preferred_register;

static gcov_type
count_weight (profile_count count)
{
  return count.initialized_p () ? count.to_gcov_type () : 0;
}

/* The DAG of the current function's regions (see struct path_dag): each
   edge's Ball-Larus value, the number of paths from its source that the
   edges before it lead to.  */
static void
build_dag (function_state *st, path_dag &dag)
{
  region_blocks_postorder (st, dag.order);
  region_entries (st, dag.entries);
  count_paths (st, dag.order, dag.paths);
  vec<path_count> &paths = dag.paths;
  for (basic_block bb : dag.order)
    {
      path_count running = 0;
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->succs)
	{
	  if (exit_edge_p (st, e))
	    {
	      /* Out of an exit marker's block.  */
	      gimple *marker = gsi_stmt (gsi_after_labels (bb));
	      gcc_assert (is_site_marker (marker));
	      dag_edge d = { bb->index, SINK, running, count_weight (bb->count),
			     NULL, NULL, marker, 0 };
	      dag.edges.safe_push (d);
	      running = add_saturating (running, 1);
	    }
	  else if (paths[e->dest->index])
	    {
	      dag_edge d = { bb->index, e->dest->index, running,
			     count_weight (e->count ()), e, NULL, NULL, 0 };
	      dag.edges.safe_push (d);
	      running = add_saturating (running, paths[e->dest->index]);
	    }
	}
    }
  dag.total = 0;
  for (basic_block entry : dag.entries)
    {
      gcov_type weight = 0;
      for (const check_point &cp : st->checks)
	if (cp.fast_edge->dest == entry)
	  weight += count_weight (cp.fast_edge->count ());
      dag_edge d = { ROOT, entry->index, dag.total, weight, NULL, entry, NULL,
		     0 };
      dag.edges.safe_push (d);
      dag.total = add_saturating (dag.total, paths[entry->index]);
    }
  /* The sink's edge back to the root: always in the tree, it has no
     place for code.  */
  dag_edge back = { SINK, ROOT, 0, 0, NULL, NULL, NULL, 0 };
  dag.edges.safe_push (back);
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

/* IN_TREE[i]: whether EDGES[i] is in a maximum spanning tree of the DAG
   with the sink's edge back to the root, by weight (Kruskal); N bounds
   the node numbers.  */
static void
maximum_spanning_tree (const vec<dag_edge> &edges, int n,
		       vec<char> &in_tree)
{
  auto_vec<int> parent;
  parent.safe_grow (n);
  for (int i = 0; i < n; i++)
    parent[i] = i;
  auto_vec<unsigned> by_weight;
  for (unsigned i = 0; i + 1 < edges.length (); i++)
    by_weight.safe_push (i);
  by_weight.stablesort (heavier_first, const_cast<vec<dag_edge> *> (&edges));
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
}

/* Potentials: PHI[v] = PHI[u] + val along every tree edge u -> v, from
   the root (PREFERRED_PHI the same for the preferential values).  An
   edge's increment is then val + PHI[from] - PHI[to]: zero on the tree,
   and summed along a path from root to sink (whose edge back has val 0)
   the path's number.  */
static void
potentials (const vec<dag_edge> &edges, const vec<char> &in_tree, int n,
	    vec<path_count> &phi, vec<path_count> &preferred_phi)
{
  phi.safe_grow_cleared (n);
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
}

/* Each edge's increments (see potentials), for the slow copy: on the
   region entries, at the exit markers (whose value becomes their index
   in exit_increments) and on the chords that add something, in the
   DAG's order (so that the slow copy is made in the same order in every
   compilation of the unit).  Returns the number of chords.  */
static unsigned
place_increments (const vec<dag_edge> &edges, const vec<path_count> &phi,
		  const vec<path_count> &preferred_phi)
{
  delete entry_increments;
  delete preferred_entry_increments;
  entry_increments = new hash_map<basic_block, path_count>;
  preferred_entry_increments = new hash_map<basic_block, path_count>;
  exit_increments.truncate (0);
  chord_increments.truncate (0);
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
	  chord_increment chord = { d.e, inc,
				    preferred_table ? preferred_inc : 0 };
	  chord_increments.safe_push (chord);
	}
    }
  return chord_increments.length ();
}

/* Numbers the paths of the current function's regions (see the top of the
   file) and writes the function's path table.  */
void
paths_number (function_state *st, region_view &view)
{
  path_dag dag;
  build_dag (st, dag);
  preferred_numbering pref;
  number_preferentially (dag, view, pref);
  preferred_table = pref.table;

  int n = last_basic_block_for_fn (cfun);
  auto_vec<char> in_tree;
  maximum_spanning_tree (dag.edges, n, in_tree);
  auto_vec<path_count> phi, preferred_phi;
  potentials (dag.edges, in_tree, n, phi, preferred_phi);
  unsigned chords = place_increments (dag.edges, phi, preferred_phi);
  for (basic_block entry : dag.entries)
    gcc_assert (entry_increments->get (entry));
  counted_in_array = dag.total <= sampler_opts.paths_array;
  path_register = NULL_TREE;
  preferred_register = NULL_TREE;

  write_function_path_table (view, dag);
  dump_path_numbering (dag, pref, chords);
}
