/* The subpaths scheme's records in a report: one list per thread of its
   hot subpaths (runtime/report-format.md), read by the report reader
   through the scheme's hooks (subpath-records.c).  */
#ifndef SAMPLER_REPORT_SUBPATH_RECORDS_H
#define SAMPLER_REPORT_SUBPATH_RECORDS_H

#include <stdbool.h>
#include <stddef.h>

struct run_report;

/* A thread's subpath hot-list (subpaths scheme; runtime/report-format.md):
   each entry's blocks as (the unit's place among the report's units, the
   site).  */
struct subpath_block {
    unsigned unit;
    unsigned site;
};

struct subpath_entry {
    unsigned long long count;
    unsigned length;
    struct subpath_block *blocks;
    unsigned long line_number;
};

struct subpath_list {
    unsigned long line_number;
    unsigned max_log2;           /* the longest subpath is 2^max_log2 blocks */
    bool all_lengths;            /* every length from each start */
    unsigned long long offered, tau_log2, capacity, dropped;
    struct subpath_entry *entries;
    size_t n_entries, entries_capacity;
};

struct subpath_lists {
    struct subpath_list *lists;
    size_t n_lists, capacity;
};

/* REPORT's lists; NULL when it has none.  */
const struct subpath_lists *subpath_lists_of(const struct run_report *report);

/* Whether SITE, named by a subpath's block, is a block (a subpaths site).  */
struct site;
bool site_is_subpath_block(const struct site *site);

#endif
