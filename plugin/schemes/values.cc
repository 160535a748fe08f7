/* sampler.so: the values scheme (value profiles: Burrows et al., ASPLOS
   2000).  An assignment to an integer, pointer or enum variable of the
   user's, and a call's integer or pointer result, are sites ("x (signed)",
   "f (...) (pointer)": what is observed and how its values read) whose
   counters hold a hot-list of the values seen (merge kind HOT_LIST): the
   sampled visits, log2 of the threshold, a lock word, then K (value,
   count) pairs for the capacity K of -fplugin-arg-sampler-hotlist.  The
   sites are those of bounds and returns: the assignment hook's, and the
   calls observable_return accepts, but for a call whose result is
   assigned to a user's variable, which that assignment's site observes.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).  */

#include "schemes.h"
#include "runtime-decls.h"

#include <string.h>

#include "function.h"
#include "basic-block.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "tree-cfg.h"

/* The site's counter names for capacity K: sampled, tau-log2, lock,
   value1, count1, ..., valueK, countK (xmalloc'd).  */
static char *
hot_list_counter_names (unsigned k)
{
  auto_vec<char> text;
  const char *head = "sampled,tau-log2,lock";
  for (const char *p = head; *p; p++)
    text.safe_push (*p);
  for (unsigned i = 1; i <= k; i++)
    {
      char buf[48];
      snprintf (buf, sizeof buf, ",value%u,count%u", i, i);
      for (const char *p = buf; *p; p++)
	text.safe_push (*p);
    }
  text.safe_push (0);
  return xstrdup (text.address ());
}

unsigned
hot_list_site (enum sampler_scheme_id scheme, location_t loc, const char *what,
	       tree type)
{
  enum site_info::value_kind_t kind = value_kind_of (type);
  const char *kind_text = kind == site_info::VALUE_POINTER ? "pointer"
			  : kind == site_info::VALUE_SIGNED ? "signed"
			  : "unsigned";
  char *names = hot_list_counter_names (sampler_opts.hotlist);
  unsigned index = new_site (scheme, loc,
			     concat (what, " (", kind_text, ")", NULL),
			     names, 3 + 2 * sampler_opts.hotlist);
  free (names);
  unit_sites[index].value_kind = kind;
  return index;
}

static void
values_assignment (gimple *stmt, tree x, tree value,
		   after_stmt_inserter &after)
{
  tree type = TREE_TYPE (x);
  if (!integer_like_type (type))
    return;
  location_t loc = gimple_location (stmt);
  unsigned index = hot_list_site (SAMPLER_SCHEME_VALUES, loc,
				  IDENTIFIER_POINTER (DECL_NAME (x)), type);
  after.add (build_marker (index, loc, value));
}

static void
values_statement (gimple *stmt)
{
  gcall *call = dyn_cast <gcall *> (stmt);
  if (!call || !observable_return (call))
    return;
  /* x = f (): the assignment's site has observed the value.  */
  tree x = assigned_variable (call);
  if (x && integer_like_type (TREE_TYPE (x)))
    return;
  location_t loc = gimple_location (call);
  after_stmt_inserter after;
  tree result = call_result_value (call, after);
  char *what = concat (callee_text (call), " (...)", NULL);
  unsigned index = hot_list_site (SAMPLER_SCHEME_VALUES, loc, what,
				  gimple_call_return_type (call));
  free (what);
  after.add (build_marker (index, loc, result));
  after.commit (call);
}

void
hot_list_sample_call (const site_info &site, tree value, sample_call &call,
		      const char *function)
{
  tree type = long_long_unsigned_type_node;
  call.fn = sample_function (function, type, type);
  call.args.safe_push (value);
  call.args.safe_push (build_int_cst (type, (site.n_counters - 3) / 2));
}

static void
values_sample_call (gimple *marker, const site_info &site,
		    gimple_stmt_iterator *gsi, tree, sample_call &call)
{
  /* A pointer's sample makes reports say where objects were loaded, which
     the report tool needs to turn its addresses into names that hold in
     every run.  */
  const char *function = site.value_kind == site_info::VALUE_POINTER
			 ? "__sampler_pointer_value" : "__sampler_value";
  hot_list_sample_call (site, converted (gsi, marker_value (marker, 0),
					 long_long_unsigned_type_node,
					 gimple_location (marker)), call, function);
}

const plugin_scheme VALUES_scheme = {
  .assignment = values_assignment,
  .statement = values_statement,
  .sample_call = values_sample_call,
};
