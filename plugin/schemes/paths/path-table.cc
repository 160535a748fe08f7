/* sampler.so: the paths scheme's path table, which decodes a path's
   number, and what dump=FILE says of the numbering.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).

   What.  The path table (.debug_sampler_paths, and site-table=FILE) says,
   for each function, how to decode a number into its blocks, lines and
   branch directions: a `paths' line (the site, the function, its file,
   its paths, array or hash), then its regions, blocks, edges and exits
   with their Ball-Larus values, and `end'; the unit's table is framed by
   `pathunit SIGNATURE' and `pathunitend'.  sampler-report reads it
   (docs/paths.md).

   How to debug: site-table=FILE appends the path table to the site
   table; `objdump -s -j .debug_sampler_paths' shows it in an object.  */

#include "paths.h"

#include <string.h>

#include "function.h"
#include "basic-block.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "tree-cfg.h"
#include "diagnostic-core.h"
#include "output.h"

/* The unit's path table, text, emitted at the end of the unit.  */
static auto_vec<char> path_table;

static void
table_text (const char *text)
{
  append_escaped (path_table, text);
}

/* A line of the path table: FORMAT's fields are separated by tabs
   already; its conversions are %s, %d, %u and %L (unsigned long long),
   whose text is escaped.  */
static void
table_line (const char *format, ...)
{
  va_list ap;
  va_start (ap, format);
  for (const char *p = format; *p; p++)
    {
      if (*p != '%')
	{
	  path_table.safe_push (*p);
	  continue;
	}
      p++;
      char buf[48];
      if (*p == 's')
	table_text (va_arg (ap, const char *));
      else if (*p == 'd')
	{
	  snprintf (buf, sizeof buf, "%d", va_arg (ap, int));
	  table_text (buf);
	}
      else if (*p == 'u')
	{
	  snprintf (buf, sizeof buf, "%u", va_arg (ap, unsigned));
	  table_text (buf);
	}
      else if (*p == 'L')
	{
	  snprintf (buf, sizeof buf, "%llu", va_arg (ap, unsigned long long));
	  table_text (buf);
	}
      else
	gcc_unreachable ();
    }
  va_end (ap);
  path_table.safe_push ('\n');
}

/* The first and last line of BB's statements in the function's file
   (markers aside), or 0 and 0.  */
void
block_lines (basic_block bb, int *first, int *last)
{
  *first = *last = 0;
  const char *file = LOCATION_FILE (DECL_SOURCE_LOCATION
				    (current_function_decl));
  for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
       gsi_next (&gsi))
    {
      gimple *stmt = gsi_stmt (gsi);
      /* A marker has its site's line (a switch's arm: the switch's).  */
      if (is_gimple_debug (stmt) || is_site_marker (stmt)
	  || gimple_location (stmt) == UNKNOWN_LOCATION)
	continue;
      expanded_location x = expand_location (gimple_location (stmt));
      if (!x.file || !file || strcmp (x.file, file) != 0 || x.line <= 0)
	continue;
      if (!*first || x.line < *first)
	*first = x.line;
      if (x.line > *last)
	*last = x.line;
    }
}

/* How E leaves its block: a conditional's true or false side, a switch's
   arm, or the only way.  */
const char *
edge_how (edge e)
{
  gimple *last = last_stmt (e->src);
  if (last && gimple_code (last) == GIMPLE_COND)
    return (e->flags & EDGE_TRUE_VALUE) ? "true" : "false";
  if (last && gimple_code (last) == GIMPLE_SWITCH)
    return "switch";
  return "-";
}

/* The line of STMT in the function's file: for a statement of a function
   inlined from another file (a header's getchar), the line of the call
   it was inlined at; 0 when there is none.  */
int
stmt_line (gimple *stmt)
{
  if (!stmt)
    return 0;
  const char *file = LOCATION_FILE (DECL_SOURCE_LOCATION
				    (current_function_decl));
  location_t loc = gimple_location (stmt);
  tree block = gimple_block (stmt);
  for (;;)
    {
      if (loc != UNKNOWN_LOCATION)
	{
	  expanded_location x = expand_location (loc);
	  if (x.file && file && strcmp (x.file, file) == 0 && x.line > 0)
	    return x.line;
	}
      while (block && TREE_CODE (block) == BLOCK
	     && !inlined_function_outer_scope_p (block))
	block = BLOCK_SUPERCONTEXT (block);
      if (!block || TREE_CODE (block) != BLOCK)
	return 0;
      loc = BLOCK_SOURCE_LOCATION (block);
      block = BLOCK_SUPERCONTEXT (block);
    }
}

void
write_function_path_table (const region_view &view, const path_dag &dag)
{
  const site_info &site = unit_sites[view.site];
  expanded_location fx = expand_location (site.loc);
  table_line ("paths\t%u\t%s\t%s\t%L\t%s", view.site,
	      site.function_name,
	      fx.file ? fx.file : "?", dag.total,
	      counted_in_array ? "array" : "hash");
  for (basic_block entry : dag.entries)
    {
      path_count first = 0;
      for (const dag_edge &d : dag.edges)
	if (d.entry == entry)
	  first = d.val;
      int line_first, line_last;
      block_lines (entry, &line_first, &line_last);
      table_line ("region\t%d\t%L\t%L\t%d", entry->index, first,
		  dag.paths[entry->index], line_first);
    }
  for (basic_block bb : dag.order)
    {
      if (!dag.paths[bb->index])
	continue;
      int line_first, line_last;
      block_lines (bb, &line_first, &line_last);
      table_line ("block\t%d\t%d\t%d", bb->index, line_first, line_last);
    }
  for (const dag_edge &d : dag.edges)
    {
      if (d.e)
	table_line ("edge\t%d\t%d\t%L\t%s\t%d", d.from, d.to, d.val,
		    edge_how (d.e), stmt_line (last_stmt (d.e->src)));
      else if (d.exit)
	table_line ("exit\t%d\t%L\t%d", d.from, d.val, stmt_line (d.exit));
    }
  table_line ("end");
}

/* The paths of a function with at most this many have their aliases
   counted for the dump.  */
static const path_count ALIAS_COUNT_MOST = 100000;

void
dump_path_numbering (const path_dag &dag, const preferred_numbering &pref,
		     unsigned chords)
{
  FILE *f = open_sampler_dump ();
  if (!f)
    return;
  fprintf (f, "paths %s: %llu paths in %u regions, %u chords, %s\n",
	   function_name (cfun), dag.total, dag.entries.length (), chords,
	   counted_in_array ? "array" : "hash table");
  /* Compactness: the numbers the interesting paths need, per path
     (Vaswani et al. 2007).  */
  const vec<vec<unsigned> > &interesting = pref.interesting;
  if (!interesting.is_empty ())
    fprintf (f, "  preferred: %u interesting paths, numbers 0..%llu, "
	     "compactness %.3f, %u pairs, %s\n", interesting.length (),
	     pref.range - 1, (double) pref.range / interesting.length (),
	     pref.capacity, pref.table ? "array"
	     : dag.total <= pref.capacity ? "not used: every path has its pair"
	     : "too wide: hash table");
  for (unsigned p = 0; p < interesting.length (); p++)
    fprintf (f, "  preferred %llu: path %llu\n", pref.ids[p],
	     pref.keys[pref.ids[p]] - 1);
  if (!interesting.is_empty () && dag.total <= ALIAS_COUNT_MOST)
    fprintf (f, "  preferred aliases: %llu other paths share an "
	     "interesting path's number\n", count_aliases (dag.edges, pref.keys));
  for (basic_block entry : dag.entries)
    fprintf (f, "  region line %d: %llu paths\n",
	     stmt_line (first_stmt (entry)) ? stmt_line (first_stmt (entry))
	     : LOCATION_LINE (first_location (entry)),
	     dag.paths[entry->index]);
  fclose (f);
}



/* The path table: a head line naming the unit, each function's table,
   and an end line.  */
void
paths_finish_unit (void)
{
  if (path_table.is_empty () || seen_error () || !unit_signature[0])
    return;
  auto_vec<char> text;
  char head[128];
  snprintf (head, sizeof head, "pathunit\t%s\n", unit_signature);
  for (const char *p = head; *p; p++)
    text.safe_push (*p);
  text.safe_splice (path_table);
  for (const char *p = "pathunitend\n"; *p; p++)
    text.safe_push (*p);
  emit_text_section (SAMPLER_PATH_SECTION, text.address (), text.length ());
  if (sampler_opts.site_table_file)
    {
      FILE *out = fopen (sampler_opts.site_table_file, "a");
      if (!out || fwrite (text.address (), 1, text.length (), out)
		     != text.length ()
	  || fclose (out) != 0)
	error ("sampler: cannot write the path table to %qs: %m",
	       sampler_opts.site_table_file);
    }
  /* Written once: with -flto the unit ends before it is streamed
     (finish_schemes), and again at PLUGIN_FINISH_UNIT.  */
  path_table.truncate (0);
}
