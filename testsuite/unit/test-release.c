/* Unit tests (Check) of the release configuration's parser and writer,
   consent files and the rule that combines them, the XDG places, and run
   ids (runtime/release.c, runtime/run-id.c; docs/remote.md).  */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <check.h>

#include "release.h"
#include "run-id.h"
#include "sampler-abi.h"

static const char base[] = "product = zlib-beta\n"
                           "version = 1:1.2.13-3~beta1\n"
                           "collector = https://sampler.example.org/collect\n"
                           "upload-key = 0123456789abcdef\n";

static bool parse(const char *text, struct sampler_release *release, unsigned long *line,
                  char *error)
{
    return sampler_release_parse(text, strlen(text), release, line, error);
}

START_TEST(test_required_settings_and_defaults)
{
    struct sampler_release release;
    unsigned long line;
    char error[SAMPLER_RELEASE_ERROR_SIZE];

    ck_assert_msg(parse(base, &release, &line, error), "%s", error);
    ck_assert_str_eq(release.product, "zlib-beta");
    ck_assert_str_eq(release.version, "1:1.2.13-3~beta1");
    ck_assert_str_eq(release.collector, "https://sampler.example.org/collect");
    ck_assert_str_eq(release.upload_key, "0123456789abcdef");
    ck_assert_int_eq(release.sparsity, 1000);
    ck_assert_uint_eq(release.consent, SAMPLER_CONSENT_USER | SAMPLER_CONSENT_SYSTEM);
    ck_assert_int_eq(release.store, SAMPLER_STORE_STATE);
    ck_assert_uint_eq(release.store_max_reports, 100);
    ck_assert_uint_eq(release.store_max_bytes, 16u << 20);
    ck_assert_str_eq(release.submit_at_exit, "");
    ck_assert_uint_eq(release.submit_interval, 3600);
    ck_assert_uint_eq(release.submit_batch, 50);
    /* Every scheme but the four that record program data.  */
    for (unsigned id = 0; id < SAMPLER_N_SCHEMES; id++) {
        bool data = id == SAMPLER_SCHEME_VALUES || id == SAMPLER_SCHEME_SIZES
                    || id == SAMPLER_SCHEME_INDIRECT_CALLS || id == SAMPLER_SCHEME_BOUNDS;
        ck_assert_msg(((release.send_schemes >> id) & 1) == !data, "scheme %s",
                      sampler_scheme_name(id));
    }
}
END_TEST

START_TEST(test_every_setting)
{
    static const char text[] =
        "# a comment\n"
        "   \n"
        "\tproduct=p\n"
        "version   =   2.0  \n"
        "sparsity = 7\n"
        "send-schemes = subpaths ,branches, values\n"
        "collector = http://127.0.0.1:8080/c/\n"
        "upload-key = A-b.c_d~e+f/0123456\n"
        "consent = system\n"
        "store = cache\n"
        "store-max-reports = 3\n"
        "store-max-bytes = 5K\n"
        "submit-at-exit = /usr/bin/sampler-submit\n"
        "submit-interval = 60\n"
        "submit-batch = 10000";   /* no final newline */
    struct sampler_release release;
    unsigned long line;
    char error[SAMPLER_RELEASE_ERROR_SIZE];

    ck_assert_msg(parse(text, &release, &line, error), "line %lu: %s", line, error);
    ck_assert_str_eq(release.product, "p");
    ck_assert_str_eq(release.version, "2.0");
    ck_assert_int_eq(release.sparsity, 7);
    ck_assert_uint_eq(release.send_schemes, (1u << SAMPLER_SCHEME_SUBPATHS)
                                            | (1u << SAMPLER_SCHEME_BRANCHES)
                                            | (1u << SAMPLER_SCHEME_VALUES));
    ck_assert_str_eq(release.collector, "http://127.0.0.1:8080/c/");
    ck_assert_str_eq(release.upload_key, "A-b.c_d~e+f/0123456");
    ck_assert_uint_eq(release.consent, SAMPLER_CONSENT_SYSTEM);
    ck_assert_int_eq(release.store, SAMPLER_STORE_CACHE);
    ck_assert_uint_eq(release.store_max_reports, 3);
    ck_assert_uint_eq(release.store_max_bytes, 5120);
    ck_assert_str_eq(release.submit_at_exit, "/usr/bin/sampler-submit");
    ck_assert_uint_eq(release.submit_interval, 60);
    ck_assert_uint_eq(release.submit_batch, 10000);

    /* What is written reads back as the same configuration, and the
       writing is stable.  */
    char written[8192], again[8192];
    struct sampler_release reread;
    long length = sampler_release_format(&release, written, sizeof written);
    ck_assert_int_gt(length, 0);
    ck_assert_msg(parse(written, &reread, &line, error), "%s", error);
    ck_assert_mem_eq(&reread, &release, sizeof release);
    ck_assert_int_eq(sampler_release_format(&reread, again, sizeof again), length);
    ck_assert_str_eq(again, written);
    ck_assert_int_eq(sampler_release_format(&release, written, 40), -1);

    ck_assert(parse("product=p\nversion=1\ncollector=https://c.example\n"
                    "upload-key=0123456789abcdef\nsend-schemes = none\n", &release, &line, error));
    ck_assert_uint_eq(release.send_schemes, 0);
}
END_TEST

/* A bad text: the line of the problem and what the message says.  */
struct bad_case {
    const char *text;         /* after `base' when base_first */
    bool base_first;
    unsigned long line;
    const char *message;
};

static const struct bad_case bad_cases[] = {
    { "version = 1\ncollector = https://c.example\nupload-key = 0123456789abcdef\n", false, 0,
      "'product' is not set" },
    { "", false, 0, "'product' is not set" },
    { "product = p\nversion = 1\nupload-key = 0123456789abcdef\n", false, 0,
      "'collector' is not set" },
    { "colour = blue\n", true, 5, "unknown setting 'colour' (the settings: product, version," },
    { "product = q\n", true, 5, "'product' is set twice" },
    { "sparsity\n", true, 5, "expected 'key = value' or a # comment" },
    { "sparsity =\n", true, 5, "'sparsity' has no value" },
    { "sparsity = 0\n", true, 5, "bad sparsity '0': expected a whole number from 1 to 1000000000" },
    { "sparsity = 1000000001\n", true, 5, "bad sparsity" },
    { "sparsity = -5\n", true, 5, "bad sparsity" },
    { "sparsity = 99999999999999999999999\n", true, 5, "bad sparsity" },
    { "send-schemes = branches,,returns\n", true, 5, "unknown scheme ''" },
    { "send-schemes = Branches\n", true, 5, "unknown scheme 'Branches'" },
    { "send-schemes = values, values\n", true, 5, "scheme 'values' is named twice" },
    { "consent = user, user\n", true, 5, "'user' is named twice" },
    { "consent = nobody\n", true, 5, "bad consent 'nobody'" },
    { "store = tmp\n", true, 5, "bad store 'tmp'" },
    { "store-max-reports = 0\n", true, 5, "bad store-max-reports '0'" },
    { "store-max-bytes = 4095\n", true, 5, "bad store-max-bytes '4095'" },
    { "store-max-bytes = 2P\n", true, 5, "bad store-max-bytes '2P'" },
    { "store-max-bytes = 2048T\n", true, 5, "bad store-max-bytes '2048T'" },
    { "store-max-bytes = K\n", true, 5, "bad store-max-bytes 'K'" },
    { "submit-at-exit = yes\n", true, 5, "bad submit-at-exit 'yes'" },
    { "submit-interval = 59\n", true, 5, "bad submit-interval '59'" },
    { "submit-batch = 10001\n", true, 5, "bad submit-batch '10001'" },
    { "product = p\nversion = .hidden\n", false, 2, "bad version '.hidden'" },
    { "product = a/b\n", false, 1, "bad product 'a/b'" },
    { "product = x\nversion = 1 2\n", false, 2, "bad version '1 2'" },
    { "product = x\nupload-key = 0123456789abcde\n", false, 2, "bad upload-key" },
    { "product = x\nupload-key = 0123456789abcdef!\n", false, 2, "bad upload-key" },
    { "product = x\ncollector = ftp://c.example/\n", false, 2, "expected an https:// URL" },
    { "product = x\ncollector = https://\n", false, 2, "expected an https:// URL" },
    { "product = x\ncollector = https:///x\n", false, 2, "no host name" },
    { "product = x\ncollector = http://10.0.0.1/\n", false, 2, "plain http:// is for localhost" },
    { "product = x\ncollector = http://127.0.0.1.evil.example/\n", false, 2,
      "plain http:// is for localhost" },
    { "product = x\ncollector = https://[::1/\n", false, 2, "without its ']'" },
    { "product = x\ncollector = https://c.example:0/\n", false, 2, "a port from 1 to 65535" },
    { "product = x\ncollector = https://c.example:/\n", false, 2, "a port from 1 to 65535" },
    { "product = x\ncollector = https://u:p@c.example/\n", false, 2, "a user name in the URL" },
    { "product = x\ncollector = https://c.example/a#b\n", false, 2, "a query or fragment" },
    { "product = x\r\n", false, 1, "a control character (byte 13)" },
    { "product = x\nversion = 1\x01\n", false, 2, "a control character (byte 1)" },
};

START_TEST(test_bad_text)
{
    const struct bad_case *bad = &bad_cases[_i];
    char text[1024];
    struct sampler_release release;
    unsigned long line;
    char error[SAMPLER_RELEASE_ERROR_SIZE];

    snprintf(text, sizeof text, "%s%s", bad->base_first ? base : "", bad->text);
    ck_assert_msg(!parse(text, &release, &line, error), "accepted: %s", text);
    ck_assert_msg(line == bad->line, "line %lu, expected %lu: %s", line, bad->line, error);
    ck_assert_msg(strstr(error, bad->message) != NULL, "'%s' does not say '%s'", error,
                  bad->message);
    ck_assert(strlen(error) < SAMPLER_RELEASE_ERROR_SIZE && strchr(error, '\n') == NULL);
}
END_TEST

START_TEST(test_text_too_long_or_with_nul)
{
    struct sampler_release release;
    unsigned long line;
    char error[SAMPLER_RELEASE_ERROR_SIZE];
    size_t length = SAMPLER_RELEASE_TEXT_MAX + 1;
    char *text = malloc(length);

    ck_assert_ptr_nonnull(text);
    memset(text, '#', length);
    ck_assert(!sampler_release_parse(text, length, &release, &line, error));
    ck_assert_ptr_nonnull(strstr(error, "longer than 65536 bytes"));
    /* A NUL byte inside the length given is refused, not the end.  */
    static const char nul[] = "product = p\0version = 1\n";
    ck_assert(!sampler_release_parse(nul, sizeof nul - 1, &release, &line, error));
    ck_assert_uint_eq(line, 1);
    free(text);
}
END_TEST

/* The rule: any no (or a file that says neither) withdraws; otherwise a
   yes where the rule looks gives consent.  */
START_TEST(test_consent_rule)
{
    static const enum sampler_consent_answer answers[] = {
        SAMPLER_CONSENT_ABSENT, SAMPLER_CONSENT_YES, SAMPLER_CONSENT_NO, SAMPLER_CONSENT_INVALID,
    };
    static const unsigned rules[] = { SAMPLER_CONSENT_USER, SAMPLER_CONSENT_SYSTEM,
                                      SAMPLER_CONSENT_USER | SAMPLER_CONSENT_SYSTEM };
    for (size_t r = 0; r < 3; r++)
        for (size_t u = 0; u < 4; u++)
            for (size_t s = 0; s < 4; s++) {
                enum sampler_consent_answer user = answers[u], system = answers[s];
                bool withdrawn = user == SAMPLER_CONSENT_NO || user == SAMPLER_CONSENT_INVALID
                                 || system == SAMPLER_CONSENT_NO
                                 || system == SAMPLER_CONSENT_INVALID;
                bool yes = ((rules[r] & SAMPLER_CONSENT_USER) && user == SAMPLER_CONSENT_YES)
                           || ((rules[r] & SAMPLER_CONSENT_SYSTEM)
                               && system == SAMPLER_CONSENT_YES);
                ck_assert_msg(sampler_consent_given(rules[r], user, system) == (!withdrawn && yes),
                              "rule %u, user %d, system %d", rules[r], user, system);
            }
    /* Spelled out: the administrator's yes alone under a per-user rule. */
    ck_assert(!sampler_consent_given(SAMPLER_CONSENT_USER, SAMPLER_CONSENT_ABSENT,
                                     SAMPLER_CONSENT_YES));
    ck_assert(!sampler_consent_given(SAMPLER_CONSENT_USER | SAMPLER_CONSENT_SYSTEM,
                                     SAMPLER_CONSENT_NO, SAMPLER_CONSENT_YES));
}
END_TEST

START_TEST(test_consent_files)
{
    static const struct {
        const char *text;
        enum sampler_consent_answer answer;
    } files[] = {
        { "yes\n", SAMPLER_CONSENT_YES },
        { "no", SAMPLER_CONSENT_NO },
        { "# written by the postinst\n\n  yes  \n", SAMPLER_CONSENT_YES },
        { "\tno\t\nyes\n", SAMPLER_CONSENT_NO },
        { "YES\n", SAMPLER_CONSENT_INVALID },
        { "yes please\n", SAMPLER_CONSENT_INVALID },
        { "", SAMPLER_CONSENT_INVALID },
        { "# nothing but comments\n", SAMPLER_CONSENT_INVALID },
    };
    char directory[] = "/tmp/sampler-consent.XXXXXX";
    char path[64];

    ck_assert_ptr_nonnull(mkdtemp(directory));
    snprintf(path, sizeof path, "%s/answer", directory);
    ck_assert_int_eq(sampler_consent_read(path), SAMPLER_CONSENT_ABSENT);
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        FILE *out = fopen(path, "w");
        ck_assert_ptr_nonnull(out);
        fputs(files[i].text, out);
        fclose(out);
        ck_assert_msg(sampler_consent_read(path) == files[i].answer, "'%s'", files[i].text);
    }
    unlink(path);
    /* A directory where the file should be is no answer anyone gave.  */
    ck_assert_int_eq(mkdir(path, 0700), 0);
    ck_assert_int_eq(sampler_consent_read(path), SAMPLER_CONSENT_INVALID);
    rmdir(path);
    rmdir(directory);
}
END_TEST

START_TEST(test_places)
{
    struct sampler_release release;
    unsigned long line;
    char error[SAMPLER_RELEASE_ERROR_SIZE], path[128];

    ck_assert(sampler_xdg_directory(SAMPLER_STORE_STATE, "/x/state", "/home/a", path, sizeof path));
    ck_assert_str_eq(path, "/x/state");
    /* A relative XDG value is ignored, as the XDG specification says.  */
    ck_assert(sampler_xdg_directory(SAMPLER_STORE_STATE, "rel", "/home/a", path, sizeof path));
    ck_assert_str_eq(path, "/home/a/.local/state");
    ck_assert(sampler_xdg_directory(SAMPLER_STORE_CACHE, NULL, "/home/a", path, sizeof path));
    ck_assert_str_eq(path, "/home/a/.cache");
    ck_assert(!sampler_xdg_directory(SAMPLER_STORE_STATE, "", NULL, path, sizeof path));
    ck_assert(!sampler_xdg_directory(SAMPLER_STORE_STATE, NULL, "home", path, sizeof path));
    ck_assert(!sampler_xdg_directory(SAMPLER_STORE_STATE, NULL, "/home/a", path, 10));
    ck_assert(sampler_user_consent_path(NULL, "/home/a", "zlib", path, sizeof path));
    ck_assert_str_eq(path, "/home/a/.config/sampler/consent/zlib");
    ck_assert(sampler_user_consent_path("/c", "/home/a", "zlib", path, sizeof path));
    ck_assert_str_eq(path, "/c/sampler/consent/zlib");
    ck_assert(parse(base, &release, &line, error));
    ck_assert(sampler_store_directory(&release, "/s", path, sizeof path));
    ck_assert_str_eq(path, "/s/sampler/zlib-beta/1:1.2.13-3~beta1");
    ck_assert(sampler_release_check_name("zlib-beta"));
    ck_assert(!sampler_release_check_name(".."));
    ck_assert(!sampler_release_check_name("a/b"));
}
END_TEST

/* Run ids: 32 lowercase hex digits, and never the same twice.  */
START_TEST(test_run_ids)
{
    enum { COUNT = 4096 };
    static char ids[COUNT][33];
    unsigned char id[SAMPLER_RUN_ID_BYTES];

    for (unsigned i = 0; i < COUNT; i++) {
        sampler_run_id_new(id);
        sampler_run_id_format(id, ids[i]);
        ck_assert_uint_eq(strlen(ids[i]), 32);
        ck_assert_uint_eq(strspn(ids[i], "0123456789abcdef"), 32);
    }
    qsort(ids, COUNT, sizeof ids[0], (int (*)(const void *, const void *))strcmp);
    for (unsigned i = 1; i < COUNT; i++)
        ck_assert_str_ne(ids[i], ids[i - 1]);
    const unsigned char known[SAMPLER_RUN_ID_BYTES] = { 0x00, 0x01, 0xab, 0xff };
    char text[33];
    sampler_run_id_format(known, text);
    ck_assert_str_eq(text, "0001abff000000000000000000000000");
}
END_TEST

Suite *release_suite(void)
{
    Suite *suite = suite_create("release");
    TCase *config = tcase_create("configuration");
    tcase_add_test(config, test_required_settings_and_defaults);
    tcase_add_test(config, test_every_setting);
    tcase_add_loop_test(config, test_bad_text, 0, sizeof bad_cases / sizeof bad_cases[0]);
    tcase_add_test(config, test_text_too_long_or_with_nul);
    suite_add_tcase(suite, config);
    TCase *consent = tcase_create("consent");
    tcase_add_test(consent, test_consent_rule);
    tcase_add_test(consent, test_consent_files);
    tcase_add_test(consent, test_places);
    suite_add_tcase(suite, consent);
    TCase *ids = tcase_create("run-ids");
    tcase_add_test(ids, test_run_ids);
    suite_add_tcase(suite, ids);
    return suite;
}
