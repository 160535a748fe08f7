/* sampler-report export: runs as CSV tables for a SQL engine
   (tools/cbi-scores.sql computes rank's scores from them).  */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "combining/run-set.h"
#include "commands/command.h"
#include "input/symbols.h"
#include "output/formats.h"
#include "output/output-file.h"
#include "schemes/registry.h"
#include "schemes/values/hotlist.h"
#include "statistics/predicates.h"
#include "support/util.h"

enum { RUNS_CSV, SITES_CSV, COUNTS_CSV, VALUES_CSV, N_TABLES };
static const char *const table_names[N_TABLES] = { "runs.csv", "sites.csv", "counts.csv",
                                                   "values.csv" };

struct exporter {
    struct output_file files[N_TABLES];
    struct symbol_namer namer;     /* indirect-call targets' names */
};

static void csv_number(FILE *out, unsigned long long value, bool last)
{
    fprintf(out, "%llu%c", value, last ? '\n' : ',');
}

/* A value of the site (a bounds minimum or maximum) as a number: signed,
   or a double (NaN as an empty field, infinities as 1e999 and -1e999,
   which SQL engines read as infinities).  */
static void write_value(FILE *out, const struct site *site, uint64_t bits)
{
    if (site->bound_kind == BOUND_SIGNED) {
        int64_t value;
        memcpy(&value, &bits, sizeof value);
        fprintf(out, "%lld\n", (long long) value);
    } else if (site->bound_kind == BOUND_DOUBLE) {
        double value;
        memcpy(&value, &bits, sizeof value);
        if (isnan(value))
            fputc('\n', out);
        else if (isinf(value))
            fputs(value < 0 ? "-1e999\n" : "1e999\n", out);
        else
            fprintf(out, "%.17g\n", value);
    } else {
        fprintf(out, "%llu\n", (unsigned long long) bits);
    }
}

/* A hot-list site's entries (values.csv): run, unit, site, its sampled
   visits and tau (2^tau-log2; the run's sparsity is in runs.csv), each
   value and its count, and for an indirect-calls site the target's name
   (symbols.h).  */
static void write_hot_list(struct exporter *exporter, const struct run_view *run,
                           unsigned long id, const struct unit_table *table,
                           const struct site *site, const unsigned long long *slots)
{
    FILE *out = exporter->files[VALUES_CSV].file;
    unsigned long long j = slots[HOT_SLOT_TAU_LOG2];
    for (unsigned i = 0; i < hot_list_capacity(site); i++) {
        unsigned long long count = slots[HOT_SLOT_ENTRIES + 2 * i + 1];
        if (count == 0)
            continue;
        fprintf(out, "%lu,%s,%u,%llu,%.17g,", id, table->signature, site->index,
                slots[HOT_SLOT_SAMPLED], ldexp(1, j > HOT_MAX_TAU_LOG2
                                                  ? HOT_MAX_TAU_LOG2 : (int)j));
        fprintf(out, "%llu,", count);
        uint64_t value = slots[HOT_SLOT_ENTRIES + 2 * i];
        if (site->bound_kind == BOUND_SIGNED)
            fprintf(out, "%lld,", (long long) value);
        else
            fprintf(out, "%llu,", (unsigned long long) value);
        if (scheme_infos[site->scheme].report->values_are_functions) {
            char name[512];
            symbol_namer_name(&exporter->namer, run->report, value, name, sizeof name);
            csv_field(out, name, true);
        } else {
            fputc('\n', out);
        }
    }
}

static bool export_run(void *context, const struct run_view *run, struct diag *d)
{
    (void) d;
    struct exporter *exporter = context;
    FILE *runs = exporter->files[RUNS_CSV].file, *counts = exporter->files[COUNTS_CSV].file;
    const struct run_report *report = run->report;
    unsigned long id = run->index + 1;
    char code[16];
    csv_number(runs, id, false);
    csv_field(runs, run->origin, false);
    csv_field(runs, report->program, false);
    csv_number(runs, report->pid, false);
    csv_number(runs, report->sparsity, false);
    csv_number(runs, report->seed, false);
    csv_field(runs, exit_kind_name(report->exit_kind), false);
    snprintf(code, sizeof code, "%u", report->exit_code);
    csv_field(runs, code, false);
    csv_field(runs, run->failed ? "failure" : "success", true);
    for (size_t u = 0; u < run->n_units; u++) {
        const struct run_unit *unit = &run->units[u];
        const struct unit_table *table = unit->totals->table;
        for (size_t i = 0; i < unit->n_sites; i++) {
            const struct site *site = &table->sites[unit->sites[i]];
            const unsigned long long *values = unit->totals->values + site->first_counter;
            if (!site_observed(site, values))
                continue;
            for (unsigned c = 0; c < site->n_counters; c++) {
                fprintf(counts, "%lu,%s,%u,%u,", id, table->signature, site->index, c);
                if (site_counter_is_value(site, c))
                    write_value(counts, site, values[c]);
                else
                    fprintf(counts, "%llu\n", values[c]);
            }
            if (scheme_infos[site->scheme].merge == SAMPLER_MERGE_HOT_LIST)
                write_hot_list(exporter, run, id, table, site, values);
        }
    }
    return true;
}

static void write_sites(FILE *out, const struct site_catalog *catalog)
{
    fputs("unit,site,file,line,column,function,scheme,predicate,counters\n", out);
    for (size_t u = 0; u < catalog->n_units; u++) {
        const struct unit_table *table = catalog->units[u];
        for (unsigned s = 0; s < table->n_sites; s++) {
            const struct site *site = &table->sites[s];
            csv_field(out, table->signature, false);
            csv_number(out, s, false);
            csv_field(out, site->file, false);
            csv_number(out, site->line, false);
            csv_number(out, site->column, false);
            csv_field(out, site->function, false);
            csv_field(out, scheme_name(site->scheme), false);
            csv_field(out, site->predicate, false);
            struct byte_buffer names = { 0 };
            for (unsigned c = 0; c < site->n_counters; c++) {
                if (c)
                    buffer_append(&names, ",", 1);
                buffer_append(&names, site->counter_names[c], strlen(site->counter_names[c]));
            }
            buffer_append(&names, "", 0);
            csv_field(out, names.data, true);
            buffer_free(&names);
        }
    }
}

static int run_export(const struct invocation *invocation, struct diag *d)
{
    const char *directory = invocation->output;
    struct exporter exporter = { 0 };
    bool ok = true;
    /* A directory made here is removed again if the export fails.  */
    bool created = false;
    if (mkdir(directory, 0777) == 0)
        created = true;
    else if (errno != EEXIST)
        ok = diag_fail(d, "cannot create %s: %s", directory, strerror(errno));
    for (int t = 0; ok && t < N_TABLES; t++) {
        size_t size = strlen(directory) + strlen(table_names[t]) + 2;
        char *path = xmalloc(size);
        snprintf(path, size, "%s/%s", directory, table_names[t]);
        ok = output_open(&exporter.files[t], path, d);
        free(path);
    }
    if (ok) {
        fputs("run,origin,program,pid,sparsity,seed,exit_kind,exit_code,label\n",
              exporter.files[RUNS_CSV].file);
        fputs("run,unit,site,counter,count\n", exporter.files[COUNTS_CSV].file);
        fputs("run,unit,site,sampled,tau,count,value,target\n", exporter.files[VALUES_CSV].file);
        write_sites(exporter.files[SITES_CSV].file, &invocation->runs->catalog);
        ok = run_set_visit(invocation->runs, export_run, &exporter, d);
    }
    for (int t = 0; ok && t < N_TABLES; t++)
        ok = output_commit(&exporter.files[t], d);
    for (int t = 0; t < N_TABLES; t++)
        output_abandon(&exporter.files[t]);
    if (!ok && created)
        rmdir(directory);
    symbol_namer_free(&exporter.namer);
    return ok ? EXIT_FINE : EXIT_BAD_INPUT;
}

const struct command export_command = {
    .name = "export",
    .synopsis = "INPUT... --output DIRECTORY [--format=csv] [--binary FILE]... "
                "[--sites FILE]... [--fail-if=RULE | --labels FILE]",
    .summary = "Export runs as CSV tables for SQL engines: DIRECTORY/runs.csv (one row per\n"
               "run, with its label), sites.csv (one per site of every unit), counts.csv\n"
               "(one per run, unit, site and counter of every site a run observed) and\n"
               "values.csv (one per run, values site and value of its hot-list).\n"
               "tools/cbi-scores.sql computes rank's scores from them.",
    .options_help =
        RUN_OPTIONS_HELP
        LABEL_OPTIONS_HELP
        "  --output DIR     where the four tables go (-o DIR; created if missing; each\n"
        "                   file written whole or not at all)\n"
        "  --format=csv     the only format\n",
    .inputs = INPUTS_RUNS,
    .labels = true,
    .formats = FORMAT_SET(FORMAT_CSV),
    .formats_expected = "export writes csv",
    .output_what = "DIRECTORY",
    .progress = "exporting",
    .run = run_export,
};
