/* sampler.so: the names the site table gives a function: the name a
   reader knows it by, and its symbol when that differs.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).

   For C the name is DECL_NAME, which is also the symbol: the table is
   what it always was.  For C++ it is the front end's printable name
   (lang_hooks.decl_printable_name, verbosity 2: scope and signature),
   with the template arguments an instance was made with rather than
   `[with T = ...]', without its return type, and with the standard
   library's spellings shortened as a reader writes them:
   `std::vector<int>::push_back(int&&)',
   `clampv<double>(double, double, double)'.  The symbol
   (DECL_ASSEMBLER_NAME, `_ZN3geo2Sq4areaEv') stays in the table beside
   it for tools that key on symbols.  */

#include "schemes.h"

#include <stdio.h>
#include <string.h>

#include "langhooks.h"
#include "stringpool.h"
#include "tree.h"

/* Every edit below shortens the name, so it is made in place.  */
static void
erase (char *text, size_t length)
{
  memmove (text, text + length, strlen (text + length) + 1);
}

/* Replaces each FROM in TEXT by TO, which is not longer; only where FROM
   starts a name (not after a letter, digit, `_' or `:').  */
static void
replace_all (char *text, const char *from, const char *to)
{
  size_t from_length = strlen (from), to_length = strlen (to);
  for (char *at = strstr (text, from); at; at = strstr (at + 1, from))
    if (at == text || !(ISALNUM (at[-1]) || at[-1] == '_' || at[-1] == ':'))
      {
	memcpy (at, to, to_length);
	erase (at + to_length, from_length - to_length);
	/* `std::forward<string >': no `> >' any more.  */
	if (from[from_length - 1] == '>' && to[to_length - 1] != '>'
	    && at[to_length] == ' ' && at[to_length + 1] == '>')
	  erase (at + to_length, 1);
      }
}

/* Just past the template argument list opening at OPEN (a `<'), or
   NULL.  */
static char *
argument_list_end (char *open)
{
  int depth = 0;
  for (char *p = open; *p; p++)
    if (*p == '<')
      depth++;
    else if (*p == '>' && --depth == 0)
      return p + 1;
  return NULL;
}

/* Removes every template argument `, NAME<...>' that ends its list (a
   defaulted allocator, traits, comparison or deleter: a parameter of that
   type stays); true if it removed one.  GCC writes `> >' for two closing
   brackets: the space before the list's `>' goes with the argument unless
   the argument before ends with a `>' too.  `std::vector<int,
   std::allocator<int> >' is `std::vector<int>'.  */
static bool
remove_default_arguments (char *text, const char *name)
{
  char argument[64];
  snprintf (argument, sizeof argument, ", %s<", name);
  size_t length = strlen (argument);
  bool removed = false;
  for (char *at = strstr (text, argument); at; at = strstr (at + 1, argument))
    {
      char *end = argument_list_end (at + length - 1);
      if (!end)
	break;
      if (end[0] == ' ' && end[1] == '>' && at[-1] != '>')
	end++;
      else if (end[0] != '>' && !(end[0] == ' ' && end[1] == '>'))
	continue;
      erase (at, end - at);
      removed = true;
    }
  return removed;
}

/* The standard library's names as a reader writes them.  GCC spells the
   names of namespace std without `std::' in the names of its own
   functions: those are shortened too when IN_STD.  */
static void
shorten_standard_names (char *name, bool in_std)
{
  replace_all (name, "std::__cxx11::", "std::");  /* the ABI's namespace */
  if (in_std)
    replace_all (name, "__cxx11::", "");
  static const char *const defaulted[] = {
    "allocator", "char_traits", "less", "equal_to", "hash", "default_delete"
  };
  /* Until none is left: `, less<K>, allocator<V> >' ends with less once
     the allocator is gone.  */
  for (bool removed = true; removed;)
    {
      removed = false;
      for (const char *argument : defaulted)
	{
	  char qualified[32];
	  snprintf (qualified, sizeof qualified, "std::%s", argument);
	  removed |= remove_default_arguments (name, qualified);
	  if (in_std)
	    removed |= remove_default_arguments (name, argument);
	}
    }
  static const struct { const char *from, *to; } aliases[] = {
    { "basic_string<char>", "string" },
    { "basic_string_view<char>", "string_view" },
    { "basic_ostream<char>", "ostream" },
    { "basic_istream<char>", "istream" }
  };
  for (const auto &alias : aliases)
    {
      char from[64], to[64];
      snprintf (from, sizeof from, "std::%s", alias.from);
      snprintf (to, sizeof to, "std::%s", alias.to);
      replace_all (name, from, to);
      if (in_std)
	replace_all (name, alias.from, alias.to);
    }
}

/* Whether DECL is in namespace std or one inside it.  */
static bool
in_namespace_std (tree decl)
{
  for (tree context = DECL_CONTEXT (decl); context;
       context = TYPE_P (context) ? TYPE_CONTEXT (context)
				  : DECL_CONTEXT (context))
    if (TREE_CODE (context) == NAMESPACE_DECL && DECL_NAME (context)
	&& id_equal (DECL_NAME (context), "std"))
      return true;
  return false;
}

/* Where in FULL, the printable name with its return type, the function's
   scoped name SCOPED (ending in `(') starts, or NULL.  A function
   template's own arguments may be spelled otherwise in FULL (within std,
   without `std::'): then its name up to them, where a word starts.  */
static char *
name_start (char *full, char *scoped)
{
  if (char *start = strstr (full, scoped))
    return start;
  char *arguments = strchr (scoped, '<');
  if (!arguments)
    return NULL;
  *arguments = '\0';
  size_t length = strlen (scoped);
  for (char *at = strstr (full, scoped); at; at = strstr (at + 1, scoped))
    if ((at == full || at[-1] == ' ') && at[length] == '<')
      return at;
  return NULL;
}

/* DECL's name for a reader, in the heap.  */
static char *
readable_name (tree decl)
{
  const char *plain = IDENTIFIER_POINTER (DECL_NAME (decl));
  /* Instances print with their arguments, not as their template with
     `[with T = double]'.  */
  int pretty = flag_pretty_templates;
  flag_pretty_templates = 0;
  char *full = xstrdup (lang_hooks.decl_printable_name (decl, 2));
  char *scoped = concat (lang_hooks.decl_printable_name (decl, 1), "(",
			 NULL);
  flag_pretty_templates = pretty;
  /* The return type and `virtual' or `static' come before the scoped
     name and its parameter list.  */
  if (strcmp (full, plain) != 0)
    if (char *start = name_start (full, scoped))
      erase (full, start - full);
  free (scoped);
  shorten_standard_names (full, in_namespace_std (decl));
  return full;
}

const char *
callee_display_name (tree decl)
{
  static char *name;
  free (name);
  name = xstrdup (lang_hooks.decl_printable_name (decl, 1));
  shorten_standard_names (name, in_namespace_std (decl));
  return name;
}

/* The symbol of DECL, without the `*' that marks a name given by asm.  */
static const char *
symbol_name (tree decl)
{
  const char *symbol = IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (decl));
  return symbol[0] == '*' ? symbol + 1 : symbol;
}

/* The names of the last function asked about: a function's sites are
   registered together.  */
static tree named_decl;
static const char *named_name;
static const char *named_symbol;

static void
name_function (tree decl)
{
  if (decl == named_decl)
    return;
  named_decl = decl;
  named_name = readable_name (decl);
  const char *symbol = symbol_name (decl);
  named_symbol = strcmp (symbol, named_name) == 0 ? NULL : xstrdup (symbol);
}

const char *
function_display_name (tree decl)
{
  name_function (decl);
  return named_name;
}

const char *
function_symbol (tree decl)
{
  name_function (decl);
  return named_symbol;
}
