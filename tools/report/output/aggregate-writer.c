#include "output/aggregate-writer.h"

#include "input/run-stream.h"
#include "output/formats.h"

void aggregate_write_start(FILE *out, const struct site_catalog *catalog)
{
    fprintf(out, "sampler-aggregate\t%d\n", AGGREGATE_FORMAT_VERSION);
    for (size_t u = 0; u < catalog->n_units; u++) {
        const struct unit_table *table = catalog->units[u];
        fwrite(table->text, 1, table->text_size, out);
        fputc('\n', out);
    }
    fputs("runs\n", out);
}

/* RUN as a report: its units once each, occurrences added up.  */
void aggregate_write_run(FILE *out, const struct run_view *run)
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
    for (size_t i = 0; i < report->n_regions; i++)
        fprintf(out, "region\t%s\t%llu\t%llu\n",
                report->regions[i].kind == REGION_HEAP ? "heap" : "stack",
                report->regions[i].start, report->regions[i].end);
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

void aggregate_write_end(FILE *out, unsigned long n_runs)
{
    fprintf(out, "aggregate-end\t%lu\n", n_runs);
}
