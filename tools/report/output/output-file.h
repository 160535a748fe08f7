/* Output files written whole or not at all: the data goes to PATH.tmp.PID,
   which is renamed to PATH once complete (and removed on failure).  */
#ifndef SAMPLER_REPORT_OUTPUT_H
#define SAMPLER_REPORT_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "support/util.h"

struct output_file {
    char *path;
    char *temporary;
    FILE *file;
};

bool output_open(struct output_file *output, const char *path, struct diag *d);
/* Closes and renames; false (D set) on any write error.  */
bool output_commit(struct output_file *output, struct diag *d);
/* Closes and removes the temporary file.  */
void output_abandon(struct output_file *output);

#endif
