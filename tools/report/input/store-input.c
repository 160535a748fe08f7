/* A release's runs from the collector's store (store-input.h).  The
   aggregate's text is made by a thread that reads the store and writes
   into one end of a socket pair; the run readers read the other end as a
   file, so that any number of runs takes the memory of one.  A reader that
   stops early (the site tables are read first, alone) closes its end, and
   the thread stops at its next write.  */
#include "input/store-input.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "inflate.h"
#include "store.h"
#include "input/run-stream.h"

#define INPUT_PREFIX "store:"

/* The inputs made, by name.  */
struct store_input {
    char *name;                   /* store:RELEASE-NAME */
    char *url;
    char *release;                /* its number */
    char *fail_if;
    char *sites_path;             /* the temporary --sites file */
};

static struct store_input *inputs;
static size_t n_inputs;

static void remove_site_files(void)
{
    for (size_t i = 0; i < n_inputs; i++)
        if (inputs[i].sites_path)
            unlink(inputs[i].sites_path);
}

static bool copy_row(void *context, unsigned n, const char *const *values, struct diag *d)
{
    (void) d;
    char **out = context;
    for (unsigned i = 0; i < n && out[i] == NULL; i++)
        out[i] = xstrdup(values[i] ? values[i] : "");
    return true;
}

/* The release's tables, appended to FILE.  */
static bool write_tables(void *context, unsigned n, const char *const *values, struct diag *d)
{
    FILE *file = context;
    size_t length = n > 0 && values[0] ? strlen(values[0]) : 0;
    if (fwrite(values[0], 1, length, file) != length)
        return diag_fail(d, "cannot write the release's site tables: %s", strerror(errno));
    return true;
}

static bool save_tables(struct store *store, struct store_input *input, struct diag *d)
{
    const char *directory = getenv("TMPDIR");
    size_t size = strlen(directory && *directory ? directory : "/tmp") + 40;
    input->sites_path = xmalloc(size);
    snprintf(input->sites_path, size, "%s/sampler-store-sites.XXXXXX",
             directory && *directory ? directory : "/tmp");
    int fd = mkstemp(input->sites_path);
    if (fd < 0) {
        free(input->sites_path);
        input->sites_path = NULL;
        return diag_fail(d, "cannot make a temporary file: %s", strerror(errno));
    }
    FILE *file = fdopen(fd, "w");
    const char *params[1] = { input->release };
    bool ok = file && store_query(store, "SELECT tables FROM release_tables WHERE release = $1 "
                                  "ORDER BY position", 1, params, write_tables, file, d);
    if (file && fclose(file) != 0 && ok)
        ok = diag_fail(d, "cannot write the release's site tables: %s", strerror(errno));
    return ok;
}

bool store_input_add(const char *url, const char *release, struct store_release_input *added,
                     struct diag *d)
{
    struct store *store;
    if (!store_open(&store, url, d))
        return false;
    char *row[3] = { NULL, NULL, NULL };
    const char *params[1] = { release };
    bool ok = store_query(store, "SELECT CAST(c.release AS VARCHAR), r.name, c.fail_if "
                          "FROM collected_releases c JOIN releases r ON r.release = c.release "
                          "WHERE r.name = $1 OR CAST(c.release AS VARCHAR) = $1", 1, params,
                          copy_row, row, d);
    if (ok && !row[0])
        ok = diag_fail(d, "the store has no release '%s' (give PRODUCT/VERSION or its number; "
                       "sampler-collect releases lists them)", release);
    struct store_input input = { 0 };
    if (ok) {
        size_t size = strlen(INPUT_PREFIX) + strlen(row[1]) + 1;
        input.name = xmalloc(size);
        snprintf(input.name, size, INPUT_PREFIX "%s", row[1]);
        input.url = xstrdup(url);
        input.release = row[0];
        input.fail_if = row[2];
        ok = save_tables(store, &input, d);
    }
    store_close(store);
    free(row[1]);
    if (!ok) {
        free(input.name);
        free(input.url);
        free(row[0]);
        free(row[2]);
        return false;
    }
    if (n_inputs == 0)
        atexit(remove_site_files);
    inputs = xrealloc(inputs, (n_inputs + 1) * sizeof *inputs);
    inputs[n_inputs++] = input;
    /* The strings stay with the module until the process ends.  */
    *added = (struct store_release_input) { input.name, input.sites_path, input.fail_if };
    return true;
}

static const struct store_input *find_input(const char *path)
{
    for (size_t i = 0; i < n_inputs; i++)
        if (strcmp(inputs[i].name, path) == 0)
            return &inputs[i];
    return NULL;
}

bool store_input_is(const char *path)
{
    return find_input(path) != NULL;
}

/* ---- The aggregate's text ----------------------------------------------------- */

struct producer {
    const struct store_input *input;
    struct store *store;
    int fd;
    unsigned long n_runs;
    struct byte_buffer text;
};

static bool send_all(struct producer *producer, const void *data, size_t size,
                     struct diag *d)
{
    const char *p = data;
    while (size > 0) {
        ssize_t sent = send(producer->fd, p, size, MSG_NOSIGNAL);
        if (sent < 0 && errno == EINTR)
            continue;
        if (sent <= 0)
            return diag_fail(d, "the reader stopped");
        p += sent;
        size -= (size_t) sent;
    }
    return true;
}

static bool send_run(void *context, unsigned n, const char *const *values, const void *bytes,
                     size_t size, struct diag *d)
{
    struct producer *producer = context;
    if (n != 1 || !values[0])
        return diag_fail(d, "internal error: a report without its run id");
    /* A report the collector took inflates within the protocol's limit.  */
    if (!gzip_inflate(bytes, size, (size_t) 64 << 20, &producer->text, d))
        return false;
    char header[64];
    int length = snprintf(header, sizeof header, "run\t%s\n", values[0]);
    producer->n_runs++;
    return send_all(producer, header, (size_t) length, d)
           && send_all(producer, producer->text.data, producer->text.size, d);
}

static void *produce(void *context)
{
    struct producer *producer = context;
    struct diag d;
    static const char header[] = "sampler-aggregate\t1\nruns\n";
    const char *params[1] = { producer->input->release };
    bool ok = send_all(producer, header, sizeof header - 1, &d)
              && store_query_bytes(producer->store, "SELECT run_id, body FROM reports "
                                   "WHERE release = $1 ORDER BY run_id", 1, params, send_run,
                                   producer, &d);
    if (ok) {
        char end[64];
        int length = snprintf(end, sizeof end, "aggregate-end\t%lu\n", producer->n_runs);
        ok = send_all(producer, end, (size_t) length, &d);
    } else if (strcmp(d.message, "the reader stopped") != 0) {
        /* The reader sees a truncated aggregate; this says why.  */
        fprintf(stderr, PROGRAM_NAME ": reading %s: %s\n", producer->input->name, d.message);
    }
    close(producer->fd);
    store_close(producer->store);
    buffer_free(&producer->text);
    free(producer);
    return NULL;
}

FILE *store_input_open(const char *path, struct diag *d)
{
    const struct store_input *input = find_input(path);
    int ends[2];
    if (!input) {
        diag_fail(d, "%s: no such store input", path);
        return NULL;
    }
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0) {
        diag_fail(d, "%s: %s", path, strerror(errno));
        return NULL;
    }
    struct producer *producer = xcalloc(1, sizeof *producer);
    producer->input = input;
    producer->fd = ends[1];
    pthread_t thread;
    if (!store_open(&producer->store, input->url, d)) {
        close(ends[0]);
        close(ends[1]);
        free(producer);
        return NULL;
    }
    if (pthread_create(&thread, NULL, produce, producer) != 0) {
        diag_fail(d, "%s: cannot start a thread", path);
        close(ends[0]);
        close(ends[1]);
        store_close(producer->store);
        free(producer);
        return NULL;
    }
    pthread_detach(thread);
    FILE *file = fdopen(ends[0], "rb");
    if (!file) {
        diag_fail(d, "%s: %s", path, strerror(errno));
        close(ends[0]);
    }
    return file;
}
