/* Registering a release (sampler-collect register-release, one step of a
   release's CI job: docs/collect.md), retiring it, revoking keys, listing
   releases.  A release's site tables come from its binaries, as the
   plugin left them there; its name, version and key from the release
   configuration the binaries carry (docs/remote.md), unless given.  */
#include "releases.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "input/elf-section.h"
#include "release.h"
#include "sql-files.h"

#define RELEASE_SECTION ".sampler_release"

/* docs/remote.md: 16 to 128 letters, digits and - . _ ~ + /.  */
bool upload_key_valid(const char *key)
{
    size_t length = strlen(key);
    return length >= 16 && length <= 128
           && strspn(key, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                          "-._~+/") == length;
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash && slash[1] ? slash + 1 : path;
}

/* What the release will hold: its tables, texts and keys.  */
struct registration_input {
    struct site_catalog catalog;
    char **origins, **texts;          /* per binary or file with tables */
    size_t n_texts, capacity;
    char product[SAMPLER_RELEASE_NAME_SIZE], version[SAMPLER_RELEASE_NAME_SIZE];
    const char **keys;
    size_t n_keys;
    char configured_key[SAMPLER_RELEASE_KEY_SIZE];
};

static void add_text(struct registration_input *input, const char *origin,
                     struct byte_buffer *text)
{
    size_t n = input->n_texts;
    grow_array((void **) &input->origins, &input->capacity, n + 1, sizeof *input->origins);
    input->texts = xrealloc(input->texts, input->capacity * sizeof *input->texts);
    input->origins[n] = xstrdup(origin);
    input->texts[n] = xmemdup0(text->data ? text->data : "", text->size);
    input->n_texts++;
}

/* The release configuration BINARY carries, if any, agreeing with what
   other binaries carried.  */
static bool read_configuration(struct registration_input *input, const char *binary,
                               struct diag *d)
{
    struct byte_buffer section = { 0 };
    bool found = false;
    if (!elf_read_section(binary, RELEASE_SECTION, &section, &found, d))
        return false;
    if (!found)
        return true;
    struct sampler_release release;
    unsigned long line;
    char error[SAMPLER_RELEASE_ERROR_SIZE];
    size_t length = strnlen(section.data, section.size);
    bool ok = sampler_release_parse(section.data, length, &release, &line, error);
    buffer_free(&section);
    if (!ok)
        return diag_fail(d, "%s: its release configuration, line %lu: %s", binary, line, error);
    if (!*input->product) {
        memcpy(input->product, release.product, sizeof input->product);
        memcpy(input->version, release.version, sizeof input->version);
        memcpy(input->configured_key, release.upload_key, sizeof input->configured_key);
    } else if (strcmp(input->product, release.product) != 0
               || strcmp(input->version, release.version) != 0
               || strcmp(input->configured_key, release.upload_key) != 0) {
        return diag_fail(d, "%s carries release %s/%s (key %s), another binary %s/%s (key %s): "
                         "one release at a time", binary, release.product, release.version,
                         release.upload_key, input->product, input->version,
                         input->configured_key);
    }
    return true;
}

/* BINARY's site tables and path tables, as one text.  */
static bool read_binary(struct registration_input *input, const char *binary, struct diag *d)
{
    struct byte_buffer text = { 0 };
    bool found_sites = false, found_paths = false;
    bool ok = read_configuration(input, binary, d)
              && elf_read_section(binary, SITE_SECTION, &text, &found_sites, d)
              && elf_read_section(binary, SAMPLER_PATH_SECTION, &text, &found_paths, d);
    if (ok && !found_sites)
        fprintf(stderr, "sampler-collect: note: %s has no " SITE_SECTION " section (stripped, or "
                "built without the sampler plugin): no site tables from it\n", binary);
    if (ok && found_sites) {
        char origin[512];
        snprintf(origin, sizeof origin, "%s[" SITE_SECTION "]", binary);
        ok = site_catalog_add_text(&input->catalog, origin, text.data, text.size, d);
        if (ok)
            add_text(input, base_name(binary), &text);
    }
    buffer_free(&text);
    return ok;
}

static bool read_inputs(struct registration_input *input,
                        const struct release_registration *registration, struct diag *d)
{
    site_catalog_init(&input->catalog);
    for (size_t i = 0; i < registration->n_binaries; i++)
        if (!read_binary(input, registration->binaries[i], d))
            return false;
    for (size_t i = 0; i < registration->n_site_files; i++) {
        struct byte_buffer text = { 0 };
        const char *path = registration->site_files[i];
        bool ok = read_whole_file(path, &text, d)
                  && site_catalog_add_text(&input->catalog, path, text.data, text.size, d);
        if (ok)
            add_text(input, base_name(path), &text);
        buffer_free(&text);
        if (!ok)
            return false;
    }
    if (input->catalog.n_units == 0)
        return diag_fail(d, "no site tables: give the release's instrumented binaries "
                         "(--binary) or site-table files (--sites)");
    if (registration->product) {
        snprintf(input->product, sizeof input->product, "%s", registration->product);
        snprintf(input->version, sizeof input->version, "%s",
                 registration->version ? registration->version : "");
    }
    if (!*input->product)
        return diag_fail(d, "no release configuration in the binaries: give --product and "
                         "--version (and --key)");
    if (!sampler_release_check_name(input->product) || !*input->version
        || !sampler_release_check_name(input->version))
        return diag_fail(d, "bad product or version '%s/%s' (1 to 64 letters, digits and "
                         ". _ + ~ : -, not starting with '.')", input->product, input->version);
    input->keys = xcalloc(registration->n_keys + 2, sizeof *input->keys);
    if (*input->configured_key)
        input->keys[input->n_keys++] = input->configured_key;
    for (size_t i = 0; i < registration->n_keys; i++) {
        if (!upload_key_valid(registration->keys[i]))
            return diag_fail(d, "bad key '%s' (16 to 128 letters, digits and - . _ ~ + /)",
                             registration->keys[i]);
        input->keys[input->n_keys++] = registration->keys[i];
    }
    if (input->n_keys == 0)
        return diag_fail(d, "no upload key: the binaries carry none; give --key");
    return true;
}

static void registration_input_free(struct registration_input *input)
{
    for (size_t i = 0; i < input->n_texts; i++) {
        free(input->origins[i]);
        free(input->texts[i]);
    }
    free(input->origins);
    free(input->texts);
    free(input->keys);
    site_catalog_free(&input->catalog);
}

/* ---- Into the store ---------------------------------------------------------- */

static bool first_value(void *context, unsigned n, const char *const *values, struct diag *d)
{
    (void) d;
    char *out = context;
    snprintf(out, 64, "%s", n > 0 && values[0] ? values[0] : "");
    return true;
}

struct table_compare {
    const struct registration_input *input;
    size_t n_rows;
    bool same;
};

static bool compare_tables(void *context, unsigned n, const char *const *values,
                           struct diag *d)
{
    (void) d;
    (void) n;
    struct table_compare *compare = context;
    size_t i = compare->n_rows++;
    if (i >= compare->input->n_texts || strcmp(values[0], compare->input->texts[i]) != 0)
        compare->same = false;
    return true;
}

/* The rows of sites and predicates (the release's row is made apart).  */
static bool release_row(void *context, enum sql_table table, const char *const *fields,
                        struct diag *d)
{
    return table == SQL_RELEASES || store_add_row(context, table, fields, d);
}

static bool add_keys(struct store *store, const char *release,
                     const struct registration_input *input, unsigned long quota,
                     struct diag *d)
{
    char quota_text[32];
    snprintf(quota_text, sizeof quota_text, "%lu", quota);
    for (size_t i = 0; i < input->n_keys; i++) {
        char owner[64] = "";
        const char *params[4] = { input->keys[i], release, "active", quota_text };
        if (!store_query(store, "SELECT release FROM upload_keys WHERE upload_key = $1", 1,
                         params, first_value, owner, d))
            return false;
        if (*owner && strcmp(owner, release) != 0)
            return diag_fail(d, "key %s belongs to release %s already", input->keys[i], owner);
        if (!*owner && !store_query(store, "INSERT INTO upload_keys (upload_key, release, state, "
                                    "hourly_quota) VALUES ($1, $2, $3, $4)", 4, params, NULL,
                                    NULL, d))
            return false;
    }
    return true;
}

static void utc_now(char *text, size_t size)
{
    time_t now = time(NULL);
    struct tm parts;
    gmtime_r(&now, &parts);
    strftime(text, size, "%Y-%m-%d %H:%M:%S", &parts);
}

/* A new release: its rows, partitions, keys, tables and zero counts.  */
static bool insert_release(struct store *store, const struct registration_input *input,
                           const char *name, const struct release_registration *registration,
                           char *id, struct diag *d)
{
    if (!store_query(store, "SELECT coalesce(max(release), 0) + 1 FROM releases", 0, NULL,
                     first_value, id, d))
        return false;
    char registered[32];
    utc_now(registered, sizeof registered);
    const char *fail_if = registration->fail_if ? registration->fail_if : DEFAULT_FAILURE_RULE;
    const char *release_params[2] = { id, name };
    const char *collected[6] = { id, input->product, input->version, fail_if, registered };
    bool ok = store_query(store, "INSERT INTO releases (release, name) VALUES ($1, $2)", 2,
                          release_params, NULL, NULL, d)
              && (store_engine(store) != STORE_POSTGRESQL
                  || store_exec(store, "SELECT sampler_add_partitions()", d))
              && store_query(store, "INSERT INTO collected_releases (release, product, version, "
                             "fail_if, state, next_run, registered) VALUES ($1, $2, $3, $4, "
                             "'open', 1, $5)", 5, collected, NULL, NULL, d);
    for (size_t i = 0; ok && i < input->n_texts; i++) {
        char position[24];
        snprintf(position, sizeof position, "%zu", i);
        const char *params[4] = { id, position, input->origins[i], input->texts[i] };
        ok = store_query(store, "INSERT INTO release_tables (release, position, origin, tables) "
                         "VALUES ($1, $2, $3, $4)", 4, params, NULL, NULL, d);
    }
    if (!ok)
        return false;
    struct universe universe;
    unsigned *predicates_per_site;
    bool *every_run;
    universe_init(&universe, &input->catalog, &predicates_per_site, &every_run);
    free(predicates_per_site);
    free(every_run);
    uint32_t *tie_order = tie_order_of(&universe);
    struct sql_release release = { strtoul(id, NULL, 10), name, &universe, tie_order };
    struct sql_sink sink = { release_row, store, false };
    ok = sql_release_rows(&sink, &release, d) && store_rows_flush(store, d);
    printf("sampler-collect: registered release %s, %s: %zu units, %zu sites, %zu predicates\n",
           id, name, input->catalog.n_units, universe.n_sites, universe.n_predicates);
    free(tie_order);
    universe_free(&universe);
    return ok && store_exec(store, sql_fold_start, d) && store_exec(store, sql_fold, d)
           && store_exec(store, sql_fold_totals, d);
}

static bool register_in_transaction(struct store *store,
                                    const struct registration_input *input,
                                    const struct release_registration *registration,
                                    struct diag *d)
{
    char name[2 * SAMPLER_RELEASE_NAME_SIZE + 2];
    snprintf(name, sizeof name, "%s/%s", input->product, input->version);
    if (store_engine(store) == STORE_POSTGRESQL
        && !store_exec(store, "LOCK TABLE releases IN SHARE ROW EXCLUSIVE MODE", d))
        return false;
    char id[64] = "";
    const char *params[2] = { input->product, input->version };
    if (!store_query(store, "SELECT release FROM collected_releases WHERE product = $1 "
                     "AND version = $2", 2, params, first_value, id, d))
        return false;
    if (*id) {
        struct table_compare compare = { input, 0, true };
        const char *release[1] = { id };
        if (!store_query(store, "SELECT tables FROM release_tables WHERE release = $1 "
                         "ORDER BY position", 1, release, compare_tables, &compare, d))
            return false;
        if (!compare.same || compare.n_rows != input->n_texts)
            return diag_fail(d, "release %s (%s) is registered with other site tables: a "
                             "release's tables cannot change (build a new version)", id, name);
        printf("sampler-collect: release %s, %s, is registered already with these tables\n",
               id, name);
        return add_keys(store, id, input, registration->hourly_quota, d);
    }
    char other[64] = "";
    const char *by_name[1] = { name };
    if (!store_query(store, "SELECT release FROM releases WHERE name = $1", 1, by_name,
                     first_value, other, d))
        return false;
    if (*other)
        return diag_fail(d, "the store has a release named %s (number %s) that the collector "
                         "did not register (loaded by sampler-sql?)", name, other);
    return insert_release(store, input, name, registration, id, d)
           && add_keys(store, id, input, registration->hourly_quota, d);
}

bool release_register(struct store *store, const struct release_registration *registration,
                      struct diag *d)
{
    struct registration_input input = { 0 };
    struct labeller rule;
    bool ok = labeller_init_rule(&rule, registration->fail_if, d);
    if (ok)
        labeller_free(&rule);
    ok = ok && read_inputs(&input, registration, d) && store_begin(store, d);
    if (ok) {
        ok = register_in_transaction(store, &input, registration, d);
        if (ok)
            ok = store_commit(store, d);
        else
            store_rollback(store);
    }
    if (ok)
        for (size_t i = 0; i < input.n_keys; i++)
            printf("sampler-collect: upload key %s\n", input.keys[i]);
    registration_input_free(&input);
    return ok;
}

/* ---- Retiring, revoking, listing ------------------------------------------------ */

bool release_retire(struct store *store, const char *name, struct diag *d)
{
    char id[64] = "";
    const char *params[1] = { name };
    if (!store_query(store, "SELECT c.release FROM collected_releases c JOIN releases r "
                     "ON r.release = c.release WHERE r.name = $1 "
                     "OR CAST(c.release AS VARCHAR) = $1", 1, params, first_value, id, d))
        return false;
    if (!*id)
        return diag_fail(d, "no release '%s' (give PRODUCT/VERSION or its number)", name);
    const char *release[1] = { id };
    if (!store_query(store, "UPDATE collected_releases SET state = 'retired' WHERE release = $1",
                     1, release, NULL, NULL, d))
        return false;
    printf("sampler-collect: release %s (%s) retired: its reports are answered 410\n", id, name);
    return true;
}

bool release_revoke_key(struct store *store, const char *key, struct diag *d)
{
    char id[64] = "";
    const char *params[1] = { key };
    if (!store_query(store, "SELECT release FROM upload_keys WHERE upload_key = $1", 1, params,
                     first_value, id, d))
        return false;
    if (!*id)
        return diag_fail(d, "no key '%s'", key);
    if (!store_query(store, "UPDATE upload_keys SET state = 'revoked' WHERE upload_key = $1",
                     1, params, NULL, NULL, d))
        return false;
    printf("sampler-collect: key %s of release %s revoked: answered 401\n", key, id);
    return true;
}

static bool print_release(void *context, unsigned n, const char *const *values,
                          struct diag *d)
{
    (void) context;
    (void) d;
    for (unsigned i = 0; i < n; i++)
        printf("%s%s", i ? "\t" : "", values[i] ? values[i] : "");
    putchar('\n');
    return true;
}

bool releases_list(struct store *store, struct diag *d)
{
    puts("release\tname\tstate\truns\tfailing\tkeys\tregistered");
    return store_query(store,
                       "SELECT c.release, r.name, c.state, "
                       "coalesce((SELECT failing + successful FROM release_counts n "
                       "WHERE n.release = c.release), 0), "
                       "coalesce((SELECT failing FROM release_counts n "
                       "WHERE n.release = c.release), 0), "
                       "(SELECT count(*) FROM upload_keys k WHERE k.release = c.release "
                       "AND k.state = 'active'), c.registered "
                       "FROM collected_releases c JOIN releases r ON r.release = c.release "
                       "ORDER BY c.release", 0, NULL, print_release, NULL, d);
}
