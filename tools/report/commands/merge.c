/* sampler-report merge: many runs into one aggregate
   (output/aggregate-writer.h), read and written one run at a time.  */
#include "commands/command.h"
#include "output/aggregate-writer.h"
#include "output/output-file.h"
#include "schemes/registry.h"

struct merge_context {
    FILE *out;
    unsigned long runs_with_records[SAMPLER_N_SCHEMES];   /* a scheme's own records */
};

static bool merge_run(void *context, const struct run_view *run, struct diag *d)
{
    struct merge_context *merge = context;
    (void) d;
    aggregate_write_run(merge->out, run);
    for (int s = 0; s < SAMPLER_N_SCHEMES; s++)
        merge->runs_with_records[s] += run->report->scheme_records[s] != NULL;
    return true;
}

/* Schemes' own records (subpath lists) name what they hold by the
   report's own units: they stay in the reports, and the user is told, in
   D, the note the runner prints last.  */
static void note_records_left(const struct merge_context *merge, struct diag *d)
{
    size_t used = 0;
    for (int s = 0; s < SAMPLER_N_SCHEMES; s++) {
        unsigned long n = merge->runs_with_records[s];
        const struct scheme_records *records = scheme_infos[s].report->records;
        if (n == 0 || used >= sizeof d->message)
            continue;
        used += (size_t) snprintf(d->message + used, sizeof d->message - used,
                                  "%s%lu %s %s are not carried into the aggregate: give the "
                                  "reports to 'sampler-report %s'",
                                  used ? "\n" PROGRAM_NAME ": " : "", n,
                                  n == 1 ? "run's" : "runs'", records->what,
                                  records->command);
    }
}

static int run_merge(const struct invocation *invocation, struct diag *d)
{
    struct run_set *set = invocation->runs;
    struct output_file output = { 0 };
    if (!output_open(&output, invocation->output, d))
        return EXIT_BAD_INPUT;
    struct merge_context merge = { output.file, { 0 } };
    aggregate_write_start(output.file, &set->catalog);
    bool ok = run_set_visit(set, merge_run, &merge, d);
    if (ok) {
        aggregate_write_end(output.file, set->n_runs);
        ok = output_commit(&output, d);
    }
    if (!ok) {
        output_abandon(&output);
        return EXIT_BAD_INPUT;
    }
    note_records_left(&merge, d);
    return EXIT_FINE;
}

const struct command merge_command = {
    .name = "merge",
    .synopsis = "INPUT... --output FILE [--binary FILE]... [--sites FILE]...",
    .summary = "Merge reports and aggregates into one aggregate: the site tables of their\n"
               "units, then every run (one unit each, occurrences added up), read and\n"
               "written one run at a time.  rank and export read aggregates like reports.",
    .options_help =
        RUN_OPTIONS_HELP
        "  --output FILE    the aggregate to write (-o FILE); written whole or not at all\n",
    .inputs = INPUTS_RUNS,
    .labels_refusal = "keeps every run's exit; give --fail-if or --labels to 'rank' or "
                      "'export'",
    .output_what = "FILE",
    .progress = "merging",
    .run = run_merge,
};
