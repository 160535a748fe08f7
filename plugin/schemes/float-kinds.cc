/* sampler.so: the float-kinds scheme.  An assignment to a floating-point
   variable of the user's is a site ("x") with a counter per class of the
   value assigned (nan, -inf, ..., +inf); the marker after the assignment
   observes the value.
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
float_kinds_assignment (gimple *stmt, tree x, tree value,
			after_stmt_inserter &after)
{
  if (!SCALAR_FLOAT_TYPE_P (TREE_TYPE (x)))
    return;
  location_t loc = gimple_location (stmt);
  const char *name = IDENTIFIER_POINTER (DECL_NAME (x));
  unsigned index = new_site (SAMPLER_SCHEME_FLOAT_KINDS, loc, xstrdup (name));
  unit_sites[index].value_kind = site_info::VALUE_FLOAT;
  after.add (build_marker (index, loc, value));
}

/* __sampler_float_kind (COUNTERS, VALUE, SOURCE_TYPE): the value widened
   to long double, and its own type, which says what is subnormal.  An
   ordinary call: it takes a floating-point value.  */
static void
float_kinds_sample_call (gimple *marker, const site_info &,
			 gimple_stmt_iterator *gsi, tree, sample_call &call)
{
  tree value = marker_value (marker, 0);
  tree source = TYPE_MAIN_VARIANT (TREE_TYPE (value));
  int source_type = source == float_type_node ? SAMPLER_FLOAT_TYPE_FLOAT
		    : source == double_type_node ? SAMPLER_FLOAT_TYPE_DOUBLE
		    : SAMPLER_FLOAT_TYPE_LONG_DOUBLE;
  call.fn = sample_function ("__sampler_float_kind", long_double_type_node,
			     integer_type_node);
  call.args.safe_push (converted (gsi, value, long_double_type_node,
				  gimple_location (marker)));
  call.args.safe_push (build_int_cst (integer_type_node, source_type));
}

const plugin_scheme FLOAT_KINDS_scheme = {
  .assignment = float_kinds_assignment,
  .sample_call = float_kinds_sample_call,
};
