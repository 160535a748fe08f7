/* The releases and keys the service knows (releases.h), loaded from the
   store's collected_releases, release_tables and upload_keys.  */
#include "releases.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void registry_init(struct registry *registry)
{
    memset(registry, 0, sizeof *registry);
    pthread_rwlock_init(&registry->lock, NULL);
    pthread_mutex_init(&registry->reload_lock, NULL);
}

static void release_free(struct release *release)
{
    free(release->name);
    free(release->product);
    free(release->version);
    free(release->fail_if);
    free(release->tie_order);
    universe_free(&release->universe);
    site_catalog_free(&release->catalog);
    labeller_free(&release->labeller);
    free(release);
}

static void free_keys(char **keys, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(keys[i]);
    free(keys);
}

void registry_free(struct registry *registry)
{
    for (size_t i = 0; i < registry->n_releases; i++)
        release_free(registry->releases[i]);
    free(registry->releases);
    free_keys(registry->keys, registry->n_keys);
    free(registry->grants);
    name_index_free(&registry->by_key);
    pthread_rwlock_destroy(&registry->lock);
    pthread_mutex_destroy(&registry->reload_lock);
}

struct release *registry_find_release(struct registry *registry, unsigned long id)
{
    struct release *found = NULL;
    pthread_rwlock_rdlock(&registry->lock);
    for (size_t i = 0; i < registry->n_releases && !found; i++)
        if (registry->releases[i]->id == id)
            found = registry->releases[i];
    pthread_rwlock_unlock(&registry->lock);
    return found;
}

/* ---- Loading -------------------------------------------------------------- */

/* A release's tables, added to its catalog row by row.  */
static bool add_tables_row(void *context, unsigned n, const char *const *values,
                           struct diag *d)
{
    struct release *release = context;
    if (n != 2 || !values[0] || !values[1])
        return diag_fail(d, "release %s: a row of release_tables without its text",
                         release->name);
    char origin[512];
    snprintf(origin, sizeof origin, "%s (release %s)", values[0], release->name);
    return site_catalog_add_text(&release->catalog, origin, values[1], strlen(values[1]), d);
}

/* The release of the row (release, name, product, version, fail_if,
   state), with its tables.  */
static struct release *load_release(struct store *store, const char *const *values,
                                    struct diag *d)
{
    struct release *release = xcalloc(1, sizeof *release);
    release->id = strtoul(values[0], NULL, 10);
    snprintf(release->id_text, sizeof release->id_text, "%lu", release->id);
    release->name = xstrdup(values[1]);
    release->product = xstrdup(values[2]);
    release->version = xstrdup(values[3]);
    release->fail_if = xstrdup(values[4]);
    atomic_store(&release->retired, strcmp(values[5], "retired") == 0);
    site_catalog_init(&release->catalog);
    const char *params[1] = { release->id_text };
    bool ok = store_query(store, "SELECT origin, tables FROM release_tables WHERE release = $1 "
                          "ORDER BY position", 1, params, add_tables_row, release, d);
    if (ok)
        ok = labeller_init_rule(&release->labeller, release->fail_if, d);
    if (!ok) {
        site_catalog_free(&release->catalog);
        free(release->name);
        free(release->product);
        free(release->version);
        free(release->fail_if);
        free(release);
        return NULL;
    }
    unsigned *predicates_per_site;
    bool *every_run;
    universe_init(&release->universe, &release->catalog, &predicates_per_site, &every_run);
    free(predicates_per_site);
    free(every_run);
    release->tie_order = tie_order_of(&release->universe);
    release->sql = (struct sql_release) { release->id, release->name, &release->universe,
                                          release->tie_order };
    return release;
}

struct release_rows {
    char ***rows;
    size_t n, capacity;
};

static bool keep_row(void *context, unsigned n, const char *const *values, struct diag *d)
{
    (void) d;
    struct release_rows *rows = context;
    char **copy = xcalloc(n + 1, sizeof *copy);
    for (unsigned i = 0; i < n; i++)
        copy[i] = xstrdup(values[i] ? values[i] : "");
    void *items = rows->rows;
    grow_array(&items, &rows->capacity, rows->n + 1, sizeof *rows->rows);
    rows->rows = items;
    rows->rows[rows->n++] = copy;
    return true;
}

static void free_rows(struct release_rows *rows, unsigned n_columns)
{
    for (size_t i = 0; i < rows->n; i++) {
        for (unsigned c = 0; c < n_columns; c++)
            free(rows->rows[i][c]);
        free(rows->rows[i]);
    }
    free(rows->rows);
    memset(rows, 0, sizeof *rows);
}

static bool load_releases(struct registry *registry, struct store *store, struct diag *d)
{
    struct release_rows rows = { 0 };
    bool ok = store_query(store, "SELECT c.release, r.name, c.product, c.version, c.fail_if, "
                          "c.state FROM collected_releases c JOIN releases r "
                          "ON r.release = c.release ORDER BY c.release", 0, NULL, keep_row,
                          &rows, d);
    for (size_t i = 0; ok && i < rows.n; i++) {
        const char *const *values = (const char *const *) rows.rows[i];
        struct release *known = registry_find_release(registry, strtoul(values[0], NULL, 10));
        if (known) {
            atomic_store(&known->retired, strcmp(values[5], "retired") == 0);
            continue;
        }
        struct release *release = load_release(store, values, d);
        if (!release) {
            ok = false;
            break;
        }
        pthread_rwlock_wrlock(&registry->lock);
        void *items = registry->releases;
        grow_array(&items, &registry->capacity, registry->n_releases + 1,
                   sizeof *registry->releases);
        registry->releases = items;
        registry->releases[registry->n_releases++] = release;
        pthread_rwlock_unlock(&registry->lock);
    }
    free_rows(&rows, 6);
    return ok;
}

/* Every key, in a new table that replaces the old one at once.  */
static bool load_keys(struct registry *registry, struct store *store, struct diag *d)
{
    struct release_rows rows = { 0 };
    if (!store_query(store, "SELECT upload_key, release, state, hourly_quota FROM upload_keys",
                     0, NULL, keep_row, &rows, d)) {
        free_rows(&rows, 4);
        return false;
    }
    char **keys = xcalloc(rows.n + 1, sizeof *keys);
    struct key_grant *grants = xcalloc(rows.n + 1, sizeof *grants);
    struct name_index by_key = { 0 };
    size_t n = 0;
    for (size_t i = 0; i < rows.n; i++) {
        char **values = rows.rows[i];
        struct release *release = registry_find_release(registry, strtoul(values[1], NULL, 10));
        if (!release)
            continue;     /* a release registered after load_releases read them */
        keys[n] = values[0];
        values[0] = NULL;
        grants[n] = (struct key_grant) {
            strcmp(values[2], "active") == 0 ? KEY_ACTIVE : KEY_REVOKED, release,
            strtoul(values[3], NULL, 10),
        };
        name_index_put(&by_key, keys[n], n);
        n++;
    }
    free_rows(&rows, 4);
    pthread_rwlock_wrlock(&registry->lock);
    char **old_keys = registry->keys;
    size_t old_n = registry->n_keys;
    struct key_grant *old_grants = registry->grants;
    struct name_index old_index = registry->by_key;
    registry->keys = keys;
    registry->grants = grants;
    registry->n_keys = n;
    registry->by_key = by_key;
    pthread_rwlock_unlock(&registry->lock);
    free_keys(old_keys, old_n);
    free(old_grants);
    name_index_free(&old_index);
    return true;
}

bool registry_reload(struct registry *registry, struct store *store, struct diag *d)
{
    pthread_mutex_lock(&registry->reload_lock);
    bool ok = load_releases(registry, store, d) && load_keys(registry, store, d);
    registry->last_reload = time(NULL);
    pthread_mutex_unlock(&registry->reload_lock);
    return ok;
}

static struct key_grant lookup(struct registry *registry, const char *key)
{
    struct key_grant grant = { KEY_UNKNOWN, NULL, 0 };
    size_t position;
    pthread_rwlock_rdlock(&registry->lock);
    if (name_index_find(&registry->by_key, key, &position))
        grant = registry->grants[position];
    pthread_rwlock_unlock(&registry->lock);
    return grant;
}

struct key_grant registry_find_key(struct registry *registry, const char *key,
                                   struct store *store, pthread_mutex_t *store_lock)
{
    struct key_grant grant = lookup(registry, key);
    if (grant.state != KEY_UNKNOWN || !store)
        return grant;
    pthread_mutex_lock(&registry->reload_lock);
    bool due = time(NULL) - registry->last_reload >= RELOAD_INTERVAL;
    pthread_mutex_unlock(&registry->reload_lock);
    if (!due)
        return grant;
    struct diag d;
    pthread_mutex_lock(store_lock);
    bool ok = registry_reload(registry, store, &d);
    pthread_mutex_unlock(store_lock);
    if (!ok)
        fprintf(stderr, "sampler-collect: reloading the releases: %s\n", d.message);
    return lookup(registry, key);
}
