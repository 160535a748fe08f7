/* sampler.so: the paths scheme, Ball-Larus path profiles of the regions
   between checks (Ball and Larus, "Efficient Path Profiling", MICRO
   1996), one visit per traversal.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).

   What.  A region scheme (the region seam, transform/regions.cc): each
   selected function gets one site, "paths of f", whose counters are a
   table of (path number + 1, count) pairs after two counts, the sampled
   traversals and those that found no room.  In the transformation:
     - paths_prepare (region-cutting.cc) cuts regions with more than
       paths-max paths by checks at the top of the blocks with the most
       paths below them (path-limit checks), or gives up on the function
       when a single block has more ways out than that;
     - paths_number (ball-larus.cc) numbers the paths of the function's
       regions, taken together as one DAG with a virtual root before
       every region's entry and a virtual sink after every exit: from 0
       to N-1, each region's a range of its own.  The increments sit on
       the chords of a maximum spanning tree weighted by GCC's edge
       counts, so that the likeliest paths add nothing but at their entry
       and exit;
     - paths_slow_copy, here, builds the path register in the slow copy
       only: a store at each way into it from a check, an addition on
       each chord;
     - at each exit marker, the sample call passes the register plus the
       exit's increment: the path's number;
     - with paths-interesting=FILE (interesting-paths.cc,
       preferential.cc), the paths the file names get preferential
       numbers 0 .. range-1 in a second register, and the sample call
       passes both numbers and the table of the interesting paths'
       Ball-Larus numbers (Vaswani, Nori and Chilimbi, POPL 2007).
   A function with at most paths-array paths counts them in an array (the
   pair of path P is the P-th); one with more, in a hash table of
   paths-array pairs.  The path table (path-table.cc) says, for each
   function, how to decode a number into its blocks, lines and branch
   directions.

   Why.  The fast copy pays only the extra visit per traversal in its
   checks' weights: no register, no instruction.  docs/paths.md says which
   paths exist.  */

#include "paths.h"

#include <string.h>

#include "function.h"
#include "basic-block.h"
#include "cfg.h"
#include "cfghooks.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "tree-cfg.h"
#include "ssa.h"
#include "runtime-decls.h"

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
  interesting_entries_for (function_display_name (current_function_decl),
			   LOCATION_FILE (loc), wanted);
  for (const interesting_entry *entry : wanted)
    k = MIN (k + (entry->through_line ? sampler_opts.paths_array : 1),
	     sampler_opts.paths_array + 4096);
  char *names = path_counter_names (k);
  unsigned index = new_site (SAMPLER_SCHEME_PATHS, loc,
			     concat ("paths of ",
				     function_display_name (current_function_decl),
				     NULL),
			     names, 2 + 2 * k);
  free (names);
  gsi_insert_on_edge_immediate
    (single_succ_edge (ENTRY_BLOCK_PTR_FOR_FN (cfun)),
     build_marker (index, loc));
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
  for (const chord_increment &chord : chord_increments)
    {
      edge *slow = view.slow_edges.get (chord.e);
      if (!slow)
	continue;
      basic_block bb = split_edge (*slow);
      for (int which = 0; which < (preferred_register ? 2 : 1); which++)
	{
	  tree reg = which ? preferred_register : path_register;
	  path_count inc = which ? chord.preferred : chord.inc;
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

const plugin_scheme PATHS_scheme = {
  .begin_function = paths_site,
  .sample_call = paths_sample_call,
  .region_prepare = paths_prepare,
  .finish_unit = paths_finish_unit,
  .region_number = paths_number,
  .region_slow_copy = paths_slow_copy,
};
