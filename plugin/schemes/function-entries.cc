/* sampler.so: the function-entries scheme, a site at each selected
   function's entry ("f ()"), counted when sampled.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).  */

#include "schemes.h"
#include "runtime-decls.h"

#include <string.h>

#include "function.h"
#include "basic-block.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "tree-cfg.h"

/* The marker goes on the edge out of the entry block, before anything
   the function does.  */
static void
function_entry_site (const vec<gimple *> &)
{
  location_t loc = DECL_SOURCE_LOCATION (current_function_decl);
  /* A C++ name has its parameter list already.  */
  tree fn = current_function_decl;
  unsigned index = new_site (SAMPLER_SCHEME_FUNCTION_ENTRIES, loc,
			     concat (function_display_name (fn),
				     function_symbol (fn) ? "" : " ()", NULL));
  gsi_insert_on_edge_immediate
    (single_succ_edge (ENTRY_BLOCK_PTR_FOR_FN (cfun)), build_marker (index, loc));
}

/* A sampled visit is counted in the site's one counter: __sampler_count
   (COUNTERS, 0).  */
static void
entries_sample_call (gimple *, const site_info &, gimple_stmt_iterator *, tree,
                     sample_call &call)
{
  call.fn = sample_function ("__sampler_count", long_unsigned_type_node);
  call.args.safe_push (size_int (0));
}

const plugin_scheme FUNCTION_ENTRIES_scheme = {
  .begin_function = function_entry_site,
  .sample_call = entries_sample_call,
};
