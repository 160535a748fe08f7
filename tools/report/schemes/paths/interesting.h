/* The interesting-paths file (docs/paths.md, "Preferential numbering"):
   paths spelled so that the plugin's paths-interesting=FILE can find them
   again in a rebuild of the same source.  */
#ifndef SAMPLER_REPORT_INTERESTING_H
#define SAMPLER_REPORT_INTERESTING_H
#include <stdbool.h>
#include <stdio.h>
#include "schemes/paths/pathtable.h"
#include "support/util.h"

/* The first line of the file, and the version this tool writes.  */
#define INTERESTING_HEADER "sampler-interesting-paths"
#define INTERESTING_VERSION 1

/* Writes the header and a comment saying where the paths came from.  */
bool interesting_begin(FILE *out, const char *origin, struct diag *d);
/* One `path' line: PATH of FN (function FUNCTION of source FILE) as its
   region's first line, its branches' lines and directions and its
   exit's line.  */
bool interesting_write_path(FILE *out, const char *function, const char *file,
                            const struct path_function *fn, unsigned long long path,
                            struct diag *d);
#endif
