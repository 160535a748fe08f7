/* Parsing of SAMPLER_SPARSITY, SAMPLER_SEED, SAMPLER_FILE and
   SAMPLER_REPORT_FD, from strings (no environment, no child processes).
   test-settings.c tries bad values of every variable of the tables.  */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "sampler-internal.h"

/* A test's variables: NAME, VALUE pairs up to a NULL name (VALUE NULL:
   unset).  */
struct variable {
    const char *name, *value;
};

static const char *lookup_variables(const char *name, void *context)
{
    for (const struct variable *variable = context; variable->name != NULL; variable++)
        if (strcmp(variable->name, name) == 0)
            return variable->value;
    return NULL;
}

static int parse(const struct variable *variables, struct sampler_config *out, char *err,
                 size_t errlen)
{
    return sampler_config_parse(lookup_variables, (void *)variables, out, err, errlen);
}

/* Parses a configuration where only the sampling variables are set.  */
static int parse_sampling(const char *sparsity, const char *seed,
                          struct sampler_config *out, char *err, size_t errlen)
{
    const struct variable env[] = { { "SAMPLER_SPARSITY", sparsity },
                                    { "SAMPLER_SEED", seed }, { NULL, NULL } };
    return parse(env, out, err, errlen);
}

struct good_case {
    const char *sparsity;
    const char *seed;
    long expected_sparsity;
    bool expected_seeded;
    uint64_t expected_seed;
};

static const struct good_case good_cases[] = {
    { NULL, NULL, 0, false, 0 },
    { "", "", 0, false, 0 },
    { "0", NULL, 0, false, 0 },
    { "00", NULL, 0, false, 0 },
    { "1", NULL, 1, false, 0 },
    { "1000", NULL, 1000, false, 0 },
    { "0100", NULL, 100, false, 0 },
    { "1000000000", NULL, 1000000000, false, 0 },
    { "100", "0", 100, true, 0 },
    { "100", "42", 100, true, 42 },
    { "100", "18446744073709551615", 100, true, UINT64_MAX },
    { NULL, "7", 0, true, 7 },
};

START_TEST(test_good_values_parse)
{
    const struct good_case *c = &good_cases[_i];
    struct sampler_config config = { .sparsity = -1, .seeded = true, .seed = 99 };
    char err[256] = "untouched";

    ck_assert_int_eq(parse_sampling(c->sparsity, c->seed, &config, err, sizeof err), 0);
    ck_assert_str_eq(err, "");
    ck_assert_int_eq(config.sparsity, c->expected_sparsity);
    ck_assert_int_eq(config.seeded, c->expected_seeded);
    ck_assert_uint_eq(config.seed, c->expected_seed);
    ck_assert_int_eq(config.report_fd, -1);
    ck_assert_str_eq(config.report_file, "sampler-%p.report");
}
END_TEST

static const char *const bad_sparsities[] = {
    "-1", "-0", "+5", " 5", "5 ", "abc", "12x", "1e3", "0x10", "1.5",
    "1000000001", "9223372036854775808", "99999999999999999999999999",
};

START_TEST(test_bad_sparsity_is_reported_and_off)
{
    const char *value = bad_sparsities[_i];
    struct sampler_config config;
    char err[512];
    char quoted[64];

    ck_assert_int_eq(parse_sampling(value, "5", &config, err, sizeof err), -1);
    ck_assert_int_eq(config.sparsity, 0);
    ck_assert_msg(strncmp(err, "sampler: ", 9) == 0, "no prefix: %s", err);
    ck_assert_msg(strstr(err, "SAMPLER_SPARSITY") != NULL, "no variable name: %s", err);
    snprintf(quoted, sizeof quoted, "'%s'", value);
    ck_assert_msg(strstr(err, quoted) != NULL, "no value %s: %s", quoted, err);
    ck_assert_msg(strstr(err, "sampling is off") != NULL, "%s", err);
    ck_assert_ptr_null(strchr(err, '\n'));
}
END_TEST

static const char *const bad_seeds[] = {
    "seed", "-1", "+1", "1 ", "0x1", "18446744073709551616",
    "99999999999999999999999999",
};

START_TEST(test_bad_seed_is_reported_and_off)
{
    const char *value = bad_seeds[_i];
    struct sampler_config config;
    char err[512];
    char quoted[64];

    ck_assert_int_eq(parse_sampling("100", value, &config, err, sizeof err), -1);
    ck_assert_int_eq(config.sparsity, 0);
    ck_assert_int_eq(config.seeded, false);
    ck_assert_msg(strstr(err, "SAMPLER_SEED") != NULL, "no variable name: %s", err);
    ck_assert_msg(strstr(err, "SAMPLER_SPARSITY") == NULL, "blames sparsity: %s", err);
    snprintf(quoted, sizeof quoted, "'%s'", value);
    ck_assert_msg(strstr(err, quoted) != NULL, "no value %s: %s", quoted, err);
    ck_assert_ptr_null(strchr(err, '\n'));
}
END_TEST

START_TEST(test_bad_seed_is_reported_even_when_off)
{
    struct sampler_config config;
    char err[512];

    ck_assert_int_eq(parse_sampling("0", "x", &config, err, sizeof err), -1);
    ck_assert_int_eq(config.sparsity, 0);
    ck_assert_ptr_nonnull(strstr(err, "SAMPLER_SEED='x'"));
}
END_TEST

START_TEST(test_both_bad_give_one_line_each)
{
    struct sampler_config config;
    char err[512];

    ck_assert_int_eq(parse_sampling("junk", "trash", &config, err, sizeof err), -1);
    ck_assert_int_eq(config.sparsity, 0);
    char *newline = strchr(err, '\n');
    ck_assert_ptr_nonnull(newline);
    ck_assert_ptr_null(strchr(newline + 1, '\n'));
    *newline = '\0';
    ck_assert_ptr_nonnull(strstr(err, "SAMPLER_SPARSITY='junk'"));
    ck_assert_ptr_nonnull(strstr(newline + 1, "SAMPLER_SEED='trash'"));
}
END_TEST

START_TEST(test_control_characters_are_escaped)
{
    struct sampler_config config;
    char err[512];

    ck_assert_int_eq(parse_sampling("1\n2\x1b[31m'\\", NULL, &config, err, sizeof err), -1);
    ck_assert_ptr_null(strchr(err, '\n'));
    ck_assert_ptr_null(strchr(err, '\x1b'));
    ck_assert_msg(strstr(err, "'1\\x0a2\\x1b[31m\\x27\\x5c'") != NULL, "%s", err);
}
END_TEST

START_TEST(test_long_value_is_truncated)
{
    struct sampler_config config;
    char value[5000];
    char err[1024];

    memset(value, '9', sizeof value - 1);
    value[sizeof value - 1] = '\0';
    ck_assert_int_eq(parse_sampling(value, NULL, &config, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "...'"));
    ck_assert_uint_lt(strlen(err), 400);
}
END_TEST

START_TEST(test_small_error_buffer_is_respected)
{
    struct sampler_config config;
    char buffer[32];

    memset(buffer, '#', sizeof buffer);
    ck_assert_int_eq(parse_sampling("junk", "trash", &config, buffer, 16), -1);
    ck_assert_uint_eq(strlen(buffer), 15);
    for (size_t i = 16; i < sizeof buffer; i++)
        ck_assert_int_eq(buffer[i], '#');

    ck_assert_int_eq(parse_sampling("junk", NULL, &config, NULL, 0), -1);
    ck_assert_int_eq(parse_sampling("10", NULL, &config, NULL, 0), 0);
    ck_assert_int_eq(config.sparsity, 10);
}
END_TEST

struct destination_case {
    const char *file;
    const char *report_fd;
    const char *expected_file;
    int expected_fd;
};

static const struct destination_case good_destinations[] = {
    { NULL, NULL, "sampler-%p.report", -1 },
    { "", "", "sampler-%p.report", -1 },
    { "run.report", NULL, "run.report", -1 },
    { "/tmp/r/%p-%%.txt", NULL, "/tmp/r/%p-%%.txt", -1 },
    { NULL, "0", "sampler-%p.report", 0 },
    { NULL, "3", "sampler-%p.report", 3 },
    { NULL, "003", "sampler-%p.report", 3 },
    { NULL, "2147483647", "sampler-%p.report", 2147483647 },
    /* Both valid: the descriptor is used, the file kept for reference.  */
    { "f-%p", "4", "f-%p", 4 },
};

START_TEST(test_good_destinations_parse)
{
    const struct destination_case *c = &good_destinations[_i];
    const struct variable env[] = { { "SAMPLER_SPARSITY", "10" },
                                    { "SAMPLER_FILE", c->file },
                                    { "SAMPLER_REPORT_FD", c->report_fd },
                                    { NULL, NULL } };
    struct sampler_config config;
    char err[512] = "untouched";

    ck_assert_int_eq(parse(env, &config, err, sizeof err), 0);
    ck_assert_str_eq(err, "");
    ck_assert_int_eq(config.sparsity, 10);
    ck_assert_str_eq(config.report_file, c->expected_file);
    ck_assert_int_eq(config.report_fd, c->expected_fd);
}
END_TEST

static const char *const bad_files[] = { "%", "r%", "%x", "a-%P", "%s.report", "100%" };

START_TEST(test_bad_file_is_reported_and_off)
{
    const struct variable env[] = { { "SAMPLER_SPARSITY", "10" }, { "SAMPLER_SEED", "3" },
                                    { "SAMPLER_FILE", bad_files[_i] }, { NULL, NULL } };
    struct sampler_config config;
    char err[512];
    char quoted[64];

    ck_assert_int_eq(parse(env, &config, err, sizeof err), -1);
    ck_assert_int_eq(config.sparsity, 0);
    ck_assert_int_eq(config.report_fd, -1);
    ck_assert_msg(strncmp(err, "sampler: ignoring SAMPLER_FILE=", 31) == 0, "%s", err);
    snprintf(quoted, sizeof quoted, "'%s'", bad_files[_i]);
    ck_assert_msg(strstr(err, quoted) != NULL, "no value %s: %s", quoted, err);
    ck_assert_msg(strstr(err, "sampling is off") != NULL, "%s", err);
    ck_assert_ptr_null(strchr(err, '\n'));
}
END_TEST

START_TEST(test_too_long_file_is_reported)
{
    char *file = malloc(SAMPLER_PATH_MAX + 1);
    char err[512];
    struct sampler_config config;

    ck_assert_ptr_nonnull(file);
    memset(file, 'f', SAMPLER_PATH_MAX);
    file[SAMPLER_PATH_MAX] = '\0';
    const struct variable env[] = { { "SAMPLER_SPARSITY", "10" },
                                    { "SAMPLER_FILE", file }, { NULL, NULL } };
    ck_assert_int_eq(parse(env, &config, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "SAMPLER_FILE='fff"));
    ck_assert_ptr_nonnull(strstr(err, "...'"));

    file[SAMPLER_PATH_MAX - 1] = '\0';
    ck_assert_int_eq(parse(env, &config, err, sizeof err), 0);
    ck_assert_uint_eq(strlen(config.report_file), SAMPLER_PATH_MAX - 1);
    free(file);
}
END_TEST

static const char *const bad_descriptors[] = { "-1", "+3", " 3", "3 ", "x", "3x",
                                               "0x3", "2147483648", "99999999999999999999" };

START_TEST(test_bad_report_fd_is_reported_and_off)
{
    const struct variable env[] = { { "SAMPLER_SPARSITY", "10" }, { "SAMPLER_FILE", "f" },
                                    { "SAMPLER_REPORT_FD", bad_descriptors[_i] },
                                    { NULL, NULL } };
    struct sampler_config config;
    char err[512];
    char quoted[64];

    ck_assert_int_eq(parse(env, &config, err, sizeof err), -1);
    ck_assert_int_eq(config.sparsity, 0);
    ck_assert_int_eq(config.report_fd, -1);
    ck_assert_msg(strncmp(err, "sampler: ignoring SAMPLER_REPORT_FD=", 36) == 0, "%s", err);
    snprintf(quoted, sizeof quoted, "'%s'", bad_descriptors[_i]);
    ck_assert_msg(strstr(err, quoted) != NULL, "no value %s: %s", quoted, err);
    ck_assert_ptr_null(strchr(err, '\n'));
}
END_TEST

START_TEST(test_every_bad_variable_gets_its_line)
{
    const struct variable env[] = { { "SAMPLER_SPARSITY", "s" }, { "SAMPLER_SEED", "t" },
                                    { "SAMPLER_FILE", "%u" },
                                    { "SAMPLER_REPORT_FD", "v" }, { NULL, NULL } };
    struct sampler_config config;
    char err[2048];
    static const char *const names[] = { "SAMPLER_SPARSITY='s'", "SAMPLER_SEED='t'",
                                         "SAMPLER_FILE='%u'", "SAMPLER_REPORT_FD='v'" };

    ck_assert_int_eq(parse(env, &config, err, sizeof err), -1);
    char *line = err;
    for (size_t i = 0; i < 4; i++) {
        ck_assert_ptr_nonnull(line);
        char *newline = strchr(line, '\n');
        if (newline != NULL)
            *newline = '\0';
        ck_assert_msg(strstr(line, names[i]) != NULL, "line %zu: %s", i, line);
        line = newline != NULL ? newline + 1 : NULL;
    }
    ck_assert_ptr_null(line);
}
END_TEST

static int compare_seeds(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

START_TEST(test_stream_seeds_are_distinct_per_thread)
{
    static const uint64_t bases[] = { 0, 1, 42, UINT64_MAX };
    enum { ORDERS = 100000 };
    static uint32_t seeds[ORDERS];

    for (size_t b = 0; b < sizeof bases / sizeof bases[0]; b++) {
        for (unsigned long order = 0; order < ORDERS; order++)
            seeds[order] = sampler_stream_seed(bases[b], order);
        qsort(seeds, ORDERS, sizeof seeds[0], compare_seeds);
        /* One assertion per loop, not per item: each costs a write.  */
        unsigned long duplicates = 0;
        for (unsigned long i = 1; i < ORDERS; i++)
            duplicates += seeds[i - 1] == seeds[i];
        ck_assert_uint_eq(duplicates, 0);
    }
    ck_assert_uint_ne(sampler_stream_seed(1, 0), sampler_stream_seed(2, 0));
    ck_assert_uint_eq(sampler_stream_seed(1, 5), sampler_stream_seed(1, 5));
}
END_TEST

Suite *config_suite(void)
{
    Suite *suite = suite_create("config");
    TCase *parse = tcase_create("parse");

    tcase_add_loop_test(parse, test_good_values_parse, 0,
                        sizeof good_cases / sizeof good_cases[0]);
    tcase_add_loop_test(parse, test_bad_sparsity_is_reported_and_off, 0,
                        sizeof bad_sparsities / sizeof bad_sparsities[0]);
    tcase_add_loop_test(parse, test_bad_seed_is_reported_and_off, 0,
                        sizeof bad_seeds / sizeof bad_seeds[0]);
    tcase_add_test(parse, test_bad_seed_is_reported_even_when_off);
    tcase_add_test(parse, test_both_bad_give_one_line_each);
    tcase_add_test(parse, test_control_characters_are_escaped);
    tcase_add_test(parse, test_long_value_is_truncated);
    tcase_add_test(parse, test_small_error_buffer_is_respected);
    suite_add_tcase(suite, parse);

    TCase *destinations = tcase_create("report destinations");
    tcase_add_loop_test(destinations, test_good_destinations_parse, 0,
                        sizeof good_destinations / sizeof good_destinations[0]);
    tcase_add_loop_test(destinations, test_bad_file_is_reported_and_off, 0,
                        sizeof bad_files / sizeof bad_files[0]);
    tcase_add_test(destinations, test_too_long_file_is_reported);
    tcase_add_loop_test(destinations, test_bad_report_fd_is_reported_and_off, 0,
                        sizeof bad_descriptors / sizeof bad_descriptors[0]);
    tcase_add_test(destinations, test_every_bad_variable_gets_its_line);
    suite_add_tcase(suite, destinations);

    TCase *seeds = tcase_create("stream seeds");
    tcase_add_test(seeds, test_stream_seeds_are_distinct_per_thread);
    suite_add_tcase(suite, seeds);
    return suite;
}
