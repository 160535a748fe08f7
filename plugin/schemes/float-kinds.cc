/* sampler.so: the float-kinds scheme.  An assignment to a floating-point
   variable of the user's is a site ("x") with a counter per class of the
   value assigned (nan, -inf, ..., +inf); the marker after the assignment
   observes the value.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).  */

#include "../schemes.h"

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

const plugin_scheme FLOAT_KINDS_scheme = {
  .assignment = float_kinds_assignment,
};
