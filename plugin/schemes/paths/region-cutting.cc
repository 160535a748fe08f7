/* sampler.so: the paths scheme's region cutting: no region has more
   paths than paths-max.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).

   What.  paths_prepare, the scheme's region_prepare hook, counts the
   paths from each block of the regions to their exits; at the first block
   (from the exits up) with more than paths-max, it puts a path-limit
   check at the top of its successor with the most paths, and counts
   again, until no block has too many; a single block with more ways out
   than that makes it give up on the function.

   Why: a region's paths are numbered 0 .. N-1 in a 64-bit register and
   counted in a table of the function's counters; a few checks more keep
   N small, and the numbers meaningful.

   How to debug: verbose says how many path-limit checks a function got;
   dump=FILE lists them ("check path-limit").  */

#include "paths.h"

#include "function.h"
#include "basic-block.h"
#include "cfg.h"
#include "cfghooks.h"
#include "cfganal.h"
#include "gimple.h"
#include "tree-cfg.h"
#include "diagnostic-core.h"

bool
exit_edge_p (function_state *st, edge e)
{
  return st->cut.contains (e) || region_end_p (st, e->dest);
}

/* PATHS[bb->index]: the paths from BB to its region's exits, for the
   blocks of ORDER (successors first); an exit edge is one path.  */
void
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
bool
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
