/* Run reports, as the runtime writes them (runtime/report-format.md): run
   metadata, then the nonzero counters of each unit keyed by unit signature
   and site index.  */
#ifndef SAMPLER_REPORT_REPORT_READER_H
#define SAMPLER_REPORT_REPORT_READER_H

#include <stdbool.h>
#include <stddef.h>

#include "support/util.h"

#include "sampler-abi.h"

#define REPORT_FORMAT_VERSION 1

enum exit_kind {
    EXIT_NOT_YET,     /* no exit record: an interim report (or an older
                         on-demand one) */
    EXIT_BY_STATUS,
    EXIT_BY_SIGNAL,
    EXIT_BY_EXEC,     /* the process image was replaced by exec */
    EXIT_BY__EXIT,    /* _exit or _Exit, with a status */
    EXIT_BY_QUICK_EXIT, /* quick_exit, with a status */
};

/* Whether the run ended with an exit status (exit, _exit, quick_exit).  */
#define EXIT_HAS_STATUS(kind) \
    ((kind) == EXIT_BY_STATUS || (kind) == EXIT_BY__EXIT || (kind) == EXIT_BY_QUICK_EXIT)

struct site_counts {
    unsigned site;
    unsigned long line_number;   /* where it was read, for messages */
    unsigned n_values;
    unsigned long long *values;
};

/* One unit line and its site lines.  The same unit may occur more than
   once in a report (one object linked into several binaries); readers add
   the occurrences up.  */
struct unit_counts {
    char *signature;
    char *source;
    char *object;                /* the program or library it was in; NULL if
                                    the report does not say */
    unsigned n_sites;
    unsigned n_counters;
    unsigned long line_number;
    struct site_counts *sites;   /* sorted by site index, no duplicates */
    size_t n_observed;
    size_t capacity;
};

/* A `loaded' record: an object the process had loaded, its load address
   (what the addresses of its ELF file are relative to) and the range its
   segments spanned, to name the targets of indirect calls.  */
struct loaded_object {
    unsigned long long base;
    unsigned long long start;
    unsigned long long end;      /* just past the last byte */
    char *path;
};

/* A `region' record: where the process's heap or main stack was, to
   class the values of pointers that point there.  */
enum region_kind { REGION_HEAP, REGION_STACK };
struct memory_region {
    enum region_kind kind;
    unsigned long long start;
    unsigned long long end;      /* just past the last byte */
};

struct run_report {
    char *path;                  /* where it was read */
    unsigned long line_number;   /* of its first line, when a file holds several */
    char *program;
    unsigned long long pid;
    unsigned long long sparsity;
    unsigned long long countdown_unit;  /* 1 unless the report says otherwise */
    unsigned long long seed;
    enum exit_kind exit_kind;
    unsigned exit_code;          /* status or signal number */
    unsigned long long interim;  /* an interim report's number; 0: not interim */
    unsigned long long resets;   /* sampler_reset calls before the report */
    unsigned long long parent;   /* the pid it was forked from; 0: not a fork child */
    /* docs/remote.md: the run's id (32 hex digits; "" in older reports),
       the release the program carries (NULL: none), and in a field report
       the schemes left out (comma-separated; NULL: none) and the reports
       dropped from the store before it.  */
    char run_id[33];
    char *product, *version;
    char *withheld;
    unsigned long long dropped;
    struct unit_counts *units;   /* in report order */
    size_t n_units;
    size_t capacity;
    struct loaded_object *loaded;   /* in report order; none in older reports */
    size_t n_loaded;
    size_t loaded_capacity;
    struct memory_region *regions;  /* none in older reports */
    size_t n_regions;
    size_t regions_capacity;
    /* What each scheme's own records said (schemes/registry.h: struct
       scheme_records), NULL for none.  */
    void *scheme_records[SAMPLER_N_SCHEMES];
};

/* The reports of one file: usually one, but a descriptor shared by several
   processes (SAMPLER_REPORT_FD) receives them back to back.  */
struct report_file {
    struct run_report *reports;
    size_t n_reports;
    size_t capacity;
};

/* Parses DATA (SIZE bytes) read from PATH: one or more complete reports.
   On failure FILE is left empty and D says what is wrong, as
   "PATH:LINE: ...".  */
bool report_file_parse(struct report_file *file, const char *path,
                       const char *data, size_t size, struct diag *d);

/* The word of KIND in an `exit' record: "status", "signal" or "exec"
   (NULL for EXIT_NOT_YET, which has no exit record).  */
const char *exit_kind_name(enum exit_kind kind);

/* Reads and parses the report file PATH ("-" is standard input).  */
bool report_file_load(struct report_file *file, const char *path, struct diag *d);

void report_file_free(struct report_file *file);

/* Parses DATA (SIZE bytes), exactly one report whose first line is line
   FIRST_LINE of PATH (for messages).  */
bool report_parse_one(struct run_report *report, const char *path, const char *data,
                      size_t size, unsigned long first_line, struct diag *d);

void run_report_free(struct run_report *report);

#endif
