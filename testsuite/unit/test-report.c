/* Reports and the unit registry.  In-process: SAMPLER_FILE patterns and
   unit validation.  In real processes: report-helper (units declared by
   hand, no plugin; linked statically and against libsampler.so) runs in a
   fresh temporary directory with an environment made from scratch, and the
   test reads back exactly what it left: report files, descriptors, stderr,
   exit status.  */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <check.h>

#include "sampler-abi.h"
#include "sampler-internal.h"

static const char *const helpers[] = { REPORT_HELPER_STATIC, REPORT_HELPER_SHARED };
#define HELPER_COUNT (sizeof helpers / sizeof helpers[0])

/* What report-helper's units look like in a report after main bumped
   their counters.  */
static const char helper_units[] =
    "unit\t0123456789abcdef0123456789abcdef\t4\t9\ta.c\n"
    "0\t5\n"
    "1\t0\t7\n"
    "3\t1\t0\t2\n"
    "unit\tfedcba9876543210fedcba9876543210\t1\t2\tdir/b\\tc\\\\d\\n.c\n"
    "0\t3\t4\n"
    "unit\t00000000000000000000000000000000\t0\t0\tempty.c\n";
static const char dso_unit[] =
    "unit\td50d50d50d50d50d50d50d50d50d50d5\t1\t1\tdso.c\n"
    "0\t9\n";

/* ---- Processes, files and directories ----------------------------------- */

struct run {
    pid_t pid;
    int status;
    char *out;
    char *err;
};

static char *read_stream(FILE *file)
{
    size_t size = 0, capacity = 4096;
    char *text = malloc(capacity);

    ck_assert_ptr_nonnull(text);
    rewind(file);
    for (;;) {
        size += fread(text + size, 1, capacity - size - 1, file);
        if (size + 1 < capacity)
            break;
        capacity *= 2;
        char *larger = realloc(text, capacity);
        ck_assert_ptr_nonnull(larger);
        text = larger;
    }
    text[size] = '\0';
    fclose(file);
    return text;
}

/* Every report has one run-id record, 32 lowercase hex digits, right
   after its seed (docs/remote.md; its own tests are in testsuite/remote/).
   The expected texts here leave it out, being random: checked, then taken
   out of TEXT.  */
static char *without_run_ids(char *text)
{
    unsigned reports = 0, ids = 0;
    char *out = text;
    const char *previous = "";

    if (text == NULL || strncmp(text, "sampler-report\t", 15) != 0)
        return text;
    for (const char *line = text; *line != '\0';) {
        const char *end = strchr(line, '\n');
        size_t length = end != NULL ? (size_t)(end - line) + 1 : strlen(line);
        reports += strncmp(line, "sampler-report\t", 15) == 0;
        if (strncmp(line, "run-id\t", 7) == 0) {
            ck_assert_msg(length == 7 + 32 + 1 && strspn(line + 7, "0123456789abcdef") == 32,
                          "bad run-id record: %.60s", line);
            ck_assert_msg(strncmp(previous, "seed\t", 5) == 0, "run-id not after seed");
            ids++;
        } else {
            memmove(out, line, length);
            previous = out;
            out += length;
        }
        line += length;
    }
    *out = '\0';
    ck_assert_msg(ids == reports, "%u reports but %u run-id records", reports, ids);
    return text;
}

/* The whole file, or NULL if it cannot be opened.  */
static char *read_file(const char *path)
{
    FILE *file = fopen(path, "r");
    return file != NULL ? without_run_ids(read_stream(file)) : NULL;
}

/* Everything readable from fd until end of file; closes fd.  */
static char *read_descriptor(int fd)
{
    FILE *file = fdopen(fd, "r");
    ck_assert_ptr_nonnull(file);
    return without_run_ids(read_stream(file));
}

/* Runs argv in directory with exactly the environment env; descriptors
   the test opened without O_CLOEXEC are inherited.  */
static struct run run_in(const char *directory, const char *const argv[],
                         const char *const env[])
{
    FILE *out = tmpfile(), *err = tmpfile();
    struct run run;

    ck_assert_ptr_nonnull(out);
    ck_assert_ptr_nonnull(err);
    fflush(NULL);
    run.pid = fork();
    ck_assert_int_ne(run.pid, -1);
    if (run.pid == 0) {
        /* Runs that die of a signal leave no core file behind.  */
        const struct rlimit no_core = { 0, 0 };
        if (chdir(directory) != 0 || dup2(fileno(out), STDOUT_FILENO) < 0
            || dup2(fileno(err), STDERR_FILENO) < 0 || setrlimit(RLIMIT_CORE, &no_core) != 0)
            _exit(126);
        execve(argv[0], (char *const *)argv, (char *const *)env);
        _exit(127);
    }
    ck_assert_int_eq(waitpid(run.pid, &run.status, 0), run.pid);
    run.out = read_stream(out);
    run.err = read_stream(err);
    return run;
}

static struct run run_helper(const char *helper, const char *directory,
                             const char *const env[], const char *mode,
                             const char *arg)
{
    const char *argv[] = { helper, mode, arg, NULL };
    return run_in(directory, argv, env);
}

static void free_run(struct run *run)
{
    free(run->out);
    free(run->err);
}

static void assert_exit_status(const struct run *run, int status)
{
    ck_assert_msg(WIFEXITED(run->status) && WEXITSTATUS(run->status) == status,
                  "wait status %#x, expected exit %d; stderr: %s", run->status,
                  status, run->err);
}

static void assert_killed_by(const struct run *run, int signal_number)
{
    ck_assert_msg(WIFSIGNALED(run->status) && WTERMSIG(run->status) == signal_number,
                  "wait status %#x, expected signal %d; stderr: %s", run->status,
                  signal_number, run->err);
}

static size_t count_lines(const char *text)
{
    size_t lines = 0;
    for (; *text != '\0'; text++)
        lines += *text == '\n';
    return lines;
}

/* The warning on stderr is one whole line containing every one of the
   given texts.  */
static void assert_one_warning(const struct run *run, const char *text,
                               const char *more)
{
    ck_assert_msg(count_lines(run->err) == 1 && run->err[strlen(run->err) - 1] == '\n',
                  "not one line: %s", run->err);
    ck_assert_msg(strncmp(run->err, "sampler: ", 9) == 0, "%s", run->err);
    ck_assert_msg(strstr(run->err, text) != NULL, "no %s in: %s", text, run->err);
    ck_assert_msg(more == NULL || strstr(run->err, more) != NULL, "no %s in: %s",
                  more, run->err);
}

static char *path_in(const char *directory, const char *name)
{
    char *path = malloc(strlen(directory) + strlen(name) + 2);
    ck_assert_ptr_nonnull(path);
    sprintf(path, "%s/%s", directory, name);
    return path;
}

static int remove_entry(const char *path, const struct stat *status, int type,
                        struct FTW *walk)
{
    (void)status;
    (void)type;
    (void)walk;
    return remove(path);
}

/* Every test's directory is made in this one, which the test runner's own
   process (an unchecked fixture) removes, even after a failed test.  */
static char base_directory[] = "/tmp/sampler-report-test-XXXXXX";

static void make_base_directory(void)
{
    if (mkdtemp(base_directory) == NULL) {
        perror("mkdtemp");
        exit(EXIT_FAILURE);
    }
}

static void remove_base_directory(void)
{
    nftw(base_directory, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    memcpy(base_directory + strlen(base_directory) - 6, "XXXXXX", 6);
}

static char *make_directory(void)
{
    char *directory = path_in(base_directory, "run-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(directory));
    return directory;
}

static void remove_directory(char *directory)
{
    nftw(directory, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    free(directory);
}

static int not_dot(const struct dirent *entry)
{
    return strcmp(entry->d_name, ".") != 0 && strcmp(entry->d_name, "..") != 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

/* The names in directory, sorted, one per line.  */
static char *list_directory(const char *directory)
{
    struct dirent **entries;
    int count = scandir(directory, &entries, not_dot, by_name);
    size_t length = 0;

    ck_assert_int_ge(count, 0);
    for (int i = 0; i < count; i++)
        length += strlen(entries[i]->d_name) + 1;
    char *text = malloc(length + 1);
    ck_assert_ptr_nonnull(text);
    text[0] = '\0';
    for (int i = 0; i < count; i++) {
        strcat(text, entries[i]->d_name);
        strcat(text, "\n");
        free(entries[i]);
    }
    free(entries);
    return text;
}

/* ---- Reports ------------------------------------------------------------ */

/* The exact report of a run of program, given its header values, its exit
   or interim record, the units of the program and those of a DSO (or
   NULL).  */
static char *expected_report_with_dso(const char *program, pid_t pid, long sparsity,
                                      const char *seed, const char *ending,
                                      const char *units, const char *dso_path,
                                      const char *dso)
{
    char *text = malloc(8192);
    ck_assert_ptr_nonnull(text);
    snprintf(text, 8192,
             "sampler-report\t1\nprogram\t%s\npid\t%ld\nsparsity\t%ld\nseed\t%s\n"
             "%s\n%s%s%s%s%s%s%s%send\n", program, (long)pid, sparsity, seed, ending,
             *units != '\0' ? "object\t" : "", *units != '\0' ? program : "",
             *units != '\0' ? "\n" : "", units,
             dso != NULL ? "object\t" : "", dso != NULL ? dso_path : "",
             dso != NULL ? "\n" : "", dso != NULL ? dso : "");
    return text;
}

static char *expected_report(const char *program, pid_t pid, long sparsity,
                             const char *seed, const char *ending, const char *units)
{
    return expected_report_with_dso(program, pid, sparsity, seed, ending, units, NULL, NULL);
}

struct parsed_report {
    long pid;
    long sparsity;
    uint64_t seed;
    long parent;            /* 0 when there is no parent record */
    uint64_t resets;        /* 0 when there is no reset record */
    char exit_kind[16];     /* "status", "signal", "exec", or "interim" */
    long exit_value;        /* for "interim": its number */
    unsigned units;
    unsigned objects;
};

static bool parse_number(const char *field, uint64_t *value)
{
    char *end;
    if (*field < '0' || *field > '9')
        return false;
    errno = 0;
    *value = strtoull(field, &end, 10);
    return errno == 0 && *end == '\0';
}

/* Splits line (modified) at TABs into at most max fields.  */
static size_t split_fields(char *line, char **fields, size_t max)
{
    size_t count = 0;
    for (char *field = line; field != NULL && count < max;) {
        fields[count++] = field;
        field = strchr(field, '\t');
        if (field != NULL)
            *field++ = '\0';
    }
    return count;
}

/* Checks that text follows the report grammar of report-format.md and
   extracts its header values.  */
static struct parsed_report parse_report(const char *text)
{
    static const char *const header[] = { "sampler-report", "program", "pid",
                                          "sparsity", "seed" };
    struct parsed_report report = { .units = 0 };
    char *copy = strdup(text);
    char *fields[64];
    uint64_t value, n_sites = 0, n_counters = 0, counters_seen = 0;
    long last_site = -1;
    bool ended = false, objects_since_unit = false;
    size_t line_number = 0;

    ck_assert_ptr_nonnull(copy);
    ck_assert_msg(*text != '\0' && text[strlen(text) - 1] == '\n', "no final newline");
    for (char *line = strtok(copy, "\n"); line != NULL; line = strtok(NULL, "\n")) {
        ck_assert_msg(!ended, "a line after end: %s", line);
        size_t count = split_fields(line, fields, 64);
        for (size_t i = 0; i < count; i++)
            ck_assert_msg(fields[i][0] != '\0' || (i == 4 && strcmp(fields[0], "unit") == 0),
                          "empty field %zu on line %zu", i, line_number + 1);
        if (line_number < 5) {
            ck_assert_msg(count == 2 && strcmp(fields[0], header[line_number]) == 0,
                          "line %zu is not %s", line_number + 1, header[line_number]);
            if (line_number == 0)
                ck_assert_str_eq(fields[1], "1");
            if (line_number >= 2)
                ck_assert_msg(parse_number(fields[1], &value), "%s", fields[1]);
            if (line_number == 2)
                report.pid = (long)value;
            if (line_number == 3)
                report.sparsity = (long)value;
            if (line_number == 4)
                report.seed = value;
        } else if (strcmp(fields[0], "parent") == 0) {
            ck_assert_msg(line_number == 5 && count == 2, "misplaced parent record");
            ck_assert(parse_number(fields[1], &value) && value > 0);
            report.parent = (long)value;
        } else if (strcmp(fields[0], "reset") == 0) {
            ck_assert_msg(line_number == 5u + (report.parent > 0) && count == 2,
                          "misplaced reset record");
            ck_assert(parse_number(fields[1], &report.resets) && report.resets > 0);
        } else if (strcmp(fields[0], "exit") == 0 || strcmp(fields[0], "interim") == 0) {
            ck_assert_msg(report.exit_kind[0] == '\0'
                          && line_number == 5u + (report.parent > 0) + (report.resets > 0)
                          && report.units == 0,
                          "misplaced %s record", fields[0]);
            if (strcmp(fields[0], "interim") == 0) {
                ck_assert_int_eq(count, 2);
                strcpy(report.exit_kind, "interim");
                ck_assert(parse_number(fields[1], &value) && value > 0);
            } else if (strcmp(fields[1], "exec") == 0) {
                ck_assert_int_eq(count, 2);
                strcpy(report.exit_kind, "exec");
                value = 0;
            } else {
                ck_assert_int_eq(count, 3);
                ck_assert_msg(strcmp(fields[1], "status") == 0
                              || strcmp(fields[1], "signal") == 0, "%s", fields[1]);
                snprintf(report.exit_kind, sizeof report.exit_kind, "%s", fields[1]);
                ck_assert(parse_number(fields[2], &value));
            }
            report.exit_value = (long)value;
        } else if (strcmp(fields[0], "object") == 0) {
            ck_assert_msg(report.exit_kind[0] != '\0', "an object before the exit record");
            ck_assert_int_eq(count, 2);
            report.objects++;
            objects_since_unit = true;
        } else if (strcmp(fields[0], "unit") == 0) {
            ck_assert_msg(report.objects > 0, "a unit before any object");
            objects_since_unit = false;
            ck_assert_int_eq(count, 5);
            ck_assert_uint_eq(strlen(fields[1]), 32);
            ck_assert(parse_number(fields[2], &n_sites));
            ck_assert(parse_number(fields[3], &n_counters));
            report.units++;
            last_site = -1;
            counters_seen = 0;
        } else if (strcmp(fields[0], "end") == 0) {
            ck_assert_int_eq(count, 1);
            ck_assert_msg(report.exit_kind[0] != '\0', "no exit or interim record");
            ck_assert_msg(!objects_since_unit, "an object without units");
            ended = true;
        } else {
            ck_assert_msg(report.units > 0 && !objects_since_unit, "a site before any unit");
            ck_assert(parse_number(fields[0], &value));
            ck_assert_msg((long)value > last_site && value < n_sites,
                          "site %" PRIu64 " out of order or range", value);
            last_site = (long)value;
            ck_assert_msg(count >= 2, "a site without counters");
            bool nonzero = false;
            for (size_t i = 1; i < count; i++) {
                ck_assert(parse_number(fields[i], &value));
                nonzero |= value != 0;
            }
            ck_assert_msg(nonzero, "a site with only zero counters");
            counters_seen += count - 1;
            ck_assert_uint_le(counters_seen, n_counters);
        }
        line_number++;
    }
    ck_assert_msg(ended, "no end record");
    free(copy);
    return report;
}

static void assert_report_is(const char *text, const char *expected)
{
    ck_assert_ptr_nonnull(text);
    parse_report(text);
    ck_assert_str_eq(text, expected);
}

static char *default_report_name(pid_t pid)
{
    char name[64];
    snprintf(name, sizeof name, "sampler-%ld.report", (long)pid);
    return strdup(name);
}

/* The directory holds one file, the default report of pid, which is
   exactly expected; returns its text.  */
static char *assert_only_default_report(const char *directory, pid_t pid,
                                        const char *expected)
{
    char *name = default_report_name(pid);
    char *listing = list_directory(directory);
    char expected_listing[80];
    snprintf(expected_listing, sizeof expected_listing, "%s\n", name);
    ck_assert_str_eq(listing, expected_listing);
    char *path = path_in(directory, name);
    char *report = read_file(path);
    assert_report_is(report, expected);
    free(path);
    free(listing);
    free(name);
    return report;
}

/* ---- In-process: patterns and units ------------------------------------- */

START_TEST(test_patterns)
{
    static const char *const valid[] = { "r", "r-%p", "%%", "a/%p/b%%%p", "/x/y.report",
                                         "%h-%t-%p", "%t" };
    static const char *const invalid[] = { "", "%", "r%", "%x", "%P", "a%%%", "%d-%p",
                                           "%H", "%T", "%h%" };
    const struct sampler_name_values values = { .pid = 4321, .host = "box.example",
                                                .time = 1700000000 };
    const struct sampler_name_values odd_host = { .pid = 7, .host = "a/b/..", .time = 0 };
    char path[64];

    for (size_t i = 0; i < sizeof valid / sizeof valid[0]; i++)
        ck_assert_msg(sampler_report_pattern_valid(valid[i]), "%s", valid[i]);
    for (size_t i = 0; i < sizeof invalid / sizeof invalid[0]; i++)
        ck_assert_msg(!sampler_report_pattern_valid(invalid[i]), "%s", invalid[i]);

    char *long_pattern = malloc(SAMPLER_PATH_MAX + 1);
    ck_assert_ptr_nonnull(long_pattern);
    memset(long_pattern, 'x', SAMPLER_PATH_MAX);
    long_pattern[SAMPLER_PATH_MAX] = '\0';
    ck_assert(!sampler_report_pattern_valid(long_pattern));
    long_pattern[SAMPLER_PATH_MAX - 1] = '\0';
    ck_assert(sampler_report_pattern_valid(long_pattern));
    free(long_pattern);

    ck_assert_int_eq(sampler_report_expand("r-%p.report", &values, path, sizeof path), 13);
    ck_assert_str_eq(path, "r-4321.report");
    ck_assert_int_eq(sampler_report_expand("%%p/%p%p%%", &values, path, sizeof path), 12);
    ck_assert_str_eq(path, "%p/43214321%");
    ck_assert_int_eq(sampler_report_expand("%h/%t.%p", &values, path, sizeof path), 27);
    ck_assert_str_eq(path, "box.example/1700000000.4321");
    /* The host name never adds a directory.  */
    ck_assert_int_eq(sampler_report_expand("r-%h-%t", &odd_host, path, sizeof path), 10);
    ck_assert_str_eq(path, "r-a_b_..-0");
    /* Nor climbs out of one: "." and ".." (set in a container by whoever
       owns it) become underscores, and an empty name is "_".  */
    static const char *const dots[][2] = { { "..", "d/__/r" }, { ".", "d/_/r" },
                                           { "", "d/_/r" }, { "...", "d/___/r" },
                                           { "a..", "d/a../r" } };
    for (size_t i = 0; i < sizeof dots / sizeof dots[0]; i++) {
        const struct sampler_name_values dotted = { .pid = 1, .host = dots[i][0] };
        ck_assert_int_eq(sampler_report_expand("d/%h/r", &dotted, path, sizeof path),
                         (long)strlen(dots[i][1]));
        ck_assert_str_eq(path, dots[i][1]);
    }
    ck_assert_int_eq(sampler_report_expand("abc", &values, path, 4), 3);
    ck_assert_int_eq(sampler_report_expand("abcd", &values, path, 4), -1);
    ck_assert_int_eq(sampler_report_expand("a%p", &values, path, 5), -1);
    ck_assert_int_eq(sampler_report_expand("%h", &values, path, 11), -1);
}
END_TEST

static const unsigned good_offsets[] = { 0, 1, 3 };
static unsigned long long some_counters[3];

struct unit_case {
    struct __sampler_unit unit;
    const char *problem;     /* NULL: valid */
};

static const unsigned equal_offsets[] = { 0, 1, 1 };
static const unsigned decreasing_offsets[] = { 0, 2, 1 };
static const unsigned late_start_offsets[] = { 1, 2, 3 };

#define UNIT(version_, sites, counters_, signature_, offsets, array) \
    { .version = (version_), .n_sites = (sites), .n_counters = (counters_), \
      .signature = (signature_), .source = "u.c", .site_offsets = (offsets), \
      .counters = (array) }
#define SIGNATURE "0123456789abcdef0123456789abcdef"

static const struct unit_case unit_cases[] = {
    { UNIT(SAMPLER_ABI_VERSION, 2, 3, SIGNATURE, good_offsets, some_counters), NULL },
    { UNIT(SAMPLER_ABI_VERSION, 0, 0, SIGNATURE, NULL, NULL), NULL },
    { UNIT(SAMPLER_ABI_VERSION, 0, 0, SIGNATURE, good_offsets, NULL), NULL },
    { UNIT(0, 2, 3, SIGNATURE, good_offsets, some_counters), "ABI version 0" },
    /* Version 1's sample functions returned the next countdown.  */
    { UNIT(1, 2, 3, SIGNATURE, good_offsets, some_counters), "ABI version 1" },
    { UNIT(4, 2, 3, SIGNATURE, good_offsets, some_counters), "ABI version 4" },
    { UNIT(2, 2, 3, SIGNATURE, good_offsets, some_counters), NULL },
    { UNIT(SAMPLER_ABI_VERSION, 2, 3, NULL, good_offsets, some_counters), "signature" },
    { UNIT(SAMPLER_ABI_VERSION, 2, 3, "0123456789ABCDEF0123456789abcdef", good_offsets, some_counters), "signature" },
    { UNIT(SAMPLER_ABI_VERSION, 2, 3, "0123456789abcdef", good_offsets, some_counters), "signature" },
    { UNIT(SAMPLER_ABI_VERSION, 2, 3, SIGNATURE "0", good_offsets, some_counters), "signature" },
    { UNIT(SAMPLER_ABI_VERSION, 2, 3, SIGNATURE, NULL, some_counters), "no site offsets" },
    { UNIT(SAMPLER_ABI_VERSION, 2, 2, SIGNATURE, equal_offsets, some_counters), "do not increase at site 1" },
    { UNIT(SAMPLER_ABI_VERSION, 2, 1, SIGNATURE, decreasing_offsets, some_counters), "do not increase at site 1" },
    { UNIT(SAMPLER_ABI_VERSION, 2, 3, SIGNATURE, late_start_offsets, some_counters), "start at 1" },
    { UNIT(SAMPLER_ABI_VERSION, 2, 4, SIGNATURE, good_offsets, some_counters), "end at 3, but there are 4" },
    { UNIT(SAMPLER_ABI_VERSION, 1, 3, SIGNATURE, good_offsets, some_counters), "end at 1, but there are 3" },
    { UNIT(SAMPLER_ABI_VERSION, 2, 3, SIGNATURE, good_offsets, NULL), "no counter array" },
};

START_TEST(test_unit_validation)
{
    const struct unit_case *c = &unit_cases[_i];
    char problem[256] = "";

    bool valid = sampler_unit_is_valid(&c->unit, problem, sizeof problem);
    if (c->problem == NULL) {
        ck_assert_msg(valid, "rejected: %s", problem);
    } else {
        ck_assert_msg(!valid, "accepted, expected: %s", c->problem);
        ck_assert_msg(strstr(problem, c->problem) != NULL, "'%s' does not say '%s'",
                      problem, c->problem);
        ck_assert_ptr_null(strchr(problem, '\n'));
    }
}
END_TEST

/* ---- Processes: content, names, destinations ---------------------------- */

START_TEST(test_exit_report_is_exact)
{
    const char *helper = helpers[_i];
    const char *env[] = { "SAMPLER_SPARSITY=1", "SAMPLER_SEED=5", NULL };
    char *directory = make_directory();
    struct run run = run_helper(helper, directory, env, "exit", "3");

    assert_exit_status(&run, 3);
    ck_assert_str_eq(run.out, "");
    ck_assert_str_eq(run.err, "");
    char *expected = expected_report(helper, run.pid, 1, "5", "exit\tstatus\t3",
                                     helper_units);
    char *report = assert_only_default_report(directory, run.pid, expected);
    struct parsed_report parsed = parse_report(report);
    ck_assert_int_eq(parsed.pid, run.pid);
    ck_assert_str_eq(parsed.exit_kind, "status");
    ck_assert_int_eq(parsed.exit_value, 3);
    ck_assert_uint_eq(parsed.units, 3);

    free(expected);
    free(report);
    free_run(&run);
    remove_directory(directory);
}
END_TEST

START_TEST(test_return_from_main_is_reported)
{
    const char *helper = helpers[_i];
    const char *env[] = { "SAMPLER_SPARSITY=1000", "SAMPLER_SEED=18446744073709551615", NULL };
    char *directory = make_directory();
    struct run run = run_helper(helper, directory, env, "return", "4");

    assert_exit_status(&run, 4);
    ck_assert_str_eq(run.err, "");
    char *name = default_report_name(run.pid);
    char *path = path_in(directory, name);
    char *report = read_file(path);
    char *expected = expected_report(helper, run.pid, 1000, "18446744073709551615",
                                     "exit\tstatus\t4", helper_units);
    assert_report_is(report, expected);

    free(expected);
    free(report);
    free(path);
    free(name);
    free_run(&run);
    remove_directory(directory);
}
END_TEST

/* An unseeded run reports the fresh seed its streams came from.  */
START_TEST(test_fresh_seed_is_the_one_used)
{
    const char *helper = helpers[_i];
    const char *env[] = { "SAMPLER_SPARSITY=100", NULL };
    char *directory = make_directory();
    struct run run = run_helper(helper, directory, env, "countdowns", "2000");

    assert_exit_status(&run, 0);
    char *name = default_report_name(run.pid);
    char *path = path_in(directory, name);
    char *report = read_file(path);
    ck_assert_ptr_nonnull(report);
    struct parsed_report parsed = parse_report(report);
    ck_assert_int_eq(parsed.sparsity, 100);

    struct sampler_stream *stream = sampler_stream_new(100, parsed.seed, 0);
    ck_assert_ptr_nonnull(stream);
    ck_assert_msg(strncmp(run.out, "main ", 5) == 0, "%s", run.out);
    char *cursor = run.out + 4;
    size_t draws = 0, differences = 0;
    while (*cursor == ' ') {
        long value = strtol(cursor, &cursor, 10);
        differences += value != sampler_stream_next(stream);
        draws++;
    }
    sampler_stream_free(stream);
    ck_assert_uint_eq(draws, 2000);
    ck_assert_uint_eq(differences, 0);

    free(report);
    free(path);
    free(name);
    free_run(&run);
    remove_directory(directory);
}
END_TEST

START_TEST(test_file_pattern_and_directories)
{
    const char *helper = helpers[_i];
    char *directory = make_directory();
    char variable[512];
    snprintf(variable, sizeof variable, "SAMPLER_FILE=%s/x/y/z/run-%%p-%%%%.rep", directory);
    const char *env[] = { "SAMPLER_SPARSITY=1", "SAMPLER_SEED=9", variable, NULL };
    struct run run = run_helper(helper, directory, env, "exit", "0");

    assert_exit_status(&run, 0);
    ck_assert_str_eq(run.err, "");
    char *leaf = path_in(directory, "x/y/z");
    char *listing = list_directory(leaf);
    char name[80];
    snprintf(name, sizeof name, "run-%ld-%%.rep", (long)run.pid);
    char expected_listing[96];
    snprintf(expected_listing, sizeof expected_listing, "%s\n", name);
    ck_assert_str_eq(listing, expected_listing);

    char *path = path_in(leaf, name);
    char *report = read_file(path);
    char *expected = expected_report(helper, run.pid, 1, "9", "exit\tstatus\t0",
                                     helper_units);
    assert_report_is(report, expected);

    /* Created as mkdir -p would: 0777 less the umask.  */
    mode_t mask = umask(0);
    umask(mask);
    struct stat status;
    ck_assert_int_eq(stat(leaf, &status), 0);
    ck_assert_int_eq(status.st_mode & 0777, 0777 & ~mask);

    free(expected);
    free(report);
    free(path);
    free(listing);
    free(leaf);
    free_run(&run);
    remove_directory(directory);
}
END_TEST

START_TEST(test_relative_file_is_from_the_starting_directory)
{
    const char *helper = helpers[_i];
    char *directory = make_directory();
    char *elsewhere = path_in(directory, "elsewhere");
    ck_assert_int_eq(mkdir(elsewhere, 0777), 0);
    const char *env[] = { "SAMPLER_SPARSITY=1", "SAMPLER_SEED=9",
                          "SAMPLER_FILE=reports/r-%p", NULL };
    struct run run = run_helper(helper, directory, env, "chdir", elsewhere);

    assert_exit_status(&run, 0);
    ck_assert_str_eq(run.err, "");
    char *listing = list_directory(elsewhere);
    ck_assert_str_eq(listing, "");
    char name[64];
    snprintf(name, sizeof name, "reports/r-%ld", (long)run.pid);
    char *path = path_in(directory, name);
    char *report = read_file(path);
    ck_assert_msg(report != NULL, "no %s", path);
    parse_report(report);

    free(report);
    free(path);
    free(listing);
    free(elsewhere);
    free_run(&run);
    remove_directory(directory);
}
END_TEST

/* The descriptor wins over SAMPLER_FILE, and is written to, not closed:
   reports written on demand and at exit follow each other on it.  */
START_TEST(test_report_fd_pipe)
{
    const char *helper = helpers[_i];
    char *directory = make_directory();
    int ends[2];
    ck_assert_int_eq(pipe(ends), 0);
    char fd_variable[64], file_variable[512];
    snprintf(fd_variable, sizeof fd_variable, "SAMPLER_REPORT_FD=%d", ends[1]);
    snprintf(file_variable, sizeof file_variable, "SAMPLER_FILE=%s/file-%%p", directory);
    const char *env[] = { "SAMPLER_SPARSITY=1", "SAMPLER_SEED=9", fd_variable,
                          file_variable, NULL };
    struct run run = run_helper(helper, directory, env, "write-now", NULL);

    close(ends[1]);
    assert_exit_status(&run, 0);
    ck_assert_str_eq(run.err, "");
    ck_assert_str_eq(run.out, "write 0\nwrite 0\n");
    char *written = read_descriptor(ends[0]);
    char *first = expected_report(helper, run.pid, 1, "9", "interim\t1", helper_units);
    char *second = expected_report(helper, run.pid, 1, "9", "interim\t2", helper_units);
    char *exited = expected_report(helper, run.pid, 1, "9", "exit\tstatus\t0",
                                   helper_units);
    char *expected = malloc(3 * strlen(exited) + 1);
    ck_assert_ptr_nonnull(expected);
    sprintf(expected, "%s%s%s", first, second, exited);
    ck_assert_str_eq(written, expected);
    char *listing = list_directory(directory);
    ck_assert_str_eq(listing, "");

    free(listing);
    free(expected);
    free(exited);
    free(first);
    free(second);
    free(written);
    free_run(&run);
    remove_directory(directory);
}
END_TEST

START_TEST(test_report_fd_file)
{
    const char *helper = helpers[_i];
    char *directory = make_directory();
    char *path = path_in(directory, "given.report");
    int fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
    ck_assert_int_ge(fd, 0);
    char fd_variable[64];
    snprintf(fd_variable, sizeof fd_variable, "SAMPLER_REPORT_FD=%d", fd);
    const char *env[] = { "SAMPLER_SPARSITY=7", "SAMPLER_SEED=0", fd_variable, NULL };
    struct run run = run_helper(helper, directory, env, "exit", "1");

    close(fd);
    assert_exit_status(&run, 1);
    ck_assert_str_eq(run.err, "");
    char *report = read_file(path);
    char *expected = expected_report(helper, run.pid, 7, "0", "exit\tstatus\t1",
                                     helper_units);
    assert_report_is(report, expected);
    char *listing = list_directory(directory);
    ck_assert_str_eq(listing, "given.report\n");

    free(listing);
    free(expected);
    free(report);
    free(path);
    free_run(&run);
    remove_directory(directory);
}
END_TEST

static const char *const off_environments[][3] = {
    { NULL, NULL, NULL },
    { "SAMPLER_SPARSITY=0", "SAMPLER_SEED=4", NULL },
    { "SAMPLER_SPARSITY=", NULL, NULL },
};

START_TEST(test_no_report_when_off)
{
    for (size_t h = 0; h < HELPER_COUNT; h++) {
        char *directory = make_directory();
        int ends[2];
        ck_assert_int_eq(pipe(ends), 0);
        char fd_variable[64];
        snprintf(fd_variable, sizeof fd_variable, "SAMPLER_REPORT_FD=%d", ends[1]);
        const char *const *off = off_environments[_i];
        /* Once to the default file, once to the descriptor.  */
        for (int with_fd = 0; with_fd < 2; with_fd++) {
            const char *env[4];
            size_t used = 0;
            for (size_t k = 0; off[k] != NULL; k++)
                env[used++] = off[k];
            if (with_fd)
                env[used++] = fd_variable;
            env[used] = NULL;
            struct run run = run_helper(helpers[h], directory, env, "write-now", NULL);
            assert_exit_status(&run, 0);
            ck_assert_str_eq(run.err, "");
            ck_assert_str_eq(run.out, "write -1\nwrite -1\n");
            free_run(&run);
        }
        close(ends[1]);
        char *written = read_descriptor(ends[0]);
        ck_assert_str_eq(written, "");
        char *listing = list_directory(directory);
        ck_assert_str_eq(listing, "");
        free(listing);
        free(written);
        remove_directory(directory);
    }
}
END_TEST

START_TEST(test_existing_file_is_not_replaced)
{
    const char *helper = helpers[_i];
    char *directory = make_directory();
    char *path = path_in(directory, "fixed.report");
    FILE *existing = fopen(path, "w");
    ck_assert_ptr_nonnull(existing);
    fputs("keep\n", existing);
    fclose(existing);
    char variable[512];
    snprintf(variable, sizeof variable, "SAMPLER_FILE=%s", path);
    const char *env[] = { "SAMPLER_SPARSITY=1", "SAMPLER_SEED=9", variable, NULL };

    struct run first = run_helper(helper, directory, env, "exit", "0");
    struct run second = run_helper(helper, directory, env, "exit", "2");
    assert_exit_status(&first, 0);
    assert_exit_status(&second, 2);
    ck_assert_str_eq(first.err, "");
    ck_assert_str_eq(second.err, "");

    char *listing = list_directory(directory);
    ck_assert_str_eq(listing, "fixed.report\nfixed.report.1\nfixed.report.2\n");
    char *kept = read_file(path);
    ck_assert_str_eq(kept, "keep\n");
    char *first_path = path_in(directory, "fixed.report.1");
    char *second_path = path_in(directory, "fixed.report.2");
    char *first_report = read_file(first_path);
    char *second_report = read_file(second_path);
    char *first_expected = expected_report(helper, first.pid, 1, "9",
                                           "exit\tstatus\t0", helper_units);
    char *second_expected = expected_report(helper, second.pid, 1, "9",
                                            "exit\tstatus\t2", helper_units);
    assert_report_is(first_report, first_expected);
    assert_report_is(second_report, second_expected);

    free(second_expected);
    free(first_expected);
    free(second_report);
    free(first_report);
    free(second_path);
    free(first_path);
    free(kept);
    free(listing);
    free(path);
    free_run(&first);
    free_run(&second);
    remove_directory(directory);
}
END_TEST

/* Runs helper MODE in a new directory with SAMPLER_FILE the file NAME
   there (given in *path), sparsity 1 and seed 9; it must exit with 0 and
   say nothing.  */
static struct run run_with_report_file(const char *helper, const char *name,
                                       const char *mode, char **directory, char **path)
{
    char variable[512];

    *directory = make_directory();
    *path = path_in(*directory, name);
    snprintf(variable, sizeof variable, "SAMPLER_FILE=%s", *path);
    const char *env[] = { "SAMPLER_SPARSITY=1", "SAMPLER_SEED=9", variable, NULL };
    struct run run = run_helper(helper, *directory, env, mode, NULL);
    assert_exit_status(&run, 0);
    ck_assert_str_eq(run.err, "");
    return run;
}

/* On demand: each report holds all the counts so far, marked interim,
   and replaces the process's previous one in its file; the exit report
   replaces the last.  */
START_TEST(test_dumps_replace_each_other)
{
    const char *helper = helpers[_i];
    char *directory, *path;
    struct run run = run_with_report_file(helper, "now.report", "dump-show", &directory, &path);
    char *listing = list_directory(directory);
    ck_assert_str_eq(listing, "now.report\n");
    /* What the helper read back after each dump.  */
    char *first = expected_report(helper, run.pid, 1, "9", "interim\t1", helper_units);
    char more_units[sizeof helper_units];
    memcpy(more_units, helper_units, sizeof helper_units);
    memcpy(strstr(more_units, "\n0\t5\n") + 3, "6", 1);   /* a.c site 0: 6 */
    char *second = expected_report(helper, run.pid, 1, "9", "interim\t2", more_units);
    char *shown = malloc(strlen(first) + strlen(second) + 8);
    ck_assert_ptr_nonnull(shown);
    sprintf(shown, "%s--\n%s--\n", first, second);
    ck_assert_str_eq(without_run_ids(run.out), shown);
    char *exited = expected_report(helper, run.pid, 1, "9", "exit\tstatus\t0", more_units);
    char *report = read_file(path);
    assert_report_is(report, exited);

    free(report);
    free(exited);
    free(shown);
    free(second);
    free(first);
    free(listing);
    free(path);
    free_run(&run);
    remove_directory(directory);
}
END_TEST

/* A report replaces only the file its process wrote: moved away and
   replaced by someone else's, the name is left to the newcomer.  */
START_TEST(test_only_own_report_is_replaced)
{
    const char *helper = helpers[_i];
    char *directory, *path;
    struct run run = run_with_report_file(helper, "own.report", "dump-move", &directory, &path);
    char *listing = list_directory(directory);
    ck_assert_str_eq(listing, "moved\nown.report\nown.report.1\n");
    char *other = read_file(path);
    ck_assert_str_eq(other, "other\n");
    char *moved_path = path_in(directory, "moved");
    char *moved = read_file(moved_path);
    char *interim = expected_report(helper, run.pid, 1, "9", "interim\t1", helper_units);
    assert_report_is(moved, interim);
    char *final_path = path_in(directory, "own.report.1");
    char *final = read_file(final_path);
    char *exited = expected_report(helper, run.pid, 1, "9", "exit\tstatus\t0",
                                   helper_units);
    assert_report_is(final, exited);

    free(exited);
    free(final);
    free(final_path);
    free(interim);
    free(moved);
    free(moved_path);
    free(other);
    free(listing);
    free(path);
    free_run(&run);
    remove_directory(directory);
}
END_TEST

/* sampler_reset: the report written before it is kept, and later ones
   hold only what was counted after it, in a new file.  */
START_TEST(test_reset_starts_a_new_report)
{
    const char *helper = helpers[_i];
    char *directory, *path;
    struct run run = run_with_report_file(helper, "phase.report", "reset", &directory, &path);
    char *listing = list_directory(directory);
    ck_assert_str_eq(listing, "phase.report\nphase.report.1\n");
    char *before = read_file(path);
    char *interim = expected_report(helper, run.pid, 1, "9", "interim\t1", helper_units);
    assert_report_is(before, interim);
    char *after_path = path_in(directory, "phase.report.1");
    char *after = read_file(after_path);
    /* After the reset the helper counted 1 at b.c's site 0.  */
    char *exited = expected_report(helper, run.pid, 1, "9", "reset\t1\nexit\tstatus\t0",
                                   "unit\t0123456789abcdef0123456789abcdef\t4\t9\ta.c\n"
                                   "unit\tfedcba9876543210fedcba9876543210\t1\t2\t"
                                   "dir/b\\tc\\\\d\\n.c\n"
                                   "0\t1\t0\n"
                                   "unit\t00000000000000000000000000000000\t0\t0\tempty.c\n");
    assert_report_is(after, exited);
    ck_assert_uint_eq(parse_report(after).resets, 1);

    free(exited);
    free(after);
    free(after_path);
    free(interim);
    free(before);
    free(listing);
    free(path);
    free_run(&run);
    remove_directory(directory);
}
END_TEST

/* A fork child's reports, and only theirs, name the process it was forked
   from: the grandchild its direct parent.  Each counts from zero.  */
START_TEST(test_fork_child_names_its_parent)
{
    const char *helper = helpers[_i];
    const char *env[] = { "SAMPLER_SPARSITY=1", "SAMPLER_SEED=9", NULL };
    char *directory = make_directory();
    struct run run = run_helper(helper, directory, env, "fork", NULL);
    long child, grandchild;

    assert_exit_status(&run, 0);
    ck_assert_str_eq(run.err, "");
    ck_assert_msg(sscanf(run.out, "grandchild %ld\nchild %ld\n", &grandchild, &child) == 2,
                  "%s", run.out);
    const struct { pid_t pid; long parent; const char *b_counts; } processes[] = {
        { run.pid, 0, NULL }, { child, run.pid, "0\t1\t0\n" }, { grandchild, child, "0\t0\t2\n" },
    };
    for (size_t i = 0; i < sizeof processes / sizeof processes[0]; i++) {
        char *name = default_report_name(processes[i].pid);
        char *path = path_in(directory, name);
        char *report = read_file(path);
        char *expected;
        ck_assert_msg(report != NULL, "no report %s", name);
        struct parsed_report parsed = parse_report(report);
        ck_assert_int_eq(parsed.parent, processes[i].parent);
        if (processes[i].parent == 0) {
            expected = expected_report(helper, run.pid, 1, "9", "exit\tstatus\t0",
                                       helper_units);
        } else {
            char seed[24], ending[64], units[512];
            /* The child's own seed, derived from its parent's.  */
            snprintf(seed, sizeof seed, "%" PRIu64, parsed.seed);
            snprintf(ending, sizeof ending, "parent\t%ld\nexit\tstatus\t0", processes[i].parent);
            snprintf(units, sizeof units, "%s%s%s",
                     "unit\t0123456789abcdef0123456789abcdef\t4\t9\ta.c\n"
                     "unit\tfedcba9876543210fedcba9876543210\t1\t2\tdir/b\\tc\\\\d\\n.c\n",
                     processes[i].b_counts,
                     "unit\t00000000000000000000000000000000\t0\t0\tempty.c\n");
            expected = expected_report(helper, processes[i].pid, 1, seed, ending, units);
        }
        ck_assert_str_eq(report, expected);
        free(expected);
        free(report);
        free(path);
        free(name);
    }
    char *listing = list_directory(directory);
    ck_assert_uint_eq(count_lines(listing), 3);

    free(listing);
    free_run(&run);
    remove_directory(directory);
}
END_TEST

/* The runtime's report never touches the program's stdio buffers, and
   never changes errno, whether writing succeeds or fails.  */
START_TEST(test_program_state_is_untouched)
{
    const char *helper = helpers[_i];
    char *directory = make_directory();
    const char *env[] = { "SAMPLER_SPARSITY=1", "SAMPLER_SEED=9", NULL };
    const char *failing_env[] = { "SAMPLER_SPARSITY=1", "SAMPLER_FILE=/dev/null/x", NULL };

    struct run stdio = run_helper(helper, directory, env, "stdio", NULL);
    assert_exit_status(&stdio, 0);
    ck_assert_str_eq(stdio.out, "unflushed");
    ck_assert_str_eq(stdio.err, "");

    struct run kept = run_helper(helper, directory, env, "errno", NULL);
    assert_exit_status(&kept, 0);
    struct run kept_failing = run_helper(helper, directory, failing_env, "errno", NULL);
    assert_exit_status(&kept_failing, 0);
    ck_assert_uint_eq(count_lines(kept_failing.err), 2);

    free_run(&stdio);
    free_run(&kept);
    free_run(&kept_failing);
    remove_directory(directory);
}
END_TEST

/* ---- Processes: bad values and failures --------------------------------- */

static const char *const bad_patterns[] = { "%x-report", "report-%", "r-%P", "%d" };

START_TEST(test_bad_file_pattern_warns)
{
    for (size_t h = 0; h < HELPER_COUNT; h++) {
        char *directory = make_directory();
        char variable[512];
        snprintf(variable, sizeof variable, "SAMPLER_FILE=%s", bad_patterns[_i]);
        const char *env[] = { "SAMPLER_SPARSITY=1", variable, NULL };
        struct run run = run_helper(helpers[h], directory, env, "exit", "3");

        assert_exit_status(&run, 3);
        ck_assert_str_eq(run.out, "");
        assert_one_warning(&run, "SAMPLER_FILE", NULL);
        char *listing = list_directory(directory);
        ck_assert_str_eq(listing, "");
        free(listing);
        free_run(&run);
        remove_directory(directory);
    }
}
END_TEST

START_TEST(test_unwritable_path_warns)
{
    const char *helper = helpers[_i];
    char *directory = make_directory();
    char *plain_file = path_in(directory, "plain");
    FILE *plain = fopen(plain_file, "w");
    ck_assert_ptr_nonnull(plain);
    fclose(plain);

    const char *env[] = { "SAMPLER_SPARSITY=1", "SAMPLER_FILE=/dev/null/sub/report", NULL };
    struct run run = run_helper(helper, directory, env, "exit", "3");
    assert_exit_status(&run, 3);
    ck_assert_str_eq(run.out, "");
    ck_assert_str_eq(run.err,
                     "sampler: cannot write report to '/dev/null/sub/report': Not a directory\n");
    free_run(&run);

    char variable[512];
    snprintf(variable, sizeof variable, "SAMPLER_FILE=%s/plain/r-%%p", directory);
    const char *under_file_env[] = { "SAMPLER_SPARSITY=1", variable, NULL };
    run = run_helper(helper, directory, under_file_env, "return", "0");
    assert_exit_status(&run, 0);
    assert_one_warning(&run, "cannot write report to '", "/plain/r-");
    ck_assert_ptr_nonnull(strstr(run.err, "': Not a directory\n"));
    char *listing = list_directory(directory);
    ck_assert_str_eq(listing, "plain\n");

    free(listing);
    free_run(&run);
    free(plain_file);
    remove_directory(directory);
}
END_TEST

/* SAMPLER_INTERVAL with a path that cannot be written: the interim
   reports fail every second, but warn once; the exit report warns too.  */
START_TEST(test_failing_interim_reports_warn_once)
{
    const char *env[] = { "SAMPLER_SPARSITY=1", "SAMPLER_INTERVAL=1",
                          "SAMPLER_FILE=/dev/null/sub/report", NULL };
    char *directory = make_directory();
    struct run run = run_helper(helpers[_i], directory, env, "sleep", "2600");

    assert_exit_status(&run, 0);
    ck_assert_str_eq(run.err,
                     "sampler: cannot write report to '/dev/null/sub/report': Not a directory\n"
                     "sampler: cannot write report to '/dev/null/sub/report': Not a directory\n");
    free_run(&run);
    remove_directory(directory);
}
END_TEST

static const char *const bad_descriptors[] = { "x", "-1", "3x", " 3", "2147483648",
                                               "999", "read-only" };

/* "no report, to avoid surprises": no fallback to SAMPLER_FILE.  */
START_TEST(test_bad_report_fd_warns)
{
    for (size_t h = 0; h < HELPER_COUNT; h++) {
        char *directory = make_directory();
        char fd_variable[64], file_variable[512];
        int read_only = -1;
        if (strcmp(bad_descriptors[_i], "read-only") == 0) {
            read_only = open("/dev/null", O_RDONLY);
            ck_assert_int_ge(read_only, 0);
            snprintf(fd_variable, sizeof fd_variable, "SAMPLER_REPORT_FD=%d", read_only);
        } else {
            snprintf(fd_variable, sizeof fd_variable, "SAMPLER_REPORT_FD=%s",
                     bad_descriptors[_i]);
        }
        snprintf(file_variable, sizeof file_variable, "SAMPLER_FILE=%s/f-%%p", directory);
        const char *env[] = { "SAMPLER_SPARSITY=1", fd_variable, file_variable, NULL };
        struct run run = run_helper(helpers[h], directory, env, "exit", "3");

        assert_exit_status(&run, 3);
        assert_one_warning(&run, "SAMPLER_REPORT_FD", "sampling is off");
        char *listing = list_directory(directory);
        ck_assert_str_eq(listing, "");
        if (read_only >= 0)
            close(read_only);
        free(listing);
        free_run(&run);
        remove_directory(directory);
    }
}
END_TEST

START_TEST(test_full_disk_warns)
{
    const char *helper = helpers[_i];
    char *directory = make_directory();
    int full = open("/dev/full", O_WRONLY);
    ck_assert_int_ge(full, 0);
    char fd_variable[64], expected[128];
    snprintf(fd_variable, sizeof fd_variable, "SAMPLER_REPORT_FD=%d", full);
    const char *env[] = { "SAMPLER_SPARSITY=1", fd_variable, NULL };
    struct run run = run_helper(helper, directory, env, "exit", "3");

    close(full);
    assert_exit_status(&run, 3);
    snprintf(expected, sizeof expected,
             "sampler: cannot write report to file descriptor %d: No space left on device\n",
             full);
    ck_assert_str_eq(run.err, expected);
    free_run(&run);
    remove_directory(directory);
}
END_TEST

/* The program closed the descriptor, or reused its number for a file of
   its own: the report must not land in the program's file.  */
START_TEST(test_closed_or_replaced_fd_is_not_written)
{
    const char *helper = helpers[_i];
    char *directory = make_directory();
    int ends[2];
    ck_assert_int_eq(pipe(ends), 0);
    char fd_variable[64], fd_number[16], expected[160];
    snprintf(fd_variable, sizeof fd_variable, "SAMPLER_REPORT_FD=%d", ends[1]);
    snprintf(fd_number, sizeof fd_number, "%d", ends[1]);
    const char *env[] = { "SAMPLER_SPARSITY=1", fd_variable, NULL };

    struct run closed = run_helper(helper, directory, env, "close-fd", fd_number);
    assert_exit_status(&closed, 0);
    snprintf(expected, sizeof expected,
             "sampler: cannot write report to file descriptor %d: Bad file descriptor\n",
             ends[1]);
    ck_assert_str_eq(closed.err, expected);

    struct run replaced = run_helper(helper, directory, env, "replace-fd", fd_number);
    assert_exit_status(&replaced, 0);
    snprintf(expected, sizeof expected,
             "sampler: cannot write report to file descriptor %d: the program has "
             "replaced it\n", ends[1]);
    ck_assert_str_eq(replaced.err, expected);
    char *victim_path = path_in(directory, "victim");
    char *victim = read_file(victim_path);
    ck_assert_str_eq(victim, "");

    close(ends[1]);
    char *written = read_descriptor(ends[0]);
    ck_assert_str_eq(written, "");

    free(written);
    free(victim);
    free(victim_path);
    free_run(&closed);
    free_run(&replaced);
    remove_directory(directory);
}
END_TEST

/* The reader has gone: the program must not die of SIGPIPE, neither at
   exit nor when it asks for a report and goes on.  */
START_TEST(test_closed_pipe_does_not_kill)
{
    const char *helper = helpers[_i];
    char *directory = make_directory();
    int ends[2];
    ck_assert_int_eq(pipe(ends), 0);
    close(ends[0]);
    char fd_variable[64];
    snprintf(fd_variable, sizeof fd_variable, "SAMPLER_REPORT_FD=%d", ends[1]);
    const char *env[] = { "SAMPLER_SPARSITY=1", fd_variable, NULL };

    struct run at_exit = run_helper(helper, directory, env, "exit", "3");
    assert_exit_status(&at_exit, 3);
    assert_one_warning(&at_exit, "cannot write report to file descriptor", "Broken pipe");

    struct run on_demand = run_helper(helper, directory, env, "write-now", NULL);
    assert_exit_status(&on_demand, 0);
    ck_assert_str_eq(on_demand.out, "write -1\nwrite -1\n");
    /* The second dump fails as the first did: no second warning.  The
       exit report's failure is said.  */
    ck_assert_uint_eq(count_lines(on_demand.err), 2);

    close(ends[1]);
    free_run(&at_exit);
    free_run(&on_demand);
    remove_directory(directory);
}
END_TEST

START_TEST(test_bad_units_are_skipped_with_a_warning)
{
    const char *helper = helpers[_i];
    const char *env[] = { "SAMPLER_SPARSITY=1", "SAMPLER_SEED=5", NULL };
    char *directory = make_directory();
    struct run run = run_helper(helper, directory, env, "bad-units", NULL);

    assert_exit_status(&run, 0);
    ck_assert_uint_eq(count_lines(run.err), 3);
    char *line = run.err;
    static const char *const sources[] = { "'version.c'", "'increasing.c'", "'end.c'" };
    for (size_t i = 0; i < 3; i++) {
        char *newline = strchr(line, '\n');
        *newline = '\0';
        ck_assert_msg(strncmp(line, "sampler: ", 9) == 0, "%s", line);
        ck_assert_msg(strstr(line, sources[i]) != NULL, "no %s in: %s", sources[i], line);
        line = newline + 1;
    }

    char *name = default_report_name(run.pid);
    char *path = path_in(directory, name);
    char *report = read_file(path);
    char *expected = expected_report(helper, run.pid, 1, "5", "exit\tstatus\t0",
                                     helper_units);
    assert_report_is(report, expected);

    /* With sampling off, malformed units are not worth a warning.  */
    const char *off_env[] = { NULL };
    struct run off = run_helper(helper, directory, off_env, "bad-units", NULL);
    assert_exit_status(&off, 0);
    ck_assert_str_eq(off.err, "");

    free(expected);
    free(report);
    free(path);
    free(name);
    free_run(&run);
    free_run(&off);
    remove_directory(directory);
}
END_TEST

/* ---- Processes: fatal signals -------------------------------------------- */

static const int fatal_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP };

/* The report says which signal ended the run, and the run still ends by
   it.  (Faults raised by instructions: testsuite/runtime.)  */
START_TEST(test_fatal_signal_is_reported)
{
    for (size_t h = 0; h < HELPER_COUNT; h++) {
        const char *env[] = { "SAMPLER_SPARSITY=1", "SAMPLER_SEED=5", NULL };
        char *directory = make_directory();
        char number[16], exit_record[32];
        snprintf(number, sizeof number, "%d", fatal_signals[_i]);
        struct run run = run_helper(helpers[h], directory, env, "raise", number);

        assert_killed_by(&run, fatal_signals[_i]);
        ck_assert_str_eq(run.err, "");
        snprintf(exit_record, sizeof exit_record, "exit\tsignal\t%d", fatal_signals[_i]);
        char *expected = expected_report(helpers[h], run.pid, 1, "5", exit_record,
                                         helper_units);
        free(assert_only_default_report(directory, run.pid, expected));

        free(expected);
        free_run(&run);
        remove_directory(directory);
    }
}
END_TEST

/* A fault while the crash report is written: the process still dies of
   the signal it was dying of, at once, and no report appears under the
   report's name (a stale temporary file may stay).  */
START_TEST(test_fault_in_crash_report)
{
    const char *env[] = { "SAMPLER_SPARSITY=1", "SAMPLER_SEED=5", NULL };
    char *directory = make_directory();
    struct run run = run_helper(helpers[_i], directory, env, "crash-in-report", NULL);

    assert_killed_by(&run, SIGABRT);
    char *name = default_report_name(run.pid);
    char *path = path_in(directory, name);
    ck_assert_msg(access(path, F_OK) != 0, "%s exists", name);

    free(path);
    free(name);
    free_run(&run);
    remove_directory(directory);
}
END_TEST

/* ---- Processes: units in DSOs ------------------------------------------- */

START_TEST(test_unit_of_loaded_dso_is_reported)
{
    const char *helper = helpers[_i];
    const char *env[] = { "SAMPLER_SPARSITY=1", "SAMPLER_SEED=5", NULL };
    char *directory = make_directory();
    struct run run = run_helper(helper, directory, env, "dlopen", REPORT_DSO);

    assert_exit_status(&run, 0);
    ck_assert_str_eq(run.err, "");
    char *name = default_report_name(run.pid);
    char *path = path_in(directory, name);
    char *report = read_file(path);
    char *expected = expected_report_with_dso(helper, run.pid, 1, "5", "exit\tstatus\t0",
                                              helper_units, REPORT_DSO, dso_unit);
    assert_report_is(report, expected);

    free(expected);
    free(report);
    free(path);
    free(name);
    free_run(&run);
    remove_directory(directory);
}
END_TEST

/* A unit whose DSO was unloaded is gone, but its counts are kept.  */
START_TEST(test_unit_of_unloaded_dso_is_kept)
{
    const char *helper = helpers[_i];
    const char *env[] = { "SAMPLER_SPARSITY=1", "SAMPLER_SEED=5", NULL };
    char *directory = make_directory();
    struct run run = run_helper(helper, directory, env, "dlclose", REPORT_DSO);

    assert_exit_status(&run, 0);
    ck_assert_str_eq(run.err, "");
    char *name = default_report_name(run.pid);
    char *path = path_in(directory, name);
    char *report = read_file(path);
    char *expected = expected_report_with_dso(helper, run.pid, 1, "5", "exit\tstatus\t0",
                                              helper_units, REPORT_DSO, dso_unit);
    assert_report_is(report, expected);

    free(expected);
    free(report);
    free(path);
    free(name);
    free_run(&run);
    remove_directory(directory);
}
END_TEST

/* A program that does not link the runtime loads and unloads a DSO that
   does: the runtime must stay, with its exit handler.  */
START_TEST(test_runtime_outlives_the_dso_that_loaded_it)
{
    const char *env[] = { "SAMPLER_SPARSITY=1", "SAMPLER_SEED=5", NULL };
    const char *argv[] = { DSO_LOADER, REPORT_DSO_LINKED, NULL };
    char *directory = make_directory();
    struct run run = run_in(directory, argv, env);

    assert_exit_status(&run, 0);
    ck_assert_str_eq(run.err, "");
    char *name = default_report_name(run.pid);
    char *path = path_in(directory, name);
    char *report = read_file(path);
    char *expected = expected_report_with_dso(DSO_LOADER, run.pid, 1, "5", "exit\tstatus\t0",
                                              "", REPORT_DSO_LINKED, dso_unit);
    assert_report_is(report, expected);

    free(expected);
    free(report);
    free(path);
    free(name);
    free_run(&run);
    remove_directory(directory);
}
END_TEST

Suite *report_suite(void)
{
    Suite *suite = suite_create("report");

    TCase *in_process = tcase_create("patterns and units");
    tcase_add_test(in_process, test_patterns);
    tcase_add_loop_test(in_process, test_unit_validation, 0,
                        sizeof unit_cases / sizeof unit_cases[0]);
    suite_add_tcase(suite, in_process);

    TCase *writing = tcase_create("writing");
    tcase_add_unchecked_fixture(writing, make_base_directory, remove_base_directory);
    tcase_set_timeout(writing, 30);
    tcase_add_loop_test(writing, test_exit_report_is_exact, 0, HELPER_COUNT);
    tcase_add_loop_test(writing, test_return_from_main_is_reported, 0, HELPER_COUNT);
    tcase_add_loop_test(writing, test_fresh_seed_is_the_one_used, 0, HELPER_COUNT);
    tcase_add_loop_test(writing, test_file_pattern_and_directories, 0, HELPER_COUNT);
    tcase_add_loop_test(writing, test_relative_file_is_from_the_starting_directory, 0,
                        HELPER_COUNT);
    tcase_add_loop_test(writing, test_report_fd_pipe, 0, HELPER_COUNT);
    tcase_add_loop_test(writing, test_report_fd_file, 0, HELPER_COUNT);
    tcase_add_loop_test(writing, test_no_report_when_off, 0,
                        sizeof off_environments / sizeof off_environments[0]);
    tcase_add_loop_test(writing, test_existing_file_is_not_replaced, 0, HELPER_COUNT);
    tcase_add_loop_test(writing, test_dumps_replace_each_other, 0, HELPER_COUNT);
    tcase_add_loop_test(writing, test_only_own_report_is_replaced, 0, HELPER_COUNT);
    tcase_add_loop_test(writing, test_reset_starts_a_new_report, 0, HELPER_COUNT);
    tcase_add_loop_test(writing, test_fork_child_names_its_parent, 0, HELPER_COUNT);
    tcase_add_loop_test(writing, test_program_state_is_untouched, 0, HELPER_COUNT);
    suite_add_tcase(suite, writing);

    TCase *failures = tcase_create("failures");
    tcase_add_unchecked_fixture(failures, make_base_directory, remove_base_directory);
    tcase_set_timeout(failures, 30);
    tcase_add_loop_test(failures, test_bad_file_pattern_warns, 0,
                        sizeof bad_patterns / sizeof bad_patterns[0]);
    tcase_add_loop_test(failures, test_unwritable_path_warns, 0, HELPER_COUNT);
    tcase_add_loop_test(failures, test_failing_interim_reports_warn_once, 0, HELPER_COUNT);
    tcase_add_loop_test(failures, test_bad_report_fd_warns, 0,
                        sizeof bad_descriptors / sizeof bad_descriptors[0]);
    tcase_add_loop_test(failures, test_full_disk_warns, 0, HELPER_COUNT);
    tcase_add_loop_test(failures, test_closed_or_replaced_fd_is_not_written, 0,
                        HELPER_COUNT);
    tcase_add_loop_test(failures, test_closed_pipe_does_not_kill, 0, HELPER_COUNT);
    tcase_add_loop_test(failures, test_bad_units_are_skipped_with_a_warning, 0,
                        HELPER_COUNT);
    suite_add_tcase(suite, failures);

    TCase *signals = tcase_create("signals");
    tcase_add_unchecked_fixture(signals, make_base_directory, remove_base_directory);
    tcase_set_timeout(signals, 30);
    tcase_add_loop_test(signals, test_fatal_signal_is_reported, 0,
                        sizeof fatal_signals / sizeof fatal_signals[0]);
    tcase_add_loop_test(signals, test_fault_in_crash_report, 0, HELPER_COUNT);
    suite_add_tcase(suite, signals);

    TCase *dsos = tcase_create("dsos");
    tcase_add_unchecked_fixture(dsos, make_base_directory, remove_base_directory);
    tcase_set_timeout(dsos, 30);
    tcase_add_loop_test(dsos, test_unit_of_loaded_dso_is_reported, 0, HELPER_COUNT);
    tcase_add_loop_test(dsos, test_unit_of_unloaded_dso_is_kept, 0, HELPER_COUNT);
    tcase_add_test(dsos, test_runtime_outlives_the_dso_that_loaded_it);
    suite_add_tcase(suite, dsos);
    return suite;
}
