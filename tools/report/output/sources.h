/* Source files, read once each, for the pages that show source lines: a
   name from a site table is read as it is, then in each --source-dir
   directory as it is and by its last component.  */
#ifndef SAMPLER_REPORT_SOURCES_H
#define SAMPLER_REPORT_SOURCES_H

#include <stdbool.h>
#include <stddef.h>

#include "support/util.h"

/* Source files read so far, by the name the site table gives.  */
struct source_file {
    char *name;
    bool found;
    char *text;
    char **lines;       /* pointers into TEXT, NUL-terminated */
    size_t n_lines;
};

struct sources {
    const char *const *dirs;
    size_t n_dirs;
    struct source_file *files;
    size_t n_files, capacity;
};

/* NAME's file, read on first use; its FOUND is false when no place had
   it.  */
const struct source_file *sources_find(struct sources *sources, const char *name);
void sources_free(struct sources *sources);

/* The --source-dir directories of a command line.  */
struct source_dirs {
    const char **dirs;
    size_t n_dirs, capacity;
};

/* No file read yet; DIRS are where to look besides the name itself.  */
void sources_init(struct sources *sources, const struct source_dirs *dirs);

#endif
