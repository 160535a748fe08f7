/* Bad values of every environment variable of the runtime's tables
   (runtime/settings.h: the process's and each scheme's), generated from
   each variable's kind and range: each gives exactly one warning line,
   which names the variable and its value and says sampling is off, and
   leaves sampling off -- through sampler_config_parse, and through the
   real environment in a child process.  The bounds of each range, and
   each choice, are accepted and held as the table says.  A variable added
   to a table is tried here without a line of this file changing.  */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <check.h>

#include "sampler-internal.h"

/* Every variable of every table, in order.  */
struct variable_ref {
    const struct sampler_setting *setting;
    void *values;         /* the scheme's storage; NULL: struct sampler_config */
};

static size_t all_variables(struct variable_ref *refs, size_t room)
{
    size_t n = 0;
    const struct sampler_settings *table;
    const char *scheme;
    void *values;

    for (size_t t = 0; (table = sampler_settings_table(t, &scheme, &values)) != NULL; t++)
        for (size_t i = 0; i < table->count; i++) {
            if (n < room)
                refs[n] = (struct variable_ref){ &table->settings[i], values };
            n++;
        }
    return n;
}

#define MAX_VARIABLES 64
#define MAX_VALUES 16

/* The I-th variable of all the tables.  */
static struct variable_ref variable_at(int i)
{
    struct variable_ref refs[MAX_VARIABLES];
    size_t count = all_variables(refs, MAX_VARIABLES);

    ck_assert_uint_le(count, MAX_VARIABLES);
    ck_assert_uint_gt(count, (size_t)i);
    return refs[i];
}

/* The values SETTING refuses, from its kind and range, into VALUES (each
   up to SIZE bytes); returns how many.  */
static size_t bad_values(const struct sampler_setting *setting, char values[][5000],
                         size_t size)
{
    size_t n = 0;
#define BAD(...) snprintf(values[n++], size, __VA_ARGS__)
    switch (setting->kind) {
    case SAMPLER_SETTING_NUMBER:
    case SAMPLER_SETTING_POWER_OF_TWO:
        BAD("-1");
        BAD("+%llu", setting->max);
        BAD(" %llu", setting->max);
        BAD("%llu ", setting->max);
        BAD("x");
        BAD("%llux", setting->min);
        BAD("0x10");
        BAD("1.5");
        BAD("1e3");
        BAD("99999999999999999999999999");
        if (setting->max == UINT64_MAX)
            BAD("18446744073709551616");
        else
            BAD("%llu", setting->max + 1);
        if (setting->min > 1 || (setting->min == 1 && setting->zero == NULL))
            BAD("%llu", setting->min - 1);
        if (setting->kind == SAMPLER_SETTING_POWER_OF_TWO) {
            BAD("%llu", setting->min + 1);
            BAD("%llu", setting->max - 1);
            BAD("%llu", setting->max * 2);
            BAD("0");
        }
        break;
    case SAMPLER_SETTING_CHOICE:
        BAD("x");
        for (size_t i = 0; setting->choices[i].name != NULL && n + 3 <= MAX_VALUES; i++) {
            const char *name = setting->choices[i].name;
            BAD("%s ", name);
            BAD("%.*s", (int)strlen(name) - 1, name);
            snprintf(values[n], size, "%s", name);
            values[n][0] = (char)(values[n][0] - 'a' + 'A');
            n++;
        }
        break;
    case SAMPLER_SETTING_REPORT_PATTERN:
        BAD("%%");
        BAD("r%%");
        BAD("a-%%P");
        BAD("%%s.report");
        /* fall through */
    case SAMPLER_SETTING_PATH:
        ck_assert_uint_lt(setting->max, size);
        memset(values[n], 'p', setting->max);
        values[n++][setting->max] = '\0';
        break;
    }
#undef BAD
    return n;
}

/* The bounds and choices SETTING accepts, and what each is held as.  */
static size_t good_values(const struct sampler_setting *setting, char values[][5000],
                          unsigned long long held[], size_t size)
{
    size_t n = 0;

    switch (setting->kind) {
    case SAMPLER_SETTING_NUMBER:
        snprintf(values[n], size, "%llu", setting->min);
        held[n++] = setting->min;
        snprintf(values[n], size, "%llu", setting->max);
        held[n++] = setting->max;
        if (setting->zero != NULL) {
            snprintf(values[n], size, "0");
            held[n++] = 0;
        }
        break;
    case SAMPLER_SETTING_POWER_OF_TWO:
        snprintf(values[n], size, "%llu", setting->min);
        held[n++] = (unsigned long long)__builtin_ctzll(setting->min);
        snprintf(values[n], size, "%llu", setting->max);
        held[n++] = (unsigned long long)__builtin_ctzll(setting->max);
        break;
    case SAMPLER_SETTING_CHOICE:
        for (size_t i = 0; setting->choices[i].name != NULL && n < MAX_VALUES; i++) {
            snprintf(values[n], size, "%s", setting->choices[i].name);
            held[n++] = i;
        }
        break;
    case SAMPLER_SETTING_PATH:
    case SAMPLER_SETTING_REPORT_PATTERN:
        memset(values[n], 'q', setting->max - 1);
        values[n][setting->max - 1] = '\0';
        held[n++] = 0;
        snprintf(values[n], size, "r-%%p.txt");
        held[n++] = 0;
        break;
    }
    return n;
}

/* The member a variable's value goes into.  */
static const char *member_of(const struct variable_ref *ref, const struct sampler_config *config)
{
    return (ref->values != NULL ? (const char *)ref->values : (const char *)config)
           + ref->setting->offset;
}

static unsigned long long number_at(const char *member, size_t size)
{
    switch (size) {
    case 1: return *(const uint8_t *)member;
    case 2: return *(const uint16_t *)member;
    case 4: return *(const uint32_t *)member;
    default: return *(const uint64_t *)member;
    }
}

/* SAMPLER_SPARSITY=10 (unless it is the variable tried) and NAME=VALUE.  */
struct trial {
    const char *name;
    const char *value;
};

static const char *lookup_trial(const char *name, void *context)
{
    const struct trial *trial = context;

    if (strcmp(name, trial->name) == 0)
        return trial->value;
    return strcmp(name, "SAMPLER_SPARSITY") == 0 ? "10" : NULL;
}

/* The warning is one line, about NAME and VALUE.  */
static void check_warning(const char *warning, const char *name, const char *value)
{
    char prefix[128];

    ck_assert_msg(strchr(warning, '\n') == NULL, "%s=%.40s: more than one line: %s", name,
                  value, warning);
    snprintf(prefix, sizeof prefix, "sampler: ignoring %s='", name);
    ck_assert_msg(strncmp(warning, prefix, strlen(prefix)) == 0, "%s=%.40s: %s", name, value,
                  warning);
    ck_assert_msg(strstr(warning, "': expected ") != NULL, "%s: %s", name, warning);
    size_t length = strlen(warning);
    ck_assert_msg(length > 17 && strcmp(warning + length - 17, "; sampling is off") == 0,
                  "%s: %s", name, warning);
    /* Values short and plain enough to be quoted as they are.  */
    if (strlen(value) < SAMPLER_QUOTE_MAX && strpbrk(value, "'\\") == NULL) {
        char quoted[128];
        snprintf(quoted, sizeof quoted, "='%s': ", value);
        ck_assert_msg(strstr(warning, quoted) != NULL, "no %s in %s", quoted, warning);
    }
}

static char values[MAX_VALUES][5000];

START_TEST(test_bad_values_are_refused)
{
    const struct sampler_setting *setting = variable_at(_i).setting;
    size_t n = bad_values(setting, values, sizeof values[0]);

    ck_assert_uint_gt(n, 0);
    for (size_t v = 0; v < n; v++) {
        struct trial trial = { setting->name, values[v] };
        struct sampler_config config;
        char err[2048];
        ck_assert_msg(sampler_config_parse(lookup_trial, &trial, &config, err, sizeof err) == -1,
                      "%s=%.40s accepted", setting->name, values[v]);
        ck_assert_int_eq(config.sparsity, 0);
        check_warning(err, setting->name, values[v]);
    }
}
END_TEST

START_TEST(test_bounds_and_choices_are_held)
{
    struct variable_ref ref = variable_at(_i);
    const struct sampler_setting *setting = ref.setting;
    unsigned long long held[MAX_VALUES];
    size_t n = good_values(setting, values, held, sizeof values[0]);

    for (size_t v = 0; v < n; v++) {
        struct trial trial = { setting->name, values[v] };
        struct sampler_config config;
        char err[2048];
        ck_assert_msg(sampler_config_parse(lookup_trial, &trial, &config, err, sizeof err) == 0,
                      "%s=%.40s refused: %s", setting->name, values[v], err);
        ck_assert_str_eq(err, "");
        if (strcmp(setting->name, "SAMPLER_SPARSITY") != 0)
            ck_assert_int_eq(config.sparsity, 10);
        const char *member = member_of(&ref, &config);
        if (setting->kind == SAMPLER_SETTING_PATH
            || setting->kind == SAMPLER_SETTING_REPORT_PATTERN) {
            ck_assert_str_eq(member, values[v]);
            continue;
        }
        unsigned long long got = number_at(member, setting->size);
        ck_assert_msg(got == held[v], "%s=%s held as %llu", setting->name, values[v], got);
    }
}
END_TEST

/* Unset or empty, a variable holds its default, after values were set.  */
START_TEST(test_unset_and_empty_hold_the_default)
{
    struct variable_ref ref = variable_at(_i);
    const struct sampler_setting *setting = ref.setting;
    unsigned long long held[MAX_VALUES];
    struct sampler_config config;
    char err[2048];

    (void)good_values(setting, values, held, sizeof values[0]);
    for (int empty = 0; empty <= 1; empty++) {
        struct trial set = { setting->name, values[0] };
        struct trial unset = { setting->name, empty ? "" : NULL };
        ck_assert_int_eq(sampler_config_parse(lookup_trial, &set, &config, err, sizeof err), 0);
        ck_assert_int_eq(sampler_config_parse(lookup_trial, &unset, &config, err, sizeof err), 0);
        const char *member = member_of(&ref, &config);
        if (setting->kind == SAMPLER_SETTING_PATH
            || setting->kind == SAMPLER_SETTING_REPORT_PATTERN)
            ck_assert_str_eq(member, setting->default_text != NULL ? setting->default_text : "");
        else
            ck_assert_msg(number_at(member, setting->size)
                              == (number_at((const char *)&setting->default_number,
                                            sizeof setting->default_number)
                                  & (setting->size == 8 ? ~0ULL
                                                        : (1ULL << (8 * setting->size)) - 1)),
                          "%s unset: not its default", setting->name);
    }
}
END_TEST

/* The same through the environment of a child process: its stderr is the
   one warning line, and its configuration has sampling off.  */
START_TEST(test_bad_values_through_the_environment)
{
    struct variable_ref ref = variable_at(_i);
    const struct sampler_setting *setting = ref.setting;
    size_t n = bad_values(setting, values, sizeof values[0]);

    for (size_t v = 0; v < n; v++) {
        int pipe_fds[2];
        ck_assert_int_eq(pipe(pipe_fds), 0);
        pid_t child = fork();
        ck_assert_int_ge(child, 0);
        if (child == 0) {
            struct sampler_config config;
            close(pipe_fds[0]);
            dup2(pipe_fds[1], STDERR_FILENO);
            setenv("SAMPLER_SPARSITY", "10", 1);
            setenv(setting->name, values[v], 1);
            sampler_config_from_environment(&config);
            _exit(config.sparsity == 0 ? 0 : 1);
        }
        close(pipe_fds[1]);
        static char output[8192];
        size_t length = 0;
        ssize_t got;
        while ((got = read(pipe_fds[0], output + length, sizeof output - 1 - length)) > 0)
            length += (size_t)got;
        close(pipe_fds[0]);
        output[length] = '\0';
        int status;
        ck_assert_int_eq(waitpid(child, &status, 0), child);
        ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
                      "%s=%.40s: sampling on", setting->name, values[v]);
        ck_assert_msg(length > 0 && output[length - 1] == '\n', "%s=%.40s: %s", setting->name,
                      values[v], output);
        output[length - 1] = '\0';
        check_warning(output, setting->name, values[v]);
    }
}
END_TEST

/* Every variable has a name of the runtime's, text for README, and room
   for its values; names are not repeated.  */
START_TEST(test_tables_are_complete)
{
    struct variable_ref refs[MAX_VARIABLES];
    size_t count = all_variables(refs, MAX_VARIABLES);

    ck_assert_uint_ge(count, 9);
    for (size_t i = 0; i < count; i++) {
        const struct sampler_setting *setting = refs[i].setting;
        ck_assert_msg(strncmp(setting->name, "SAMPLER_", 8) == 0, "%s", setting->name);
        ck_assert_ptr_nonnull(setting->help);
        ck_assert_msg(setting->unset != NULL || setting->zero != NULL, "%s", setting->name);
        if (setting->kind == SAMPLER_SETTING_PATH
            || setting->kind == SAMPLER_SETTING_REPORT_PATTERN)
            ck_assert_uint_ge(setting->size, setting->max);
        else
            ck_assert_uint_le(setting->size, 8);
        for (size_t j = 0; j < i; j++)
            ck_assert_str_ne(refs[j].setting->name, setting->name);
    }
}
END_TEST

Suite *settings_suite(void)
{
    Suite *suite = suite_create("settings");
    TCase *tables = tcase_create("tables");
    struct variable_ref refs[MAX_VARIABLES];
    int count = (int)all_variables(refs, MAX_VARIABLES);

    tcase_add_test(tables, test_tables_are_complete);
    tcase_add_loop_test(tables, test_bad_values_are_refused, 0, count);
    tcase_add_loop_test(tables, test_bounds_and_choices_are_held, 0, count);
    tcase_add_loop_test(tables, test_unset_and_empty_hold_the_default, 0, count);
    tcase_add_loop_test(tables, test_bad_values_through_the_environment, 0, count);
    suite_add_tcase(suite, tables);
    return suite;
}
