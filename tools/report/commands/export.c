/* sampler-report export: runs as CSV tables of the SQL schema of tools/sql/
   (output/sql-tables.h; docs/schema.md), for PostgreSQL, DuckDB, SQLite or
   any engine that reads CSV.  */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "commands/command.h"
#include "input/symbols.h"
#include "output/formats.h"
#include "output/output-file.h"
#include "output/sql-tables.h"
#include "statistics/ranking.h"
#include "support/util.h"

struct export_options {
    const char *release_name;     /* NULL: the first run's program */
    unsigned release_id;
    bool counts;
};

struct exporter {
    struct output_file files[SQL_N_TABLES];
    struct sql_sink sink;
    struct sql_release release;
    struct symbol_namer namer;     /* indirect-call targets' names */
    char *first_program;
};

/* A field as CSV; an empty text as "", so that engines that read an empty
   field as NULL (PostgreSQL, DuckDB) read an empty string.  */
static bool csv_row(void *context, enum sql_table table, const char *const *fields,
                    struct diag *d)
{
    (void) d;
    struct exporter *exporter = context;
    FILE *out = exporter->files[table].file;
    for (unsigned i = 0; i < sql_tables[table].n_columns; i++) {
        bool last = i + 1 == sql_tables[table].n_columns;
        if (*fields[i])
            csv_field(out, fields[i], last);
        else
            fputs(last ? "\"\"\n" : "\"\",", out);
    }
    return true;
}

/* When the run's report was written (its file's time), else now; UTC.  */
static void received_time(const char *origin, char *text, size_t size)
{
    struct stat status;
    time_t when = stat(origin, &status) == 0 ? status.st_mtime : time(NULL);
    struct tm parts;
    gmtime_r(&when, &parts);
    strftime(text, size, "%Y-%m-%d %H:%M:%S", &parts);
}

static bool export_run(void *context, const struct run_view *view, struct diag *d)
{
    struct exporter *exporter = context;
    char received[32];
    received_time(view->origin, received, sizeof received);
    struct sql_run run = { view->index + 1, "", received, view->failed };
    sql_run_id_of(view, run.id);
    if (!exporter->first_program)
        exporter->first_program = xstrdup(view->report->program);
    return sql_run_rows(&exporter->sink, &exporter->release, &run, view, &exporter->namer, d);
}

static bool open_tables(struct exporter *exporter, const char *directory, struct diag *d)
{
    bool ok = true;
    for (int t = 0; ok && t < SQL_N_TABLES; t++) {
        if (t == SQL_COUNTS && !exporter->sink.counts)
            continue;
        size_t size = strlen(directory) + strlen(sql_tables[t].name) + 6;
        char *path = xmalloc(size);
        snprintf(path, size, "%s/%s.csv", directory, sql_tables[t].name);
        ok = output_open(&exporter->files[t], path, d);
        free(path);
        if (ok)
            fprintf(exporter->files[t].file, "%s\n", sql_tables[t].columns);
    }
    return ok;
}

static bool write_tables(struct exporter *exporter, struct run_set *set,
                         const struct export_options *options, struct diag *d)
{
    struct universe universe = { 0 };
    unsigned *predicates_per_site;
    bool *every_run;
    universe_init(&universe, &set->catalog, &predicates_per_site, &every_run);
    free(predicates_per_site);
    free(every_run);
    uint32_t *tie_order = tie_order_of(&universe);
    exporter->release = (struct sql_release) { options->release_id, "", &universe, tie_order };
    bool ok = run_set_visit(set, export_run, exporter, d);
    /* The release's row last: by default it is named by the first run's program.  */
    if (ok) {
        exporter->release.name = options->release_name ? options->release_name
                                 : exporter->first_program ? exporter->first_program
                                 : "unnamed";
        ok = sql_release_rows(&exporter->sink, &exporter->release, d);
    }
    free(tie_order);
    universe_free(&universe);
    return ok;
}

static int run_export(const struct invocation *invocation, struct diag *d)
{
    const struct export_options *options = COMMAND_OPTIONS(invocation, struct export_options);
    const char *directory = invocation->output;
    struct exporter exporter = { 0 };
    exporter.sink = (struct sql_sink) { csv_row, &exporter, options->counts };
    bool ok = true;
    /* A directory made here is removed again if the export fails.  */
    bool created = false;
    if (mkdir(directory, 0777) == 0)
        created = true;
    else if (errno != EEXIST)
        ok = diag_fail(d, "cannot create %s: %s", directory, strerror(errno));
    ok = ok && open_tables(&exporter, directory, d)
         && write_tables(&exporter, invocation->runs, options, d);
    for (int t = 0; ok && t < SQL_N_TABLES; t++)
        if (exporter.files[t].file)
            ok = output_commit(&exporter.files[t], d);
    for (int t = 0; t < SQL_N_TABLES; t++)
        output_abandon(&exporter.files[t]);
    if (!ok && created)
        rmdir(directory);
    free(exporter.first_program);
    symbol_namer_free(&exporter.namer);
    return ok ? EXIT_FINE : EXIT_BAD_INPUT;
}

static int take_export_option(const struct invocation *invocation, int argc, char **argv,
                              int *i)
{
    struct export_options *options = COMMAND_OPTIONS(invocation, struct export_options);
    const char *value;
    if (strcmp(argv[*i], "--counts") == 0) {
        options->counts = true;
        return 1;
    }
    if (command_option_value("--release", argc, argv, i, &value)) {
        if (!value || !*value)
            return command_usage_error(invocation->command, "--release wants a name"), -1;
        options->release_name = value;
        return 1;
    }
    return command_whole_number_option(invocation, "--release-id", 1, 2147483647, argc, argv,
                                       i, &options->release_id);
}

static void init_export_options(void *options)
{
    *(struct export_options *) options = (struct export_options) { .release_id = 1 };
}

const struct command export_command = {
    .name = "export",
    .synopsis = "INPUT... --output DIRECTORY [--release NAME] [--release-id N] [--counts] "
                "[--format=csv] [--binary FILE]... [--sites FILE]... "
                "[--fail-if=RULE | --labels FILE]",
    .summary = "Export runs as CSV tables of the SQL schema of tools/sql/ (docs/schema.md):\n"
               "releases, runs (with each run's label), sites, predicates, observations (a\n"
               "row per run and observed site, its true predicates as bits), hot_lists and\n"
               "hot_values, path_samples and path_counts, subpath_lists and subpath_counts.\n"
               "tools/sql/sampler-sql loads them into PostgreSQL, DuckDB or SQLite, ranks\n"
               "as rank does and lists values, paths and subpaths.",
    .options_help =
        RUN_OPTIONS_HELP
        LABEL_OPTIONS_HELP
        "  --output DIR     where the tables go, one TABLE.csv each (-o DIR; created if\n"
        "                   missing; each file written whole or not at all)\n"
        "  --release NAME   the release's name (default: the first run's program)\n"
        "  --release-id N   its number in the store, 1 to 2147483647 (default 1)\n"
        "  --counts         also counts.csv: every counter of every observed site\n"
        "  --format=csv     the only format\n",
    .inputs = INPUTS_RUNS,
    .labels = true,
    .formats = FORMAT_SET(FORMAT_CSV),
    .formats_expected = "export writes csv; tools/sql/sampler-sql parquet makes Parquet of it",
    .output_what = "DIRECTORY",
    .progress = "exporting",
    .options_size = sizeof (struct export_options),
    .init = init_export_options,
    .take_option = take_export_option,
    .run = run_export,
};
