/* sampler.so: unsampled clones of functions that keep their labels'
   addresses in static tables (see "Label tables" below).
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).

   label_tables_copyable says whether such a function may be copied all
   the same, and copy_label_tables gives its copy tables of its own;
   unsampled.cc makes the copy.  */

#include "sampler-plugin.h"

#include <string.h>

#include "function.h"
#include "basic-block.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "tree-cfg.h"
#include "cgraph.h"
#include "stringpool.h"
#include "attribs.h"
#include "tree-inline.h"
#include "ssa.h"
#include "gimple-walk.h"
#include "gimplify.h"

/* Label tables.  GCC copies no function that keeps its labels' addresses
   in a static variable (has_forced_label_in_static): the copy would share
   the variable, and jump to the original's labels.  An interpreter
   dispatches through such a table (lua's luaV_execute), and the clone
   matters most there: without one, the loop and everything it calls run
   instrumented with sampling off.  So such a function is cloned all the
   same when each static of its own that its code reads and whose
   initializer mentions a label or another such static is a table of
   labels that the code neither writes nor takes the address of; the clone
   gets a copy of each table, with its own labels (copy_label_tables).  */

/* walk_tree callback: is *TP a label or a static variable of the
   function DATA?  */
static tree
label_or_local_static (tree *tp, int *walk_subtrees, void *data)
{
  if (TYPE_P (*tp))
    *walk_subtrees = 0;
  else if ((TREE_CODE (*tp) == LABEL_DECL
	    || (VAR_P (*tp) && TREE_STATIC (*tp)))
	   && DECL_CONTEXT (*tp) == (tree) data)
    return *tp;
  return NULL_TREE;
}

/* walk_tree callback: is *TP a static variable of the function DATA?  */
static tree
local_static (tree *tp, int *walk_subtrees, void *data)
{
  tree found = label_or_local_static (tp, walk_subtrees, data);
  return found && VAR_P (found) ? found : NULL_TREE;
}

/* Is VAR a static of function FN whose initializer mentions one of FN's
   labels or statics?  */
static bool
refers_to_labels (tree var, tree fn)
{
  return VAR_P (var) && TREE_STATIC (var) && DECL_CONTEXT (var) == fn
	 && DECL_INITIAL (var) && DECL_INITIAL (var) != error_mark_node
	 && walk_tree_without_duplicates (&DECL_INITIAL (var),
					  label_or_local_static, fn);
}

/* Is VAR, which refers to labels and which FN's code neither writes nor
   takes the address of (find_label_tables), a table of FN's labels that a
   copy of FN may have a copy of?  Read-only then, declared so or not: a
   static of FN is reachable from FN alone.  */
static bool
copyable_label_table (tree var, tree fn)
{
  return !TREE_THIS_VOLATILE (var)
	 && !walk_tree_without_duplicates (&DECL_INITIAL (var), local_static,
					   fn);
}

/* walk_gimple_op callback: adds to the vector in the walk's info the
   statics of the current function that refer to labels; stops at the
   address of one (the C front end marks an array indexed by a variable
   addressable, so only the code tells whether a pointer to it escapes).  */
static tree
collect_label_tables (tree *tp, int *walk_subtrees, void *data)
{
  walk_stmt_info *wi = (walk_stmt_info *) data;
  if (TYPE_P (*tp) || DECL_P (*tp))
    *walk_subtrees = 0;
  if (TREE_CODE (*tp) == ADDR_EXPR
      && refers_to_labels (get_base_address (TREE_OPERAND (*tp, 0)),
			   current_function_decl))
    return *tp;
  if (refers_to_labels (*tp, current_function_decl))
    {
      vec<tree> *tables = (vec<tree> *) wi->info;
      if (!tables->contains (*tp))
	tables->safe_push (*tp);
    }
  return NULL_TREE;
}

/* Does STMT write to a static of the current function that refers to
   labels?  */
static bool
writes_label_table (gimple *stmt)
{
  auto_vec<tree, 4> written;
  if (gimple_has_lhs (stmt) && gimple_get_lhs (stmt))
    written.safe_push (gimple_get_lhs (stmt));
  if (gasm *asm_stmt = dyn_cast<gasm *> (stmt))
    for (unsigned i = 0; i < gimple_asm_noutputs (asm_stmt); i++)
      written.safe_push (TREE_VALUE (gimple_asm_output_op (asm_stmt, i)));
  for (tree lhs : written)
    if (refers_to_labels (get_base_address (lhs), current_function_decl))
      return true;
  return false;
}

/* Finds the statics of the current function its code reads that refer to
   its labels.  False if the code takes the address of one or writes to
   one.  */
static bool
find_label_tables (vec<tree> *tables)
{
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      {
	if (writes_label_table (gsi_stmt (gsi)))
	  return false;
	walk_stmt_info wi;
	memset (&wi, 0, sizeof wi);
	wi.info = tables;
	if (walk_gimple_op (gsi_stmt (gsi), collect_label_tables, &wi))
	  return false;
      }
  return true;
}

/* May the current function be copied, though GCC would not copy it (see
   Label tables above)?  */
bool
label_tables_copyable (void)
{
  if (!cfun->has_forced_label_in_static || cfun->has_nonlocal_label
      || lookup_attribute ("noclone",
			   DECL_ATTRIBUTES (current_function_decl)))
    return false;
  auto_vec<tree> tables;
  if (!find_label_tables (&tables))
    return false;
  for (tree table : tables)
    if (!copyable_label_table (table, current_function_decl))
      return false;
  return true;
}

/* walk_gimple_op callback: replaces the tables of the hash map in the
   walk's info by their copies.  */
static tree
replace_label_tables (tree *tp, int *walk_subtrees, void *data)
{
  walk_stmt_info *wi = (walk_stmt_info *) data;
  if (TYPE_P (*tp) || DECL_P (*tp))
    *walk_subtrees = 0;
  if (tree *copy = ((hash_map<tree, tree> *) wi->info)->get (*tp))
    {
      *tp = *copy;
      wi->changed = true;
    }
  return NULL_TREE;
}

/* walk_tree callback: replaces the labels of the hash map DATA by their
   copies.  */
static tree
replace_labels (tree *tp, int *walk_subtrees, void *data)
{
  if (TYPE_P (*tp))
    *walk_subtrees = 0;
  else if (TREE_CODE (*tp) == LABEL_DECL)
    if (tree *copy = ((hash_map<tree, tree> *) data)->get (*tp))
      *tp = *copy;
  return NULL_TREE;
}

/* Gives the current function, a clone of ORIGINAL with label tables, its
   own copies of the tables, with its own labels (see Label tables above).
   False if a label has no copy.  */
bool
copy_label_tables (tree original)
{
  /* The copies of the labels, by their originals (copies of a decl have
     it as their abstract origin).  */
  hash_map<tree, tree> labels;
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      if (glabel *label = dyn_cast<glabel *> (gsi_stmt (gsi)))
	{
	  tree copy = gimple_label_label (label);
	  if (DECL_ABSTRACT_ORIGIN (copy))
	    labels.put (DECL_ABSTRACT_ORIGIN (copy), copy);
	}
      else
	break;

  auto_vec<tree> tables;
  /* Read as the original's: the copy shares its statics.  */
  tree self = current_function_decl;
  current_function_decl = original;
  bool found = find_label_tables (&tables);
  current_function_decl = self;
  if (!found)
    return false;

  hash_map<tree, tree> copies;
  for (tree table : tables)
    {
      tree copy = copy_node (table);
      DECL_CONTEXT (copy) = current_function_decl;
      DECL_ARTIFICIAL (copy) = 1;
      DECL_IGNORED_P (copy) = 1;
      /* A name and a symbol of its own.  */
      SET_DECL_ASSEMBLER_NAME (copy, NULL_TREE);
      SET_DECL_RTL (copy, NULL);
      tree init = unshare_expr (DECL_INITIAL (table));
      walk_tree (&init, replace_labels, &labels, NULL);
      if (walk_tree_without_duplicates (&init, label_or_local_static,
					original))
	return false;
      DECL_INITIAL (copy) = init;
      copies.put (table, copy);
    }
  for (tree table : tables)
    {
      tree copy = *copies.get (table);
      varpool_node::finalize_decl (copy);
      /* As the front end's variables are before IPA: the output keeps
	 only the analysed ones the code uses.  */
      varpool_node *node = varpool_node::get (copy);
      if (!node->analyzed)
	node->analyze ();
    }

  FOR_EACH_BB_FN (bb, cfun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      {
	walk_stmt_info wi;
	memset (&wi, 0, sizeof wi);
	wi.info = &copies;
	walk_gimple_op (gsi_stmt (gsi), replace_label_tables, &wi);
	if (wi.changed)
	  update_stmt (gsi_stmt (gsi));
      }
  /* Like the original, the clone may not be copied itself.  */
  cfun->has_forced_label_in_static = 1;
  cfun->cannot_be_copied_set = 0;
  cfun->cannot_be_copied_reason = NULL;
  cgraph_edge::rebuild_references ();
  return true;
}
