/* sampler.so: the bounds scheme.  An assignment to a numeric variable of
   the user's is a site ("x (signed)", "(unsigned)" or "(double)": the
   variable and how its values compare) whose counters are the number of
   observations and the least and greatest value (merge kind MIN_MAX);
   the marker after the assignment observes the value.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).  */

#include "schemes.h"
#include "runtime-decls.h"

#include <string.h>

#include "function.h"
#include "basic-block.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "tree-cfg.h"

static void
bounds_assignment (gimple *stmt, tree x, tree value, after_stmt_inserter &after)
{
  tree type = TREE_TYPE (x);
  /* A pointer's range is an address, different in every run (ASLR):
     bounds are for numbers.  */
  if (POINTER_TYPE_P (type))
    return;
  location_t loc = gimple_location (stmt);
  const char *name = IDENTIFIER_POINTER (DECL_NAME (x));
  enum site_info::value_kind_t kind = value_kind_of (type);
  const char *kind_text = kind == site_info::VALUE_FLOAT ? "double"
			  : kind == site_info::VALUE_SIGNED ? "signed"
			  : "unsigned";
  unsigned index = new_site (SAMPLER_SCHEME_BOUNDS, loc,
			     concat (name, " (", kind_text, ")", NULL));
  unit_sites[index].value_kind = kind;
  after.add (build_marker (index, loc, value));
}

/* __sampler_bounds_double, _signed or _unsigned (COUNTERS, VALUE).  An
   ordinary call: the runtime's bounds may use floating point.  */
static void
bounds_sample_call (gimple *marker, const site_info &site,
		    gimple_stmt_iterator *gsi, tree, sample_call &call)
{
  tree type;
  const char *name;
  if (site.value_kind == site_info::VALUE_FLOAT)
    {
      type = double_type_node;
      name = "__sampler_bounds_double";
    }
  else
    {
      type = observed_type (site);
      name = observed_unsigned (site) ? "__sampler_bounds_unsigned"
				      : "__sampler_bounds_signed";
    }
  call.fn = sample_function (name, type);
  call.args.safe_push (converted (gsi, marker_value (marker, 0), type,
				  gimple_location (marker)));
}

const plugin_scheme BOUNDS_scheme = {
  .assignment = bounds_assignment,
  .sample_call = bounds_sample_call,
};
