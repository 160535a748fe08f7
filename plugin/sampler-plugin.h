/* sampler.so: declarations shared by the plugin's parts.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).  */
#ifndef SAMPLER_PLUGIN_H
#define SAMPLER_PLUGIN_H

#include "gcc-plugin.h"
#include "tree.h"
#include "gcc-compat.h"

#include "../runtime/sampler-abi.h"

/* The schemes are those of the registry, runtime/schemes.def; a scheme's
   option bit (sampler_options.schemes) is 1 << its id.  */
#define SCHEME_BIT(id) (1u << (id))
const char *scheme_name (enum sampler_scheme_id id);

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
  unsigned schemes;		/* SCHEME_BIT of each scheme.  */
  bool verbose;			/* Say what was done to each function.  */
  const char *dump_file;	/* Append the checks and weights here.  */
  const char *site_table_file;	/* Append the unit's site table here.  */
  /* Print the help: "text" or "markdown" (help=), or NULL.  */
  const char *help;
  /* Function names the user asserts are weightless (comma list, or NULL).  */
  const char *weightless_names;
  unsigned pairs_limit;		/* Most scalar-pairs sites per assignment.  */
  /* Each scalar-pairs site is a visit of its own on the countdown (CBI's
     form), rather than one visit per assignment for all its pairs.  */
  bool pairs_per_pair;
  unsigned hotlist;		/* Hot-list capacity of a values site.  */
  /* The longest subpath is 2^subpath_max_log2 blocks (subpaths).  */
  unsigned subpath_max_log2;
  /* Most sites a region may have before another check splits it (0: no
     limit).  */
  int region_limit;
  /* Paths with at most this many sites fewer than the heaviest from the
     same point count as the heaviest (padding), rather than paying an
     addition to the countdown.  */
  int pad_limit;
  /* Path counters per function (paths): an array indexed by path number
     when the function has at most this many paths, else a hash table of
     this many entries.  */
  unsigned paths_array;
  /* Most paths a region may have before a check cuts it (paths).  */
  unsigned paths_max;
  /* The interesting-paths file (paths; interesting-paths.cc), or NULL.  */
  const char *paths_interesting;
  /* Scalar-pairs also compare with the integer constants the function
     uses.  */
  bool pairs_constants;
  /* Give instrumented functions unsampled copies for runs with sampling
     off (unsampled.cc).  */
  bool unsampled;
  /* Move each function's entry region's slow copy out of line, into a
     clone of the function its entry check calls (outline-entry.cc).  */
  bool outline_entry;
  vec<scope_rule> rules;
  /* The rates file (rates=FILE), or NULL.  */
  const char *rates_file;
  /* Countdown units per visit of a site the rates do not name (1 without
     a rates file): p = 1 / (sparsity * countdown_unit).  */
  unsigned countdown_unit;
};

extern struct sampler_options sampler_opts;

/* Reads -fplugin-arg-sampler-* strictly into sampler_opts, then the
   files they name; false after reporting every bad argument
   (support/arguments.cc).  */
bool parse_arguments (struct plugin_name_args *info);
/* The text -fplugin-arg-sampler-help prints (xmalloc'd); with MARKDOWN,
   the README's table of arguments.  */
char *sampler_help (bool markdown = false);

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
  enum sampler_scheme_id scheme;
  location_t loc;
  tree function;
  const char *function_name;	/* function_display_name's */
  const char *symbol;		/* function_symbol's: NULL for C */
  char *predicate;		/* Source-like text.  */
  char *counter_names;		/* Comma-separated.  */
  unsigned n_counters;
  unsigned first_counter;
  /* How to observe the value (returns, scalar-pairs, bounds).  */
  enum value_kind_t { VALUE_NONE, VALUE_SIGNED, VALUE_UNSIGNED, VALUE_POINTER,
		      VALUE_FLOAT } value_kind;
  /* Countdown units each visit takes: sampled with probability
     1 - (1 - 1 / (sparsity * unit))^weight (rates.cc).  */
  unsigned weight;
};

extern vec<site_info> unit_sites;

/* The name of function DECL in the site table and rates files: DECL_NAME
   for C; for C++ its scope and signature (function-names.cc).  */
const char *function_display_name (tree decl);
/* DECL's symbol when it differs from that name (C++), else NULL.  */
const char *function_symbol (tree decl);
/* How a predicate names a call to DECL: DECL_NAME for C; for C++ with
   its scope, without its signature (`geo::Sq::area').  Valid until the
   next call.  */
const char *callee_display_name (tree decl);
extern unsigned unit_counters;

/* A site marker stands for a site from the discovery of sites, before
   GCC's optimisers, until the transformation, after them, puts the site's
   instrumentation (slow copy) or nothing (fast copy) in its place: a
   volatile asm taking the site's index and the values it observes.  A
   check's marker also sets `taken', which says whether the check call
   runs.  */
bool is_site_marker (gimple *stmt);
/* The markers in the body of function FN.  */
int count_markers (function *fn);
bool is_taken_marker (gimple *stmt);
unsigned marker_site (gimple *marker);
unsigned marker_num_values (gimple *marker);
tree marker_value (gimple *marker, unsigned i);
tree marker_taken (gimple *marker);
/* How many consecutive sites, from marker_site, a marker stands for: the
   pairs of one assignment share one; every other marker is one site.  */
unsigned site_count (gimple *marker);
/* How many countdown units a marker takes: its visits times its site's
   weight (1 without rates); what the checks weigh and the slow copy
   subtracts.  */
unsigned marker_visits (gimple *marker);
/* How many of the marker's values its sample call passes in the
   function's values_array (scalar-pairs: all of them); usually none.  */
unsigned marker_array_values (gimple *marker);
/* Deletes MARKER where its visits are counted otherwise (the fast copy,
   a versioned loop's copy without sites); a check's call does not run.
   The operands only it read go to DEAD, for simple_dce_from_worklist.
   (slow-copy.cc)  */
void remove_marker (gimple *marker, bitmap dead);

/* An operand of an asm statement.  */
tree asm_operand (const char *constraint, tree value);

/* Finds the sites of every selected function of the unit, putting markers
   where predicate sites are, and numbers them.  */
void discover_sites (void);

/* Per-site weights (rates.cc): reads the rates file (errors reported,
   false if any); gives the current function's sites from FIRST on their
   weights and removes the markers of weight 0; says, with verbose, how
   the unit's sites matched.  */
bool load_rates (const char *path);
/* Reads the next line of the text file PATH (a rates or interesting-paths
   file) from IN into *LINE, without its newline, counting lines in
   *NUMBER: 1 with a line, 0 at the end, -1 after an error it reported (a
   NUL byte; a last line with no newline).  */
int read_text_line (FILE *in, const char *path, unsigned long *number,
		    char **line, size_t *capacity);
/* Reads the interesting-paths file PATH strictly (each error names
   PATH:LINE), for the paths scheme; false after reporting them
   (schemes/paths/interesting-paths.cc).  */
bool load_interesting_paths (const char *path);
void apply_rates (unsigned first);
void report_rates (void);

/* Inserts before the marker STMT the call that observes its sites when
   the countdown runs out there (what is left of it after the sites'
   decrement, <= 0, tells the runtime which of them are sampled) and sets
   the countdown that follows them; VALUES is the function's
   values_array.  */
gimple *build_sample_call (gimple *stmt, tree values);
/* The array in which build_sample_call passes the values of up to N
   scalar-pairs sites (with the assigned value): one per function, the
   groups of sites are never sampled at the same time.  */
tree values_array (unsigned n);

/* A variable of the plugin's own, NAME of TYPE: static storage,
   artificial, addressable.  */
tree plugin_variable (const char *name, tree type);

/* Adds DECL, a variable of the plugin's own, to the unit.  The passes run
   after the symbol table has analysed its variables, so new ones are
   analysed here, or they would never be output.  */
void define_variable (tree decl);

/* RESULT = FN (ARGS), or with RESULT NULL, FN (ARGS) that reads and sets
   the thread's countdown: a call to a runtime function that takes at most
   four integer or pointer arguments and saves every register (see
   sampler-abi.h).  On x86-64 it is an asm statement that says only which
   registers carry the arguments and the result, so that the call does not
   make the compiler keep values in callee-saved registers, whose saving
   would cost the fast path too.  MEMORY, if not NULL, is an object FN
   reads.  (call-builder.cc)  */
gimple *build_preserving_call (tree fn, const vec<tree> &args, tree result,
			       tree memory = NULL_TREE);
/* The first and last lines of that asm's text on x86-64: they step the
   stack pointer over the red zone and back.  */
extern const char preserving_call_red_zone_skip[];
extern const char preserving_call_red_zone_return[];
/* The pass that takes them out where the function keeps nothing in its red
   zone, after the prologue is known (red-zone.cc).  */
opt_pass *make_red_zone_pass (gcc::context *ctxt);

/* Emits the counters, the unit descriptor, its registering constructor and
   the site table (section and file).  */
void emit_unit (void);
/* The unit's counter array, created once the sites are known.
   (runtime-decls.cc)  */
tree unit_counters_decl (void);

/* The pass that finds the sites and the weightless functions, before
   GCC's optimisers (sites-pass.cc), and the transformation, after them
   (transform-pass.cc); with -flto, the transformation of the whole unit
   before it is streamed (transform-pass.cc).  */
opt_pass *make_sites_pass (gcc::context *ctxt);
opt_pass *make_transform_pass (gcc::context *ctxt);
opt_pass *make_lto_transform_pass (gcc::context *ctxt);
/* Each enabled scheme's finish_unit hook: at PLUGIN_FINISH_UNIT, and with
   -flto after the transformation (plugin.cc).  */
void finish_schemes (void);

/* The weightless fixpoint over the unit's functions, in the sites pass;
   then whether a call may use the countdown (a call to a weighty or
   unknown function).  (weightless.cc)  */
void find_weighty_functions (void);
bool call_may_use_countdown (gimple *call);

/* The thread's countdown, a reference for one statement.
   (runtime-decls.cc)  */
tree countdown_reference (void);

/* PLUGIN_OVERRIDE_GATE: GCC's RTL PRE does not run on the functions the
   transformation cloned.  (transform-pass.cc)  */
void skip_rtl_pre_in_cloned_functions (void *gcc_data, void *user_data);

/* The file of `dump=', opened to append, or NULL (with an error when it
   cannot be opened).  (transform-pass.cc)  */
FILE *open_sampler_dump (void);

/* The pass that versions counted loops, among GCC's loop optimisers
   (versioning.cc).  */
opt_pass *make_versioning_pass (gcc::context *ctxt);

/* The passes that take the markers' weight out of the inliners' size
   estimates (inline-weight.cc): after each local summary, and before the
   IPA inliner.  */
opt_pass *make_local_weight_pass (gcc::context *ctxt);
opt_pass *make_ipa_weight_pass (gcc::context *ctxt);

/* Unsampled copies (unsampled.cc).  Before the sites are found:
   clones the functions to be instrumented, with direct calls between
   clones; after: notes each instrumented function's clone on it, and
   keeps the clone until the transformation calls it.  After the IPA
   passes (PLUGIN_ALL_IPA_PASSES_END), the clones of functions that are
   gone are kept no longer.  */
void create_unsampled_clones (void);
void keep_unsampled_clones (void);
void release_unneeded_clones (void *, void *);
/* At the end of the unit (PLUGIN_FINISH_UNIT): the weak definitions of
   other units' clones that the unit's code calls, each a jump to the
   function itself, for the units without them.  */
void emit_clone_fallbacks (void *, void *);
bool is_unsampled_clone (tree fndecl);
/* In the transformation: the current function's clone, if it is still
   there and the function is the one it was cloned from (not a copy IPA
   made of it); else NULL.  */
tree unsampled_clone_to_call (void);
/* In the transformation: may the current function run with sampling off?
   Not if all its callers go to their clones then.  */
bool may_run_with_sampling_off (void);
/* Ends the empty block BB, at the function's entry, with `return FN (the
   parameters)', a tail call.  */
void build_dispatch (basic_block bb, tree fn, location_t loc);
/* On an instrumented function that never runs with sampling off (see
   called_only_from_dispatching in unsampled.cc), on IPA's copies of it
   and on sampled clones.  */
#define NOT_OFF_ATTR "sampler not off"

/* The entry region's slow copy out of line (outline-entry.cc), with
   outline-entry: after the sites are found, clones each qualifying
   function with its markers (F.sampled), kept until the transformation
   of F calls it from F's entry check.  */
void create_sampled_clones (void);
bool is_sampled_clone (tree fndecl);
/* The function the sampled clone FNDECL was cloned from.  */
tree sampled_clone_original (tree fndecl);
/* In the transformation: the current function's sampled clone, if it is
   still there and the function is the one it was cloned from; else
   NULL.  */
tree sampled_clone_to_call (void);
/* The clone the current function's attribute NAMES_CLONE names, if the
   clone's attribute NAMES_ORIGINAL names the current function (not an
   IPA copy of it); else NULL (unsampled.cc).  */
tree own_clone_to_call (const char *names_clone, const char *names_original);
/* Into PARENTS, the functions with nested functions, which are not
   cloned: their nested functions reach the original's frame.  */
void collect_nesting_parents (hash_set<tree> &parents);
/* Whether NODE could get an unsampled clone: the conditions a copy of
   it called in its place must meet (unsampled.cc).  */
class cgraph_node;
bool can_have_unsampled_clone (cgraph_node *node,
			       hash_set<tree> &nesting_parents);
/* A function that keeps its labels' addresses in static tables
   (label-tables.cc): may the current function be copied all the same?
   The current function, a copy of ORIGINAL, gets copies of the tables
   with its own labels: false if a label has no copy.  */
bool label_tables_copyable (void);
bool copy_label_tables (tree original);

/* The pass that redirects calls to the exec family, pthread_create and
   signal handling to the runtime's wrappers (redirect.cc).  */
opt_pass *make_redirect_pass (gcc::context *ctxt);

/* PLUGIN_ATTRIBUTES: registers the `sampled' attribute, whose handler
   notes where a plain `sampled' was written (sites/selection.cc).  */
void register_sampled_attribute (void *, void *);
void note_sampled_attribute (tree decl);

#endif
