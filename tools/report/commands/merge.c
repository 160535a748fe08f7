/* sampler-report merge: many runs into one aggregate (stream.h), read and
   written one run at a time.  */
#include <stdlib.h>
#include <string.h>

#include "commands/command.h"
#include "output/output-file.h"
#include "combining/run-set.h"
#include "input/run-stream.h"
#include "output/formats.h"
#include "support/util.h"

/* RUN as a report: its units once each, occurrences added up.  */
static void write_report(FILE *out, const struct run_view *run)
{
    const struct run_report *report = run->report;
    fprintf(out, "run\t");
    write_escaped(out, run->origin);
    fprintf(out, "\nsampler-report\t%d\nprogram\t", REPORT_FORMAT_VERSION);
    write_escaped(out, report->program);
    fprintf(out, "\npid\t%llu\nsparsity\t%llu\nseed\t%llu\n", report->pid, report->sparsity,
            report->seed);
    if (report->countdown_unit > 1)
        fprintf(out, "countdown-unit\t%llu\n", report->countdown_unit);
    /* A fork child's run says so in the aggregate too.  */
    if (report->parent > 0)
        fprintf(out, "parent\t%llu\n", report->parent);
    fprintf(out, "exit\t%s", exit_kind_name(report->exit_kind));
    /* exit exec has no number.  */
    if (report->exit_kind != EXIT_BY_EXEC)
        fprintf(out, "\t%u", report->exit_code);
    fputc('\n', out);
    /* What names the run's indirect-call targets.  */
    for (size_t i = 0; i < report->n_loaded; i++) {
        const struct loaded_object *object = &report->loaded[i];
        fprintf(out, "loaded\t%llu\t%llu\t%llu\t", object->base, object->start, object->end);
        write_escaped(out, object->path);
        fputc('\n', out);
    }
    for (size_t u = 0; u < run->n_units; u++) {
        const struct run_unit *unit = &run->units[u];
        const struct unit_table *table = unit->totals->table;
        fprintf(out, "unit\t%s\t%u\t%u\t", table->signature, table->n_sites, table->n_counters);
        write_escaped(out, table->source);
        fputc('\n', out);
        for (size_t i = 0; i < unit->n_sites; i++) {
            const struct site *site = &table->sites[unit->sites[i]];
            const unsigned long long *values = unit->totals->values + site->first_counter;
            bool any = false;
            for (unsigned c = 0; c < site->n_counters; c++)
                any |= values[c] != 0;
            if (!any)
                continue;
            fprintf(out, "%u", site->index);
            for (unsigned c = 0; c < site->n_counters; c++)
                fprintf(out, "\t%llu", values[c]);
            fputc('\n', out);
        }
    }
    fputs("end\n", out);
}

struct merge_context {
    FILE *out;
    unsigned long runs_with_subpaths;
};

static bool merge_run(void *context, const struct run_view *run, struct diag *d)
{
    struct merge_context *merge = context;
    (void) d;
    write_report(merge->out, run);
    merge->runs_with_subpaths += run->report->n_subpath_lists > 0;
    return true;
}

static int run_merge(const struct run_options *options, const char *output_path)
{
    struct run_set set;
    struct diag d;
    struct output_file output = { 0 };
    int status = EXIT_BAD_INPUT;
    bool ok = run_set_open(&set, options, false, &d) && output_open(&output, output_path, &d);
    struct merge_context merge = { output.file, 0 };
    if (ok) {
        merge.out = output.file;
        set.progress_label = "merging";
        fprintf(output.file, "sampler-aggregate\t%d\n", AGGREGATE_FORMAT_VERSION);
        for (size_t u = 0; u < set.catalog.n_units; u++) {
            const struct unit_table *table = set.catalog.units[u];
            fwrite(table->text, 1, table->text_size, output.file);
            fputc('\n', output.file);
        }
        fputs("runs\n", output.file);
        ok = run_set_visit(&set, merge_run, &merge, &d);
        if (ok) {
            fprintf(output.file, "aggregate-end\t%lu\n", set.n_runs);
            ok = output_commit(&output, &d);
        }
    }
    if (ok) {
        run_set_explain(&set);
        /* Subpath lists name their blocks by the report's own units: they
           stay in the reports, and the user is told.  */
        if (merge.runs_with_subpaths > 0)
            fprintf(stderr, PROGRAM_NAME ": %lu %s subpath lists are not carried into the "
                    "aggregate: give the reports to 'sampler-report subpaths'\n",
                    merge.runs_with_subpaths, merge.runs_with_subpaths == 1 ? "run's" : "runs'");
        status = EXIT_FINE;
    } else {
        output_abandon(&output);
        fprintf(stderr, PROGRAM_NAME ": %s\n", d.message);
    }
    run_set_close(&set);
    return status;
}

static int merge_main(const struct command *self, int argc, char **argv)
{
    struct run_options options = { 0 };
    const char *output = NULL;
    int status = run_command_line(self, argc, argv, &options, &output, "FILE", NULL);
    if (status == EXIT_FINE && (options.fail_if || options.labels))
        status = command_usage_error(self, "'merge' keeps every run's exit; give --fail-if or "
                                     "--labels to 'rank' or 'export'");
    if (status == EXIT_FINE)
        status = run_merge(&options, output);
    else if (status == RUN_COMMAND_HELP)
        status = EXIT_FINE;
    run_options_free(&options);
    return status;
}

const struct command merge_command = {
    .name = "merge",
    .synopsis = "INPUT... --output FILE [--binary FILE]... [--sites FILE]...",
    .summary = "Merge reports and aggregates into one aggregate: the site tables of their\n"
               "units, then every run (one unit each, occurrences added up), read and\n"
               "written one run at a time.  rank and export read aggregates like reports.",
    .options =
        RUN_OPTIONS_HELP
        "  --output FILE    the aggregate to write (-o FILE); written whole or not at all\n",
    .run = merge_main,
};
