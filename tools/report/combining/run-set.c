#include "combining/run-set.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input/run-stream.h"
#include "input/store-input.h"
#include "support/progress.h"

void run_options_free(struct run_options *options)
{
    free(options->inputs);
    free(options->tables);
    memset(options, 0, sizeof *options);
}

/* ---- Inputs ------------------------------------------------------------- */

static bool is_stale_temporary(const char *name)
{
    /* The runtime writes PATH.tmp.PID and renames it when complete.  */
    const char *mark = strstr(name, ".tmp.");
    if (!mark)
        return false;
    const char *digits = mark + 5;
    if (!*digits)
        return false;
    for (const char *p = digits; *p; p++) {
        if (*p < '0' || *p > '9')
            return is_stale_temporary(mark + 1);
    }
    return true;
}

static int compare_names(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

static void add_path(struct run_set *set, size_t *capacity, char *path)
{
    void *items = set->paths;
    grow_array(&items, capacity, set->n_paths + 1, sizeof *set->paths);
    set->paths = items;
    set->paths[set->n_paths++] = path;
}

static bool expand_directory(struct run_set *set, size_t *capacity, const char *directory,
                             struct diag *d)
{
    struct dirent **entries;
    int n = scandir(directory, &entries, NULL, compare_names);
    if (n < 0)
        return diag_fail(d, "%s: %s", directory, strerror(errno));
    for (int i = 0; i < n; i++) {
        const char *name = entries[i]->d_name;
        if (name[0] != '.') {
            size_t size = strlen(directory) + strlen(name) + 2;
            char *path = xmalloc(size);
            snprintf(path, size, "%s/%s", directory, name);
            struct stat status;
            if (stat(path, &status) == 0 && S_ISREG(status.st_mode)
                && !is_stale_temporary(name)) {
                add_path(set, capacity, path);
            } else {
                set->n_skipped_entries++;
                free(path);
            }
        }
        free(entries[i]);
    }
    free(entries);
    return true;
}

static bool expand_inputs(struct run_set *set, struct diag *d)
{
    size_t capacity = 0;
    for (size_t i = 0; i < set->options->n_inputs; i++) {
        const char *input = set->options->inputs[i];
        struct stat status;
        if (store_input_is(input)) {
            add_path(set, &capacity, xstrdup(input));
            continue;
        }
        if (stat(input, &status) != 0)
            return diag_fail(d, "%s: %s", input, strerror(errno));
        if (S_ISDIR(status.st_mode)) {
            if (!expand_directory(set, &capacity, input, d))
                return false;
        } else {
            add_path(set, &capacity, xstrdup(input));
        }
    }
    if (set->n_paths == 0)
        return diag_fail(d, "no reports: the directories given hold none");
    return true;
}

/* ---- Site tables ------------------------------------------------------------ */

/* The programs named by the reports in PATH, added to PROGRAMS.  */
static bool collect_programs(const char *path, struct name_index *programs, char ***list,
                             size_t *n_list, size_t *capacity, struct diag *d)
{
    FILE *file = fopen(path, "rb");
    if (!file)
        return diag_fail(d, "%s: %s", path, strerror(errno));
    char *line = NULL;
    size_t line_capacity = 0;
    ssize_t got;
    bool ok = true;
    while (ok && (got = getline(&line, &line_capacity, file)) >= 0) {
        if (got < 8 || memcmp(line, "program\t", 8) != 0)
            continue;
        size_t length = (size_t) got - 8;
        if (length && line[8 + length - 1] == '\n')
            length--;
        /* Unescaped as the report parser would; a bad field is left to it.  */
        char *program = xmalloc(length + 1);
        size_t used = 0;
        bool valid = true;
        for (size_t i = 0; i < length; i++) {
            char c = line[8 + i];
            if (c == '\\' && i + 1 < length) {
                char e = line[8 + ++i];
                c = e == 't' ? '\t' : e == 'n' ? '\n' : e == '\\' ? '\\' : (valid = false, e);
            }
            program[used++] = c;
        }
        program[used] = '\0';
        if (!valid || !*program || name_index_find(programs, program, NULL)) {
            free(program);
            continue;
        }
        void *items = *list;
        grow_array(&items, capacity, *n_list + 1, sizeof **list);
        *list = items;
        (*list)[(*n_list)++] = program;
        name_index_put(programs, program, 0);
    }
    if (ferror(file))
        ok = diag_fail(d, "%s: %s", path, strerror(errno));
    free(line);
    fclose(file);
    return ok;
}

static bool load_tables(struct run_set *set, struct diag *d)
{
    const struct run_options *options = set->options;
    /* The binaries first, then the site-table files.  */
    for (size_t i = 0; i < options->n_tables; i++) {
        const struct table_file *table = &options->tables[i];
        bool found;
        if (!table->is_binary)
            continue;
        if (!site_catalog_add_binary(&set->catalog, table->path, &found, d))
            return false;
        if (!found)
            fprintf(stderr, PROGRAM_NAME ": note: %s has no " SITE_SECTION " section (stripped, "
                    "or built without the sampler plugin)\n", table->path);
    }
    for (size_t i = 0; i < options->n_tables; i++) {
        if (!options->tables[i].is_binary
            && !site_catalog_add_file(&set->catalog, options->tables[i].path, d))
            return false;
    }
    bool automatic = options->n_tables == 0;
    struct name_index seen = { 0 };
    char **programs = NULL;
    size_t n_programs = 0, capacity = 0;
    bool ok = true;
    struct progress progress;
    progress_start(&progress, "reading site tables", set->n_paths);
    for (size_t i = 0; ok && i < set->n_paths; i++) {
        progress_update(&progress, i);
        struct run_stream stream;
        if (!run_stream_open(&stream, set->paths[i], d)) {
            ok = false;
            break;
        }
        if (stream.is_aggregate)
            ok = site_catalog_add_text_at(&set->catalog, stream.path, stream.tables.data,
                                          stream.tables.size, stream.tables_first_line, d);
        else if (automatic)
            ok = collect_programs(set->paths[i], &seen, &programs, &n_programs, &capacity, d);
        run_stream_close(&stream);
    }
    progress_finish(&progress);
    for (size_t i = 0; ok && i < n_programs; i++) {
        bool found;
        struct diag why;
        if (access(programs[i], F_OK) != 0)
            fprintf(stderr, PROGRAM_NAME ": note: the reports' program %s does not exist here\n",
                    programs[i]);
        else if (!site_catalog_add_binary(&set->catalog, programs[i], &found, &why))
            fprintf(stderr, PROGRAM_NAME ": note: not using the reports' program: %s\n",
                    why.message);
        else if (!found)
            fprintf(stderr, PROGRAM_NAME ": note: %s has no " SITE_SECTION " section (stripped, "
                    "or built without the sampler plugin)\n", programs[i]);
    }
    /* Kept for the readers of other sections of the same programs
       (sampler-report paths).  */
    set->programs = programs;
    set->n_programs = n_programs;
    name_index_free(&seen);
    return ok;
}

bool run_set_open(struct run_set *set, const struct run_options *options, bool labels,
                  struct diag *d)
{
    memset(set, 0, sizeof *set);
    set->options = options;
    set->labels_needed = labels;
    site_catalog_init(&set->catalog);
    set->progress_label = "reading runs";
    bool ok = true;
    if (labels) {
        ok = options->labels ? labeller_init_file(&set->labeller, options->labels, d)
                             : labeller_init_rule(&set->labeller, options->fail_if, d);
        if (!ok) {
            /* Nothing to free but what run_set_close frees.  */
            memset(&set->labeller, 0, sizeof set->labeller);
        }
    }
    ok = ok && expand_inputs(set, d) && load_tables(set, d);
    if (ok)
        run_adder_init(&set->adder, &set->catalog);
    return ok;
}

/* ---- Runs ---------------------------------------------------------------------- */

bool run_set_visit(struct run_set *set, run_visitor visit, void *context, struct diag *d)
{
    bool ok = true;
    struct progress progress;
    progress_start(&progress, set->progress_label, set->n_paths);
    for (size_t p = 0; ok && p < set->n_paths; p++) {
        progress_update(&progress, p);
        struct run_stream stream;
        if (!run_stream_open(&stream, set->paths[p], d)) {
            ok = false;
            break;
        }
        for (;;) {
            struct run_report report;
            const char *origin;
            enum run_stream_status status = run_stream_next(&stream, &report, &origin, d);
            if (status != RUN_STREAM_RUN) {
                ok = status == RUN_STREAM_END;
                break;
            }
            if (report.exit_kind == EXIT_NOT_YET) {
                set->n_on_demand++;
                run_report_free(&report);
                continue;
            }
            struct run_view view = { origin, &report, NULL, 0, false, set->n_runs };
            ok = run_adder_add(&set->adder, &report, d);
            if (ok && set->labels_needed)
                ok = labeller_failed(&set->labeller, origin, &report, &view.failed, d);
            view.units = set->adder.units;
            view.n_units = set->adder.n_units;
            if (ok)
                ok = visit(context, &view, d);
            run_adder_clear(&set->adder);
            run_report_free(&report);
            if (!ok)
                break;
            set->n_runs++;
            set->n_failing += view.failed;
        }
        run_stream_close(&stream);
    }
    progress_finish(&progress);
    if (ok && set->labels_needed && set->options->labels)
        ok = labeller_check_all_used(&set->labeller, d);
    if (ok && set->n_runs == 0)
        ok = diag_fail(d, "no runs: every report was written on demand (no exit record)");
    return ok;
}

void run_set_explain(const struct run_set *set)
{
    if (set->n_on_demand)
        fprintf(stderr, PROGRAM_NAME ": note: left out %lu report%s written on demand (no exit "
                "record: snapshots of runs that went on)\n", set->n_on_demand,
                set->n_on_demand == 1 ? "" : "s");
    if (set->n_skipped_entries)
        fprintf(stderr, PROGRAM_NAME ": note: left out %zu director%s entr%s that %s not a "
                "regular file or %s a stale temporary report (*.tmp.PID)\n",
                set->n_skipped_entries, "y", set->n_skipped_entries == 1 ? "y" : "ies",
                set->n_skipped_entries == 1 ? "is" : "are",
                set->n_skipped_entries == 1 ? "is" : "are");
}

void run_set_close(struct run_set *set)
{
    for (size_t i = 0; i < set->n_programs; i++)
        free(set->programs[i]);
    free(set->programs);
    for (size_t i = 0; i < set->n_paths; i++)
        free(set->paths[i]);
    free(set->paths);
    run_adder_free(&set->adder);
    labeller_free(&set->labeller);
    site_catalog_free(&set->catalog);
    memset(set, 0, sizeof *set);
}
