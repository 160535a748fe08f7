/* sampler-collect serve: the service (docs/collect.md).  Uploads arrive
   on an HTTP(S) listener (libmicrohttpd, a pool of threads polling with
   epoll), are checked in those threads (upload.h) and stored by the writer
   (writer.h); the per-release pages (pages.h) are served on the same
   listener or one of their own.  */
#ifndef SAMPLER_COLLECT_SERVICE_H
#define SAMPLER_COLLECT_SERVICE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "folder.h"
#include "quota.h"
#include "releases.h"
#include "store.h"
#include "upload.h"
#include "writer.h"

struct service_options {
    const char *store_url;
    const char *listen;               /* ADDRESS:PORT */
    const char *pages_listen;         /* pages apart; NULL: on the upload listener */
    bool no_pages;
    const char *port_file;            /* where the bound port is written */
    const char *tls_cert, *tls_key;   /* PEM files: HTTPS */
    const char *trusted_proxy;        /* its X-Forwarded-For names the client */
    unsigned threads;
    unsigned connection_limit;
    unsigned address_connection_limit;
    unsigned idle_timeout;            /* seconds a connection may stay silent */
    unsigned request_timeout;         /* seconds an upload may take in all */
    size_t body_max, report_max, memory_limit;
    unsigned long key_quota;          /* reports an hour per key (a key's own wins) */
    unsigned long address_quota;      /* reports an hour per client address */
    unsigned batch_max;
    size_t queue_max;
    unsigned elimination_interval;    /* seconds between the pages' eliminations */
    unsigned elimination_steps;       /* steps each elimination takes at most; 0: all */
    unsigned fold_interval;           /* milliseconds between folds, at least */
    unsigned fold_batch;              /* runs per fold, at most */
};

void service_options_default(struct service_options *options);

struct pages;

struct service {
    struct service_options options;
    struct registry registry;
    struct writer writer;
    struct folder folder;
    /* The connection of the pages and of the reloads of releases.  */
    struct store *reader;
    pthread_mutex_t reader_lock;
    pthread_mutex_t analysis_lock;   /* folder.h says why */
    struct quota_table key_quotas, address_quotas;
    struct memory_budget budget;
    struct upload_limits limits;
    struct pages *pages;
};

/* Runs the service until SIGTERM or SIGINT; SIGHUP reloads the releases.
   Returns the exit status.  */
int service_run(const struct service_options *options);

#endif
