/* sampler.so: the plugin's arguments, -fplugin-arg-sampler-KEY[=VALUE].
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).

   What.  The table of arguments, plugin/arguments.def, says each key's
   kind, range, default and help; parse_arguments reads the command line
   strictly with it (every bad argument is an error naming the argument
   and what it accepts), then reads the files the arguments name (rates,
   interesting paths); sampler_help renders the table as the help, or as
   docs/reference.md's markdown table (help=markdown).

   Why one table: the parser, the help, docs/reference.md and the bad-input test
   (testsuite/plugin/arguments/) cannot disagree.  */

#include "schemes.h"

#include <string.h>

#include "diagnostic-core.h"

struct sampler_options sampler_opts;

/* What an argument's value is: see plugin/arguments.def.  */
enum argument_kind
{
  ARG_SCHEMES,
  ARG_SCOPE,
  ARG_FUNCTIONS,
  ARG_FILE,
  ARG_NUMBER,
  ARG_POWER_OF_TWO,
  ARG_FLAG,
  ARG_CHOICE,
  ARG_HELP
};

/* The member of sampler_options an argument sets, and its type.  */
struct argument_field
{
  enum field_type { UNSIGNED, INT, BOOL, STRING, RULES } type;
  void *address;
  argument_field (unsigned &field) : type (UNSIGNED), address (&field) {}
  argument_field (int &field) : type (INT), address (&field) {}
  argument_field (bool &field) : type (BOOL), address (&field) {}
  argument_field (const char *&field) : type (STRING), address (&field) {}
  argument_field (vec<scope_rule> &field) : type (RULES), address (&field) {}
};

struct argument_spec
{
  const char *key;
  enum argument_kind kind;
  argument_field field;
  long min, max;
  const char *default_value;
  const char *value_name;
  const char *help;
};

static const argument_spec arguments[] = {
#define SAMPLER_ARGUMENT(KEY, KIND, FIELD, MIN, MAX, DEFAULT, VALUE, HELP) \
  { KEY, ARG_##KIND, argument_field (sampler_opts.FIELD), MIN, MAX, DEFAULT, \
    VALUE, HELP },
#include "arguments.def"
};

static const unsigned n_arguments = sizeof arguments / sizeof arguments[0];

/* Whether each argument was given on the command line.  */
static bool given[sizeof arguments / sizeof arguments[0]];

static const char *const scheme_names[SAMPLER_N_SCHEMES] = {
#define SAMPLER_SCHEME(ID, NAME, N_COUNTERS, COUNTERS, MERGE, TEXT) NAME,
#include "../runtime/schemes.def"
};

/* The word of schemes= that selects every scheme of the registry.  */
static const char all_schemes[] = "all";

const char *
scheme_name (enum sampler_scheme_id id)
{
  return scheme_names[id];
}

/* Text built piece by piece: the help, messages.  */
struct text_buffer
{
  auto_vec<char> chars;
  void add (const char *text, size_t length)
  {
    for (size_t i = 0; i < length; i++)
      chars.safe_push (text[i]);
  }
  void add (const char *text) { add (text, strlen (text)); }
  void add_number (long n)
  {
    char digits[32];
    snprintf (digits, sizeof digits, "%ld", n);
    add (digits);
  }
  /* A copy of the text, xmalloc'd.  */
  char *finish ()
  {
    chars.safe_push (0);
    return xstrdup (chars.address ());
  }
};

/* "checks, branches, ..., or all": what schemes= accepts, for messages;
   with MARKDOWN, each in backquotes.  */
static char *
scheme_list (bool markdown)
{
  text_buffer text;
  const char *quote = markdown ? "`" : "";
  for (unsigned i = 0; i < SAMPLER_N_SCHEMES; i++)
    {
      text.add (quote);
      text.add (scheme_names[i]);
      text.add (quote);
      text.add (", ");
    }
  text.add ("or ");
  text.add (quote);
  text.add (all_schemes);
  text.add (quote);
  return text.finish ();
}

/* What ARG accepts, for its error messages (xmalloc'd).  */
static char *
accepted_values (const argument_spec &arg)
{
  text_buffer text;
  switch (arg.kind)
    {
    case ARG_SCHEMES:
      {
	char *list = scheme_list (false);
	text.add ("a comma-separated list of: ");
	text.add (list);
	free (list);
	break;
      }
    case ARG_SCOPE:
      text.add ("a name or fnmatch pattern");
      break;
    case ARG_FUNCTIONS:
      text.add ("a comma-separated list of function names");
      break;
    case ARG_FILE:
      text.add ("a file name");
      break;
    case ARG_NUMBER:
      text.add ("a whole number from ");
      text.add_number (arg.min);
      text.add (" to ");
      text.add_number (arg.max);
      break;
    case ARG_POWER_OF_TWO:
      text.add ("a power of two from ");
      text.add_number (arg.min);
      text.add (" to ");
      text.add_number (arg.max);
      text.add (" (2^");
      text.add_number (exact_log2 (arg.min));
      text.add (" to 2^");
      text.add_number (exact_log2 (arg.max));
      text.add (")");
      break;
    case ARG_FLAG:
      text.add ("no value, 1 or 0");
      break;
    case ARG_CHOICE:
      /* "a or b", "a, b or c".  */
      for (const char *word = arg.value_name; *word;)
	{
	  const char *bar = strchr (word, '|');
	  size_t length = bar ? (size_t) (bar - word) : strlen (word);
	  text.add (word, length);
	  if (!bar)
	    break;
	  word = bar + 1;
	  text.add (strchr (word, '|') ? ", " : " or ");
	}
      break;
    case ARG_HELP:
      text.add ("no value or markdown");
      break;
    }
  return text.finish ();
}

/* Complains that ARG's VALUE is bad, or that ARG needs one.  */
static void
bad_value (const argument_spec &arg, const char *value)
{
  char *accepted = accepted_values (arg);
  if (value)
    error ("sampler: bad value %<%s%> in %<-fplugin-arg-sampler-%s=%s%>; "
	   "accepted: %s", value, arg.key, value, accepted);
  else
    error ("sampler: %<-fplugin-arg-sampler-%s%> needs a value: %s",
	   arg.key, accepted);
  free (accepted);
}

/* Parses a comma-separated list of scheme names into *BITS.  Returns false,
   after an error naming the bad item, if any name is unknown.  */
static bool
parse_schemes (const char *value, unsigned *bits)
{
  *bits = 0;
  const char *p = value;
  while (true)
    {
      const char *end = strchr (p, ',');
      size_t len = end ? (size_t) (end - p) : strlen (p);
      bool known = false;
      for (unsigned i = 0; i < SAMPLER_N_SCHEMES; i++)
	if (strlen (scheme_names[i]) == len
	    && strncmp (scheme_names[i], p, len) == 0)
	  {
	    *bits |= SCHEME_BIT (i);
	    known = true;
	  }
      if (len == strlen (all_schemes) && strncmp (all_schemes, p, len) == 0)
	{
	  *bits |= SCHEME_BIT (SAMPLER_N_SCHEMES) - 1;
	  known = true;
	}
      if (!known)
	{
	  char *list = scheme_list (false);
	  error ("sampler: unknown scheme %<%.*s%> in "
		 "%<-fplugin-arg-sampler-schemes=%s%>; accepted schemes: %s",
		 (int) len, p, value, list);
	  free (list);
	  return false;
	}
      if (!end)
	return true;
      p = end + 1;
    }
}

/* TEXT, all decimal digits, as a number up to LIMIT (or LIMIT + 1 when
   greater); -1 if TEXT is not such a number.  */
static long
decimal_number (const char *text, long limit)
{
  if (!ISDIGIT (*text))
    return -1;
  long n = 0;
  for (const char *p = text; *p; p++)
    {
      if (!ISDIGIT (*p))
	return -1;
      n = MIN (n * 10 + (*p - '0'), limit + 1);
    }
  return n;
}

/* VALUE as ARG's number (NUMBER, POWER_OF_TWO; for the latter, the
   exponent), or -1 when it is none of those ARG accepts.  */
static long
argument_number (const argument_spec &arg, const char *value)
{
  if (!value)
    return -1;
  if (arg.kind == ARG_NUMBER)
    {
      long n = decimal_number (value, arg.max);
      return n >= arg.min && n <= arg.max ? n : -1;
    }
  /* 2^N or its value.  */
  long n;
  if (value[0] == '2' && value[1] == '^')
    {
      long exponent = decimal_number (value + 2, 62);
      n = exponent >= 0 && exponent <= 62 ? 1L << exponent : -1;
    }
  else
    n = decimal_number (value, arg.max);
  if (n < arg.min || n > arg.max || (n & (n - 1)) != 0)
    return -1;
  return exact_log2 (n);
}

/* Sets ARG's field to N.  */
static void
set_number (const argument_spec &arg, long n)
{
  switch (arg.field.type)
    {
    case argument_field::UNSIGNED:
      *(unsigned *) arg.field.address = (unsigned) n;
      break;
    case argument_field::INT:
      *(int *) arg.field.address = (int) n;
      break;
    case argument_field::BOOL:
      *(bool *) arg.field.address = n != 0;
      break;
    default:
      gcc_unreachable ();
    }
}

/* The index of VALUE among the words of ARG's VALUE_NAME, or -1.  */
static long
choice_index (const argument_spec &arg, const char *value)
{
  if (!value)
    return -1;
  long index = 0;
  for (const char *word = arg.value_name;; index++)
    {
      const char *bar = strchr (word, '|');
      size_t length = bar ? (size_t) (bar - word) : strlen (word);
      if (strlen (value) == length && strncmp (word, value, length) == 0)
	return index;
      if (!bar)
	return -1;
      word = bar + 1;
    }
}

/* Sets ARG's field from VALUE (NULL: no value).  False after an error
   that names the argument and what it accepts.  */
static bool
parse_argument (const argument_spec &arg, const char *value)
{
  switch (arg.kind)
    {
    case ARG_SCHEMES:
      if (!value || !*value)
	break;
      return parse_schemes (value, (unsigned *) arg.field.address);
    case ARG_SCOPE:
      if (!value || !*value)
	break;
      {
	scope_rule rule = { strncmp (arg.key, "include", 7) == 0,
			    strstr (arg.key, "file") != NULL, value };
	((vec<scope_rule> *) arg.field.address)->safe_push (rule);
      }
      return true;
    case ARG_FUNCTIONS:
    case ARG_FILE:
      if (!value || !*value)
	break;
      *(const char **) arg.field.address = value;
      return true;
    case ARG_NUMBER:
    case ARG_POWER_OF_TWO:
      {
	long n = argument_number (arg, value);
	if (n < 0)
	  break;
	set_number (arg, n);
	return true;
      }
    case ARG_FLAG:
      if (value && strcmp (value, "1") != 0 && strcmp (value, "0") != 0)
	break;
      set_number (arg, !value || strcmp (value, "1") == 0);
      return true;
    case ARG_CHOICE:
      {
	long index = choice_index (arg, value);
	if (index < 0)
	  break;
	set_number (arg, index);
	return true;
      }
    case ARG_HELP:
      if (value && strcmp (value, "markdown") != 0)
	break;
      *(const char **) arg.field.address = value ? value : "text";
      return true;
    }
  bad_value (arg, value);
  return false;
}

/* The field types each kind of argument may set: a check of the table,
   at the first parse.  */
static bool
field_fits_kind (const argument_spec &arg)
{
  switch (arg.kind)
    {
    case ARG_SCHEMES:
    case ARG_POWER_OF_TWO:
      return arg.field.type == argument_field::UNSIGNED;
    case ARG_SCOPE:
      return arg.field.type == argument_field::RULES;
    case ARG_FUNCTIONS:
    case ARG_FILE:
    case ARG_HELP:
      return arg.field.type == argument_field::STRING;
    case ARG_NUMBER:
      return (arg.field.type == argument_field::UNSIGNED
	      || arg.field.type == argument_field::INT);
    case ARG_FLAG:
      return arg.field.type == argument_field::BOOL;
    case ARG_CHOICE:
      {
	/* A flag has two choices.  */
	const char *bar = strchr (arg.value_name, '|');
	if (arg.field.type == argument_field::BOOL)
	  return bar && !strchr (bar + 1, '|');
	return arg.field.type == argument_field::UNSIGNED;
      }
    }
  return false;
}

static const argument_spec *
find_argument (const char *key)
{
  for (const argument_spec &arg : arguments)
    if (strcmp (arg.key, key) == 0)
      return &arg;
  return NULL;
}

/* Whether the argument KEY was given.  */
static bool
argument_given (const char *key)
{
  return given[find_argument (key) - arguments];
}

/* "schemes, include-function, ...": every key, for messages.  */
static char *
key_list (void)
{
  text_buffer text;
  for (const argument_spec &arg : arguments)
    {
      if (&arg != arguments)
	text.add (", ");
      text.add (arg.key);
    }
  return text.finish ();
}

/* What the arguments mean together, and the files they name: false after
   reporting an error.  */
static bool
finish_arguments (void)
{
  if (sampler_opts.paths_interesting
      && !load_interesting_paths (sampler_opts.paths_interesting))
    return false;
  if (!sampler_opts.rates_file)
    return true;
  /* A pair's own visits count one by one in the runtime: weights there
     would need the runtime to know them.  */
  if (sampler_opts.pairs_per_pair)
    {
      error ("sampler: %<-fplugin-arg-sampler-rates%> needs "
	     "%<pairs-sites=assignment%> (the default)");
      return false;
    }
  if (!load_rates (sampler_opts.rates_file))
    return false;
  /* A site trained to be sampled at (nearly) every visit weighs about
     sparsity times the mean countdown: a region that merely passes by it
     would fail its check at almost every entry.  So with rates regions
     are limited by default (to visits of default weight), and such a site
     starts a region of its own.  */
  if (!argument_given ("region-limit"))
    sampler_opts.region_limit = 64;
  /* The limits count visits of default weight.  */
  sampler_opts.pad_limit *= sampler_opts.countdown_unit;
  sampler_opts.region_limit *= sampler_opts.countdown_unit;
  return true;
}

bool
parse_arguments (struct plugin_name_args *info)
{
  /* Not an argument: a rates file may change it.  */
  sampler_opts.countdown_unit = 1;
  for (const argument_spec &arg : arguments)
    {
      gcc_assert (field_fits_kind (arg));
      if (arg.default_value && !parse_argument (arg, arg.default_value))
	gcc_unreachable ();
    }
  bool ok = true;
  for (int i = 0; i < info->argc; i++)
    {
      const char *key = info->argv[i].key;
      const char *value = info->argv[i].value;
      const argument_spec *arg = find_argument (key);
      if (!arg)
	{
	  char *keys = key_list ();
	  error ("sampler: unknown argument %<-fplugin-arg-sampler-%s%>; "
		 "accepted: %s", key, keys);
	  free (keys);
	  ok = false;
	  continue;
	}
      given[arg - arguments] = true;
      ok &= parse_argument (*arg, value);
    }
  if (sampler_opts.help)
    {
      char *help = sampler_help (strcmp (sampler_opts.help, "markdown") == 0);
      fputs (help, stderr);
      free (help);
    }
  return ok && finish_arguments ();
}

/* ---------------------------------------------------------------------
   The help, and docs/reference.md's table.  */

/* ARG as the help names it: KEY, KEY=VALUE or KEY[=VALUE] (for the
   README, in backquotes, with `|' escaped).  */
static void
add_key (text_buffer &text, const argument_spec &arg, bool markdown)
{
  if (markdown)
    text.add ("`");
  text.add (arg.key);
  bool optional = arg.kind == ARG_FLAG || arg.kind == ARG_HELP;
  text.add (optional ? "[=" : "=");
  for (const char *c = arg.value_name; *c; c++)
    text.add (markdown && *c == '|' ? "\\|" : c, markdown && *c == '|' ? 2 : 1);
  if (optional)
    text.add ("]");
  if (markdown)
    text.add ("`");
}

/* ARG's help, its accepted values and its default (see arguments.def);
   without MARKDOWN, without backquotes.  */
static void
add_meaning (text_buffer &text, const argument_spec &arg, bool markdown)
{
  auto add_text = [&] (const char *part)
    {
      for (const char *c = part; *c; c++)
	if (*c == '|' && markdown)
	  text.add ("\\|");
	else if (*c != '`' || markdown)
	  text.add (c, 1);
    };
  add_text (arg.help);
  if (arg.kind == ARG_SCHEMES)
    {
      char *list = scheme_list (markdown);
      text.add (": ");
      text.add (list);
      free (list);
    }
  bool range = arg.kind == ARG_NUMBER || arg.kind == ARG_POWER_OF_TWO;
  if (!range && !arg.default_value)
    return;
  text.add (" (");
  if (arg.kind == ARG_POWER_OF_TWO)
    text.add ("a power of two, ");
  if (range)
    {
      text.add_number (arg.min);
      text.add (" to ");
      text.add_number (arg.max);
    }
  if (arg.default_value)
    {
      text.add (range ? "; default " : "default ");
      bool number = decimal_number (arg.default_value, 1000000000) >= 0;
      add_text (markdown && !number ? "`" : "");
      add_text (arg.default_value);
      add_text (markdown && !number ? "`" : "");
    }
  text.add (")");
}

/* TEXT's words in lines of at most 79 columns, each indented by
   INDENT.  */
static void
add_wrapped (text_buffer &out, const char *text, unsigned indent)
{
  unsigned column = 0;
  for (const char *p = text; *p;)
    {
      while (*p == ' ')
	p++;
      size_t length = strcspn (p, " ");
      if (!length)
	break;
      if (column && column + 1 + length > 79)
	{
	  out.add ("\n");
	  column = 0;
	}
      if (!column)
	{
	  for (unsigned i = 0; i < indent; i++)
	    out.add (" ");
	  column = indent;
	}
      else
	{
	  out.add (" ");
	  column++;
	}
      out.add (p, length);
      column += length;
      p += length;
    }
  out.add ("\n");
}

/* Whether argument I shares its help, and so its row, with the one
   before it.  */
static bool
same_row (unsigned i)
{
  return i > 0 && strcmp (arguments[i].help, arguments[i - 1].help) == 0;
}

char *
sampler_help (bool markdown)
{
  text_buffer text;
  if (markdown)
    text.add ("| argument | meaning |\n|---|---|\n");
  else
    text.add ("sampler: statistically fair sampled instrumentation.  "
	      "Arguments,\neach -fplugin-arg-sampler-KEY[=VALUE]:\n");
  for (unsigned i = 0; i < n_arguments; i++)
    {
      if (same_row (i))
	continue;
      text_buffer keys, meaning;
      for (unsigned j = i; j == i || (j < n_arguments && same_row (j)); j++)
	{
	  if (j > i)
	    keys.add (", ");
	  add_key (keys, arguments[j], markdown);
	}
      add_meaning (meaning, arguments[i], markdown);
      char *key_text = keys.finish ();
      char *meaning_text = meaning.finish ();
      if (markdown)
	{
	  text.add ("| ");
	  text.add (key_text);
	  text.add (" | ");
	  text.add (meaning_text);
	  text.add (" |\n");
	}
      else
	{
	  add_wrapped (text, key_text, 2);
	  add_wrapped (text, meaning_text, 6);
	}
      free (key_text);
      free (meaning_text);
    }
  return text.finish ();
}
