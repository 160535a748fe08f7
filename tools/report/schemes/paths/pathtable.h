/* Path profiles of the paths scheme (merge kind PATH_TABLE): a function's
   slots as the runtime keeps them (runtime/schemes/paths.c), combined
   path by path, and its path table (the section .debug_sampler_paths),
   which decodes a path's number into its blocks, lines and branches
   (docs/paths.md).  */
#ifndef SAMPLER_REPORT_PATHTABLE_H
#define SAMPLER_REPORT_PATHTABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "input/site-table.h"
#include "support/util.h"

/* A paths site's slots: sampled traversals, lost ones, then (path + 1,
   count) pairs (0: free).  */
enum { PATH_SLOT_SAMPLED, PATH_SLOT_LOST, PATH_SLOT_PAIRS };

/* The number of (path, count) pairs of a paths site.  */
unsigned path_table_capacity(const struct site *site);

/* Adds the slots FROM to TOTAL, both of CAPACITY pairs: path by path, a
   path that TOTAL has no pair for taking a free one, or counting as lost
   when none is free.  */
void path_slots_merge(unsigned long long *total, const unsigned long long *from,
                      unsigned capacity);

/* The path table of one function (one `paths' group).  */
struct path_region {
    long entry;                   /* block */
    unsigned long long first, n_paths;
    long line;
};
struct path_block {
    long id, first_line, last_line;
};
/* An edge between blocks, or an exit (to -1).  */
struct path_edge {
    long from, to;
    unsigned long long value;
    char how[8];                  /* true, false, switch, - (exit: "exit") */
    long line;
};
struct path_function {
    char *signature;
    unsigned site;
    char *function, *file;
    unsigned long long n_paths;
    bool in_array;
    struct path_region *regions;
    size_t n_regions;
    struct path_block *blocks;
    size_t n_blocks;
    struct path_edge *edges;
    size_t n_edges;
};

struct path_catalog {
    struct path_function *functions;
    size_t n_functions, capacity;
};

void path_catalog_free(struct path_catalog *catalog);

/* Reads the path tables in TEXT (LENGTH bytes; NAME for messages), the
   contents of .debug_sampler_paths or of a site-table file (whose other
   records are skipped), strictly.  */
bool path_catalog_read_text(struct path_catalog *catalog, const char *text, size_t length,
                            const char *name, struct diag *d);

const struct path_function *path_catalog_find(const struct path_catalog *catalog,
                                              const char *signature, unsigned site);

/* One step of a decoded path.  */
struct path_step {
    long block;
    long first_line, last_line;
    const char *how;              /* how it left the block: true, false, switch, -, exit */
    long line;                    /* the line of the branch or exit */
};

/* Decodes PATH of FN into at most MAX_STEPS steps (STEPS; *N_STEPS),
   *REGION_LINE the line of its region's entry.  False, with an error in
   D, when the number is not one of FN's paths.  */
bool path_decode(const struct path_function *fn, unsigned long long path,
                 struct path_step *steps, size_t max_steps, size_t *n_steps,
                 long *region_line, struct diag *d);

#endif
