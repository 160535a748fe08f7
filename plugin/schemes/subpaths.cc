/* sampler.so: the subpaths scheme (online subpath profiling), a site at
   the start of each basic block of the source.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).

   The blocks are those of the function's CFG as the sites pass sees it
   (GIMPLE before into-SSA and any optimisation, so the same at every -O
   level) that hold a statement at a source location (source_location_p):
   blocks of compiler temporaries only, and code from system headers, are
   no sites.  The marker goes after the block's labels; a block that
   starts with a returns_twice call (setjmp) is no site, since that call
   must stay first.  The site's location is its first source statement's.
   A sampled visit calls __sampler_subpath_block (COUNTERS, MAX_LOG2),
   which starts a subpath there and records the thread's next visits
   (runtime/schemes/subpaths.c).  */

#include "schemes.h"
#include "runtime-decls.h"

#include "function.h"
#include "basic-block.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "tree-cfg.h"

static void
subpath_block_sites (const vec<gimple *> &)
{
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    {
      gimple_stmt_iterator first = gsi_after_labels (bb);
      if (gsi_end_p (first))
	continue;
      gimple *stmt = gsi_stmt (first);
      if (is_gimple_call (stmt)
	  && (gimple_call_flags (stmt) & ECF_RETURNS_TWICE))
	continue;
      location_t loc = UNKNOWN_LOCATION;
      for (gimple_stmt_iterator gsi = first; !gsi_end_p (gsi); gsi_next (&gsi))
	{
	  gimple *s = gsi_stmt (gsi);
	  if (is_gimple_debug (s) || gimple_code (s) == GIMPLE_LABEL)
	    continue;
	  if (source_location_p (gimple_location (s)))
	    {
	      loc = gimple_location (s);
	      break;
	    }
	}
      if (loc == UNKNOWN_LOCATION)
	continue;
      char text[32];
      snprintf (text, sizeof text, "block %d", bb->index);
      unsigned index = new_site (SAMPLER_SCHEME_SUBPATHS, loc, xstrdup (text));
      gsi_insert_before (&first, build_marker (index, loc), GSI_SAME_STMT);
    }
}

static void
subpaths_sample_call (gimple *, const site_info &, gimple_stmt_iterator *,
		      tree, sample_call &call)
{
  call.fn = sample_function ("__sampler_subpath_block", long_unsigned_type_node);
  call.args.safe_push (build_int_cst (long_unsigned_type_node,
				      sampler_opts.subpath_max_log2));
}

const plugin_scheme SUBPATHS_scheme = {
  .begin_function = subpath_block_sites,
  .sample_call = subpaths_sample_call,
};
