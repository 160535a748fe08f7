/* sampler.so: finding the sites of the selected functions, for every
   scheme, and what the schemes' files share to describe and mark them.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).

   Runs in the sites pass, on each selected function, before the weightless
   fixpoint, GCC's optimisers and the countdown transformation.  It walks
   the function's statements and calls the hooks of each enabled scheme
   (plugin/schemes/<scheme>.cc, see schemes.h), which register their sites
   and put a marker where each observation happens: a volatile asm holding
   the site's index and the values it observes (see build_marker).  After
   the optimisers, the transformation replaces each marker by the site's
   sample call in the slow copy and by nothing in the fast copy, so it
   treats the sites of every scheme alike.  A check site's marker also
   says whether the call to the check function runs.  The predicates'
   text is predicate-text.cc's.  */

#include "schemes.h"

#include <string.h>

#include "context.h"
#include "tree-pass.h"
#include "function.h"
#include "basic-block.h"
#include "cfg.h"
#include "cfghooks.h"
#include "cfganal.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "gimple-walk.h"
#include "tree-cfg.h"
#include "cgraph.h"
#include "stringpool.h"
#include "attribs.h"
#include "cfgexpand.h"
#include "ssa.h"
#include "gimplify.h"
#include "diagnostic-core.h"

vec<site_info> unit_sites;
unsigned unit_counters;

/* The template of every marker: an assembler comment, should one ever
   reach the output.  */
static const char marker_template[] = "# sampler site";

bool
is_site_marker (gimple *stmt)
{
  gasm *marker = dyn_cast <gasm *> (stmt);
  return marker && strcmp (gimple_asm_string (marker), marker_template) == 0;
}

int
count_markers (function *fn)
{
  int markers = 0;
  basic_block bb;
  FOR_EACH_BB_FN (bb, fn)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      if (is_site_marker (gsi_stmt (gsi)))
	markers++;
  return markers;
}

bool
is_taken_marker (gimple *stmt)
{
  return is_site_marker (stmt) && gimple_asm_noutputs (as_a <gasm *> (stmt));
}

unsigned
marker_site (gimple *stmt)
{
  tree index = TREE_VALUE (gimple_asm_input_op (as_a <gasm *> (stmt), 0));
  return tree_to_uhwi (index);
}

unsigned
marker_num_values (gimple *stmt)
{
  return gimple_asm_ninputs (as_a <gasm *> (stmt)) - 1;
}

tree
marker_value (gimple *stmt, unsigned i)
{
  return TREE_VALUE (gimple_asm_input_op (as_a <gasm *> (stmt), i + 1));
}

tree
marker_taken (gimple *stmt)
{
  return TREE_VALUE (gimple_asm_output_op (as_a <gasm *> (stmt), 0));
}

unsigned
site_count (gimple *stmt)
{
  const site_info &site = unit_sites[marker_site (stmt)];
  if (unsigned (*sites) (gimple *) = plugin_schemes[site.scheme]->marker_sites)
    return sites (stmt);
  return 1;
}

unsigned
marker_visits (gimple *stmt)
{
  const site_info &site = unit_sites[marker_site (stmt)];
  unsigned visits = site_count (stmt);
  if (unsigned (*scheme_visits) (gimple *)
      = plugin_schemes[site.scheme]->marker_visits)
    visits = scheme_visits (stmt);
  return visits * site.weight;
}

unsigned
marker_array_values (gimple *stmt)
{
  const site_info &site = unit_sites[marker_site (stmt)];
  if (unsigned (*values) (gimple *)
      = plugin_schemes[site.scheme]->marker_array_values)
    return values (stmt);
  return 0;
}

/* ---------------------------------------------------------------------
   The registry.  */

const plugin_scheme *const plugin_schemes[SAMPLER_N_SCHEMES] = {
#define SAMPLER_SCHEME(ID, NAME, N_COUNTERS, COUNTERS, MERGE, TEXT) \
  &ID##_scheme,
#include "../runtime/schemes.def"
};

static const char *const registry_counter_names[SAMPLER_N_SCHEMES] = {
#define SAMPLER_SCHEME(ID, NAME, N_COUNTERS, COUNTERS, MERGE, TEXT) COUNTERS,
#include "../runtime/schemes.def"
};

static const unsigned registry_counter_count[SAMPLER_N_SCHEMES] = {
#define SAMPLER_SCHEME(ID, NAME, N_COUNTERS, COUNTERS, MERGE, TEXT) N_COUNTERS,
#include "../runtime/schemes.def"
};

const char *
scheme_counter_names (enum sampler_scheme_id id)
{
  return registry_counter_names[id];
}

/* For a scheme whose sites have any number of counters, that of the
   registry's names.  */
unsigned
scheme_counter_count (enum sampler_scheme_id id)
{
  if (registry_counter_count[id])
    return registry_counter_count[id];
  unsigned n = 1;
  for (const char *p = registry_counter_names[id]; *p; p++)
    n += *p == ',';
  return n;
}

/* ---------------------------------------------------------------------
   Registering sites.  */

unsigned
new_site (enum sampler_scheme_id scheme, location_t loc, char *predicate,
	  const char *counter_names, unsigned n_counters)
{
  site_info site;
  memset (&site, 0, sizeof site);
  site.scheme = scheme;
  site.loc = loc;
  site.function = current_function_decl;
  site.function_name = function_display_name (current_function_decl);
  site.symbol = function_symbol (current_function_decl);
  site.predicate = predicate;
  site.counter_names = xstrdup (counter_names ? counter_names
				: scheme_counter_names (scheme));
  site.n_counters = n_counters ? n_counters : scheme_counter_count (scheme);
  site.first_counter = unit_counters;
  site.value_kind = site_info::VALUE_NONE;
  site.weight = sampler_opts.countdown_unit;
  unit_counters += site.n_counters;
  unit_sites.safe_push (site);
  return unit_sites.length () - 1;
}

tree
asm_operand (const char *constraint, tree value)
{
  tree text = build_string (strlen (constraint) + 1, constraint);
  return build_tree_list (build_tree_list (NULL_TREE, text), value);
}

/* A marker for site INDEX observing VALUES (with TAKEN, for a check: the
   output that says whether the check call runs).  A volatile asm without
   a memory clobber: the optimisers keep it where the site is, run it as
   often as the site runs (copies of it included, as when a loop is
   unrolled) and keep its operands, yet move memory accesses freely around
   it.  The transformation replaces every marker after the optimisers.  */
gasm *
build_marker (unsigned index, location_t loc, const vec<tree> &values,
	      tree taken)
{
  vec<tree, va_gc> *inputs = NULL, *outputs = NULL;
  vec_safe_push (inputs, asm_operand ("i", build_int_cst (unsigned_type_node,
							  index)));
  for (tree value : values)
    vec_safe_push (inputs, asm_operand (is_gimple_val (value) ? "X" : "m",
					value));
  if (taken)
    vec_safe_push (outputs, asm_operand ("=r", taken));
  gasm *marker = gimple_build_asm_vec (marker_template, inputs, outputs, NULL,
				       NULL);
  gimple_asm_set_volatile (marker, true);
  gimple_set_location (marker, loc);
  /* GCC's late warnings see a marker read what the program may no longer
     read: scalar-pairs compares a pointer just passed to realloc with its
     result (-Wuse-after-free).  A warning about a marker
     says nothing about the user's code, and -Werror builds must build.  */
  suppress_warning (marker);
  return marker;
}

gasm *
build_marker (unsigned index, location_t loc, tree value)
{
  auto_vec<tree> values;
  if (value)
    values.safe_push (value);
  return build_marker (index, loc, values);
}

void
after_stmt_inserter::add (gimple *stmt)
{
  gimple_seq_add_stmt (&seq, stmt);
}

void
after_stmt_inserter::commit (gimple *where)
{
  if (!seq)
    return;
  if (stmt_ends_bb_p (where))
    {
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, gimple_bb (where)->succs)
	if (!(e->flags & (EDGE_ABNORMAL | EDGE_EH)))
	  {
	    gsi_insert_seq_on_edge_immediate (e, seq);
	    return;
	  }
      return;			/* Control never continues after WHERE.  */
    }
  gimple_stmt_iterator gsi = gsi_for_stmt (where);
  gsi_insert_seq_after (&gsi, seq, GSI_NEW_STMT);
}

tree
as_operand (tree value, after_stmt_inserter &seq, location_t loc)
{
  if (is_gimple_val (value))
    return value;
  tree tmp = create_tmp_reg (TREE_TYPE (value), "sampler_value");
  gimple *load = gimple_build_assign (tmp, value);
  gimple_set_location (load, loc);
  suppress_warning (load);
  seq.add (load);
  return tmp;
}

/* ---------------------------------------------------------------------
   What the schemes share.  */

enum site_info::value_kind_t
value_kind_of (tree type)
{
  if (POINTER_TYPE_P (type))
    return site_info::VALUE_POINTER;
  if (SCALAR_FLOAT_TYPE_P (type))
    return site_info::VALUE_FLOAT;
  return TYPE_UNSIGNED (type) ? site_info::VALUE_UNSIGNED
			      : site_info::VALUE_SIGNED;
}

bool
integer_like_type (tree type)
{
  return INTEGRAL_TYPE_P (type) || POINTER_TYPE_P (type);
}

/* Whether LOC is the program's own code: it has a file, and it is not
   in a system header or in the expansion of a macro a system header
   defines (isinf, assert, putc: their conditionals and calls are the
   library's, and read as compiler temporaries).  */
bool
source_location_p (location_t loc)
{
  return expand_location (loc).file && !in_system_header_at (loc);
}

tree
assigned_variable (gimple *stmt)
{
  /* `x = {CLOBBER}' ends x's life (it takes the location of the return or
     goto that leaves the scope): nothing assigned, only a dead value.  */
  if (gimple_clobber_p (stmt))
    return NULL_TREE;
  tree lhs = gimple_get_lhs (stmt);
  if (!lhs || (TREE_CODE (lhs) != VAR_DECL && TREE_CODE (lhs) != PARM_DECL)
      || DECL_ARTIFICIAL (lhs) || !DECL_NAME (lhs)
      || TREE_THIS_VOLATILE (lhs) || DECL_HARD_REGISTER (lhs))
    return NULL_TREE;
  tree type = TREE_TYPE (lhs);
  if (!integer_like_type (type) && !SCALAR_FLOAT_TYPE_P (type))
    return NULL_TREE;
  return lhs;
}

/* ---------------------------------------------------------------------
   The walk.  */

/* Finds and marks the sites of the current function.  */
static void
discover_function_sites (void)
{
  auto_vec<const plugin_scheme *> schemes;
  for (unsigned id = 0; id < SAMPLER_N_SCHEMES; id++)
    if (sampler_opts.schemes & SCHEME_BIT (id))
      schemes.safe_push (plugin_schemes[id]);
  auto_vec<gimple *> stmts;
  auto_vec<int> stmt_blocks;	/* Each statement's block, before any split.  */
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      {
	stmts.safe_push (gsi_stmt (gsi));
	stmt_blocks.safe_push (bb->index);
      }
  for (const plugin_scheme *scheme : schemes)
    if (scheme->begin_function)
      scheme->begin_function (stmts);
  for (unsigned i = 0; i < stmts.length (); i++)
    {
      gimple *stmt = stmts[i];
      bool block_start = i == 0 || stmt_blocks[i] != stmt_blocks[i - 1];
      for (const plugin_scheme *scheme : schemes)
	if (scheme->track_statement)
	  scheme->track_statement (stmt, stmt_blocks[i], block_start);
      /* A call to a check function is a site of the checks scheme, or
	 nothing: never another scheme's.  */
      if (gcall *call = dyn_cast <gcall *> (stmt))
	{
	  tree fndecl = gimple_call_fndecl (call);
	  if (fndecl && is_check_function (fndecl))
	    {
	      if (sampler_opts.schemes & SCHEME_BIT (SAMPLER_SCHEME_CHECKS))
		CHECKS_scheme.statement (call);
	      continue;
	    }
	}
      /* Assignment sites first: a returns site may move a call's result
	 into a temporary, stored to the variable after the call.  The
	 value's operand is made whichever schemes are on: a load that no
	 marker reads is left to GCC's dead-code elimination, which does not
	 run at -O0.  */
      tree x = assigned_variable (stmt);
      location_t loc = gimple_location (stmt);
      if (x && source_location_p (loc))
	{
	  after_stmt_inserter after;
	  tree value = as_operand (x, after, loc);
	  for (const plugin_scheme *scheme : schemes)
	    if (scheme->assignment)
	      scheme->assignment (stmt, x, value, after);
	  after.commit (stmt);
	}
      for (const plugin_scheme *scheme : schemes)
	if (scheme->statement && scheme != &CHECKS_scheme)
	  scheme->statement (stmt);
    }
  for (const plugin_scheme *scheme : schemes)
    if (scheme->end_function)
      scheme->end_function ();
}

void
discover_sites (void)
{
  cgraph_node *node;
  FOR_EACH_FUNCTION_WITH_GIMPLE_BODY (node)
    {
      function *fn = DECL_STRUCT_FUNCTION (node->decl);
      if (!fn || !fn->cfg || !function_selected (node->decl))
	continue;
      push_cfun (fn);
      unsigned first = unit_sites.length ();
      discover_function_sites ();
      apply_rates (first);
      /* The call graph's references, built before this pass, learn what
	 the markers read: a variable that only markers read is then still
	 read, and kept, with its stores.  */
      cgraph_edge::rebuild_edges ();
      pop_cfun ();
    }
}
