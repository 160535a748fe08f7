/* sampler.so: what the parts of the sampling transformation share (see
   transform.cc for the whole): the state of the function being
   transformed, its checks, and the entry points of the parts.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).  */
#ifndef SAMPLER_TRANSFORM_H
#define SAMPLER_TRANSFORM_H

#include "hash-set.h"

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
  CHECK_GOTO_TARGET		/* Where a computed goto may land.  */
};

extern const char *const check_kind_names[];

struct check_point
{
  edge fast_edge;		/* Where the check goes in the original body.  */
  enum check_kind kind;
  location_t loc;
  int weight;
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
};

/* Check placement and weights (checks.cc), in this order: the region
   ends and their checks (entry, after weighty calls and countdown
   writes), the checks at computed goto targets, then the loop checks,
   the long-path checks and every check's and block's weight.  */
void isolate_region_ends (function_state *st);
void isolate_goto_targets (function_state *st);
void place_checks_and_weigh (function_state *st);

/* Slow-copy construction (slow-copy.cc).  clone_and_wire makes the fast
   and slow copies of a function whose checks are placed and weighed;
   guard_without_cloning instruments a function that cannot be cloned,
   site by site; zero_countdown_on_return gives the countdown its zero
   back where a function without an unsampled clone returns.  */
void clone_and_wire (function_state *st);
void guard_without_cloning (function_state *st);
void zero_countdown_on_return (void);

#endif
