/* sampler-report show: one run's report as a table of sites and counts,
   with each unit's site table found by signature in binaries or site-table
   files.  */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "combining/unit-totals.h"
#include "commands/command.h"
#include "input/report-reader.h"
#include "input/site-table.h"
#include "output/site-rows.h"
#include "support/util.h"


struct show_options {
    bool all;
};

/* Where the site tables came from, for the hints given when one is
   missing.  */
struct table_sources {
    const char **without_section;    /* binaries with no site-table section */
    size_t n_without_section;
    const char **missing_programs;   /* reports' programs that do not exist here */
    size_t n_missing_programs;
};

/* Adds the site tables of the ELF file PATH.  */
static bool add_binary_tables(struct site_catalog *catalog, const char *path,
                              struct table_sources *sources, struct diag *d)
{
    bool found;
    bool ok = site_catalog_add_binary(catalog, path, &found, d);
    if (ok && !found)
        sources->without_section[sources->n_without_section++] = path;
    return ok;
}

static bool load_site_tables(const struct run_options *inputs, const struct report_file *file,
                             struct site_catalog *catalog, struct table_sources *sources,
                             struct diag *d)
{
    /* In command-line order, so that of two different tables under one
       signature the later one is blamed.  */
    for (size_t i = 0; i < inputs->n_tables; i++) {
        const struct table_file *table_file = &inputs->tables[i];
        bool ok = table_file->is_binary
                  ? add_binary_tables(catalog, table_file->path, sources, d)
                  : site_catalog_add_file(catalog, table_file->path, d);
        if (!ok)
            return false;
    }
    if (inputs->n_binaries > 0)
        return true;
    /* Without --binary the reports' own programs are the natural place to
       look; if that fails the runs are still shown, with the units
       unknown.  */
    struct name_index tried = { 0 };
    for (size_t r = 0; r < file->n_reports; r++) {
        const char *program = file->reports[r].program;
        if (!*program || name_index_find(&tried, program, NULL))
            continue;
        name_index_put(&tried, program, r);
        struct diag why;
        if (access(program, F_OK) != 0)
            sources->missing_programs[sources->n_missing_programs++] = program;
        /* Tables read before a failure are complete and valid, so they stay.  */
        else if (!add_binary_tables(catalog, program, sources, &why))
            fprintf(stderr, PROGRAM_NAME ": note: not using the report's program: %s\n",
                    why.message);
    }
    name_index_free(&tried);
    return true;
}

/* A unit of one report: with its site table, all its occurrences added up;
   without, one occurrence as it is.  */
struct unit_group {
    const struct unit_counts *first;
    const struct unit_table *table;   /* NULL: no site table found */
    struct unit_totals totals;        /* with a table */
};

static void free_groups(struct unit_group *groups, size_t n_groups)
{
    for (size_t i = 0; i < n_groups; i++) {
        if (groups[i].table)
            unit_totals_free(&groups[i].totals);
    }
    free(groups);
}

static bool group_units(const struct run_report *report, const struct site_catalog *catalog,
                        struct unit_group **groups_out, size_t *n_groups, struct diag *d)
{
    struct unit_group *groups = xcalloc(report->n_units, sizeof *groups);
    struct name_index known = { 0 };    /* signature -> group, for units with a table */
    bool ok = true;
    *n_groups = 0;
    for (size_t u = 0; ok && u < report->n_units; u++) {
        const struct unit_counts *unit = &report->units[u];
        const struct unit_table *table = site_catalog_find(catalog, unit->signature);
        size_t g;
        if (table && !unit_counts_fit_table(report, unit, table, d)) {
            ok = false;
        } else if (table && name_index_find(&known, unit->signature, &g)) {
            unit_totals_add(&groups[g].totals, unit);
        } else {
            struct unit_group *group = &groups[(*n_groups)++];
            group->first = unit;
            group->table = table;
            if (table) {
                unit_totals_init(&group->totals, table);
                unit_totals_add(&group->totals, unit);
                name_index_put(&known, unit->signature, *n_groups - 1);
            }
        }
    }
    name_index_free(&known);
    if (!ok) {
        free_groups(groups, *n_groups);
        groups = NULL;
        *n_groups = 0;
    }
    *groups_out = groups;
    return ok;
}

static void add_row(struct site_row **rows, size_t *n_rows, size_t *capacity,
                    struct site_row row)
{
    void *items = *rows;
    grow_array(&items, capacity, *n_rows + 1, sizeof **rows);
    *rows = items;
    (*rows)[(*n_rows)++] = row;
}

static struct site_row *collect_rows(const struct unit_group *groups, size_t n_groups,
                                     bool all, size_t *n_rows)
{
    struct site_row *rows = NULL;
    size_t capacity = 0;
    *n_rows = 0;
    for (size_t g = 0; g < n_groups; g++) {
        const struct unit_group *group = &groups[g];
        const struct unit_table *table = group->table;
        if (table) {
            for (unsigned s = 0; s < table->n_sites; s++) {
                const struct site *site = &table->sites[s];
                if (all || group->totals.observed[s])
                    add_row(&rows, n_rows, &capacity, (struct site_row) {
                        group->first, site, s, site->n_counters,
                        group->totals.values + site->first_counter });
            }
            continue;
        }
        for (size_t i = 0; i < group->first->n_observed; i++) {
            const struct site_counts *counts = &group->first->sites[i];
            add_row(&rows, n_rows, &capacity, (struct site_row) {
                group->first, NULL, counts->site, counts->n_values, counts->values });
        }
    }
    return rows;
}

/* Known sites by file, line and column; sites of unknown units last, in
   report order.  */
static int compare_rows(const void *a, const void *b)
{
    const struct site_row *x = a, *y = b;
    if (!x->site != !y->site)
        return x->site ? -1 : 1;
    if (x->site) {
        int by_file = strcmp(x->site->file, y->site->file);
        if (by_file)
            return by_file;
        if (x->site->line != y->site->line)
            return x->site->line < y->site->line ? -1 : 1;
        if (x->site->column != y->site->column)
            return x->site->column < y->site->column ? -1 : 1;
        int by_unit = strcmp(x->unit->signature, y->unit->signature);
        if (by_unit)
            return by_unit;
    } else if (x->unit != y->unit) {
        return x->unit < y->unit ? -1 : 1;
    }
    return x->site_index < y->site_index ? -1 : x->site_index > y->site_index;
}

/* Writes one report; says which of its units have no table, once per
   signature for the whole file (MISSING remembers them).  Returns false if
   a unit had none.  */
static bool show_report(const struct invocation *invocation, const struct run_report *report,
                        const struct unit_group *groups, size_t n_groups, bool first_report,
                        bool symbols, struct name_index *missing)
{
    const struct show_options *options = COMMAND_OPTIONS(invocation, struct show_options);
    size_t n_rows;
    struct site_row *rows = collect_rows(groups, n_groups, options->all, &n_rows);
    if (n_rows > 1)
        qsort(rows, n_rows, sizeof *rows, compare_rows);
    write_rows(stdout, invocation->format, report, rows, n_rows, first_report, symbols);
    free(rows);
    bool complete = true;
    for (size_t g = 0; g < n_groups; g++) {
        const struct unit_counts *unit = groups[g].first;
        if (groups[g].table)
            continue;
        complete = false;
        if (name_index_find(missing, unit->signature, NULL))
            continue;
        name_index_put(missing, unit->signature, 0);
        fprintf(stderr, PROGRAM_NAME ": unit %s (%s) of %s: no site table found; pass the "
                "program or library with --binary, or a site-table file with --sites\n",
                unit->signature, unit->source, invocation->inputs.inputs[0]);
    }
    return complete;
}

static void explain_sources(const struct table_sources *sources)
{
    for (size_t i = 0; i < sources->n_without_section; i++)
        fprintf(stderr, PROGRAM_NAME ": note: %s has no " SITE_SECTION " section (stripped, "
                "or built without the sampler plugin)\n", sources->without_section[i]);
    for (size_t i = 0; i < sources->n_missing_programs; i++)
        fprintf(stderr, PROGRAM_NAME ": note: the report's program %s does not exist here\n",
                sources->missing_programs[i]);
}

static int run_show(const struct invocation *invocation, struct diag *d)
{
    const struct run_options *inputs = &invocation->inputs;
    struct report_file file;
    if (!report_file_load(&file, inputs->inputs[0], d))
        return EXIT_BAD_INPUT;
    /* One slot per --binary and per report's program.  */
    size_t slots = inputs->n_binaries + file.n_reports;
    struct table_sources sources = {
        xcalloc(slots, sizeof(const char *)), 0, xcalloc(slots, sizeof(const char *)), 0,
    };
    struct site_catalog catalog;
    struct name_index missing = { 0 };
    int status = EXIT_FINE;
    site_catalog_init(&catalog);
    if (!load_site_tables(inputs, &file, &catalog, &sources, d))
        status = EXIT_BAD_INPUT;
    /* Every report is checked against its tables before anything is
       written, so bad input gives no partial output.  */
    struct unit_group **groups = xcalloc(file.n_reports, sizeof *groups);
    size_t *n_groups = xcalloc(file.n_reports, sizeof *n_groups);
    for (size_t r = 0; status == EXIT_FINE && r < file.n_reports; r++) {
        if (!group_units(&file.reports[r], &catalog, &groups[r], &n_groups[r], d))
            status = EXIT_BAD_INPUT;
    }
    bool symbols = site_catalog_has_symbols(&catalog);
    for (size_t r = 0; status != EXIT_BAD_INPUT && r < file.n_reports; r++) {
        if (!show_report(invocation, &file.reports[r], groups[r], n_groups[r], r == 0,
                         symbols, &missing))
            status = EXIT_INCOMPLETE;
    }
    if (status == EXIT_INCOMPLETE)
        explain_sources(&sources);
    for (size_t r = 0; r < file.n_reports; r++)
        free_groups(groups[r], n_groups[r]);
    free(groups);
    free(n_groups);
    name_index_free(&missing);
    free(sources.without_section);
    free(sources.missing_programs);
    site_catalog_free(&catalog);
    report_file_free(&file);
    return status;
}

static int take_show_option(const struct invocation *invocation, int argc, char **argv, int *i)
{
    (void) argc;
    if (strcmp(argv[*i], "--all") != 0)
        return 0;
    COMMAND_OPTIONS(invocation, struct show_options)->all = true;
    return 1;
}

const struct command show_command = {
    .name = "show",
    .synopsis = "REPORT [--binary FILE]... [--sites FILE]... [--format=text|csv|jsonl] [--all]",
    .summary = "Show a report (one run, or several written back to back to one file):\n"
               "one row per site with its location, function, scheme, predicate and\n"
               "counts, a unit's occurrences added up.",
    .options_help =
        "  REPORT           a report file written by the sampler runtime ('-' reads\n"
        "                   stdin)\n"
        "  --binary FILE    a program, shared library or object built with the sampler\n"
        "                   plugin; its " SITE_SECTION " section holds site tables\n"
        "                   (repeatable; without it, the report's program is tried)\n"
        "  --sites FILE     a site-table file written with\n"
        "                   -fplugin-arg-sampler-site-table=FILE (repeatable)\n"
        "  --format=FORMAT  text (default), csv (one row per site and counter) or jsonl\n"
        "                   (run metadata, then one object per site)\n"
        "  --all            also list the sites of the report's units that saw nothing\n",
    .inputs = INPUTS_ONE_REPORT,
    .formats = FORMAT_SET(FORMAT_TEXT) | FORMAT_SET(FORMAT_CSV) | FORMAT_SET(FORMAT_JSONL),
    .formats_expected = "expected text, csv or jsonl",
    .format_missing = "option '--format' needs a value (text, csv or jsonl)",
    .options_size = sizeof (struct show_options),
    .take_option = take_show_option,
    .run = run_show,
};
