/* The schemes as sampler-report knows them.  The registry
   (runtime/schemes.def) gives each scheme's name, counters and merge kind;
   the tool adds, in one slot per scheme under schemes/:

   - what it does with the slots of each merge kind (struct
     merge_kind_report, defined with the scheme that brought the kind:
     ADD here, MIN_MAX in bounds.c, HOT_LIST in values/, PATH_TABLE in
     paths/): how a site's counters are checked, combined and counted;
   - each scheme's own hooks (struct scheme_report, SCHEME_REPORT(ID) in
     schemes/<scheme>.c or schemes/<scheme>/): its predicates and their
     text, or that its sites are profiles, and the records it adds to
     reports.

   Everything else in the tool goes through these, never through a
   scheme's id; a scheme's own folder may use its own id.  A scheme the
   registry lists without its SCHEME_REPORT does not link.  */
#ifndef SAMPLER_REPORT_REGISTRY_H
#define SAMPLER_REPORT_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>

#include "input/record.h"
#include "input/site-table.h"
#include "support/util.h"

struct run_report;

/* What the tool does with the slots of one merge kind.  */
struct merge_kind_report {
    /* Checks the shape of a site's counters beyond their number (a
       hot-list's 3 + 2K), failing with record_fail.  NULL: nothing to
       check.  */
    bool (*read_site)(const struct record_reader *reader, struct site *site,
                      struct diag *d);
    /* Adds one occurrence's counters FROM into TOTAL, both of one run.  */
    void (*combine)(const struct site *site, unsigned long long *total,
                    const unsigned long long *from);
    /* Whether the site was sampled, from its counters VALUES (its
       occurrences combined).  */
    bool (*observed)(const struct site *site, const unsigned long long *values);
    /* How many of its visits were sampled, from VALUES.  */
    double (*samples)(const struct site *site, const unsigned long long *values);
    /* Whether slot C holds one of the site's values (a least or greatest
       value, a hot-list's value, of the site's bound_kind) rather than a
       count.  */
    bool (*slot_is_value)(const struct site *site, unsigned c);
    /* Whether slot C counts sampled visits, so that it estimates visits
       over the site's rate.  */
    bool (*slot_counts_visits)(const struct site *site, unsigned c);
};

/* A kind of record a scheme adds to reports, after their units
   (runtime/report-format.md); the record's first field is its name, a
   word (a line that starts with a digit is a site's counts).
   READ reads RECORD into the scheme's data for REPORT, *DATA (NULL until
   its first record made it), failing with record_fail.  */
struct scheme_record_kind {
    const char *name;
    bool after_header;             /* the report's header must be complete */
    bool (*read)(const struct record_reader *reader, const struct record *record,
                 const struct run_report *report, void **data, struct diag *d);
};

/* The records a scheme adds to reports, and what they hold.  */
struct scheme_records {
    const struct scheme_record_kind *kinds;
    size_t n_kinds;
    const char *what;              /* for messages: "subpath lists" */
    const char *command;           /* the command that reads them */
    void (*free)(void *data);
};

/* A scheme's own hooks; a NULL hook takes the default said.  */
struct scheme_report {
    /* Its sites are profiles (hot values, paths, subpaths) and no
       predicates: what they hold differs from run to run, and rank needs
       a fixed set.  The predicate hooks are then unused.  */
    bool profile;
    /* Checks and reads what the site line says beyond the common fields
       and its merge kind's check (bounds: the value kind at the end of
       the predicate), failing with record_fail.  NULL: nothing more.  */
    bool (*read_site)(const struct record_reader *reader, struct site *site,
                      struct diag *d);
    /* How many predicates a site has.  NULL: one per counter.  */
    unsigned (*predicate_count)(const struct site *site);
    /* Whether predicate K is true, from the site's counters VALUES (merged
       over the run).  NULL: counter K is not zero.  */
    bool (*predicate_true)(const struct site *site, const unsigned long long *values,
                           unsigned k);
    /* Appends predicate K's text to OUT (not NUL-terminated).  */
    void (*predicate_text)(const struct site *site, unsigned k, struct byte_buffer *out);
    /* The predicates count as observed in every run (sites with no "not
       taken" counter: checks, function entries).  */
    bool observed_in_every_run;
    /* Where its predicates go among predicates whose scores tie in
       `rank': lower first.  Branches and returns -1 (they read as the
       program's own conditions and calls), scalar pairs 1 (a comparison
       the program never made), the others 0.  */
    int tie_group;
    /* Which counter is shown at POSITION.  NULL: table order.  */
    unsigned (*counter_at)(const struct site *site, unsigned position);
    /* Its hot-lists' values are code addresses, which reports name by the
       function there (input/symbols.h).  */
    bool values_are_functions;
    /* The records it adds to reports; NULL: none.  */
    const struct scheme_records *records;
};

struct scheme_info {
    const char *name;
    unsigned n_counters;               /* 0: any positive number */
    enum sampler_merge_kind merge;
    const struct scheme_report *report;
    const struct merge_kind_report *merging;
};

/* Indexed by enum sampler_scheme_id.  */
extern const struct scheme_info scheme_infos[SAMPLER_N_SCHEMES];

/* Its name in the registry; "?" for no scheme.  */
const char *scheme_name(enum sampler_scheme_id scheme);

/* The names of the objects with a merge kind's and a scheme's hooks.  */
#define MERGE_KIND_REPORT(ID) merge_kind_report_##ID
#define SCHEME_REPORT(ID) scheme_report_##ID
#define SAMPLER_MERGE(ID, TEXT) extern const struct merge_kind_report MERGE_KIND_REPORT(ID);
#define SAMPLER_SCHEME(ID, NAME, N_COUNTERS, COUNTERS, MERGE, TEXT) \
    extern const struct scheme_report SCHEME_REPORT(ID);
#include "schemes.def"

/* A site through its merge kind (struct merge_kind_report).  */
bool site_read_shape(const struct record_reader *reader, struct site *site, struct diag *d);
void site_combine(const struct site *site, unsigned long long *total,
                  const unsigned long long *from);
bool site_observed(const struct site *site, const unsigned long long *values);
double site_samples(const struct site *site, const unsigned long long *values);
bool site_counter_is_value(const struct site *site, unsigned c);
bool site_counter_counts_visits(const struct site *site, unsigned c);

/* ---- What schemes share -------------------------------------------------------- */

/* Merge kind ADD's sampled visits: the sum of every counter.  */
double counters_sum(const struct site *site, const unsigned long long *values);
/* Merge kind ADD's: no slot holds a value, every slot counts visits.  */
bool no_slot_is_value(const struct site *site, unsigned c);
bool every_slot_counts_visits(const struct site *site, unsigned c);

/* The six relations of a value to another, from counters <, ==, >
   (returns and scalar-pairs): <, >=, ==, !=, >, <=.  */
enum { N_RELATIONS = 6 };
const char *relation_operator(unsigned k);
bool relation_true(const unsigned long long *values, unsigned k);

void buffer_append_text(struct byte_buffer *out, const char *text);

/* A suffix of a site's predicate that names the kind of its values.  */
struct kind_suffix {
    const char *suffix;
    enum bound_kind kind;
};
bool read_kind_suffix(const struct record_reader *reader, struct site *site,
                      const struct kind_suffix *kinds, size_t n_kinds, struct diag *d);

#endif
