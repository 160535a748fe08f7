/* sampler.so: what the parts of the sampling transformation share (see
   passes/transform-pass.cc for the whole): the state of the function being
   transformed, its checks, and the entry points of the parts.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).  */
#ifndef SAMPLER_TRANSFORM_H
#define SAMPLER_TRANSFORM_H

#include "hash-set.h"
#include "hash-map.h"

/* Why a check is where it is (the dump names them: check_kind_names).  */
enum check_kind
{
  CHECK_ENTRY,
  CHECK_AFTER_CALL,
  CHECK_AFTER_VERSIONED,	/* After a versioned loop took its visits.  */
  CHECK_LOOP_HEAD,		/* At the head of a natural loop.  */
  CHECK_BACK_EDGE,		/* On a cycle that is not a natural loop.  */
  CHECK_LONG_PATH,		/* Bounds the weight of long regions.  */
  CHECK_LOOP_EXIT,		/* Starts a region after a loop.  */
  CHECK_GOTO_TARGET,		/* Where a computed goto may land.  */
  CHECK_PATH_LIMIT,		/* Bounds a region's paths (region schemes).  */
  CHECK_LANDING_PAD,		/* Where an exception lands (an EH edge).  */
  CHECK_HANDLER			/* Where an EH dispatch sends it.  */
};

extern const char *const check_kind_names[];

struct check_point
{
  edge fast_edge;		/* Where the check goes in the original body.  */
  enum check_kind kind;
  location_t loc;
  int weight;
};

/* The region seam (regions.cc; docs/schemes.md, "The region seam"): what
   a region scheme, one that observes each traversal of a region from a
   check to the next checks, sees of the function.  */
struct region_view
{
  enum sampler_scheme_id scheme;
  unsigned site;		/* The scheme's site of the function.  */
  /* The exit markers, one on each edge that leaves a region, each in a
     block of its own (in the original body).  */
  auto_vec<gimple *> exits;
  /* Calls GCC had made sibling calls that an exit marker follows: not
     sibling calls while the slow copy is made from the body, sibling
     calls again in the fast copy, which has no markers.  */
  auto_vec<gcall *> fast_tail_calls;
  /* Once the slow copy is made: each edge between two copied blocks of
     the original body to its copy in the slow copy (split later, the
     edge stays the one out of the copied source).  */
  hash_map<edge, edge> slow_edges;
  /* Each way into the slow copy from a check (build_slow_entry): the
     block on the way, which leads only to the slow copy of DEST, and DEST,
     the check's destination in the original body.  */
  struct slow_entry
  {
    basic_block join;
    basic_block dest;
  };
  auto_vec<slow_entry> slow_entries;
};

/* Everything the transformation of one function works with.  */
struct function_state
{
  auto_vec<gimple *> sites;	/* The markers.  */
  tree values;			/* See values_array, or NULL.  */
  unsigned n_sites;		/* The sites they stand for.  */
  auto_vec<check_point> checks;
  auto_vec<int> sites_in_block;	/* By block index.  */
  /* By block index: the longest site count from the block's start to the
     end of its region.  */
  auto_vec<int> block_weight;
  hash_set<edge> cut;		/* Edges that carry a check.  */
  const char *fallback_reason;	/* Why not cloned, or NULL.  */
  /* The unsampled clone the entry check's slow entry goes to when sampling
     is off (see unsampled.cc), or NULL.  */
  tree dispatch_fn;
  /* The clone the entry check's slow entry calls instead of a slow copy
     of the entry region (outline-entry.cc), or NULL.  */
  tree sampled_fn;
  /* The region scheme's view, or NULL: with one, every cycle crosses a
     check and every region exit has a marker.  */
  region_view *regions;
};

/* Check placement (threshold-checks.cc), in this order: the region ends
   and their checks (entry, after weighty calls and countdown writes), the
   checks at computed goto targets, those where exceptions land, then the loop checks, the long-path
   checks and every check's and block's weight.  */
void isolate_region_ends (function_state *st);
void isolate_goto_targets (function_state *st);
void isolate_landing_pads (function_state *st);
void place_checks_and_weigh (function_state *st);

/* Weights and the region limit (region-weights.cc), for
   place_checks_and_weigh: each block's sites (ST->sites_in_block); an
   error where one block's sites weigh more than a check can take; the
   long-path checks between the pieces of blocks heavier than the region
   limit, and where a path would go over it; every check's and block's
   weight.  */
void count_sites_in_blocks (function_state *st);
void check_block_weights (function_state *st);
void split_heavy_blocks (function_state *st);
void limit_region_weights (function_state *st);
void weigh_checks (function_state *st);
/* Whether STMT ends a region (isolate_region_ends puts it at the start
   of a block of its own).  */
bool ends_region (gimple *stmt);
/* A check of KIND on the edge E, which becomes a cut edge.  */
void add_check (function_state *st, edge e, enum check_kind kind,
		location_t loc);
location_t first_location (basic_block bb);

/* The region seam (regions.cc).  find_region_site takes the region
   schemes' markers out of the function (the sites pass put one at the
   entry of each selected function) and returns the view of the scheme
   whose site is the function's own, or NULL.  mark_region_exits, after
   the checks are placed and before they are weighed, puts an exit marker
   on each edge that leaves a region (or drops ST's view if the scheme
   declines the function).  */
region_view *find_region_site (void);
void mark_region_exits (function_state *st);
/* Whether a traversal that reaches BB has left its region: BB is the
   exit block, starts with a statement that ends regions, or only leads
   (with no statement of its own) into a check.  */
bool region_end_p (function_state *st, basic_block bb);
/* The region entries: each check's destination that is not a region end,
   once each, in the checks' order.  */
void region_entries (function_state *st, vec<basic_block> &entries);
/* The blocks of the regions, reached from their entries without crossing
   a check or a region end, successors before predecessors.  */
void region_blocks_postorder (function_state *st, vec<basic_block> &order);

/* Slow-copy construction (slow-copy.cc): clone_and_wire makes the fast
   and slow copies of a function whose checks are placed and weighed.  */
void clone_and_wire (function_state *st);

/* The code that reads and writes the countdown (countdown-code.cc).
   guard_without_cloning instruments a function that cannot be cloned,
   site by site; zero_countdown_on_return gives the countdown its zero
   back where a function without an unsampled clone returns.  */
void guard_without_cloning (function_state *st);
void zero_countdown_on_return (void);
/* For clone_and_wire: the check in the empty block CHECK, whose one
   successor is DEST, of weight BUDGET, taking DECREMENT (its weight less
   its edge's refund), with its way into DEST_SLOW, the slow copy of DEST
   (noted in REGIONS), or into DISPATCH_FN, the unsampled clone, or the
   sampled clone OUTLINED_FN; the code of the slow copy's sites and of
   padding; and how the copies' blocks are made.  */
void build_check (basic_block check, basic_block dest, basic_block dest_slow,
		  int budget, int decrement, location_t loc,
		  region_view *regions, tree dispatch_fn = NULL_TREE,
		  tree outlined_fn = NULL_TREE);
basic_block make_slow_site (function_state *st, gimple *stmt);
void count_padding (basic_block bb, int pad, location_t loc);
void append_add (basic_block bb, tree var, HOST_WIDE_INT amount,
		 location_t loc);
/* How often the slow copy runs, as far as GCC's profile knows: never.  */
profile_count slow_count (void);
/* A new empty block, in DEST's loop, run as often as COUNT says.  */
basic_block slow_block (basic_block dest, profile_count count);
/* The new block that splits the edge E.  */
basic_block block_on_edge (edge e, profile_count count);
/* Gives the new edge E the PHI arguments that the edge FROM gives the
   PHI nodes of its destination (E's, or the block E's is a copy of).  */
void copy_phi_args (edge from, edge e);

#endif
