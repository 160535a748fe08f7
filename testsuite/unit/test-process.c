/* The runtime in real processes: configuration from the real environment,
   the main-thread constructor, thread start order, fork, and the exported
   symbols.  Each test runs sampler-helper (linked statically and against
   libsampler.so) with an environment made from scratch.  */
#include <dlfcn.h>
#include <ftw.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <check.h>
#include <gsl/gsl_cdf.h>

#include "sampler-abi.h"
#include "sampler-internal.h"

static const char *const helpers[] = { HELPER_STATIC, HELPER_SHARED };

struct run {
    int status;
    char *out;
    char *err;
};

static char *read_all(FILE *file)
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

static int remove_entry(const char *path, const struct stat *status, int type,
                        struct FTW *walk)
{
    (void)status;
    (void)type;
    (void)walk;
    return remove(path);
}

/* Runs helper with arguments mode [arg] and exactly the given environment,
   in a directory of its own: a sampling run leaves its report there, and
   the directory goes when the run is over.  */
static struct run run_helper(const char *helper, const char *const env[],
                             const char *mode, const char *arg)
{
    FILE *out = tmpfile(), *err = tmpfile();
    char directory[] = "/tmp/sampler-process-test-XXXXXX";
    struct run run;

    ck_assert_ptr_nonnull(out);
    ck_assert_ptr_nonnull(err);
    ck_assert_ptr_nonnull(mkdtemp(directory));
    pid_t pid = fork();
    ck_assert_int_ne(pid, -1);
    if (pid == 0) {
        const char *argv[] = { helper, mode, arg, NULL };
        if (chdir(directory) != 0 || dup2(fileno(out), STDOUT_FILENO) < 0
            || dup2(fileno(err), STDERR_FILENO) < 0)
            _exit(126);
        execve(helper, (char *const *)argv, (char *const *)env);
        _exit(127);
    }
    ck_assert_int_eq(waitpid(pid, &run.status, 0), pid);
    nftw(directory, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    run.out = read_all(out);
    run.err = read_all(err);
    return run;
}

static void free_run(struct run *run)
{
    free(run->out);
    free(run->err);
}

static void assert_exited_cleanly(const struct run *run)
{
    ck_assert_msg(WIFEXITED(run->status) && WEXITSTATUS(run->status) == 0,
                  "helper status %#x, stderr: %s", run->status, run->err);
}

static size_t count_lines(const char *text)
{
    size_t lines = 0;
    for (; *text != '\0'; text++)
        lines += *text == '\n';
    return lines;
}

/* The numbers on the output line that starts with label; *count of them.  */
static long *stream_of(const char *out, const char *label, size_t *count)
{
    size_t label_length = strlen(label);
    const char *line = out;

    while (line != NULL && !(strncmp(line, label, label_length) == 0
                             && line[label_length] == ' ')) {
        line = strchr(line, '\n');
        if (line != NULL)
            line++;
    }
    if (line == NULL) {
        ck_abort_msg("no line '%s' in: %.200s", label, out);
        return NULL;
    }

    long *values = malloc(strlen(line) * sizeof *values);
    ck_assert_ptr_nonnull(values);
    char *cursor = (char *)line + label_length;
    *count = 0;
    while (*cursor == ' ') {
        values[(*count)++] = strtol(cursor, &cursor, 10);
    }
    ck_assert_int_eq(*cursor, '\n');
    return values;
}

/* Whole arrays are checked with one assertion: each Check assertion costs
   a write to the test runner.  */
static void assert_all_are(const long *values, size_t count, long expected)
{
    size_t i = 0;
    while (i < count && values[i] == expected)
        i++;
    ck_assert_msg(i == count, "value %zu is %ld, not %ld", i, values[i], expected);
}

static void assert_stream_is(const long *values, size_t count, long sparsity,
                             uint64_t seed, unsigned long order, size_t skip)
{
    struct sampler_stream *stream = sampler_stream_new(sparsity, seed, order);
    size_t i;

    ck_assert_ptr_nonnull(stream);
    for (i = 0; i < skip; i++)
        sampler_stream_next(stream);
    for (i = 0; i < count; i++)
        if (values[i] != sampler_stream_next(stream))
            break;
    sampler_stream_free(stream);
    ck_assert_msg(i == count, "draw %zu differs from stream %lu of seed %" PRIu64,
                  i + skip, order, seed);
}

static const char *const bad_sparsities[] = {
    "abc", "-5", "12x", "1000000001", "99999999999999999999", "1\n2",
};

START_TEST(test_bad_sparsity_in_environment_warns_once)
{
    for (size_t h = 0; h < sizeof helpers / sizeof helpers[0]; h++) {
        char variable[64];
        snprintf(variable, sizeof variable, "SAMPLER_SPARSITY=%s", bad_sparsities[_i]);
        const char *env[] = { variable, "SAMPLER_SEED=3", NULL };

        struct run quiet = run_helper(helpers[h], env, "quiet", NULL);
        assert_exited_cleanly(&quiet);
        ck_assert_str_eq(quiet.out, "");
        ck_assert_uint_eq(count_lines(quiet.err), 1);
        ck_assert_int_eq(quiet.err[strlen(quiet.err) - 1], '\n');
        ck_assert_msg(strncmp(quiet.err, "sampler: ignoring SAMPLER_SPARSITY='", 36) == 0,
                      "%s", quiet.err);
        free_run(&quiet);

        struct run state = run_helper(helpers[h], env, "sparsity", NULL);
        assert_exited_cleanly(&state);
        /* Sampling off: the main thread's countdown stays 0, so that
           instrumented functions go to their unsampled clones.  */
        ck_assert_str_eq(state.out, "sparsity 0 countdown 0 off 1\n");
        ck_assert_uint_eq(count_lines(state.err), 1);
        free_run(&state);
    }
}
END_TEST

START_TEST(test_bad_seed_in_environment_warns_once)
{
    for (size_t h = 0; h < sizeof helpers / sizeof helpers[0]; h++) {
        const char *env[] = { "SAMPLER_SPARSITY=100", "SAMPLER_SEED=12seed", NULL };
        struct run run = run_helper(helpers[h], env, "sparsity", NULL);

        assert_exited_cleanly(&run);
        ck_assert_uint_eq(count_lines(run.err), 1);
        ck_assert_ptr_nonnull(strstr(run.err, "SAMPLER_SEED='12seed'"));
        ck_assert_str_eq(run.out, "sparsity 0 countdown 0 off 1\n");
        free_run(&run);
    }
}
END_TEST

START_TEST(test_good_environment_is_silent)
{
    static const char *const cases[][3] = {
        { "SAMPLER_SPARSITY=100", "SAMPLER_SEED=1", NULL },
        { "SAMPLER_SPARSITY=1000000000", NULL, NULL },
        { "SAMPLER_SPARSITY=", "SAMPLER_SEED=", NULL },
        { NULL, NULL, NULL },
    };

    for (size_t h = 0; h < sizeof helpers / sizeof helpers[0]; h++) {
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
            struct run run = run_helper(helpers[h], cases[c], "quiet", NULL);
            assert_exited_cleanly(&run);
            ck_assert_str_eq(run.out, "");
            ck_assert_str_eq(run.err, "");
            free_run(&run);
        }
    }
}
END_TEST

START_TEST(test_off_gives_off_countdowns)
{
    static const char *const cases[][2] = {
        { NULL, NULL },
        { "SAMPLER_SPARSITY=0", NULL },
        { "SAMPLER_SPARSITY=", NULL },
    };

    for (size_t h = 0; h < sizeof helpers / sizeof helpers[0]; h++) {
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
            struct run run = run_helper(helpers[h], cases[c], "threads", "5");
            assert_exited_cleanly(&run);
            static const char *const labels[] = { "main", "first", "second" };
            for (size_t l = 0; l < 3; l++) {
                size_t count;
                long *values = stream_of(run.out, labels[l], &count);
                ck_assert_uint_eq(count, 5);
                /* The main thread's countdown stays 0 (for the unsampled
                   clones); what the runtime draws is off.  */
                if (l == 0) {
                    ck_assert_int_eq(values[0], 0);
                    assert_all_are(values + 1, count - 1, SAMPLER_COUNTDOWN_OFF);
                } else {
                    assert_all_are(values, count, SAMPLER_COUNTDOWN_OFF);
                }
                free(values);
            }
            free_run(&run);
        }
    }
}
END_TEST

START_TEST(test_sparsity_one_in_every_thread)
{
    const char *env[] = { "SAMPLER_SPARSITY=1", NULL };
    struct run run = run_helper(helpers[_i], env, "threads", "2000");
    static const char *const labels[] = { "main", "first", "second" };

    assert_exited_cleanly(&run);
    for (size_t l = 0; l < 3; l++) {
        size_t count;
        long *values = stream_of(run.out, labels[l], &count);
        ck_assert_uint_eq(count, 2000);
        assert_all_are(values, count, 1);
        free(values);
    }
    free_run(&run);
}
END_TEST

/* Enough draws to cross two bank refills.  */
#define THREAD_DRAWS "2500"

START_TEST(test_seeded_threads_are_reproducible_and_distinct)
{
    const char *env[] = { "SAMPLER_SPARSITY=100", "SAMPLER_SEED=424242", NULL };
    const char *other_env[] = { "SAMPLER_SPARSITY=100", "SAMPLER_SEED=424243", NULL };
    struct run run = run_helper(helpers[_i], env, "threads", THREAD_DRAWS);
    struct run again = run_helper(helpers[_i], env, "threads", THREAD_DRAWS);
    struct run other = run_helper(helpers[_i], other_env, "threads", THREAD_DRAWS);

    assert_exited_cleanly(&run);
    assert_exited_cleanly(&again);
    assert_exited_cleanly(&other);
    ck_assert_str_eq(run.err, "");
    ck_assert_str_eq(run.out, again.out);
    ck_assert_str_ne(run.out, other.out);

    /* The main thread has number 0; threads that instrumented code did not
       create are numbered from SAMPLER_LAZY_ORDER_BASE as they start.  */
    static const char *const labels[] = { "main", "first", "second" };
    static const unsigned long orders[] = { 0, SAMPLER_LAZY_ORDER_BASE,
                                            SAMPLER_LAZY_ORDER_BASE + 1 };
    for (size_t t = 0; t < 3; t++) {
        size_t count;
        long *values = stream_of(run.out, labels[t], &count);
        ck_assert_uint_eq(count, 2500);
        assert_stream_is(values, count, 100, 424242, orders[t], 0);
        free(values);
    }
    free_run(&run);
    free_run(&again);
    free_run(&other);
}
END_TEST

/* Threads created by instrumented code are numbered 1, 2, ... in creation
   order, and get an alternate signal stack.  */
START_TEST(test_created_threads_are_numbered_in_creation_order)
{
    const char *env[] = { "SAMPLER_SPARSITY=100", "SAMPLER_SEED=424242", NULL };
    struct run run = run_helper(helpers[_i], env, "created", THREAD_DRAWS);

    assert_exited_cleanly(&run);
    ck_assert_str_eq(run.err, "");
    static const char *const labels[] = { "main", "first", "second" };
    for (unsigned long order = 0; order < 3; order++) {
        size_t count;
        long *values = stream_of(run.out, labels[order], &count);
        ck_assert_uint_eq(count, 2500);
        assert_stream_is(values, count, 100, 424242, order, 0);
        free(values);
    }
    free_run(&run);

    /* With sampling off the wrapper is pthread_create itself.  */
    const char *off_env[] = { NULL };
    struct run off = run_helper(helpers[_i], off_env, "created", "3");
    assert_exited_cleanly(&off);
    free_run(&off);
}
END_TEST

START_TEST(test_fresh_seeds_differ_between_runs)
{
    const char *env[] = { "SAMPLER_SPARSITY=100", NULL };
    struct run run = run_helper(helpers[_i], env, "threads", THREAD_DRAWS);
    struct run again = run_helper(helpers[_i], env, "threads", THREAD_DRAWS);

    assert_exited_cleanly(&run);
    assert_exited_cleanly(&again);
    size_t count, again_count;
    long *values = stream_of(run.out, "main", &count);
    long *again_values = stream_of(again.out, "main", &again_count);
    ck_assert_mem_ne(values, again_values, count * sizeof values[0]);
    free(values);
    free(again_values);
    free_run(&run);
    free_run(&again);
}
END_TEST

START_TEST(test_fork_gives_the_child_its_own_stream)
{
    const char *env[] = { "SAMPLER_SPARSITY=100", "SAMPLER_SEED=99", NULL };
    struct run run = run_helper(helpers[_i], env, "fork", THREAD_DRAWS);
    struct run again = run_helper(helpers[_i], env, "fork", THREAD_DRAWS);

    assert_exited_cleanly(&run);
    assert_exited_cleanly(&again);
    ck_assert_str_eq(run.out, again.out);

    size_t child_count, parent_count;
    long *child = stream_of(run.out, "child", &child_count);
    long *parent = stream_of(run.out, "parent", &parent_count);
    /* The parent goes on with its stream (the constructor took draw 0)...  */
    assert_stream_is(parent, parent_count, 100, 99, 0, 1);
    /* ...and the child does not repeat it.  */
    size_t equal = 0;
    for (size_t i = 0; i < child_count; i++)
        equal += child[i] == parent[i];
    ck_assert_uint_lt(equal, child_count / 20);
    free(child);
    free(parent);
    free_run(&run);
    free_run(&again);
}
END_TEST

/* Sampled visits through the slow path's runtime calls: a group of 16
   scalar-pairs sites sampled together by __sampler_pairs_signed, and a
   site followed by visits to no site that __sampler_skip counts at once.
   At sparsity 1 every site visit is sampled; at 7, the samples of each
   position of the group, and of the lone site, are within the 99.999%
   bounds of Binomial(rounds, 1/7) (fixed seeds: the outcome is fixed).  */
#define SAMPLE_ROUNDS 70000

static void assert_binomial(unsigned long samples, unsigned long trials, double p)
{
    double low = gsl_cdf_binomial_P(samples, p, trials);
    double high = samples == 0 ? 1 : gsl_cdf_binomial_Q(samples - 1, p, trials);
    ck_assert_msg(low > 5e-6 && high > 5e-6,
                  "%lu samples of %lu visits at probability %g: P(X <= s) %g, "
                  "P(X >= s) %g", samples, trials, p, low, high);
}

/* The samples of each of COUNT positions that the helper prints for MODE
   run SAMPLE_ROUNDS times in ENV.  */
static long *samples_of_rounds(const char *helper, const char *const env[],
                               const char *mode, size_t count)
{
    char rounds[32];
    snprintf(rounds, sizeof rounds, "%d", SAMPLE_ROUNDS);
    struct run run = run_helper(helper, env, mode, rounds);
    assert_exited_cleanly(&run);
    size_t printed;
    long *samples = stream_of(run.out, mode, &printed);
    ck_assert_uint_eq(printed, count);
    free_run(&run);
    return samples;
}

/* Every position sampled in every round at sparsity 1, and within the
   binomial bounds at sparsity 7.  */
static void assert_each_sampled_alone(const char *helper, const char *mode,
                                      size_t count, const char *seed)
{
    const char *every[] = { "SAMPLER_SPARSITY=1", NULL };
    const char *sparse[] = { "SAMPLER_SPARSITY=7", seed, NULL };
    long *samples = samples_of_rounds(helper, every, mode, count);
    for (size_t i = 0; i < count; i++)
        ck_assert_int_eq(samples[i], SAMPLE_ROUNDS);
    free(samples);
    samples = samples_of_rounds(helper, sparse, mode, count);
    for (size_t i = 0; i < count; i++)
        assert_binomial((unsigned long)samples[i], SAMPLE_ROUNDS, 1.0 / 7);
    free(samples);
}

START_TEST(test_groups_of_visits_are_sampled_each_alone)
{
    assert_each_sampled_alone(helpers[_i], "groups", 16, "SAMPLER_SEED=2026");
}
END_TEST

/* The 16 scalar-pairs sites of an assignment as one visit
   (__sampler_assignment_pairs_signed): every sampled visit observes all
   16, so each partner has the same samples, and the visits are sampled
   at 1/7 (at sparsity 1, every one).  Sampled one by one, as in
   "groups", the 16 counts would differ.  */
START_TEST(test_assignments_are_sampled_with_all_their_pairs)
{
    const char *every[] = { "SAMPLER_SPARSITY=1", NULL };
    const char *sparse[] = { "SAMPLER_SPARSITY=7", "SAMPLER_SEED=2027", NULL };
    long *samples = samples_of_rounds(helpers[_i], every, "assignments", 16);
    for (size_t i = 0; i < 16; i++)
        ck_assert_int_eq(samples[i], SAMPLE_ROUNDS);
    free(samples);
    samples = samples_of_rounds(helpers[_i], sparse, "assignments", 16);
    for (size_t i = 1; i < 16; i++)
        ck_assert_int_eq(samples[i], samples[0]);
    assert_binomial((unsigned long)samples[0], SAMPLE_ROUNDS, 1.0 / 7);
    free(samples);
}
END_TEST

/* A thread that has not started sampling counts its first visits off
   the countdown 0 and starts at the runtime's first call: its first
   visits are sampled as fairly as any.  */
START_TEST(test_first_visits_of_a_thread_are_sampled_fairly)
{
    const char *every[] = { "SAMPLER_SPARSITY=1", NULL };
    const char *sparse[] = { "SAMPLER_SPARSITY=7", "SAMPLER_SEED=31", NULL };
    const unsigned long threads = 3000;
    char count[32];
    snprintf(count, sizeof count, "%lu", threads);
    for (int pass = 0; pass < 2; pass++) {
        struct run run = run_helper(helpers[_i], pass ? sparse : every, "fresh", count);
        assert_exited_cleanly(&run);
        size_t printed;
        long *samples = stream_of(run.out, "fresh", &printed);
        ck_assert_uint_eq(printed, 17);
        for (size_t i = 0; i < printed; i++) {
            if (pass == 0)
                ck_assert_int_eq(samples[i], (long)threads);
            else
                assert_binomial((unsigned long)samples[i], threads, 1.0 / 7);
        }
        free(samples);
        free_run(&run);
    }
}
END_TEST

START_TEST(test_visits_to_no_site_leave_sampling_fair)
{
    assert_each_sampled_alone(helpers[_i], "phantoms", 1, "SAMPLER_SEED=77");
}
END_TEST

START_TEST(test_shared_library_exports_only_the_api)
{
    static const char *const exported[] = {
        "__sampler_countdown", "__sampler_thread_start",
        "__sampler_next_countdown", "sampler_sparsity",
        "__sampler_count", "__sampler_branch", "__sampler_sign_signed",
        "__sampler_sign_unsigned", "__sampler_pairs_signed",
        "__sampler_pairs_unsigned", "__sampler_assignment_pairs_signed",
        "__sampler_assignment_pairs_unsigned", "__sampler_bounds_signed",
        "__sampler_bounds_unsigned", "__sampler_bounds_double",
        "__sampler_float_kind", "__sampler_skip",
        "__sampler_thread_start_preserving",
        "__sampler_register_unit", "__sampler_observe_signed",
        "__sampler_observe_unsigned", "__sampler_observe_double",
        "__sampler_observe_float_kind", "sampler_write_report",
        "__sampler_unregister_unit", "sampler_dump", "sampler_reset",
        "sampler_set_sparsity",
#define WRAPPER_NAME(function, wrapper) #wrapper,
        SAMPLER_REDIRECTED_FUNCTIONS(WRAPPER_NAME)
#undef WRAPPER_NAME
    };
    static const char *const hidden[] = {
        "sampler_config_parse", "sampler_config_get", "sampler_stream_new",
        "sampler_stream_next", "sampler_stream_seed", "sampler_mix64",
        "sampler_report_write", "sampler_report_arm", "sampler_units_visit",
        "sampler_unit_is_valid", "sampler_quote", "sampler_warn",
        "sampler_countdown_next", "sampler_countdown_next_preserving",
        "sampler_call_saving_vectors", "sampler_vector_save_kind",
        "sampler_report_write_from_signal", "sampler_report_lock", "sampler_units_zero",
        "sampler_signals_arm", "sampler_interval_start", "sampler_process_pid",
    };
    /* dlopen also proves that the initial-exec TLS fits in the static TLS
       that glibc keeps for libraries loaded late.  */
    void *library = dlopen(LIBSAMPLER_SO, RTLD_NOW | RTLD_LOCAL);

    ck_assert_msg(library != NULL, "%s", dlerror());
    for (size_t i = 0; i < sizeof exported / sizeof exported[0]; i++)
        ck_assert_msg(dlsym(library, exported[i]) != NULL, "%s not exported", exported[i]);
    for (size_t i = 0; i < sizeof hidden / sizeof hidden[0]; i++)
        ck_assert_msg(dlsym(library, hidden[i]) == NULL, "%s exported", hidden[i]);
    dlclose(library);
}
END_TEST

Suite *process_suite(void)
{
    Suite *suite = suite_create("process");
    size_t helper_count = sizeof helpers / sizeof helpers[0];

    TCase *environment = tcase_create("environment");
    tcase_set_timeout(environment, 30);
    tcase_add_loop_test(environment, test_bad_sparsity_in_environment_warns_once, 0,
                        sizeof bad_sparsities / sizeof bad_sparsities[0]);
    tcase_add_test(environment, test_bad_seed_in_environment_warns_once);
    tcase_add_test(environment, test_good_environment_is_silent);
    tcase_add_test(environment, test_off_gives_off_countdowns);
    suite_add_tcase(suite, environment);

    TCase *threads = tcase_create("threads");
    tcase_set_timeout(threads, 30);
    tcase_add_loop_test(threads, test_sparsity_one_in_every_thread, 0, helper_count);
    tcase_add_loop_test(threads, test_seeded_threads_are_reproducible_and_distinct, 0,
                        helper_count);
    tcase_add_loop_test(threads, test_created_threads_are_numbered_in_creation_order, 0,
                        helper_count);
    tcase_add_loop_test(threads, test_fresh_seeds_differ_between_runs, 0, helper_count);
    tcase_add_loop_test(threads, test_fork_gives_the_child_its_own_stream, 0, helper_count);
    suite_add_tcase(suite, threads);

    TCase *samples = tcase_create("samples");
    tcase_set_timeout(samples, 30);
    tcase_add_loop_test(samples, test_groups_of_visits_are_sampled_each_alone, 0,
                        helper_count);
    tcase_add_loop_test(samples, test_assignments_are_sampled_with_all_their_pairs, 0,
                        helper_count);
    tcase_add_loop_test(samples, test_visits_to_no_site_leave_sampling_fair, 0,
                        helper_count);
    tcase_add_loop_test(samples, test_first_visits_of_a_thread_are_sampled_fairly, 0,
                        helper_count);
    suite_add_tcase(suite, samples);

    TCase *exports = tcase_create("exports");
    tcase_add_test(exports, test_shared_library_exports_only_the_api);
    suite_add_tcase(suite, exports);
    return suite;
}
