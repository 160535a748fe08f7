/* sampler.so: what the files of the paths scheme share.
   Copyright (C) 2026 the sampler authors.  GPL-3.0-or-later (see COPYING).

   The scheme's files, in the order the transformation uses them:
     paths.cc		the site, the path register of the slow copy and
			the sample call: the scheme's hooks;
     region-cutting.cc	counts each block's paths to its region's exits
			and cuts regions with too many (path-limit checks);
     ball-larus.cc	numbers the paths of a function's regions (Ball and
			Larus, MICRO 1996), the increments on a maximum
			spanning tree's chords;
     interesting-paths.cc  the interesting-paths file and the DAG's paths
			that its entries name;
     preferential.cc	numbers those paths compactly (Vaswani, Nori and
			Chilimbi, POPL 2007);
     path-table.cc	the path table that decodes a number, and the
			dump.  */
#ifndef SAMPLER_PATHS_H
#define SAMPLER_PATHS_H

#include "schemes.h"
#include "transform.h"

typedef unsigned long long path_count;
static const path_count MANY_PATHS = ~(path_count) 0;

static inline path_count
add_saturating (path_count a, path_count b)
{
  return a > MANY_PATHS - b ? MANY_PATHS : a + b;
}

/* Region cutting (region-cutting.cc).  Whether E leaves its region (a
   check's edge, or into a region end); the paths from each block of ORDER
   (successors first) to its region's exits, by block index, an exit edge
   one path; the scheme's region_prepare hook.  */
bool exit_edge_p (function_state *st, edge e);
void count_paths (function_state *st, const vec<basic_block> &order,
		  vec<path_count> &paths);
bool paths_prepare (function_state *st, region_view &view);

/* An edge of the DAG: between two blocks of the regions (E), from the
   virtual root to a region's entry (ENTRY), from an exit marker's block
   to the virtual sink (EXIT), or the sink's edge back to the root.  */
struct dag_edge
{
  int from, to;			/* Block indices; root and sink below.  */
  path_count val;		/* Ball-Larus value.  */
  gcov_type weight;		/* For the spanning tree.  */
  edge e;
  basic_block entry;
  gimple *exit;
  path_count preferred;		/* Preferential value (preferential.cc).  */
};

/* The root and sink: the indices of the entry and exit blocks, which no
   region holds.  */
static const int ROOT = ENTRY_BLOCK;
static const int SINK = EXIT_BLOCK;

/* The DAG of the current function's regions, taken together: a virtual
   root before every region's entry, a virtual sink after every exit
   (ball-larus.cc).  */
struct path_dag
{
  auto_vec<basic_block> order;	/* The regions' blocks, successors first.  */
  auto_vec<basic_block> entries; /* The regions' entries.  */
  auto_vec<path_count> paths;	/* By block index: paths to the exits.  */
  auto_vec<dag_edge> edges;	/* The last one: the sink's back to the root.  */
  path_count total;		/* The regions' paths.  */
};

/* The scheme's region_number hook (ball-larus.cc).  */
void paths_number (function_state *st, region_view &view);

/* What the numbering leaves for the slow copy and the sample calls of the
   current function (ball-larus.cc; paths.cc): the increments of the
   chords, in the DAG's order, and of the region entries, Ball-Larus and
   preferential; each
   exit marker's value is its index in EXIT_INCREMENTS; the path counters
   are an array (COUNTED_IN_ARRAY) or a hash table; the table of the
   interesting paths' Ball-Larus numbers (PREFERRED_TABLE, NULL without
   preferential numbering); the registers, made in the slow copy.  */
struct chord_increment
{
  edge e;
  path_count inc, preferred;
};
extern auto_vec<chord_increment> chord_increments;
extern hash_map<basic_block, path_count> *entry_increments;
extern hash_map<basic_block, path_count> *preferred_entry_increments;
extern auto_vec<std::pair<path_count, path_count> > exit_increments;
extern bool counted_in_array;
extern tree preferred_table;
extern tree path_register;
extern tree preferred_register;

/* The interesting-paths file (interesting-paths.cc; docs/paths.md,
   "Preferential numbering").  One decision of a written path: a branch's
   line and how it left ('t'rue, 'f'alse, 's'witch to the arm whose first
   line is TO_LINE), or the exit's line ('x').  */
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

/* The entries for FUNCTION of source file FILE (an entry's file matches
   FILE itself or its last components).  */
void interesting_entries_for (const char *function, const char *file,
			      vec<const interesting_entry *> &out);

/* The file the entries came from, for messages (NULL: none given).  */
const char *interesting_paths_file (void);

/* The paths of the current function that its entries name, as DAG edge
   indices from the root edge to the exit's, distinct; FUNCTION and FILE
   name it.  */
void match_interesting (const vec<dag_edge> &edges, const char *function,
			const char *file, vec<vec<unsigned> > &paths);

/* Preferential numbering (preferential.cc) of the current function's
   interesting paths: INTERESTING, the paths as DAG edge indices; IDS,
   their numbers; KEYS, per number, the Ball-Larus number + 1 of the
   interesting path it is, or 0; RANGE, 1 + the greatest number; CAPACITY,
   the pairs of the function's counters; TABLE, the table of KEYS the
   runtime reads, when the function's paths do not all fit its pairs but
   the interesting ones do (else NULL).  */
struct preferred_numbering
{
  auto_vec<vec<unsigned> > interesting;
  auto_vec<unsigned long long> ids;
  auto_vec<path_count> keys;
  path_count range;
  unsigned capacity;
  tree table;
  ~preferred_numbering ()
  {
    for (vec<unsigned> &path : interesting)
      path.release ();
  }
};

/* Gives DAG's edges their preferential values (dag_edge::preferred) and
   fills PREF, for the function whose site is VIEW's.  */
void number_preferentially (path_dag &dag, const region_view &view,
			    preferred_numbering &pref);

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

/* The paths whose preferential number is an interesting path's but whose
   Ball-Larus number is not (for the dump).  */
path_count count_aliases (const vec<dag_edge> &edges,
			  const vec<path_count> &keys);

/* The path table (path-table.cc): the current function's, from its
   numbered DAG (the site VIEW.site); what dump=FILE says of the
   numbering; and the unit's table, at its end (the finish_unit hook).  */
void write_function_path_table (const region_view &view,
				const path_dag &dag);
void dump_path_numbering (const path_dag &dag,
			  const preferred_numbering &pref, unsigned chords);
void paths_finish_unit (void);
/* For the table and the matching of interesting paths: the first and
   last line of BB's statements in the function's file (markers aside),
   or 0 and 0; how E leaves its block ("true", "false", "switch", "-");
   the line of STMT in the function's file (for a statement inlined from
   another file, the line of the call), or 0.  */
void block_lines (basic_block bb, int *first, int *last);
const char *edge_how (edge e);
int stmt_line (gimple *stmt);

#endif
