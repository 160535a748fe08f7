/* sampler.so: the call that observes a site when the countdown runs out
   there, in the slow copy.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).

   What.  build_sample_call puts before a marker the call its site's
   scheme asks for (the scheme's sample_call hook, plugin/schemes/), the
   site's counters first; the schemes' hooks convert the values they pass
   with converted, observed_type and values_array.

   How to debug: with -fdump-tree-all, the dump file *.sampler-transform
   shows the calls (asm statements calling __sampler_* on x86-64) in each
   function's slow copy.  */

#include "schemes.h"

#include "function.h"
#include "basic-block.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "tree-cfg.h"
#include "stringpool.h"
#include "gimplify.h"

#include "runtime-decls.h"

/* &counters[FIRST], an invariant address.  */
static tree
counter_address (unsigned first)
{
  tree ref = build4 (ARRAY_REF, long_long_unsigned_type_node,
		     unit_counters_decl (), size_int (first), NULL_TREE,
		     NULL_TREE);
  return build_fold_addr_expr (ref);
}

tree
converted (gimple_stmt_iterator *gsi, tree value, tree type, location_t loc)
{
  if (!is_gimple_val (value))
    {
      /* A variable in memory, which a marker reads where it is.  */
      tree loaded = create_tmp_reg (TREE_TYPE (value), "sampler_value");
      gimple *load = gimple_build_assign (loaded, unshare_expr (value));
      gimple_set_location (load, loc);
      gsi_insert_before (gsi, load, GSI_SAME_STMT);
      value = loaded;
    }
  if (TYPE_MAIN_VARIANT (TREE_TYPE (value)) == TYPE_MAIN_VARIANT (type))
    return value;
  if (CONSTANT_CLASS_P (value))
    return fold_convert (type, value);
  tree result = create_tmp_reg (type, "sampler_value");
  gimple *conversion = gimple_build_assign (result, NOP_EXPR, value);
  gimple_set_location (conversion, loc);
  gsi_insert_before (gsi, conversion, GSI_SAME_STMT);
  return result;
}

bool
observed_unsigned (const site_info &site)
{
  return site.value_kind != site_info::VALUE_SIGNED;
}

tree
observed_type (const site_info &site)
{
  return observed_unsigned (site) ? long_long_unsigned_type_node
				   : long_long_integer_type_node;
}

tree
values_array (unsigned n)
{
  tree array = create_tmp_var (build_array_type_nelts
			       (long_long_integer_type_node, n),
			       "sampler_values");
  TREE_ADDRESSABLE (array) = 1;
  return array;
}

gimple *
build_sample_call (gimple *stmt, tree values)
{
  const site_info &site = unit_sites[marker_site (stmt)];
  location_t loc = gimple_location (stmt);
  gimple_stmt_iterator gsi = gsi_for_stmt (stmt);
  gimple_stmt_iterator before = gsi;
  gsi_prev (&before);
  gimple *last_before = gsi_end_p (before) ? NULL : gsi_stmt (before);
  sample_call call;
  call.args.safe_push (counter_address (site.first_counter));
  plugin_schemes[site.scheme]->sample_call (stmt, site, &gsi, values, call);
  gimple *made;
  if (runtime_function_preserving_p (call.fn))
    made = build_preserving_call (call.fn, call.args, NULL_TREE, call.memory);
  else
    made = gimple_build_call_vec (call.fn, call.args);
  gimple_set_location (made, loc);
  gsi_insert_before (&gsi, made, GSI_SAME_STMT);
  /* As for the marker (sites.cc): the sample reads what the program may
     no longer read (a pointer passed to realloc), and with -flto the late
     warnings run after the transformation.  The code it samples keeps
     its warnings in the fast copy.  */
  gimple_stmt_iterator made_here = last_before ? gsi_for_stmt (last_before)
			       : gsi_start_bb (gimple_bb (stmt));
  if (last_before)
    gsi_next (&made_here);
  for (; gsi_stmt (made_here) != stmt; gsi_next (&made_here))
    suppress_warning (gsi_stmt (made_here));
  return made;
}
