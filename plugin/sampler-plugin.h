/* sampler.so: declarations shared by the plugin's parts.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).  */
#ifndef SAMPLER_PLUGIN_H
#define SAMPLER_PLUGIN_H

#include "gcc-plugin.h"
#include "tree.h"

/* Instrumentation schemes, as bits; scheme_names is in the same order.  */
enum sampler_scheme
{
  SCHEME_CHECKS = 1 << 0,
  SCHEME_BRANCHES = 1 << 1,
  SCHEME_RETURNS = 1 << 2,
  SCHEME_SCALAR_PAIRS = 1 << 3,
  SCHEME_FLOAT_KINDS = 1 << 4,
  SCHEME_FUNCTION_ENTRIES = 1 << 5,
  SCHEME_BOUNDS = 1 << 6
};
#define N_SCHEMES 7
extern const char *const scheme_names[N_SCHEMES];
const char *scheme_name (unsigned scheme_bit);

/* One include/exclude rule, in command-line order: the first rule whose
   pattern matches decides.  */
struct scope_rule
{
  bool include;
  bool by_file;			/* Else by function name.  */
  const char *pattern;		/* fnmatch pattern.  */
};

/* What the command line asked for (-fplugin-arg-sampler-KEY=VALUE).  */
struct sampler_options
{
  unsigned schemes;		/* SCHEME_* bits.  */
  bool verbose;			/* Say what was done to each function.  */
  const char *dump_file;	/* Append the checks and weights here.  */
  const char *site_table_file;	/* Append the unit's site table here.  */
  /* Function names the user asserts are weightless (comma list, or NULL).  */
  const char *weightless_names;
  unsigned pairs_limit;		/* Most scalar-pairs sites per assignment.  */
  /* Scalar-pairs also compare with the integer constants the function
     uses.  */
  bool pairs_constants;
  vec<scope_rule> rules;
};

extern struct sampler_options sampler_opts;

/* The attribute's name and the forms of its optional argument.  */
#define SAMPLED_ATTR "sampled"
#define SAMPLED_ARG_OFF "off"
#define SAMPLED_ARG_WEIGHTLESS "weightless"

enum sampled_form
{
  SAMPLED_NONE,
  SAMPLED_PLAIN,
  SAMPLED_OFF,
  SAMPLED_WEIGHTLESS
};
enum sampled_form sampled_attribute_form (tree decl);

/* A plain `sampled' on a function's declaration makes calls to it checks;
   on its definition, it selects the function for instrumentation.  */
bool is_check_function (tree fndecl);
bool selected_by_attribute (tree fndecl);
/* Whether FNDECL is to be instrumented (attributes, then scope rules).  */
bool function_selected (tree fndecl);

/* A site of the unit: what the site table says about it.  */
struct site_info
{
  unsigned scheme;		/* One SCHEME_* bit.  */
  location_t loc;
  tree function;
  char *predicate;		/* Source-like text.  */
  char *counter_names;		/* Comma-separated.  */
  unsigned n_counters;
  unsigned first_counter;
  /* How to observe the value (returns, scalar-pairs, bounds).  */
  enum value_kind_t { VALUE_NONE, VALUE_SIGNED, VALUE_UNSIGNED, VALUE_POINTER,
		      VALUE_FLOAT } value_kind;
};

extern vec<site_info> unit_sites;
extern unsigned unit_counters;

/* The call that stands for a predicate site until the transformation puts
   the site's instrumentation (slow copy) or a decrement (fast copy) in its
   place: __sampler_site (INDEX, VALUES...).  Site statements (markers and
   checks calls) carry uid INDEX + 1.  */
extern tree site_marker_fn;
bool is_site_marker (gimple *stmt);

/* Finds the sites of every selected function of the unit, putting markers
   where predicate sites are, and numbers them.  */
void discover_sites (void);

/* Replaces the marker or check call STMT, in a block of its own, with the
   site's full instrumentation.  */
void emit_instrumentation (gimple *stmt);

/* Emits the counters, the unit descriptor, its registering constructor and
   the site table (section and file).  */
void emit_unit (void);
/* The unit's counter array, created once the sites are known.  */
tree unit_counters_decl (void);

/* Registers the transformation pass.  */
opt_pass *make_sampler_pass (gcc::context *ctxt);

/* The pass that redirects calls to the exec family, pthread_create and
   signal handling to the runtime's wrappers (redirect.cc).  */
opt_pass *make_redirect_pass (gcc::context *ctxt);

/* Notes, from the front end, where a plain `sampled' was written.  */
void note_sampled_attribute (tree decl);
void note_function_definition (tree fndecl);

#endif
