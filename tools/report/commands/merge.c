/* sampler-report merge: many runs into one aggregate
   (output/aggregate-writer.h), read and written one run at a time.  */
#include "commands/command.h"
#include "output/aggregate-writer.h"
#include "output/output-file.h"

struct merge_context {
    FILE *out;
    unsigned long runs_with_subpaths;
};

static bool merge_run(void *context, const struct run_view *run, struct diag *d)
{
    struct merge_context *merge = context;
    (void) d;
    aggregate_write_run(merge->out, run);
    merge->runs_with_subpaths += run->report->n_subpath_lists > 0;
    return true;
}

static int run_merge(const struct invocation *invocation, struct diag *d)
{
    struct run_set *set = invocation->runs;
    struct output_file output = { 0 };
    if (!output_open(&output, invocation->output, d))
        return EXIT_BAD_INPUT;
    struct merge_context merge = { output.file, 0 };
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
    /* Subpath lists name their blocks by the report's own units: they stay
       in the reports, and the user is told.  */
    if (merge.runs_with_subpaths > 0)
        diag_fail(d, "%lu %s subpath lists are not carried into the aggregate: give the "
                  "reports to 'sampler-report subpaths'", merge.runs_with_subpaths,
                  merge.runs_with_subpaths == 1 ? "run's" : "runs'");
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
