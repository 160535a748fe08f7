/* sampler.so: the entry region's slow copy out of line (outline-entry).
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).

   What.  With -fplugin-arg-sampler-outline-entry, each qualifying
   function F gets a clone, F.sampled, made once the sites are found, with
   F's markers: the same sites, so its counts land on F's counters, as
   those of an inlined copy of F do.  The clone goes through GCC's
   optimisers and the transformation like any instrumented function.  In
   F, the transformation builds no slow copy of the entry region: where
   F's entry check borrows or leaves zero, F gives the check's weight back
   and tail-calls F.sampled with its own arguments (slow-copy.cc,
   build_slow_entry), which makes the decision again with its own entry
   check and weights.  F's other checks and slow copies are as before.

   Why.  The entry region's slow copy is reachable from F's entry, so the
   registers it uses (callee-saved ones, in cold code that GCC prices as
   nearly free) make shrink-wrapping put the prologue at the entry of F,
   and every call pays it (docs/outline.md).  Out of line, F's entry region
   is its fast copy alone.  No value is handed over: F.sampled starts from
   F's arguments and computes what F computes.  Fair: F takes its fast
   entry region only when no visit in it could be sampled, as before;
   otherwise the countdown is as it was at F's entry when F.sampled starts.

   Which functions: those the unsampled clones could be made for (their
   arguments can be forwarded: no variable arguments, no static chain, no
   look at their own frame), that GCC can version without help (no label
   tables), not comdat, with markers, and with a cycle, where a loop's
   check may go (otherwise the entry region is most of the function and
   little is gained; a function whose only other checks follow calls
   keeps a prologue for the calls' sake, and its clone cost text and
   instructions on bzip2 without a gain: docs/outline.md).  Not at -O0, and not with
   a region scheme (paths, subpaths), whose per-function tables number a
   region's paths as F's own checks make them.

   Until the transformation of F calls it, the clone is kept as if called
   from outside (force_output), as the unsampled clones are, and it is let
   go after the IPA passes if F is gone (release_unneeded_clones).  ICF
   must not merge it with F, which has the same body (no_icf).  */

#include "sampler-plugin.h"
#include "schemes.h"

#include "function.h"
#include "basic-block.h"
#include "cfg.h"
#include "cfganal.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "tree-cfg.h"
#include "cgraph.h"
#include "stringpool.h"
#include "attribs.h"
#include "tree-inline.h"
#include "hash-set.h"

/* On a sampled clone: its value is the function it was cloned from.  A
   name with a space, which no user attribute can have.  */
#define SAMPLED_CLONE_ATTR "sampler sampled clone"
/* On a function with a sampled clone (and on what IPA makes of it): its
   value is the clone.  */
#define HAS_SAMPLED_ATTR "sampler has sampled clone"

bool
is_sampled_clone (tree fndecl)
{
  return lookup_attribute (SAMPLED_CLONE_ATTR, DECL_ATTRIBUTES (fndecl))
	 != NULL_TREE;
}

tree
sampled_clone_original (tree fndecl)
{
  tree attr = lookup_attribute (SAMPLED_CLONE_ATTR, DECL_ATTRIBUTES (fndecl));
  return TREE_VALUE (TREE_VALUE (attr));
}

/* Is a region scheme selected?  */
static bool
region_scheme_selected (void)
{
  for (unsigned id = 0; id < SAMPLER_N_SCHEMES; id++)
    if ((sampler_opts.schemes & SCHEME_BIT (id))
	&& plugin_schemes[id]->region_slow_copy)
      return true;
  return false;
}

/* May the current function get a loop check: has it a cycle?  */
static bool
has_cycle (void)
{
  mark_dfs_back_edges ();
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    {
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->succs)
	if (e->flags & EDGE_DFS_BACK)
	  return true;
    }
  return false;
}

/* Does NODE qualify for a sampled clone (see the head of the file)?  */
static bool
qualifies (cgraph_node *node, hash_set<tree> &nesting_parents)
{
  tree decl = node->decl;
  function *fn = DECL_STRUCT_FUNCTION (decl);
  if (!fn || !fn->cfg || is_unsampled_clone (decl) || DECL_COMDAT (decl)
      || DECL_ONE_ONLY (decl) || !count_markers (fn)
      || !can_have_unsampled_clone (node, nesting_parents)
      || !tree_versionable_function_p (decl))
    return false;
  push_cfun (fn);
  bool cycle = has_cycle ();
  pop_cfun ();
  return cycle;
}

void
create_sampled_clones (void)
{
  if (!sampler_opts.outline_entry || !optimize || region_scheme_selected ())
    return;
  hash_set<tree> nesting_parents;
  collect_nesting_parents (nesting_parents);
  cgraph_node *node;

  /* In the callgraph's order, so that the same unit gives the same
     object.  */
  auto_vec<cgraph_node *> originals;
  FOR_EACH_FUNCTION_WITH_GIMPLE_BODY (node)
    if (qualifies (node, nesting_parents))
      originals.safe_push (node);
  for (cgraph_node *original : originals)
    {
      cgraph_node *clone
	= original->create_version_clone_with_body (vNULL, NULL, NULL, NULL,
						    NULL, "sampled");
      if (!clone)
	continue;
      tree decl = clone->decl;
      /* Never entered with sampling off: F goes to its unsampled clone
	 before it calls this one.  */
      tree attrs = remove_attribute ("used", copy_list (DECL_ATTRIBUTES
							 (decl)));
      attrs = tree_cons (get_identifier ("no_icf"), NULL_TREE, attrs);
      attrs = tree_cons (get_identifier (NOT_OFF_ATTR), NULL_TREE, attrs);
      attrs = tree_cons (get_identifier (SAMPLED_CLONE_ATTR),
			 build_tree_list (NULL_TREE, original->decl), attrs);
      DECL_ATTRIBUTES (decl) = attrs;
      DECL_PRESERVE_P (decl) = 0;
      clone->force_output = true;
      clone->local = false;
      DECL_ATTRIBUTES (original->decl)
	= tree_cons (get_identifier (HAS_SAMPLED_ATTR),
		     build_tree_list (NULL_TREE, decl),
		     DECL_ATTRIBUTES (original->decl));
    }
}

tree
sampled_clone_to_call (void)
{
  return own_clone_to_call (HAS_SAMPLED_ATTR, SAMPLED_CLONE_ATTR);
}
