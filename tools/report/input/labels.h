/* Which runs failed.  By default a run failed when it was killed by a
   signal or exited with a status other than 0.  --fail-if=RULE replaces
   that with a comma-separated list of conditions, any of which makes a run
   fail:

     signal        killed by any signal          signal=N     by signal N
     status=N      exit status N                 status=N-M   N to M

   (the default is "signal,status=1-255").  A label file instead names each
   run's outcome, one per line: "success" or "failure", a TAB, and the run's
   report as it was given (or as an aggregate recorded it), written with
   the report format's escapes (\\, \t, \n); a run matches a label when
   the names are the same, or name the same file.  Every run needs a label,
   and every label a run.  */
#ifndef SAMPLER_REPORT_LABELS_H
#define SAMPLER_REPORT_LABELS_H

#include <stdbool.h>
#include <stddef.h>

#include "input/report-reader.h"
#include "support/util.h"

#define DEFAULT_FAILURE_RULE "signal,status=1-255"

struct exit_condition {
    enum exit_kind kind;        /* EXIT_BY_STATUS or EXIT_BY_SIGNAL */
    unsigned low, high;         /* the codes that match */
};

struct labeller {
    struct exit_condition *conditions;
    size_t n_conditions;
    char *rule;                 /* as given, for the summary */
    /* A label file, when given.  */
    const char *labels_path;
    char **origins;             /* unescaped */
    bool *failed;
    bool *used;
    unsigned long *line_numbers;
    size_t n_labels;
    struct name_index by_origin;
    char **canonical;           /* realpath of each origin, NULL if none */
    struct name_index by_canonical;
};

/* Parses RULE (DEFAULT_FAILURE_RULE when NULL); false with D set if it is
   not one.  */
bool labeller_init_rule(struct labeller *labeller, const char *rule, struct diag *d);

/* Reads the label file PATH instead of a rule.  */
bool labeller_init_file(struct labeller *labeller, const char *path, struct diag *d);

/* Whether the run read from ORIGIN, REPORT, failed; false with D set if it
   cannot be told (no label for it).  */
bool labeller_failed(struct labeller *labeller, const char *origin,
                     const struct run_report *report, bool *failed, struct diag *d);

/* After the last run: false with D set if a label named no run.  */
bool labeller_check_all_used(const struct labeller *labeller, struct diag *d);

/* One line saying what failure means: the rule, or the label file.  */
void labeller_describe(const struct labeller *labeller, char *out, size_t size);

void labeller_free(struct labeller *labeller);

#endif
