/* The releases a collector takes reports for (docs/collect.md): each with
   its site tables (registered from the release's binaries by
   `sampler-collect register-release'), the numbering of its sites and
   predicates, its failure rule and its upload keys.  The service loads
   them from the store when it starts and again when a key it does not
   know arrives (a release registered meanwhile), at most every few
   seconds, and on SIGHUP.  A release once loaded stays in memory until
   the service stops; only its state and keys change.  */
#ifndef SAMPLER_COLLECT_RELEASES_H
#define SAMPLER_COLLECT_RELEASES_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "input/labels.h"
#include "statistics/ranking.h"
#include "input/site-table.h"
#include "output/sql-tables.h"
#include "store.h"

struct release {
    unsigned long id;                /* its number in the store */
    char id_text[24];
    char *name;                      /* PRODUCT/VERSION */
    char *product, *version;
    char *fail_if;                   /* the failure rule of its runs' labels */
    atomic_bool retired;             /* takes no more reports (410) */
    struct site_catalog catalog;
    struct universe universe;
    uint32_t *tie_order;
    struct labeller labeller;        /* the rule: read-only, so shared by threads */
    struct sql_release sql;          /* what sqltables.c needs */
};

enum key_state { KEY_UNKNOWN, KEY_ACTIVE, KEY_REVOKED };

/* What an upload key names.  */
struct key_grant {
    enum key_state state;
    struct release *release;         /* for a known key */
    unsigned long hourly_quota;      /* 0: the service's default */
};

struct registry {
    pthread_rwlock_t lock;
    struct release **releases;
    size_t n_releases, capacity;
    /* Keys: upload_key -> position in the arrays below.  */
    struct name_index by_key;
    char **keys;
    struct key_grant *grants;
    size_t n_keys, keys_capacity;
    pthread_mutex_t reload_lock;
    time_t last_reload;
};

void registry_init(struct registry *registry);
void registry_free(struct registry *registry);

/* Loads what the store holds that the registry has not yet, and every
   key's and release's state.  */
bool registry_reload(struct registry *registry, struct store *store, struct diag *d);

/* What KEY names; a key not known is looked up again in the store (at
   most every RELOAD_INTERVAL seconds) through STORE, which the caller
   must hold alone (NULL: no reload).  */
enum { RELOAD_INTERVAL = 2 };
struct key_grant registry_find_key(struct registry *registry, const char *key,
                                   struct store *store, pthread_mutex_t *store_lock);

/* The release numbered ID, or NULL.  */
struct release *registry_find_release(struct registry *registry, unsigned long id);

/* What register-release takes (main.c reads the command line).  */
struct release_registration {
    const char **binaries;           /* --binary */
    size_t n_binaries;
    const char **site_files;         /* --sites */
    size_t n_site_files;
    const char *product, *version;   /* else the binaries' release configuration */
    const char **keys;               /* more upload keys than the configuration's */
    size_t n_keys;
    const char *fail_if;             /* NULL: the default rule */
    unsigned long hourly_quota;
};

/* Registers a release in the store, or adds keys to one registered with
   the same tables; prints what it did.  */
bool release_register(struct store *store, const struct release_registration *registration,
                      struct diag *d);

/* Marks the release PRODUCT/VERSION (or numbered so) retired: the service
   answers 410 to its reports from its next reload on.  */
bool release_retire(struct store *store, const char *name, struct diag *d);

/* Revokes an upload key (401 from the next reload on).  */
bool release_revoke_key(struct store *store, const char *key, struct diag *d);

/* Whether KEY is an upload key as docs/remote.md says: 16 to 128 letters,
   digits and - . _ ~ + /.  */
bool upload_key_valid(const char *key);

/* Lists the releases, their keys and runs.  */
bool releases_list(struct store *store, struct diag *d);

#endif
