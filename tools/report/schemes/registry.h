/* The schemes as sampler-report knows them: the registry's line for each
   (runtime/schemes.def: name, counters, merge kind) and the scheme's own
   hooks (tools/report/schemes/<scheme>.c): what more its site lines must
   say, its predicates and how its counters are shown.  Everything else in
   the tool goes through these, never through a scheme's id.  */
#ifndef SAMPLER_REPORT_SCHEMES_H
#define SAMPLER_REPORT_SCHEMES_H

#include <stdbool.h>

#include "input/record.h"
#include "input/site-table.h"
#include "support/util.h"

/* A scheme's hooks; a NULL hook takes the default said.  */
struct scheme_report {
    /* Checks and reads what the site line says beyond the common fields
       (bounds: the value kind at the end of the predicate), failing with
       record_fail.  NULL: nothing more.  */
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
};

struct scheme_info {
    const char *name;
    unsigned n_counters;               /* 0: any positive number */
    enum sampler_merge_kind merge;
    const struct scheme_report *report;
};

/* Indexed by enum sampler_scheme_id.  */
extern const struct scheme_info scheme_infos[SAMPLER_N_SCHEMES];

/* The name of the object with a scheme's hooks, defined in its file.  */
#define SCHEME_REPORT(ID) scheme_report_##ID
#define SAMPLER_SCHEME(ID, NAME, N_COUNTERS, COUNTERS, MERGE, TEXT) \
    extern const struct scheme_report SCHEME_REPORT(ID);
#include "schemes.def"

/* Whether counter C of SITE holds one of the site's values rather than a
   count: the least and greatest of a MIN_MAX site, the values of a
   HOT_LIST site's entries, of the site's bound_kind (which the scheme's
   read_site sets).  */
bool site_counter_is_value(const struct site *site, unsigned c);

/* Slots of a MIN_MAX site.  */
enum { MIN_MAX_SLOT_COUNT, MIN_MAX_SLOT_MIN, MIN_MAX_SLOT_MAX };

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

/* The read_site hook of the schemes with hot-lists: checks that SITE has
   3 + 2K counters (K >= 1) and reads the kind of its values from the end
   of its predicate (bound_kind).  */
bool hot_list_read_site(const struct record_reader *reader, struct site *site,
                        struct diag *d);

#endif
