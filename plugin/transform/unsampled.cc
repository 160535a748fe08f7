/* sampler.so: unsampled copies, for runs with sampling off.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).

   A run with sampling off (SAMPLER_SPARSITY unset or 0) decides so once,
   when it starts, and never samples.  For such runs every function the
   plugin instruments gets a second, unsampled copy: a local clone of its
   body taken before the sites are found, so GCC optimises it as the plain
   function.  Direct calls in the clones go to the clones of their callees,
   so once a thread is in a clone it stays in plain code; the instrumented
   function goes to its clone from its entry check's way into the slow
   copy, which a thread reaches with a countdown of zero: a thread that has
   not started, or every thread of a run with sampling off, whose
   countdown stays zero (the runtime's __sampler_off says which).  So the
   fast copy pays nothing for it at any sparsity, and a call into the
   instrumented code of another unit, through a pointer or from a library,
   in a run with sampling off, costs the check and a test.

   Nothing calls the clone before the transformation builds that call
   (unsampled_clone_to_call, build_dispatch): until then the clone is kept as
   if called from outside (force_output), so that IPA neither removes it
   nor changes its parameters, and after the IPA passes the clones of
   functions that are gone are let go (release_unneeded_clones).  A call
   or any statement referring to the clone in the function would weigh in
   the inliners' estimates: one asm statement was enough to change their
   decisions about the instrumented code.

   Calls to check functions (the `sampled' attribute) are dropped from the
   clones: they run only when sampled.

   Not cloned: functions with variable arguments (they cannot be
   forwarded), nested functions and their parents, naked and interrupt
   functions, and functions that look at their own frame
   (__builtin_return_address: the clone runs a frame deeper when the tail
   call cannot be made) or whose check calls end their block.  */

#include "sampler-plugin.h"

#include "function.h"
#include "basic-block.h"
#include "cfg.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "tree-cfg.h"
#include "cgraph.h"
#include "stringpool.h"
#include "attribs.h"
#include "tree-inline.h"
#include "ssa.h"
#include "tree-ssa.h"
#include "tree-dfa.h"
#include "hash-map.h"
#include "calls.h"
#include "output.h"
#include "diagnostic-core.h"
#include "gimple-walk.h"
#include "gimplify.h"

/* Marks a clone (and whatever IPA makes of it): not instrumented; its
   value is the original function.  A name with a space, which no user
   attribute can have.  */
#define UNSAMPLED_ATTR "sampler unsampled"
/* On an instrumented function: its clone.  */
#define CLONE_ATTR "sampler clone"

bool
is_unsampled_clone (tree fndecl)
{
  return lookup_attribute (UNSAMPLED_ATTR, DECL_ATTRIBUTES (fndecl))
	 != NULL_TREE;
}

/* The function CLONE was cloned from.  */
static tree
original_of (tree clone)
{
  tree attr = lookup_attribute (UNSAMPLED_ATTR, DECL_ATTRIBUTES (clone));
  return TREE_VALUE (TREE_VALUE (attr));
}

/* Is STMT a call to a check function (the `sampled' attribute), which
   runs only when sampled, so never in the unsampled clone?  */
static bool
check_call_p (gimple *stmt)
{
  tree fndecl = is_gimple_call (stmt) ? gimple_call_fndecl (stmt) : NULL;
  return fndecl && (sampler_opts.schemes & SCHEME_BIT (SAMPLER_SCHEME_CHECKS))
	 && is_check_function (fndecl);
}

/* Does the current function call a builtin that would see the clone's
   frame instead of its own, or a check function whose call ends its block
   (EH edges), which the clone could not simply drop?  */
static bool
body_prevents_clone (void)
{
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      {
	gimple *stmt = gsi_stmt (gsi);
	if (gimple_call_builtin_p (stmt, BUILT_IN_RETURN_ADDRESS)
	    || gimple_call_builtin_p (stmt, BUILT_IN_FRAME_ADDRESS)
	    || gimple_call_builtin_p (stmt, BUILT_IN_APPLY_ARGS)
	    || gimple_call_builtin_p (stmt, BUILT_IN_VA_ARG_PACK)
	    || gimple_call_builtin_p (stmt, BUILT_IN_VA_ARG_PACK_LEN)
	    || (check_call_p (stmt) && stmt_ends_bb_p (stmt)))
	  return true;
      }
  return false;
}

/* Can NODE, to be instrumented, have a clone that its entry check calls
   with its own arguments?  */
bool
can_have_unsampled_clone (cgraph_node *node,
			  hash_set<tree> &nesting_parents)
{
  tree decl = node->decl;
  tree attrs = DECL_ATTRIBUTES (decl);
  if (!node->definition || node->alias || node->thunk || DECL_EXTERNAL (decl)
      || stdarg_p (TREE_TYPE (decl)) || nesting_parents.contains (decl)
      || (DECL_CONTEXT (decl)
	  && TREE_CODE (DECL_CONTEXT (decl)) == FUNCTION_DECL)
      || lookup_attribute ("naked", attrs)
      || lookup_attribute ("interrupt", attrs)
      || lookup_attribute ("target_clones", attrs))
    return false;
  tree result = DECL_RESULT (decl);
  if (result && DECL_BY_REFERENCE (result))
    return false;
  push_cfun (DECL_STRUCT_FUNCTION (decl));
  bool own_frame = body_prevents_clone ();
  bool versionable = tree_versionable_function_p (decl)
		     || label_tables_copyable ();
  pop_cfun ();
  return versionable && !own_frame;
}

/* ORIGINAL's clone, or NULL: versioned as GCC would, or with its own
   label tables.  */
static cgraph_node *
make_unsampled_clone (cgraph_node *original)
{
  function *fn = DECL_STRUCT_FUNCTION (original->decl);
  bool label_tables = !tree_versionable_function_p (original->decl);
  /* Let GCC copy it: the label tables are copied below.  */
  const char *reason = fn->cannot_be_copied_reason;
  if (label_tables)
    {
      fn->has_forced_label_in_static = 0;
      fn->cannot_be_copied_set = 0;
      fn->cannot_be_copied_reason = NULL;
    }
  cgraph_node *clone
    = original->create_version_clone_with_body (vNULL, NULL, NULL, NULL,
						NULL, "unsampled");
  if (label_tables)
    {
      fn->has_forced_label_in_static = 1;
      fn->cannot_be_copied_set = 1;
      fn->cannot_be_copied_reason = reason;
    }
  if (!clone || !label_tables)
    return clone;
  push_cfun (DECL_STRUCT_FUNCTION (clone->decl));
  bool copied = copy_label_tables (original->decl);
  pop_cfun ();
  if (!copied)
    {
      clone->remove ();
      return NULL;
    }
  return clone;
}

/* Every clone made, by its original.  Lives through the first pass only:
   GCC's collector does not run inside a pass.  */
static hash_map<tree, tree> *clones;
/* The originals in the order they were cloned: the passes below walk
   them in this order, not the map's, whose order changes from run to run
   (it changed the order of the callgraph's edges, and so of the
   functions in the output: builds were not reproducible).  */
static vec<tree> cloned_in_order;

/* Other units' clones.  A public function's clone is named after it,
   NAME.unsampled.0, and is global and hidden where its unit can promise
   that it is the function that runs (exportable_clone): the clones of
   other units call it directly, instead of going through the instrumented
   function's entry check, its slow entry and a test (gzip's send_bits and
   jq's jv_free, at sparsity 0).  Each calling unit also defines the name
   weakly, as a jump to the function itself, for callees whose unit has no
   such clone (not built with the plugin, variable arguments, the
   function not instrumented): the linker takes the clone where there is
   one (emit_clone_fallbacks).  */

/* The name of the clone of public function FN, or NULL if FN's name is
   not the one the assembler sees (`asm' labels).  */
static char *
exported_clone_name (tree fn)
{
  const char *name = IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (fn));
  if (name[0] == '*' || DECL_NAME (fn) == NULL_TREE
      || strcmp (name, IDENTIFIER_POINTER (DECL_NAME (fn))) != 0)
    return NULL;
  return concat (name, ".unsampled.0", NULL);
}

/* May ORIGINAL's clone CLONE be called by that name from other units?
   Only if ORIGINAL is the definition that runs: public, not weak, not
   one the loader may replace (-fPIC), and the clone has the name.  Not
   main's, which nothing calls: a public clone of a main that ends in
   exit () drew -Wsuggest-attribute=noreturn, which main is exempt from
   (xz-utils).  */
static bool
exportable_clone (cgraph_node *original, tree clone)
{
  tree decl = original->decl;
  if (!TREE_PUBLIC (decl) || DECL_WEAK (decl) || DECL_COMDAT (decl)
      || MAIN_NAME_P (DECL_NAME (decl))
      || original->get_availability () <= AVAIL_INTERPOSABLE)
    return false;
  char *name = exported_clone_name (decl);
  bool same = name && strcmp (name, IDENTIFIER_POINTER
				      (DECL_ASSEMBLER_NAME (clone))) == 0;
  free (name);
  return same;
}

/* Would a call to CALLEE, defined in another unit, go to CALLEE's clone
   if it had one?  Not for the C library and other system headers' functions
   (never instrumented: the jump would only cost), builtins, functions with
   variable arguments (never cloned) or that return twice, nor aliases.  */
static bool
may_call_other_units_clone (tree callee)
{
  cgraph_node *node = cgraph_node::get (callee);
  tree attrs = DECL_ATTRIBUTES (callee);
  /* With -flto the fallbacks, written at the end of the unit, would not
     reach the link, which reads only the streamed units.  */
  return node && !flag_generate_lto && !node->definition && !node->alias
	 && TREE_PUBLIC (callee) && !DECL_WEAK (callee)
	 && !fndecl_built_in_p (callee) && !DECL_IN_SYSTEM_HEADER (callee)
	 && !stdarg_p (TREE_TYPE (callee))
	 && !(flags_from_decl_or_type (callee) & ECF_RETURNS_TWICE)
	 && !lookup_attribute ("weakref", attrs)
	 && !lookup_attribute ("alias", attrs)
	 && !lookup_attribute ("ifunc", attrs);
}

/* The callees of other units, by the declaration of their clones.  */
static hash_map<tree, tree> *other_units_clones;

/* The fallbacks this unit may need, by name, with the functions they go
   to.  Written at the end of the unit, for the names its code refers to:
   a call the optimisers removed must not leave a reference to its callee
   (GCC's tests call an undefined link_error where they expect the call to
   be optimised away).  */
static vec<char *> fallback_names;
static vec<char *> fallback_targets;

void
emit_clone_fallbacks (void *, void *)
{
  for (unsigned i = 0; i < fallback_names.length (); i++)
    {
      const char *name = fallback_names[i];
      tree id = maybe_get_identifier (name);
      if (!seen_error () && asm_out_file && id && TREE_SYMBOL_REFERENCED (id))
	fprintf (asm_out_file,
		 "\t.pushsection .text.%s,\"axG\",@progbits,%s,comdat\n"
		 "\t.weak %s\n"
		 "\t.hidden %s\n"
		 "\t.type %s, @function\n"
		 "%s:\n"
		 "\t.cfi_startproc\n"
		 "\tjmp %s\n"
		 "\t.cfi_endproc\n"
		 "\t.size %s, .-%s\n"
		 "\t.popsection\n",
		 name, name, name, name, name, name, fallback_targets[i], name,
		 name);
      free (fallback_names[i]);
      free (fallback_targets[i]);
    }
  fallback_names.release ();
  fallback_targets.release ();
}

/* The declaration of CALLEE's clone, defined in CALLEE's unit or by the
   fallback here; NULL_TREE where calls go to CALLEE itself.  */
static tree
other_units_clone (tree callee)
{
  if (!may_call_other_units_clone (callee))
    return NULL_TREE;
  if (tree *known = other_units_clones->get (callee))
    return *known;
  char *name = exported_clone_name (callee);
  if (!name)
    return NULL_TREE;
  tree decl = build_decl (DECL_SOURCE_LOCATION (callee), FUNCTION_DECL,
			  get_identifier (name), TREE_TYPE (callee));
  free (name);
  TREE_PUBLIC (decl) = 1;
  DECL_EXTERNAL (decl) = 1;
  DECL_ARTIFICIAL (decl) = 1;
  DECL_VISIBILITY (decl) = VISIBILITY_HIDDEN;
  DECL_VISIBILITY_SPECIFIED (decl) = 1;
  /* What the callers may assume of the function holds of its clone.  */
  DECL_ATTRIBUTES (decl) = DECL_ATTRIBUTES (callee);
  TREE_THIS_VOLATILE (decl) = TREE_THIS_VOLATILE (callee);
  TREE_READONLY (decl) = TREE_READONLY (callee);
  DECL_PURE_P (decl) = DECL_PURE_P (callee);
  TREE_NOTHROW (decl) = TREE_NOTHROW (callee);
  DECL_IS_MALLOC (decl) = DECL_IS_MALLOC (callee);
  fallback_names.safe_push (xstrdup (IDENTIFIER_POINTER (DECL_NAME (decl))));
  fallback_targets.safe_push
    (xstrdup (IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (callee))));
  other_units_clones->put (callee, decl);
  return decl;
}

void
collect_nesting_parents (hash_set<tree> &parents)
{
  cgraph_node *node;
  FOR_EACH_FUNCTION (node)
    if (DECL_CONTEXT (node->decl)
	&& TREE_CODE (DECL_CONTEXT (node->decl)) == FUNCTION_DECL)
      parents.add (DECL_CONTEXT (node->decl));
}

void
create_unsampled_clones (void)
{
  if (!sampler_opts.unsampled)
    return;
  hash_set<tree> nesting_parents;
  collect_nesting_parents (nesting_parents);
  cgraph_node *node;

  auto_vec<cgraph_node *> originals;
  FOR_EACH_FUNCTION_WITH_GIMPLE_BODY (node)
    {
      function *fn = DECL_STRUCT_FUNCTION (node->decl);
      if (fn && fn->cfg && function_selected (node->decl)
	  && can_have_unsampled_clone (node, nesting_parents))
	originals.safe_push (node);
    }
  clones = new hash_map<tree, tree>;
  other_units_clones = new hash_map<tree, tree>;
  for (cgraph_node *original : originals)
    {
      cgraph_node *clone = make_unsampled_clone (original);
      if (!clone)
	continue;
      tree decl = clone->decl;
      DECL_ATTRIBUTES (decl)
	= tree_cons (get_identifier (UNSAMPLED_ATTR),
		     build_tree_list (NULL_TREE, original->decl),
		     remove_attribute ("used", copy_list (DECL_ATTRIBUTES
							  (decl))));
      DECL_PRESERVE_P (decl) = 0;
      clones->put (original->decl, decl);
      cloned_in_order.safe_push (original->decl);
    }

  /* Direct calls in the clones go to the clones, where the callee is the
     definition that runs (not one the linker or loader may replace).
     Calls to check functions go: they run only when sampled (their
     result reads as zero, as when an instrumented call is skipped).  */
  for (tree original : cloned_in_order)
    {
      push_cfun (DECL_STRUCT_FUNCTION (*clones->get (original)));
      basic_block bb;
      FOR_EACH_BB_FN (bb, cfun)
	for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	     gsi_next (&gsi))
	  {
	    if (check_call_p (gsi_stmt (gsi)))
	      {
		tree lhs = gimple_call_lhs (gsi_stmt (gsi));
		gimple *skipped
		  = lhs ? gimple_build_assign (lhs,
					       build_zero_cst (TREE_TYPE (lhs)))
			: gimple_build_nop ();
		gimple_set_location (skipped, gimple_location (gsi_stmt (gsi)));
		/* Out of the EH table too: in a noexcept function (a C++
		   destructor) the call is in a must-not-throw region.  */
		gsi_replace (&gsi, skipped, true);
		continue;
	      }
	    gcall *call = dyn_cast<gcall *> (gsi_stmt (gsi));
	    tree callee = call ? gimple_call_fndecl (call) : NULL_TREE;
	    if (!callee)
	      continue;
	    tree *clone = clones->get (callee);
	    cgraph_node *node = cgraph_node::get (callee);
	    tree target = NULL_TREE;
	    if (clone && node && node->get_availability () > AVAIL_INTERPOSABLE)
	      target = *clone;
	    else if (!clone)
	      target = other_units_clone (callee);
	    if (target)
	      {
		gimple_call_set_fndecl (call, target);
		update_stmt (call);
	      }
	  }
      cgraph_edge::rebuild_edges ();
      pop_cfun ();
    }
  delete other_units_clones;
  other_units_clones = NULL;
}

/* Is ORIGINAL entered only by direct calls from functions in DISPATCHING
   (instrumented, with clones)?  With sampling off those go to their
   clones at entry, which call ORIGINAL's clone instead: ORIGINAL itself
   then never runs with sampling off.  */
static bool
called_only_from_dispatching (cgraph_node *original,
			      hash_set<tree> &dispatching)
{
  if (!original->local_p () || original->has_aliases_p ())
    return false;
  for (cgraph_edge *e = original->callers; e; e = e->next_caller)
    if (!dispatching.contains (e->caller->decl))
      return false;
  return true;
}

/* May NODE, without sites of its own, get some by inlining: does it call
   a function of the unit with sites?  (lua's luaD_callnoyield and
   luaD_call, which the inliner gives the sites of their static helper
   ccall: without a clone they ran instrumented with sampling off, and so
   did the interpreter loop they call.)  */
static bool
may_inline_sites (cgraph_node *node, hash_set<tree> &with_sites)
{
  for (cgraph_edge *e = node->callees; e; e = e->next_callee)
    if (with_sites.contains (e->callee->ultimate_alias_target ()->decl))
      return true;
  return false;
}

void
keep_unsampled_clones (void)
{
  if (!clones)
    return;
  hash_set<tree> with_sites;
  cgraph_node *node;
  FOR_EACH_FUNCTION_WITH_GIMPLE_BODY (node)
    if (DECL_STRUCT_FUNCTION (node->decl)
	&& count_markers (DECL_STRUCT_FUNCTION (node->decl)))
      with_sites.add (node->decl);
  /* The functions sure to dispatch: sites of their own.  */
  hash_set<tree> dispatching;
  for (tree decl : cloned_in_order)
    if (with_sites.contains (decl))
      dispatching.add (decl);
  for (tree decl : cloned_in_order)
    {
      tree clone_decl = *clones->get (decl);
      cgraph_node *original = cgraph_node::get (decl);
      if (!dispatching.contains (decl))
	{
	  /* Kept until the inliner has decided (release_unneeded_clones).  */
	  if (!may_inline_sites (original, with_sites))
	    continue;
	}
      else if (called_only_from_dispatching (original, dispatching))
	{
	  /* Its clone is an ordinary local function, which IPA may inline,
	     specialise for its callers (the other clones) or remove, so
	     nothing else may call it: the function does not dispatch.  */
	  DECL_ATTRIBUTES (decl)
	    = tree_cons (get_identifier (NOT_OFF_ATTR), NULL_TREE,
			 DECL_ATTRIBUTES (decl));
	  continue;
	}
      /* Nothing calls it yet: the transformation adds the call.  Kept
	 until then, as if called from outside, so that IPA neither removes
	 it, nor changes its parameters, nor (finding no callers) optimises
	 it for size.  A statement referring to it would weigh in the
	 inliners' estimates (one instruction for an asm statement: enough
	 to change their decisions).  */
      cgraph_node *clone = cgraph_node::get (clone_decl);
      clone->force_output = true;
      clone->local = false;
      if (exportable_clone (original, clone_decl))
	{
	  TREE_PUBLIC (clone_decl) = 1;
	  DECL_VISIBILITY (clone_decl) = VISIBILITY_HIDDEN;
	  DECL_VISIBILITY_SPECIFIED (clone_decl) = 1;
	  clone->externally_visible = true;
	}
      DECL_ATTRIBUTES (decl)
	= tree_cons (get_identifier (CLONE_ATTR),
		     build_tree_list (NULL_TREE, clone_decl),
		     DECL_ATTRIBUTES (decl));
    }
  delete clones;
  clones = NULL;
  cloned_in_order.release ();
}

/* Will NODE have sites once the inliner's decisions are applied: its own,
   or an inlined callee's?  (With -flto, release_unneeded_clones runs
   after the transformation, which leaves no markers: every clone is let
   go, and those its calls reach stay.)  */
static bool
will_have_sites (cgraph_node *node)
{
  cgraph_node *body = node;
  while (body->clone_of && !gimple_has_body_p (body->decl))
    body = body->clone_of;
  function *fn = DECL_STRUCT_FUNCTION (body->decl);
  if (fn && fn->cfg && count_markers (fn))
    return true;
  for (cgraph_edge *e = node->callees; e; e = e->next_callee)
    if (!e->inline_failed && will_have_sites (e->callee))
      return true;
  return false;
}

void
release_unneeded_clones (void *, void *)
{
  /* First the functions that are gone but not yet removed.  */
  symtab->remove_unreachable_nodes (NULL);
  bool released = false;
  cgraph_node *node;
  FOR_EACH_FUNCTION (node)
    {
      if (!node->force_output)
	continue;
      tree original = NULL_TREE;
      if (is_unsampled_clone (node->decl))
	original = original_of (node->decl);
      else if (is_sampled_clone (node->decl))
	original = sampled_clone_original (node->decl);
      else
	continue;
      cgraph_node *user = cgraph_node::get (original);
      /* Its function was inlined everywhere, or removed, or gets no
	 sites from the inliner after all: nothing will dispatch to it (or,
	 a sampled clone, call it), and it stays only if the other clones
	 call it.  */
      if (!user || !user->definition || user->inlined_to
	  || !will_have_sites (user))
	{
	  node->force_output = false;
	  released = true;
	}
    }
  if (released)
    symtab->remove_unreachable_nodes (NULL);
}

/* The transformation's side.  */

/* The clone the attribute NAMES_CLONE of the current function names, if
   its attribute NAMES_ORIGINAL names the current function; else NULL.
   Only the function itself: a copy IPA made of it (constant propagation,
   SRA, or the part that ipa-split moved out of it, which starts in the
   middle) inherits the attribute but may take other arguments.  */
tree
own_clone_to_call (const char *names_clone, const char *names_original)
{
  tree attr = lookup_attribute (names_clone,
				DECL_ATTRIBUTES (current_function_decl));
  if (!attr)
    return NULL_TREE;
  tree clone = TREE_VALUE (TREE_VALUE (attr));
  cgraph_node *node = cgraph_node::get (clone);
  if (!node || !node->definition)
    return NULL_TREE;
  tree back = lookup_attribute (names_original, DECL_ATTRIBUTES (clone));
  if (!back || TREE_VALUE (TREE_VALUE (back)) != current_function_decl)
    return NULL_TREE;
  return clone;
}

/* The unsampled clone: IPA's copies of the function are called only from
   within the unit, where the callers' clones call the clone.  */
tree
unsampled_clone_to_call (void)
{
  return own_clone_to_call (CLONE_ATTR, UNSAMPLED_ATTR);
}

bool
may_run_with_sampling_off (void)
{
  return !lookup_attribute (NOT_OFF_ATTR,
			    DECL_ATTRIBUTES (current_function_decl));
}

void
build_dispatch (basic_block bb, tree fn, location_t loc)
{
  gimple_stmt_iterator gsi = gsi_last_bb (bb);
  auto_vec<tree> args;
  for (tree parm = DECL_ARGUMENTS (current_function_decl); parm;
       parm = DECL_CHAIN (parm))
    if (!is_gimple_reg_type (TREE_TYPE (parm)))
      args.safe_push (parm);
    else
      {
	tree value;
	if (is_gimple_reg (parm))
	  value = get_or_create_ssa_default_def (cfun, parm);
	else
	  {
	    /* Memory nothing has written yet: this is the entry.  */
	    value = make_ssa_name (TREE_TYPE (parm));
	    gimple *load = gimple_build_assign (value, parm);
	    gimple_set_location (load, loc);
	    gsi_insert_after (&gsi, load, GSI_NEW_STMT);
	  }
	/* As callers pass it: promoted, for a function without a
	   prototype.  */
	tree passed = DECL_ARG_TYPE (parm);
	if (!useless_type_conversion_p (passed, TREE_TYPE (value)))
	  {
	    tree copy = make_ssa_name (passed);
	    gimple *convert = gimple_build_assign (copy, NOP_EXPR, value);
	    gimple_set_location (convert, loc);
	    gsi_insert_after (&gsi, convert, GSI_NEW_STMT);
	    value = copy;
	  }
	args.safe_push (value);
      }
  gcall *call = gimple_build_call_vec (fn, args);
  gimple_set_location (call, loc);
  tree result = NULL_TREE;
  tree type = TREE_TYPE (TREE_TYPE (current_function_decl));
  if (VOID_TYPE_P (type))
    gimple_call_set_tail (call, true);
  else if (is_gimple_reg_type (type))
    {
      result = make_ssa_name (type, call);
      gimple_call_set_lhs (call, result);
      gimple_call_set_tail (call, true);
    }
  else
    {
      /* An aggregate: into the function's own result, returned.  */
      result = DECL_RESULT (current_function_decl);
      gimple_call_set_lhs (call, result);
    }
  gsi_insert_after (&gsi, call, GSI_NEW_STMT);
  greturn *ret = gimple_build_return (result);
  gimple_set_location (ret, loc);
  gsi_insert_after (&gsi, ret, GSI_NEW_STMT);
  make_single_succ_edge (bb, EXIT_BLOCK_PTR_FOR_FN (cfun), 0);
}
