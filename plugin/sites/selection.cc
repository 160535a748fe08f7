/* sampler.so: which functions are instrumented and which calls are
   checks: the `sampled' attribute and the scope rules.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).

   What.  `sampled' on a function's declaration makes calls to it sites of
   the checks scheme; on its definition, it selects the function;
   sampled ("off") and sampled ("weightless") exclude it and assert that
   it is weightless.  Without the attribute, the scope rules
   (include-function=, exclude-file=, ...) decide, first match first, and
   functions of system headers are left alone.  */

#include "sampler-plugin.h"

#include <fnmatch.h>
#include <string.h>

#include "diagnostic-core.h"
#include "stringpool.h"
#include "attribs.h"

/* Where a plain `sampled' was written: the name of the function and the
   location of the declaration or definition carrying it.  */
struct attribute_note
{
  tree name;
  location_t loc;
};
static vec<attribute_note> attribute_notes;

void
note_sampled_attribute (tree decl)
{
  attribute_note note = { DECL_NAME (decl), DECL_SOURCE_LOCATION (decl) };
  attribute_notes.safe_push (note);
}

/* Was the plain attribute written on FNDECL's definition (AT_DEFINITION) or
   on some other declaration of it?  */
static bool
attribute_written (tree fndecl, bool at_definition)
{
  location_t def = DECL_SOURCE_LOCATION (fndecl);
  for (const attribute_note &note : attribute_notes)
    if (note.name == DECL_NAME (fndecl) && (note.loc == def) == at_definition)
      return true;
  return false;
}

static bool
defined_here (tree fndecl)
{
  return DECL_INITIAL (fndecl) != NULL_TREE && !DECL_EXTERNAL (fndecl);
}

bool
is_check_function (tree fndecl)
{
  if (sampled_attribute_form (fndecl) != SAMPLED_PLAIN)
    return false;
  return !defined_here (fndecl) || attribute_written (fndecl, false);
}

bool
selected_by_attribute (tree fndecl)
{
  return sampled_attribute_form (fndecl) == SAMPLED_PLAIN
	 && defined_here (fndecl) && attribute_written (fndecl, true);
}

bool
function_selected (tree fndecl)
{
  if (is_unsampled_clone (fndecl) || is_sampled_clone (fndecl))
    return false;
  if (sampled_attribute_form (fndecl) == SAMPLED_OFF
      || lookup_attribute ("no_instrument_function",
			   DECL_ATTRIBUTES (fndecl)))
    return false;
  if (selected_by_attribute (fndecl))
    return true;
  const char *name = IDENTIFIER_POINTER (DECL_NAME (fndecl));
  const char *file = DECL_SOURCE_FILE (fndecl);
  for (const scope_rule &rule : sampler_opts.rules)
    if (fnmatch (rule.pattern, rule.by_file ? file : name, 0) == 0)
      return rule.include;
  /* Inline functions of system headers are the library's code, not the
     program's; an explicit rule above can still include them.  */
  return !in_system_header_at (DECL_SOURCE_LOCATION (fndecl));
}

enum sampled_form
sampled_attribute_form (tree decl)
{
  tree attr = lookup_attribute (SAMPLED_ATTR, DECL_ATTRIBUTES (decl));
  if (!attr)
    return SAMPLED_NONE;
  tree args = TREE_VALUE (attr);
  if (!args)
    return SAMPLED_PLAIN;
  const char *arg = TREE_STRING_POINTER (TREE_VALUE (args));
  if (strcmp (arg, SAMPLED_ARG_OFF) == 0)
    return SAMPLED_OFF;
  return SAMPLED_WEIGHTLESS;
}

/* `sampled' goes on function declarations: plain, calls to the function
   are sites of the checks scheme; ("off"), the function is not
   instrumented; ("weightless"), the user asserts that the function neither
   has sites nor calls functions that do.  */
static tree
handle_sampled_attribute (tree *node, tree name, tree args, int,
			  bool *no_add_attrs)
{
  tree decl = *node;
  if (TREE_CODE (decl) != FUNCTION_DECL)
    {
      warning (OPT_Wattributes,
	       "%qE attribute ignored: it goes on a function (on a "
	       "declaration, calls to it become sampled checks; on a "
	       "definition, it selects the function; %<sampled(\"off\")%> "
	       "keeps a function uninstrumented)", name);
      *no_add_attrs = true;
      return NULL_TREE;
    }
  if (!args)
    note_sampled_attribute (decl);
  else
    {
      tree arg = TREE_VALUE (args);
      if (TREE_CODE (arg) != STRING_CST
	  || (strcmp (TREE_STRING_POINTER (arg), SAMPLED_ARG_OFF) != 0
	      && strcmp (TREE_STRING_POINTER (arg), SAMPLED_ARG_WEIGHTLESS) != 0))
	{
	  error ("%qE attribute argument must be %<\"off\"%> or "
		 "%<\"weightless\"%>", name);
	  *no_add_attrs = true;
	  return NULL_TREE;
	}
    }
  return NULL_TREE;
}

static struct attribute_spec sampled_attribute_spec;

void
register_sampled_attribute (void *, void *)
{
  sampled_attribute_spec.name = SAMPLED_ATTR;
  sampled_attribute_spec.min_length = 0;
  sampled_attribute_spec.max_length = 1;
  sampled_attribute_spec.decl_required = true;
  sampled_attribute_spec.type_required = false;
  sampled_attribute_spec.function_type_required = false;
  sampled_attribute_spec.affects_type_identity = false;
  sampled_attribute_spec.handler = handle_sampled_attribute;
  sampled_attribute_spec.exclude = NULL;
  register_attribute (&sampled_attribute_spec);
}
