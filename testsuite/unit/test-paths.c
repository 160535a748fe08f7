/* Path profiles (the paths scheme): the runtime's table of path counts
   (__sampler_observe_path, runtime/schemes/paths.c) and sampler-report's
   merge and decoding of them (tools/report/schemes/paths/pathtable.c).

   - array: path P counts in pair P;
   - hash: as many distinct paths as pairs all count exactly; one more is
     lost; the pair a path took keeps it;
   - preferred: with preferential numbering, an interesting path counts
     in the pair of its number; a path that shares that number (an
     alias) or whose number is a hole goes to the pairs past the range,
     a hash table, and is lost when they are full;
   - threads: four threads counting eight paths in eight pairs lose
     nothing, and no path takes two pairs;
   - merge: two tables add up path by path; paths that find no room count
     as lost, so the total stays the sum;
   - decode: every number of a hand-made table (two regions) decodes to a
     path of its own that ends at an exit; a number out of range is an
     error.  */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <check.h>

#include "sampler-abi.h"

#include "pathtable.h"

enum { PAIRS = 8 };

struct table {
    unsigned long long s[PATH_SLOT_PAIRS + 2 * PAIRS];
};

static unsigned long long count_of(const struct table *t, unsigned long long path)
{
    unsigned long long count = 0;
    unsigned found = 0;
    for (unsigned i = 0; i < PAIRS; i++) {
        if (t->s[PATH_SLOT_PAIRS + 2 * i] == path + 1) {
            count += t->s[PATH_SLOT_PAIRS + 2 * i + 1];
            found++;
        }
    }
    ck_assert_uint_le(found, 1);
    return count;
}

START_TEST(test_array)
{
    struct table t;
    memset(&t, 0, sizeof t);
    for (unsigned long long p = 0; p < PAIRS; p++)
        for (unsigned long long k = 0; k <= p; k++)
            __sampler_observe_path(t.s, p, PAIRS, 1);
    ck_assert_uint_eq(t.s[PATH_SLOT_SAMPLED], PAIRS * (PAIRS + 1) / 2);
    ck_assert_uint_eq(t.s[PATH_SLOT_LOST], 0);
    for (unsigned long long p = 0; p < PAIRS; p++) {
        ck_assert_uint_eq(t.s[PATH_SLOT_PAIRS + 2 * p], p + 1);
        ck_assert_uint_eq(t.s[PATH_SLOT_PAIRS + 2 * p + 1], p + 1);
    }
}
END_TEST

START_TEST(test_hash)
{
    struct table t;
    memset(&t, 0, sizeof t);
    /* Path numbers far apart, as those of a function with many paths.  */
    static const unsigned long long paths[PAIRS + 1] = {
        5, 1000003, 77, 123456789012ULL, 9, 40000, 3, 700001, 42
    };
    for (unsigned i = 0; i < PAIRS; i++)
        for (unsigned k = 0; k <= i; k++)
            __sampler_observe_path(t.s, paths[i], PAIRS, 0);
    for (unsigned i = 0; i < PAIRS; i++)
        ck_assert_uint_eq(count_of(&t, paths[i]), i + 1);
    __sampler_observe_path(t.s, paths[PAIRS], PAIRS, 0);
    __sampler_observe_path(t.s, paths[PAIRS], PAIRS, 0);
    ck_assert_uint_eq(t.s[PATH_SLOT_LOST], 2);
    ck_assert_uint_eq(count_of(&t, paths[PAIRS]), 0);
    __sampler_observe_path(t.s, paths[0], PAIRS, 0);
    ck_assert_uint_eq(count_of(&t, paths[0]), 2);
    ck_assert_uint_eq(t.s[PATH_SLOT_SAMPLED], PAIRS * (PAIRS + 1) / 2 + 3);
}
END_TEST

START_TEST(test_preferred)
{
    struct table t;
    memset(&t, 0, sizeof t);
    /* 8 pairs, range 3: paths 40 and 7 are numbered 0 and 2, 1 is a
       hole; pairs 3..7 are the hash table.  */
    static const unsigned long long table[2 + 3] = { PAIRS, 3, 41, 0, 8 };
    for (int k = 0; k < 3; k++)
        __sampler_observe_preferred_path(t.s, 0, 40, table);
    __sampler_observe_preferred_path(t.s, 2, 7, table);
    ck_assert_uint_eq(t.s[PATH_SLOT_PAIRS + 0], 41);
    ck_assert_uint_eq(t.s[PATH_SLOT_PAIRS + 1], 3);
    ck_assert_uint_eq(t.s[PATH_SLOT_PAIRS + 2 * 1], 0);
    ck_assert_uint_eq(t.s[PATH_SLOT_PAIRS + 2 * 2], 8);
    ck_assert_uint_eq(t.s[PATH_SLOT_PAIRS + 2 * 2 + 1], 1);
    /* Aliases of 40 and 7, a path at the hole, one beyond the range:
       each in a pair of its own from 3 on.  */
    static const unsigned long long others[5][2] = {
        { 0, 99 }, { 2, 12345 }, { 1, 40 }, { 1000, 5 }, { 0, 6 }
    };
    for (unsigned i = 0; i < 5; i++)
        for (unsigned k = 0; k <= i; k++)
            __sampler_observe_preferred_path(t.s, others[i][0], others[i][1], table);
    for (unsigned i = 0; i < 5; i++) {
        unsigned long long count = 0;
        for (unsigned p = 3; p < PAIRS; p++)
            if (t.s[PATH_SLOT_PAIRS + 2 * p] == others[i][1] + 1)
                count += t.s[PATH_SLOT_PAIRS + 2 * p + 1];
        ck_assert_uint_eq(count, i + 1);
    }
    ck_assert_uint_eq(t.s[PATH_SLOT_PAIRS + 1], 3);
    ck_assert_uint_eq(t.s[PATH_SLOT_PAIRS + 2 * 2 + 1], 1);
    ck_assert_uint_eq(t.s[PATH_SLOT_LOST], 0);
    /* The hash table is full: a sixth other path is lost.  */
    __sampler_observe_preferred_path(t.s, 0, 77, table);
    ck_assert_uint_eq(t.s[PATH_SLOT_LOST], 1);
    ck_assert_uint_eq(t.s[PATH_SLOT_SAMPLED], 4 + 15 + 1);
}
END_TEST

#define N_THREADS 4
#define PER_THREAD 40000
static struct table shared;

static void *traverser(void *arg)
{
    unsigned long long offset = (uintptr_t)arg;
    for (unsigned long long i = 0; i < PER_THREAD; i++)
        __sampler_observe_path(shared.s, 1000 * ((i + offset) % 8), PAIRS, 0);
    return NULL;
}

START_TEST(test_threads)
{
    pthread_t threads[N_THREADS];
    memset(&shared, 0, sizeof shared);
    for (uintptr_t t = 0; t < N_THREADS; t++)
        ck_assert_int_eq(pthread_create(&threads[t], NULL, traverser, (void *)t), 0);
    for (int t = 0; t < N_THREADS; t++)
        pthread_join(threads[t], NULL);
    ck_assert_uint_eq(shared.s[PATH_SLOT_SAMPLED], N_THREADS * PER_THREAD);
    ck_assert_uint_eq(shared.s[PATH_SLOT_LOST], 0);
    for (unsigned long long p = 0; p < 8; p++)
        ck_assert_uint_eq(count_of(&shared, 1000 * p), N_THREADS * PER_THREAD / 8);
}
END_TEST

START_TEST(test_merge)
{
    struct table a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    for (unsigned long long p = 0; p < 6; p++) {
        __sampler_observe_path(a.s, p, PAIRS, 0);
        __sampler_observe_path(b.s, p + 3, PAIRS, 0);
        __sampler_observe_path(b.s, p + 3, PAIRS, 0);
    }
    /* a: paths 0..5 once; b: 3..8 twice.  Merged: 0..2 once, 3..5 three
       times, 6..8 twice: nine paths in eight pairs, one lost.  */
    path_slots_merge(a.s, b.s, PAIRS);
    ck_assert_uint_eq(a.s[PATH_SLOT_SAMPLED], 18);
    unsigned long long in_pairs = 0;
    for (unsigned long long p = 0; p < 9; p++) {
        unsigned long long c = count_of(&a, p);
        unsigned long long want = p < 3 ? 1 : p < 6 ? 3 : 2;
        ck_assert(c == want || c == 0);
        in_pairs += c;
    }
    ck_assert_uint_eq(in_pairs + a.s[PATH_SLOT_LOST], 18);
    ck_assert_uint_eq(a.s[PATH_SLOT_LOST], 2);
}
END_TEST

/* Two regions: the first (block 2) branches to 3 or 4, which join at 5,
   which leaves by exit 6 or 7; the second (block 8) has one path.
   Ball-Larus values: paths(5) = 2, paths(2) = 4.  */
static const char table_text[] =
    "pathunit\t0123456789abcdef0123456789abcdef\n"
    "paths\t3\tf\tf.c\t5\tarray\n"
    "region\t2\t0\t4\t10\n"
    "region\t8\t4\t1\t20\n"
    "block\t2\t10\t10\nblock\t3\t11\t11\nblock\t4\t12\t12\nblock\t5\t13\t13\n"
    "block\t6\t0\t0\nblock\t7\t0\t0\nblock\t8\t20\t21\n"
    "edge\t2\t3\t0\ttrue\t10\nedge\t2\t4\t2\tfalse\t10\n"
    "edge\t3\t5\t0\t-\t11\nedge\t4\t5\t0\t-\t12\n"
    "edge\t5\t6\t0\ttrue\t13\nedge\t5\t7\t1\tfalse\t13\n"
    "exit\t6\t0\t14\nexit\t7\t0\t15\nexit\t8\t0\t21\n"
    "end\n"
    "pathunitend\n";

START_TEST(test_decode)
{
    struct path_catalog catalog = { 0 };
    struct diag d;
    ck_assert_msg(path_catalog_read_text(&catalog, table_text, sizeof table_text - 1, "t", &d),
                  "%s", d.message);
    const struct path_function *fn
        = path_catalog_find(&catalog, "0123456789abcdef0123456789abcdef", 3);
    ck_assert_ptr_nonnull(fn);
    ck_assert_uint_eq(fn->n_paths, 5);
    /* Each path as its blocks, and the exit's line.  */
    static const char *const want[5] = { "2 3 5 6", "2 3 5 7", "2 4 5 6", "2 4 5 7", "8" };
    static const long exit_line[5] = { 14, 15, 14, 15, 21 };
    for (unsigned long long p = 0; p < 5; p++) {
        struct path_step steps[16];
        size_t n;
        long region_line;
        ck_assert_msg(path_decode(fn, p, steps, 16, &n, &region_line, &d), "%s", d.message);
        char got[64] = "";
        for (size_t i = 0; i < n; i++) {
            char block[16];
            snprintf(block, sizeof block, "%s%ld", i ? " " : "", steps[i].block);
            strcat(got, block);
        }
        ck_assert_str_eq(got, want[p]);
        ck_assert_str_eq(steps[n - 1].how, "exit");
        ck_assert_int_eq(steps[n - 1].line, exit_line[p]);
        ck_assert_int_eq(region_line, p < 4 ? 10 : 20);
    }
    struct path_step steps[16];
    size_t n;
    long region_line;
    ck_assert(!path_decode(fn, 5, steps, 16, &n, &region_line, &d));
    ck_assert_ptr_nonnull(strstr(d.message, "no path 5"));
    path_catalog_free(&catalog);
}
END_TEST

Suite *paths_suite(void)
{
    Suite *suite = suite_create("paths");
    TCase *tc = tcase_create("exact");
    tcase_add_test(tc, test_array);
    tcase_add_test(tc, test_hash);
    tcase_add_test(tc, test_preferred);
    tcase_add_test(tc, test_threads);
    tcase_add_test(tc, test_merge);
    tcase_add_test(tc, test_decode);
    suite_add_tcase(suite, tc);
    return suite;
}
