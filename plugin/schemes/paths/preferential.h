/* sampler.so: preferential path numbering for the paths scheme
   (Vaswani, Nori and Chilimbi, "Preferential Path Profiling: Compactly
   Numbering Interesting Paths", POPL 2007).
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).

   The interesting-paths file (paths-interesting=FILE, docs/paths.md
   "Preferential numbering") and the numbering that gives a set of a DAG's
   paths the compact numbers 0 .. range-1.  */
#ifndef SAMPLER_PPP_H
#define SAMPLER_PPP_H

#include "sampler-plugin.h"

/* One decision of a written path: a branch's line and how it left
   ('t'rue, 'f'alse, 's'witch to the arm whose first line is TO_LINE), or
   the exit's line ('x').  */
struct interesting_step
{
  int line;
  char how;
  int to_line;
};

/* One entry of the file: a path (its region's first line and its
   decisions), or every path through a line.  */
struct interesting_entry
{
  char *function, *file;
  unsigned long where;		/* Its line in the file.  */
  bool through_line;
  int line;			/* THROUGH_LINE: the line.  */
  int from_line;		/* Else: the region's first line, */
  int from_index;		/* and which of the regions starting there
				   (from 1; 0: any).  */
  vec<interesting_step> steps;
};

/* Reads PATH strictly (each error names PATH:LINE); false after
   reporting them.  */
bool load_interesting_paths (const char *path);

/* The entries for FUNCTION of source file FILE (an entry's file matches
   FILE itself or its last components).  */
void interesting_entries_for (const char *function, const char *file,
			      vec<const interesting_entry *> &out);

/* The file the entries came from, for messages (NULL: none given).  */
const char *interesting_paths_file (void);

/* Preferential numbering: EDGE_FROM[i] is the node edge I leaves; PATHS
   are distinct paths from the DAG's root to its sink as edge indices.
   Sets VALUES (one per edge; 0 on edges no path takes) so that the sum
   along each path, IDS[p], is unique among PATHS, and returns the range,
   1 + the greatest id.  N_NODES bounds the node numbers.  */
unsigned long long ppp_number (unsigned n_nodes, const vec<int> &edge_from,
			       const vec<int> &edge_to,
			       const vec<vec<unsigned> > &paths,
			       vec<unsigned long long> &values,
			       vec<unsigned long long> &ids);

#endif
