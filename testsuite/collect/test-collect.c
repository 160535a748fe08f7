/* Unit tests (Check) of the collector's pieces that need no server
   (tools/collect/): an upload's body inflated within its limits, read and
   checked against its release (upload.c), UTF-8 made safe for the store
   (text.c), the quotas' buckets (quota.c), stored bodies inflated again
   (inflate.c).  The service and the stores are tested by
   run-collect-tests.sh.  */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <zlib.h>

#include "inflate.h"
#include "quota.h"
#include "text.h"
#include "upload.h"

/* A release with one unit of two sites: a branch and a call's return.  */
static const char tables[] =
    "unit\t0123456789abcdef0123456789abcdef\tt.c\t2\t5\t1\n"
    "site\t0\tbranches\tt.c\t3\t5\tf\t2\tx < y\tfalse,true\t1\n"
    "site\t1\treturns\tt.c\t4\t9\tf\t3\tg ()\t<0,==0,>0\t1\n"
    "end\n";

static const char run_id[] = "00112233445566778899aabbccddeeff";

static struct release release;
static struct memory_budget budget;
static struct upload_limits limits;

static void setup(void)
{
    struct diag d;
    memset(&release, 0, sizeof release);
    release.name = "t/1";
    release.product = "t";
    release.version = "1";
    site_catalog_init(&release.catalog);
    ck_assert_msg(site_catalog_add_text(&release.catalog, "tables", tables, strlen(tables), &d),
                  "%s", d.message);
    ck_assert_msg(labeller_init_rule(&release.labeller, "signal", &d), "%s", d.message);
    budget = (struct memory_budget) { .limit = 1 << 20 };
    limits = (struct upload_limits) { 4096, 8192, &budget };
}

static void teardown(void)
{
    site_catalog_free(&release.catalog);
    labeller_free(&release.labeller);
}

/* A report of release t/1 with run id ID, its exit EXIT ("status\t0"),
   and the site lines LINES.  */
static char *report_text(const char *id, const char *release_record, const char *exit,
                         const char *lines)
{
    static char text[2048];
    char id_record[64] = "";
    if (*id)
        snprintf(id_record, sizeof id_record, "run-id\t%s\n", id);
    snprintf(text, sizeof text,
             "sampler-report\t1\nprogram\tt\npid\t7\nsparsity\t1\nseed\t3\n%s"
             "%s%s\nunit\t0123456789abcdef0123456789abcdef\t2\t5\tt.c\n%send\n",
             id_record, release_record, exit, lines);
    return text;
}

static const char *good_lines = "0\t3\t1\n1\t0\t2\t0\n";

static unsigned char *gzip_text(const void *text, size_t size, size_t *out_size)
{
    z_stream z = { 0 };
    ck_assert_int_eq(deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY), Z_OK);
    size_t bound = deflateBound(&z, size);
    unsigned char *out = malloc(bound);
    z.next_in = (Bytef *) text;
    z.avail_in = (uInt) size;
    z.next_out = out;
    z.avail_out = (uInt) bound;
    ck_assert_int_eq(deflate(&z, Z_FINISH), Z_STREAM_END);
    *out_size = z.total_out;
    deflateEnd(&z);
    return out;
}

/* Sends BODY (SIZE bytes) in pieces of 7 bytes; the answer's status, 0
   when the report passes.  */
static unsigned upload_body(const void *body, size_t size, const char *header_id,
                            struct upload *upload)
{
    upload_init(upload, &limits, &release, header_id);
    const char *p = body;
    for (size_t at = 0; at < size; at += 7)
        if (!upload_feed(upload, p + at, size - at < 7 ? size - at : 7))
            return upload->status;
    return upload_finish(upload) ? 0 : upload->status;
}

static unsigned upload_text(const char *text, const char *header_id, struct upload *upload)
{
    size_t size;
    unsigned char *body = gzip_text(text, strlen(text), &size);
    unsigned status = upload_body(body, size, header_id, upload);
    free(body);
    return status;
}

START_TEST(test_upload_passes_and_is_labelled)
{
    struct upload upload;
    ck_assert_uint_eq(upload_text(report_text(run_id, "release\tt\t1\n", "exit\tsignal\t11",
                                              good_lines), run_id, &upload), 0);
    ck_assert(upload.failed);
    ck_assert(!upload.interim);
    ck_assert_uint_eq(upload.report.n_units, 1);
    ck_assert_uint_eq(strlen(upload.received), 19);
    upload_free(&upload);
    ck_assert_uint_eq(upload_text(report_text(run_id, "release\tt\t1\n", "exit\tstatus\t1",
                                              good_lines), run_id, &upload), 0);
    ck_assert(!upload.failed);
    upload_free(&upload);
    /* No exit record: an interim report, stored and not analysed.  */
    ck_assert_uint_eq(upload_text(report_text(run_id, "release\tt\t1\n", "interim\t1",
                                              good_lines), run_id, &upload), 0);
    ck_assert(upload.interim);
    upload_free(&upload);
    ck_assert_uint_eq(atomic_load(&budget.used), 0);
}
END_TEST

START_TEST(test_upload_refusals)
{
    struct upload upload;
    const char *exit = "exit\tstatus\t0";
    const char *ok = "release\tt\t1\n";
    ck_assert_uint_eq(upload_text(report_text("", ok, exit, good_lines), run_id, &upload), 400);
    ck_assert_msg(strstr(upload.answer, "no run-id record"), "%s", upload.answer);
    upload_free(&upload);
    ck_assert_uint_eq(upload_text(report_text(run_id, ok, exit, good_lines),
                                  "ffeeddccbbaa99887766554433221100", &upload), 400);
    ck_assert_msg(strstr(upload.answer, "not the Sampler-Run-Id"), "%s", upload.answer);
    upload_free(&upload);
    ck_assert_uint_eq(upload_text(report_text(run_id, "release\tt\t2\n", exit, good_lines),
                                  run_id, &upload), 422);
    ck_assert_msg(strstr(upload.answer, "release t/2"), "%s", upload.answer);
    upload_free(&upload);
    ck_assert_uint_eq(upload_text(report_text(run_id, "", exit, good_lines), run_id, &upload),
                      422);
    upload_free(&upload);
    /* A site line with counters the table does not have: another build.  */
    ck_assert_uint_eq(upload_text(report_text(run_id, ok, exit, "0\t3\t1\t5\n"), run_id,
                                  &upload), 422);
    upload_free(&upload);
    ck_assert_uint_eq(upload_text("sampler-report\t1\nprogram\tt\n", run_id, &upload), 400);
    ck_assert_msg(strstr(upload.answer, "not a valid report"), "%s", upload.answer);
    upload_free(&upload);
    const char *other_unit = "sampler-report\t1\nprogram\tt\npid\t7\nsparsity\t1\nseed\t3\n"
                             "run-id\t00112233445566778899aabbccddeeff\nrelease\tt\t1\n"
                             "exit\tstatus\t0\nunit\tffffffffffffffffffffffffffffffff\t2\t5\t"
                             "t.c\nend\n";
    ck_assert_uint_eq(upload_text(other_unit, run_id, &upload), 422);
    ck_assert_msg(strstr(upload.answer, "not in release t/1's site tables"), "%s",
                  upload.answer);
    upload_free(&upload);
    ck_assert_uint_eq(atomic_load(&budget.used), 0);
}
END_TEST

START_TEST(test_upload_bodies)
{
    struct upload upload;
    const char *text = report_text(run_id, "release\tt\t1\n", "exit\tstatus\t0", good_lines);
    size_t size;
    unsigned char *body = gzip_text(text, strlen(text), &size);
    /* Truncated, empty, not gzip, followed by more data.  */
    ck_assert_uint_eq(upload_body(body, size - 3, run_id, &upload), 400);
    ck_assert_msg(strstr(upload.answer, "truncated"), "%s", upload.answer);
    upload_free(&upload);
    ck_assert_uint_eq(upload_body(body, 0, run_id, &upload), 400);
    upload_free(&upload);
    ck_assert_uint_eq(upload_body(text, strlen(text), run_id, &upload), 400);
    upload_free(&upload);
    unsigned char *twice = malloc(2 * size);
    memcpy(twice, body, size);
    memcpy(twice + size, body, size);
    ck_assert_uint_eq(upload_body(twice, 2 * size, run_id, &upload), 400);
    ck_assert_msg(strstr(upload.answer, "after the end"), "%s", upload.answer);
    upload_free(&upload);
    free(twice);
    free(body);
    /* A decompression bomb: small compressed, past the report's limit.  */
    size_t bomb_size = 1 << 20;
    char *zeros = calloc(1, bomb_size);
    body = gzip_text(zeros, bomb_size, &size);
    ck_assert_uint_lt(size, limits.body_max);
    ck_assert_uint_eq(upload_body(body, size, run_id, &upload), 413);
    ck_assert_msg(strstr(upload.answer, "inflates to more than 8192"), "%s", upload.answer);
    upload_free(&upload);
    free(body);
    /* A body past its own limit, refused before it is inflated.  */
    upload_init(&upload, &limits, &release, run_id);
    ck_assert(!upload_feed(&upload, zeros, limits.body_max + 1));
    ck_assert_uint_eq(upload.status, 413);
    upload_free(&upload);
    free(zeros);
    ck_assert_uint_eq(atomic_load(&budget.used), 0);
}
END_TEST

START_TEST(test_memory_budget)
{
    struct upload first, second;
    budget.limit = 150 * 1024;
    const char *text = report_text(run_id, "release\tt\t1\n", "exit\tstatus\t0", good_lines);
    size_t size;
    unsigned char *body = gzip_text(text, strlen(text), &size);
    upload_init(&first, &limits, &release, run_id);
    ck_assert(upload_feed(&first, (const char *) body, size));
    /* The first holds 64 KiB for its body and 64 KiB for its text: no room
       for another.  */
    upload_init(&second, &limits, &release, run_id);
    ck_assert(!upload_feed(&second, (const char *) body, size));
    ck_assert_uint_eq(second.status, 503);
    ck_assert_uint_gt(second.retry_after, 0);
    upload_free(&second);
    upload_free(&first);
    ck_assert_uint_eq(atomic_load(&budget.used), 0);
    free(body);
}
END_TEST

START_TEST(test_utf8)
{
    ck_assert(utf8_valid("plain"));
    ck_assert(utf8_valid("gr\xc3\xbc\xc3\x9f \xe2\x82\xac \xf0\x9f\x98\x80"));
    ck_assert(!utf8_valid("\xc0\x80"));          /* overlong NUL */
    ck_assert(!utf8_valid("\xed\xa0\x80"));      /* a surrogate */
    ck_assert(!utf8_valid("caf\xe9"));           /* Latin-1 */
    ck_assert(!utf8_valid("\xe2\x82"));          /* cut short */
    ck_assert(!utf8_valid("\xf4\x90\x80\x80"));  /* past U+10FFFF */
    char *escaped = utf8_escaped("caf\xe9 \\ \xc3\xbc");
    ck_assert_str_eq(escaped, "caf\\xe9 \\\\ \xc3\xbc");
    ck_assert(utf8_valid(escaped));
    free(escaped);
}
END_TEST

START_TEST(test_quota)
{
    struct quota_table table;
    quota_table_init(&table);
    for (int i = 0; i < 3; i++)
        ck_assert_uint_eq(quota_take(&table, "key", 3), 0);
    /* The fourth waits for a third of an hour's refill.  */
    unsigned wait = quota_take(&table, "key", 3);
    ck_assert_uint_gt(wait, 1190);
    ck_assert_uint_le(wait, 1200);
    ck_assert_uint_eq(quota_take(&table, "other", 3), 0);
    ck_assert_uint_eq(quota_take(&table, "key", 0), 0);
    quota_table_free(&table);
}
END_TEST

START_TEST(test_inflate_again)
{
    struct byte_buffer out = { 0 };
    struct diag d;
    const char *text = report_text(run_id, "release\tt\t1\n", "exit\tstatus\t0", good_lines);
    size_t size;
    unsigned char *body = gzip_text(text, strlen(text), &size);
    ck_assert_msg(gzip_inflate(body, size, 1 << 20, &out, &d), "%s", d.message);
    ck_assert_uint_eq(out.size, strlen(text));
    ck_assert(memcmp(out.data, text, out.size) == 0);
    ck_assert(!gzip_inflate(body, size, 10, &out, &d));
    ck_assert(!gzip_inflate(body, size - 1, 1 << 20, &out, &d));
    buffer_free(&out);
    free(body);
}
END_TEST

int main(void)
{
    Suite *suite = suite_create("collect");
    TCase *upload = tcase_create("upload");
    tcase_add_checked_fixture(upload, setup, teardown);
    tcase_add_test(upload, test_upload_passes_and_is_labelled);
    tcase_add_test(upload, test_upload_refusals);
    tcase_add_test(upload, test_upload_bodies);
    tcase_add_test(upload, test_memory_budget);
    suite_add_tcase(suite, upload);
    TCase *pieces = tcase_create("pieces");
    tcase_add_test(pieces, test_utf8);
    tcase_add_test(pieces, test_quota);
    tcase_add_test(pieces, test_inflate_again);
    suite_add_tcase(suite, pieces);
    SRunner *runner = srunner_create(suite);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
