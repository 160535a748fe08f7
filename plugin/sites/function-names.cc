/* sampler.so: the names the site table gives a function: the name a
   reader knows it by, and its symbol when that differs.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).

   For C the name is DECL_NAME, which is also the symbol: the table is
   what it always was.  For C++ it is the front end's printable name
   (lang_hooks.decl_printable_name, verbosity 2: scope and signature),
   with the template arguments an instance was made with rather than
   `[with T = ...]', without its return type, and with the standard
   library's spellings shortened as a reader writes them:
   `std::vector<int>::push_back(const value_type&)',
   `clampv<double>(double, double, double)'.  The symbol
   (DECL_ASSEMBLER_NAME, `_ZN3geo2Sq4areaEv') stays in the table beside
   it for tools that key on symbols.

   With -flto the front end's data is gone before the sites pass
   (free_lang_data) and the printable name is DECL_NAME: C++ names are
   then unqualified, with the symbol beside them.  */

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

/* Replaces each FROM in TEXT by TO, which is not longer.  */
static void
replace_all (char *text, const char *from, const char *to)
{
  size_t from_length = strlen (from), to_length = strlen (to);
  for (char *at = strstr (text, from); at; at = strstr (at + to_length, from))
    {
      memcpy (at, to, to_length);
      erase (at + to_length, from_length - to_length);
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

/* Removes every template argument `, NAME<...>' (a defaulted allocator,
   traits, comparison or deleter), with the space GCC puts before a
   closing `>' when that argument was last: `std::vector<int,
   std::allocator<int> >' is `std::vector<int>'.  */
static void
remove_default_arguments (char *text, const char *name)
{
  char argument[64];
  snprintf (argument, sizeof argument, ", %s<", name);
  size_t length = strlen (argument);
  for (char *at = strstr (text, argument); at; at = strstr (at, argument))
    {
      char *end = argument_list_end (at + length - 1);
      if (!end)
	return;
      if (end[0] == ' ' && end[1] == '>')
	end++;
      erase (at, end - at);
    }
}

/* The standard library's names as a reader writes them.  */
static void
shorten_standard_names (char *name)
{
  replace_all (name, "std::__cxx11::", "std::");  /* the ABI's namespace */
  static const char *const defaulted[] = {
    "std::allocator", "std::char_traits", "std::less", "std::equal_to",
    "std::hash", "std::default_delete"
  };
  for (const char *argument : defaulted)
    remove_default_arguments (name, argument);
  static const struct { const char *from, *to; } aliases[] = {
    { "std::basic_string<char>", "std::string" },
    { "std::basic_string_view<char>", "std::string_view" },
    { "std::basic_ostream<char>", "std::ostream" },
    { "std::basic_istream<char>", "std::istream" }
  };
  for (const auto &alias : aliases)
    replace_all (name, alias.from, alias.to);
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
    if (char *start = strstr (full, scoped))
      erase (full, start - full);
  free (scoped);
  shorten_standard_names (full);
  return full;
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
