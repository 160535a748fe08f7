#include "runs.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "command.h"
#include "progress.h"
#include "store-input.h"
#include "stream.h"

static void append_pointer(void *items_pointer, size_t *count, size_t *capacity,
                           const void *item)
{
    const void ***items = items_pointer;
    void *block = *items;
    grow_array(&block, capacity, *count + 1, sizeof **items);
    *items = block;
    (*items)[(*count)++] = item;
}

int run_options_take(const struct command *command, struct run_options *options, int argc,
                     char **argv, int *i)
{
    const char *argument = argv[*i];
    const char *value;
    if (argument[0] != '-') {
        append_pointer(&options->inputs, &options->n_inputs, &options->inputs_capacity, argument);
        return 1;
    }
    if (command_option_value("--binary", argc, argv, i, &value)) {
        if (!value || !*value)
            return command_usage_error(command, "option '--binary' needs a file"), -1;
        append_pointer(&options->binaries, &options->n_binaries, &options->binaries_capacity,
                       value);
        return 1;
    }
    if (command_option_value("--sites", argc, argv, i, &value)) {
        if (!value || !*value)
            return command_usage_error(command, "option '--sites' needs a file"), -1;
        append_pointer(&options->site_files, &options->n_site_files,
                       &options->site_files_capacity, value);
        return 1;
    }
    if (command_option_value("--fail-if", argc, argv, i, &value)) {
        if (!value || !*value)
            return command_usage_error(command, "option '--fail-if' needs a rule"), -1;
        options->fail_if = value;
        return 1;
    }
    if (command_option_value("--labels", argc, argv, i, &value)) {
        if (!value || !*value)
            return command_usage_error(command, "option '--labels' needs a file"), -1;
        options->labels = value;
        return 1;
    }
    /* export's --release names what it writes; the others' a stored one.  */
    bool reads_store = strcmp(command->name, "export") != 0;
    if (command_option_value("--store", argc, argv, i, &value)) {
        if (!value || !*value)
            return command_usage_error(command, "option '--store' needs a URL"), -1;
        options->store_url = value;
        return 1;
    }
    if (reads_store && command_option_value("--release", argc, argv, i, &value)) {
        if (!value || !*value)
            return command_usage_error(command, "option '--release' needs a release"), -1;
        options->store_release = value;
        return 1;
    }
    return 0;
}

int run_options_finish(const struct command *command, struct run_options *options)
{
    if (!options->store_url != !options->store_release)
        return command_usage_error(command, "give --store URL and --release R together");
    if (!options->store_url)
        return EXIT_FINE;
    struct diag d;
    if (!store_input_add(options, options->store_url, options->store_release, &d)) {
        fprintf(stderr, PROGRAM_NAME ": %s\n", d.message);
        return EXIT_BAD_INPUT;
    }
    return EXIT_FINE;
}

int run_command_line(const struct command *command, int argc, char **argv,
                     struct run_options *options, const char **output, const char *output_what,
                     int (*extra)(const struct command *command, int argc, char **argv, int *i))
{
    for (int i = 1; i < argc; i++) {
        const char *value;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            command_print_help(stdout, command);
            return RUN_COMMAND_HELP;
        }
        if (command_option_value("--output", argc, argv, &i, &value)
            || command_option_value("-o", argc, argv, &i, &value)) {
            if (!value || !*value)
                return command_usage_error(command, "option '--output' needs a %s", output_what);
            *output = value;
            continue;
        }
        int taken = run_options_take(command, options, argc, argv, &i);
        if (taken == 0 && extra)
            taken = extra(command, argc, argv, &i);
        if (taken < 0)
            return EXIT_BAD_INPUT;
        if (taken == 0)
            return command_usage_error(command, "unknown option '%s' for '%s'", argv[i],
                                       command->name);
    }
    if (options->labels && options->fail_if)
        return command_usage_error(command, "give --fail-if or --labels, not both");
    int finished = run_options_finish(command, options);
    if (finished != EXIT_FINE)
        return finished;
    if (options->n_inputs == 0)
        return command_usage_error(command, "'%s' needs reports", command->name);
    if (output && !*output)
        return command_usage_error(command, "'%s' needs --output %s", command->name,
                                   output_what);
    return EXIT_FINE;
}

void run_options_free(struct run_options *options)
{
    free(options->inputs);
    free(options->binaries);
    free(options->site_files);
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
    for (size_t i = 0; i < options->n_binaries; i++) {
        bool found;
        if (!site_catalog_add_binary(&set->catalog, options->binaries[i], &found, d))
            return false;
        if (!found)
            fprintf(stderr, PROGRAM_NAME ": note: %s has no " SITE_SECTION " section (stripped, "
                    "or built without the sampler plugin)\n", options->binaries[i]);
    }
    for (size_t i = 0; i < options->n_site_files; i++) {
        if (!site_catalog_add_file(&set->catalog, options->site_files[i], d))
            return false;
    }
    bool automatic = options->n_binaries == 0 && options->n_site_files == 0;
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
