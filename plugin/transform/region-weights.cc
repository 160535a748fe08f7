/* sampler.so: what each threshold check weighs, and the region limit.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).

   What.  Once the checks cut every cycle through a site
   (threshold-checks.cc), weigh_checks gives each check its weight, the
   largest number of sites on a path from it to the next checks, and each
   block the longest site count from its start to the end of its region:
   over the strongly connected components of the CFG without the checks'
   edges, the longest count is a sum over a DAG.  With a region limit,
   split_heavy_blocks and limit_region_weights add the long-path checks
   that keep every region within it.

   Why.  A region's weight is how often its slow copy runs (about weight /
   sparsity of the time): the region limit trades a check on long paths
   for fewer entries into the slow copy.

   How to debug: dump=FILE lists each function's checks with their
   weights (0: dropped).  */

#include "sampler-plugin.h"
#include "transform.h"

#include "function.h"
#include "basic-block.h"
#include "cfg.h"
#include "cfganal.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "tree-cfg.h"
#include "diagnostic-core.h"

/* Tarjan's strongly connected components of the CFG without the CUT edges,
   iteratively.  COMP gets each block's component; components are numbered
   in the order they complete, so every edge between components goes from a
   higher number to a lower one.  Returns the number of components.  */
static int
strongly_connected_components (hash_set<edge> &cut, vec<int> &comp)
{
  int n = last_basic_block_for_fn (cfun);
  auto_vec<int> index (n), low (n);
  auto_vec<char> on_stack (n);
  index.quick_grow_cleared (n);
  low.quick_grow_cleared (n);
  on_stack.quick_grow_cleared (n);
  comp.truncate (0);
  comp.safe_grow (n);
  for (int i = 0; i < n; i++)
    comp[i] = -1, index[i] = 0;

  auto_vec<basic_block> stack;
  /* The DFS path: each block with the number of its next edge to visit.  */
  struct dfs_frame
  {
    basic_block bb;
    unsigned next;
  };
  auto_vec<dfs_frame> path;
  int counter = 0, ncomp = 0;
  basic_block root;
  FOR_ALL_BB_FN (root, cfun)
    {
      if (index[root->index])
	continue;
      path.safe_push ({ root, 0u });
      index[root->index] = low[root->index] = ++counter;
      stack.safe_push (root);
      on_stack[root->index] = 1;
      while (!path.is_empty ())
	{
	  basic_block bb = path.last ().bb;
	  unsigned &next = path.last ().next;
	  if (next < EDGE_COUNT (bb->succs))
	    {
	      edge e = EDGE_SUCC (bb, next++);
	      if (cut.contains (e))
		continue;
	      basic_block dest = e->dest;
	      if (!index[dest->index])
		{
		  index[dest->index] = low[dest->index] = ++counter;
		  stack.safe_push (dest);
		  on_stack[dest->index] = 1;
		  path.safe_push ({ dest, 0u });
		}
	      else if (on_stack[dest->index])
		low[bb->index] = MIN (low[bb->index], index[dest->index]);
	      continue;
	    }
	  path.pop ();
	  if (!path.is_empty ())
	    {
	      basic_block parent = path.last ().bb;
	      low[parent->index] = MIN (low[parent->index], low[bb->index]);
	    }
	  if (low[bb->index] == index[bb->index])
	    {
	      basic_block member;
	      do
		{
		  member = stack.pop ();
		  on_stack[member->index] = 0;
		  comp[member->index] = ncomp;
		}
	      while (member != bb);
	      ncomp++;
	    }
	}
    }
  return ncomp;
}

/* The most countdown units the sites of one block weigh together: the
   weights of regions are sums of blocks' weights in an int.  */
static const int block_weight_cap = INT_MAX / 8;

/* A component: its sites, blocks and whether it holds a cycle.  */
struct component_info
{
  int sites;
  int size;
  bool cyclic;
};

/* The components of the CFG without the cut edges (see
   strongly_connected_components), each block's in COMP.  */
static int
find_components (function_state *st, vec<int> &comp,
		 vec<component_info> &info)
{
  int ncomp = strongly_connected_components (st->cut, comp);
  info.truncate (0);
  info.safe_grow_cleared (ncomp);
  basic_block bb;
  FOR_ALL_BB_FN (bb, cfun)
    {
      component_info &c = info[comp[bb->index]];
      c.sites = (int) MIN ((long long) c.sites + st->sites_in_block[bb->index],
			   (long long) block_weight_cap + 1);
      if (++c.size > 1)
	c.cyclic = true;
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->succs)
	if (e->dest == bb && !st->cut.contains (e))
	  c.cyclic = true;
    }
  return ncomp;
}

void
count_sites_in_blocks (function_state *st)
{
  st->sites_in_block.truncate (0);
  st->sites_in_block.safe_grow_cleared (last_basic_block_for_fn (cfun));
  /* With rates, heavy sites could make a block's weight overflow: a block
     over the cap counts as one unit more than it until split_heavy_blocks
     cuts it into pieces (see check_block_weights).  */
  auto_vec<long long> sum;
  sum.safe_grow_cleared (last_basic_block_for_fn (cfun));
  for (gimple *stmt : st->sites)
    {
      int index = gimple_bb (stmt)->index;
      sum[index] += marker_visits (stmt);
      st->sites_in_block[index]
	= (int) MIN (sum[index], (long long) block_weight_cap + 1);
    }
}

/* The components of the CFG without the cut edges (see find_components),
   with their blocks sorted by component (counting sort): component C's
   are SORTED[FIRST[C]] to SORTED[FIRST[C + 1] - 1].  */
struct component_graph
{
  auto_vec<int> comp;
  auto_vec<component_info> info;
  int count;
  auto_vec<int> first;
  auto_vec<basic_block> sorted;

  component_graph (function_state *st)
  {
    count = find_components (st, comp, info);
    first.safe_grow_cleared (count + 1);
    basic_block bb;
    FOR_ALL_BB_FN (bb, cfun)
      first[comp[bb->index] + 1]++;
    for (int c = 0; c < count; c++)
      first[c + 1] += first[c];
    sorted.safe_grow_cleared (first[count]);
    auto_vec<int> fill;
    fill.safe_splice (first);
    FOR_ALL_BB_FN (bb, cfun)
      sorted[fill[comp[bb->index]]++] = bb;
  }
};

/* An error at the first block whose sites weigh more than
   block_weight_cap together.  After split_heavy_blocks only a single
   marker over the cap, or a block without a region limit to split it,
   can.  */
void
check_block_weights (function_state *st)
{
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    if (st->sites_in_block[bb->index] > block_weight_cap)
      {
	error_at (first_location (bb), "sampler: the sites of one block "
		  "of %qD weigh more than %d countdown units: lower the unit "
		  "or the weights of the rates file, or give a region limit",
		  current_function_decl, block_weight_cap);
	return;
      }
}

/* Splits blocks holding more sites than the region limit (at most
   block_weight_cap) into pieces that do not, with a check between
   pieces.  */
void
split_heavy_blocks (function_state *st)
{
  int limit = MIN (sampler_opts.region_limit, block_weight_cap);
  auto_vec<gimple *> split_before;
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    {
      if (st->sites_in_block[bb->index] <= limit)
	continue;
      int count = 0;
      for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	   gsi_next (&gsi))
	if (is_site_marker (gsi_stmt (gsi)))
	  {
	    int k = marker_visits (gsi_stmt (gsi));
	    if (count > 0 && count + k > limit)
	      {
		split_before.safe_push (gsi_stmt (gsi));
		count = 0;
	      }
	    count += k;
	  }
    }
  for (gimple *stmt : split_before)
    {
      gimple_stmt_iterator gsi = gsi_for_stmt (stmt);
      gsi_prev (&gsi);
      edge e = split_block (gimple_bb (stmt), gsi_stmt (gsi));
      add_check (st, e, CHECK_LONG_PATH, gimple_location (stmt));
    }
  if (!split_before.is_empty ())
    count_sites_in_blocks (st);
}

/* Components in topological order: every edge between components goes
   from a higher number to a lower one, so from the last to the first.  For
   each component, the longest site count from the start of a region to
   its own start; where that and its own sites exceed the region limit, a
   check at the top of its (single) block starts a new region.  Bounds the
   weight of every region, so that the countdown is rarely within reach of
   a check's weight (the slow copy runs about weight / sparsity of the
   time), at the cost of a check on long paths.  */
void
limit_region_weights (function_state *st)
{
  int limit = sampler_opts.region_limit;
  component_graph g (st);
  auto_vec<int> reach;
  reach.safe_grow_cleared (g.count);
  auto_vec<basic_block> leaders;	/* Blocks that get a check on top.  */
  for (int c = g.count - 1; c >= 0; c--)
    {
      basic_block only = g.sorted[g.first[c]];
      if (reach[c] > 0 && reach[c] + g.info[c].sites > limit
	  && !g.info[c].cyclic && only != EXIT_BLOCK_PTR_FOR_FN (cfun))
	{
	  leaders.safe_push (only);
	  reach[c] = 0;
	}
      int out = reach[c] + g.info[c].sites;
      for (int i = g.first[c]; i < g.first[c + 1]; i++)
	{
	  edge e;
	  edge_iterator ei;
	  FOR_EACH_EDGE (e, ei, g.sorted[i]->succs)
	    {
	      int d = g.comp[e->dest->index];
	      if (!st->cut.contains (e) && d != c)
		reach[d] = MAX (reach[d], out);
	    }
	}
    }
  for (basic_block bb : leaders)
    {
      edge e = split_block_after_labels (bb);
      add_check (st, e, CHECK_LONG_PATH, first_location (e->dest));
    }
  if (!leaders.is_empty ())
    count_sites_in_blocks (st);
}

/* Gives every check its weight, the longest site count from it to the
   next checks (site-free cycles count zero), and every block the longest
   site count from its start to the end of its region.  */
void
weigh_checks (function_state *st)
{
  component_graph g (st);
  basic_block bb;

  /* In completion order: every successor component is finished first.  */
  auto_vec<int> weight;
  weight.safe_grow_cleared (g.count);
  for (int c = 0; c < g.count; c++)
    {
      /* The chosen checks cut every cycle through a site.  */
      gcc_assert (!g.info[c].cyclic || g.info[c].sites == 0);
      int longest = 0;
      for (int i = g.first[c]; i < g.first[c + 1]; i++)
	{
	  edge e;
	  edge_iterator ei;
	  FOR_EACH_EDGE (e, ei, g.sorted[i]->succs)
	    if (!st->cut.contains (e) && g.comp[e->dest->index] != c)
	      longest = MAX (longest, weight[g.comp[e->dest->index]]);
	}
      weight[c] = g.info[c].sites + longest;
    }
  for (check_point &cp : st->checks)
    cp.weight = weight[g.comp[cp.fast_edge->dest->index]];
  st->block_weight.truncate (0);
  st->block_weight.safe_grow_cleared (last_basic_block_for_fn (cfun));
  FOR_ALL_BB_FN (bb, cfun)
    st->block_weight[bb->index] = weight[g.comp[bb->index]];
}
