/* sampler.so: a scheme as the plugin sees it.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).

   Each scheme of the registry (runtime/schemes.def) has one file,
   plugin/schemes/<scheme>.cc, or a folder, plugin/schemes/<scheme>/, that
   defines its `plugin_scheme': how the sites pass finds its sites and
   marks them (sites.cc walks each selected function and calls the
   hooks), and what code the transformation puts in a marker's place in
   the slow copy (build_sample_call, sample-calls.cc).  The
   rest of the plugin goes through these hooks and never tests a scheme's
   id, but for calls to check functions, which are the checks scheme's
   (sites.cc, unsampled.cc).  docs/schemes.md says how to add a scheme.  */
#ifndef SAMPLER_SCHEMES_H
#define SAMPLER_SCHEMES_H

#include "sampler-plugin.h"

struct function_state;
struct region_view;

/* Statements inserted after WHERE, in order: directly, or on the normal
   out edge when WHERE ends its block.  */
struct after_stmt_inserter
{
  gimple_seq seq;
  after_stmt_inserter () : seq (NULL) {}
  void add (gimple *stmt);
  void commit (gimple *where);
};

/* The call a marker becomes in the slow copy (build_sample_call): FN
   (ARGS...), ARGS starting with the address of the first site's
   counters.  */
struct sample_call
{
  tree fn = NULL_TREE;		/* A runtime function (sample_function).  */
  auto_vec<tree> args;
  tree memory = NULL_TREE;	/* An object FN reads, or NULL.  */
  /* The call is build_preserving_call's, which leaves the function's
     registers alone, where the registry (runtime/sampler-abi.def) says
     FN's calls are PRESERVING; else an ordinary call.  */
};

/* A scheme's hooks.  Hooks left NULL do nothing (or take the default
   said).  The sites pass calls them in the registry's order, for the
   schemes the command line enabled, on each selected function:

     begin_function	once, before the statements; STMTS is every
			statement of the function, in block order;
     each statement, in that order:
       track_statement	first, with the statement's block (as it was
			before any marker was added) and whether the
			statement is its block's first;
       assignment	when the statement assigns a user's scalar
			variable X at a source location: VALUE is X's
			new value as an operand, and markers go to AFTER,
			which is committed after every scheme's hook;
       statement	then (conditions, switches, calls).  A call to a
			check function is the checks scheme's alone: no
			other hook sees it;
     end_function	after the statements.

   Sites are numbered in the order the hooks make them, and the site
   table lists them in that order.  */
struct plugin_scheme
{
  /* Set-up when the scheme is enabled, at plugin initialisation.  */
  void (*setup) (void) = NULL;

  void (*begin_function) (const vec<gimple *> &stmts) = NULL;
  void (*track_statement) (gimple *stmt, int block, bool block_start) = NULL;
  void (*assignment) (gimple *stmt, tree x, tree value,
		      after_stmt_inserter &after) = NULL;
  void (*statement) (gimple *stmt) = NULL;
  void (*end_function) (void) = NULL;

  /* How many consecutive sites, from its index, MARKER stands for.  NULL:
     one.  */
  unsigned (*marker_sites) (gimple *marker) = NULL;
  /* How many visits MARKER takes from the countdown, each sampled alone
     (its sample call observes those the countdown reaches).  NULL: one per
     site.  */
  unsigned (*marker_visits) (gimple *marker) = NULL;
  /* How many values MARKER passes in the function's values_array (see
     values_array).  NULL: none.  */
  unsigned (*marker_array_values) (gimple *marker) = NULL;

  /* The call that observes MARKER's sites in the slow copy when the
     countdown has run out there: sets CALL's function and adds its
     arguments, with any statement they need inserted before GSI (at the
     marker).  VALUES is the function's values_array, if any marker asked
     for one.  */
  void (*sample_call) (gimple *marker, const site_info &site,
		       gimple_stmt_iterator *gsi, tree values,
		       sample_call &call) = NULL;

  /* Region schemes observe each traversal of a region, from a check to
     the next checks: the region seam (regions.cc, transform.h).  The
     sites pass gives each selected function one site of the scheme, with
     a marker at its entry that the transformation takes out.  Set
     region_number and region_slow_copy to be one.  In the
     transformation of a cloned function whose site it is:

     region_prepare	after the checks are placed, before the exit
			markers: may add checks (add_check); false leaves
			the function's traversals unobserved.  NULL: true;
     region_number	after the exit markers (VIEW.exits), before the
			checks are weighed;
     region_slow_copy	once the slow copy is made and wired
			(VIEW.slow_edges, VIEW.slow_entries), before its
			markers become sample calls.  */
  bool (*region_prepare) (function_state *st, region_view &view) = NULL;
  /* At the end of the unit (PLUGIN_FINISH_UNIT), when it is enabled: what
     the scheme emits once every function is compiled.  */
  void (*finish_unit) (void) = NULL;
  void (*region_number) (function_state *st, region_view &view) = NULL;
  void (*region_slow_copy) (function_state *st, region_view &view) = NULL;
};

/* Each scheme's hooks, defined in its file.  */
#define SAMPLER_SCHEME(ID, NAME, N_COUNTERS, COUNTERS, MERGE, TEXT) \
  extern const plugin_scheme ID##_scheme;
#include "../runtime/schemes.def"

/* Indexed by enum sampler_scheme_id.  */
extern const plugin_scheme *const plugin_schemes[SAMPLER_N_SCHEMES];

/* The registry's counter names of scheme ID, and their number.  */
const char *scheme_counter_names (enum sampler_scheme_id id);
unsigned scheme_counter_count (enum sampler_scheme_id id);

/* Helpers for the schemes' files (sites.cc).  */

/* Registers a site of scheme SCHEME at LOC in the current function, with
   PREDICATE (xmalloc'd, taken) and the counters COUNTER_NAMES (copied;
   NULL: the registry's), N_COUNTERS of them (0: the registry's); returns
   its index.  */
unsigned new_site (enum sampler_scheme_id scheme, location_t loc,
		   char *predicate, const char *counter_names = NULL,
		   unsigned n_counters = 0);
/* A marker for site INDEX observing VALUES (with TAKEN, for a check: the
   output that says whether the check call runs).  */
gasm *build_marker (unsigned index, location_t loc, const vec<tree> &values,
		    tree taken = NULL_TREE);
gasm *build_marker (unsigned index, location_t loc, tree value = NULL_TREE);
/* VALUE as an operand a call can take: itself, or a temporary loaded from
   it by a statement added to SEQ.  */
tree as_operand (tree value, after_stmt_inserter &seq, location_t loc);
/* Source-like text for the value T (xmalloc'd).  */
char *expression_text (tree t);
/* The called function's name, or "(*fn)".  */
const char *callee_text (gimple *call);
/* Whether LOC is the program's own code.  */
bool source_location_p (location_t loc);
bool integer_like_type (tree type);
enum site_info::value_kind_t value_kind_of (tree type);
/* The variable STMT assigns, if it is a user's scalar variable: the X of
   the assignment hook.  */
tree assigned_variable (gimple *stmt);
/* Whether CALL, at a source location, has an integer or pointer result
   that the returns and values schemes observe (schemes/returns.cc).  */
bool observable_return (gcall *call);
/* CALL's result as a register a marker can observe: its lhs, or a new
   temporary that becomes the lhs, stored into the old lhs by a statement
   added to AFTER.  A second scheme calling it gets the temporary.  */
tree call_result_value (gcall *call, after_stmt_inserter &after);

/* A site of SCHEME with a hot-list (merge kind HOT_LIST, capacity
   -fplugin-arg-sampler-hotlist) at LOC, observing values of TYPE; WHAT
   names them, and the predicate adds their kind: "WHAT (signed)",
   "(unsigned)" or "(pointer)" (schemes/values.cc).  */
unsigned hot_list_site (enum sampler_scheme_id scheme, location_t loc,
			const char *what, tree type);
/* The sample call of a hot-list site: FUNCTION (COUNTERS, VALUE,
   CAPACITY), VALUE an unsigned long long operand.  */
void hot_list_sample_call (const site_info &site, tree value,
			   sample_call &call,
			   const char *function = "__sampler_value");

/* Helpers for the sample calls (sample-calls.cc; site-table.cc).  */

/* Appends FIELD to TEXT with the site table's escapes: backslash, TAB
   and newline as \\, \t and \n.  */
void append_escaped (auto_vec<char> &text, const char *field);
/* The unit's signature (32 hex digits), once emit_unit has made it; else
   empty.  */
extern char unit_signature[33];
/* Puts TEXT into the non-allocated section SECTION (appended to what
   other units put there): a top-level asm until the unit is output (with
   -flto, streamed with the unit), else the assembler's file.  */
void emit_text_section (const char *section, const char *text,
			size_t length);

/* VALUE as TYPE: itself, or a conversion inserted before GSI.  */
tree converted (gimple_stmt_iterator *gsi, tree value, tree type,
		location_t loc);
/* Integers and pointers go to the runtime as 64-bit values of their
   signedness (pointers unsigned).  */
bool observed_unsigned (const site_info &site);
tree observed_type (const site_info &site);

#endif
