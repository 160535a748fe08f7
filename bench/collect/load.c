/* load: many clients uploading reports to a collector at once, as
   sampler-submit does (docs/remote.md's protocol: gzip, one report per
   request, a new connection each, Sampler-Run-Id), for bench/collect/.

     load --url URL --key KEY --reports DIR [--clients N] [--count N]
          [--seconds S] [--log FILE] [--deadline S] [--ca-file FILE]

   Each client takes the reports of DIR in turn, gives each copy a new run
   id (its run-id record and header), and keeps it pending, as a
   submitter's store does, until the collector answers that it is stored
   ("stored" or "duplicate" with its run id); any other answer, or none,
   leaves it pending, to be sent again after the Retry-After asked (or a
   second).  The run stops when COUNT reports were acknowledged (or
   SECONDS passed), and every pending one was acknowledged or the
   deadline (default 120 s past the end) passed.

   Prints the reports acknowledged per second over the sending phase, the
   50th, 90th and 99th percentiles of the latency of an acknowledged
   upload, and counts of each answer; --log FILE gets one line per report,
   "RUN-ID acknowledged|pending ATTEMPTS LAST-STATUS".  */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>
#include <zlib.h>

struct template {
    char *text;
    size_t size;
    size_t id_offset;            /* where the 32 digits of its run id are */
};

struct pending {
    char run_id[33];
    unsigned template;
    unsigned attempts;
    long last_status;
    bool acknowledged;
    double not_before;           /* seconds: Retry-After */
};

struct client {
    pthread_t thread;
    unsigned index;
    struct pending *reports;
    size_t n, capacity;
    double *latencies;
    size_t n_latencies, latencies_capacity;
};

static struct {
    const char *url, *key, *ca_file, *log;
    unsigned clients;
    unsigned long count;
    double seconds, deadline;
    struct template *templates;
    unsigned n_templates;
    atomic_ulong acknowledged, issued;
    atomic_ulong answers[600];
    atomic_ulong no_answer;
    double start, sending_end;
    atomic_bool sending_over;
} load;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double) t.tv_sec + t.tv_nsec / 1e9;
}

static void die(const char *message)
{
    fprintf(stderr, "load: %s\n", message);
    exit(2);
}

static void read_templates(const char *directory)
{
    DIR *dir = opendir(directory);
    if (!dir)
        die("cannot read the reports' directory");
    struct dirent *entry;
    while ((entry = readdir(dir))) {
        if (entry->d_name[0] == '.')
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", directory, entry->d_name);
        FILE *file = fopen(path, "rb");
        if (!file)
            continue;
        struct template t = { 0 };
        char buffer[65536];
        size_t got;
        while ((got = fread(buffer, 1, sizeof buffer, file)) > 0) {
            t.text = realloc(t.text, t.size + got + 1);
            memcpy(t.text + t.size, buffer, got);
            t.size += got;
        }
        fclose(file);
        if (!t.text)
            continue;
        t.text[t.size] = '\0';
        char *id = strstr(t.text, "\nrun-id\t");
        if (!id) {
            free(t.text);
            continue;
        }
        t.id_offset = (size_t) (id - t.text) + 8;
        load.templates = realloc(load.templates, (load.n_templates + 1) * sizeof t);
        load.templates[load.n_templates++] = t;
    }
    closedir(dir);
    if (!load.n_templates)
        die("no report with a run-id record in the directory");
}

static void new_run_id(char out[33])
{
    unsigned char bytes[16];
    if (getrandom(bytes, sizeof bytes, 0) != sizeof bytes)
        die("getrandom failed");
    for (int i = 0; i < 16; i++)
        snprintf(out + 2 * i, 3, "%02x", bytes[i]);
}

static unsigned char *gzip_text(const char *text, size_t size, size_t *out_size)
{
    z_stream z = { 0 };
    if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        die("deflateInit2");
    size_t bound = deflateBound(&z, size);
    unsigned char *out = malloc(bound);
    z.next_in = (Bytef *) text;
    z.avail_in = (uInt) size;
    z.next_out = out;
    z.avail_out = (uInt) bound;
    if (deflate(&z, Z_FINISH) != Z_STREAM_END)
        die("deflate");
    *out_size = z.total_out;
    deflateEnd(&z);
    return out;
}

struct answer {
    char body[4097];
    size_t size;
    long retry_after;
};

static size_t take_body(char *data, size_t size, size_t count, void *context)
{
    struct answer *answer = context;
    size_t n = size * count;
    if (answer->size + n > 4096)
        return 0;
    memcpy(answer->body + answer->size, data, n);
    answer->size += n;
    answer->body[answer->size] = '\0';
    return n;
}

static size_t take_header(char *data, size_t size, size_t count, void *context)
{
    struct answer *answer = context;
    size_t n = size * count;
    if (n > 12 && strncasecmp(data, "Retry-After:", 12) == 0)
        answer->retry_after = strtol(data + 12, NULL, 10);
    return n;
}

/* One attempt at sending REPORT; true when acknowledged.  */
static bool send_one(struct client *client, struct pending *report)
{
    const struct template *t = &load.templates[report->template];
    char *text = malloc(t->size + 1);
    memcpy(text, t->text, t->size + 1);
    memcpy(text + t->id_offset, report->run_id, 32);
    size_t body_size;
    unsigned char *body = gzip_text(text, t->size, &body_size);
    free(text);
    char authorization[256], run[64];
    snprintf(authorization, sizeof authorization, "Authorization: Bearer %s", load.key);
    snprintf(run, sizeof run, "Sampler-Run-Id: %s", report->run_id);
    struct curl_slist *headers = NULL;
    headers = curl_slist_append(headers, authorization);
    headers = curl_slist_append(headers, "Content-Type: application/x-sampler-report");
    headers = curl_slist_append(headers, "Content-Encoding: gzip");
    headers = curl_slist_append(headers, run);
    headers = curl_slist_append(headers, "Expect:");
    struct answer answer = { .size = 0 };
    CURL *curl = curl_easy_init();
    curl_easy_setopt(curl, CURLOPT_URL, load.url);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t) body_size);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_FORBID_REUSE, 1L);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, 60L);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, take_body);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &answer);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, take_header);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &answer);
    if (load.ca_file)
        curl_easy_setopt(curl, CURLOPT_CAINFO, load.ca_file);
    double started = now();
    CURLcode status = curl_easy_perform(curl);
    double latency = now() - started;
    long code = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &code);
    curl_easy_cleanup(curl);
    curl_slist_free_all(headers);
    free(body);
    report->attempts++;
    report->last_status = status == CURLE_OK ? code : 0;
    if (status != CURLE_OK) {
        if (atomic_fetch_add(&load.no_answer, 1) < 3)
            fprintf(stderr, "load: %s: %s\n", report->run_id, curl_easy_strerror(status));
    } else if (code > 0 && code < 600) {
        atomic_fetch_add(&load.answers[code], 1);
    }
    char stored[64], duplicate[64];
    snprintf(stored, sizeof stored, "stored %s\n", report->run_id);
    snprintf(duplicate, sizeof duplicate, "duplicate %s\n", report->run_id);
    bool acknowledged = status == CURLE_OK && code >= 200 && code < 300
                        && (strcmp(answer.body, stored) == 0 || strcmp(answer.body, duplicate) == 0);
    if (acknowledged) {
        report->acknowledged = true;
        if (client->n_latencies == client->latencies_capacity) {
            client->latencies_capacity = client->latencies_capacity ? 2 * client->latencies_capacity
                                                                    : 1024;
            client->latencies = realloc(client->latencies,
                                        client->latencies_capacity * sizeof *client->latencies);
        }
        client->latencies[client->n_latencies++] = latency;
        atomic_fetch_add(&load.acknowledged, 1);
    } else {
        report->not_before = now() + (answer.retry_after > 0 ? answer.retry_after : 1);
    }
    return acknowledged;
}

static bool sending(void)
{
    if (atomic_load(&load.sending_over))
        return false;
    bool over = (load.count && atomic_load(&load.acknowledged) >= load.count)
                || (load.seconds > 0 && now() - load.start >= load.seconds);
    if (over && !atomic_exchange(&load.sending_over, true))
        load.sending_end = now();
    return !over;
}

/* The first pending report due now, or NULL.  */
static struct pending *due(struct client *client, double *next)
{
    *next = 0;
    for (size_t i = 0; i < client->n; i++) {
        struct pending *report = &client->reports[i];
        if (report->acknowledged)
            continue;
        if (report->not_before <= now())
            return report;
        if (!*next || report->not_before < *next)
            *next = report->not_before;
    }
    return NULL;
}

static void *client_thread(void *context)
{
    struct client *client = context;
    unsigned turn = client->index;
    for (;;) {
        double next;
        struct pending *report = due(client, &next);
        /* Past COUNT and a margin, no new report: only the pending ones
           are sent again (the collector may be down for a while).  */
        if (!report && sending()
            && !(load.count && atomic_fetch_add(&load.issued, 1) >= load.count + 4 * load.clients)) {
            if (client->n == client->capacity) {
                client->capacity = client->capacity ? 2 * client->capacity : 256;
                client->reports = realloc(client->reports,
                                          client->capacity * sizeof *client->reports);
            }
            report = &client->reports[client->n++];
            memset(report, 0, sizeof *report);
            new_run_id(report->run_id);
            report->template = turn++ % load.n_templates;
        }
        if (!report) {
            double end = load.sending_end ? load.sending_end : now();
            if (!next || now() > end + load.deadline)
                break;
            usleep(100000);
            continue;
        }
        send_one(client, report);
    }
    return NULL;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

static void report_results(struct client *clients)
{
    size_t n = 0, pending = 0, total = 0;
    for (unsigned c = 0; c < load.clients; c++)
        n += clients[c].n_latencies;
    double *all = malloc((n + 1) * sizeof *all);
    n = 0;
    FILE *log = load.log ? fopen(load.log, "w") : NULL;
    for (unsigned c = 0; c < load.clients; c++) {
        memcpy(all + n, clients[c].latencies, clients[c].n_latencies * sizeof *all);
        n += clients[c].n_latencies;
        for (size_t i = 0; i < clients[c].n; i++) {
            const struct pending *r = &clients[c].reports[i];
            total++;
            pending += !r->acknowledged;
            if (log)
                fprintf(log, "%s %s %u %ld\n", r->run_id,
                        r->acknowledged ? "acknowledged" : "pending", r->attempts,
                        r->last_status);
        }
    }
    if (log)
        fclose(log);
    qsort(all, n, sizeof *all, compare_doubles);
    double span = (load.sending_end ? load.sending_end : now()) - load.start;
    printf("clients %u reports %zu acknowledged %zu pending %zu seconds %.2f rate %.1f "
           "p50_ms %.1f p90_ms %.1f p99_ms %.1f max_ms %.1f no_answer %lu",
           load.clients, total, total - pending, pending, span,
           span > 0 ? (double) atomic_load(&load.acknowledged) / span : 0,
           n ? 1000 * all[n / 2] : 0, n ? 1000 * all[(size_t) (n * 0.9)] : 0,
           n ? 1000 * all[(size_t) (n * 0.99)] : 0, n ? 1000 * all[n - 1] : 0,
           atomic_load(&load.no_answer));
    for (int code = 100; code < 600; code++)
        if (atomic_load(&load.answers[code]))
            printf(" http_%d %lu", code, atomic_load(&load.answers[code]));
    putchar('\n');
    free(all);
}

int main(int argc, char **argv)
{
    const char *reports = NULL;
    load.clients = 50;
    load.deadline = 120;
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *name = argv[i], *value = argv[i + 1];
        if (strcmp(name, "--url") == 0) load.url = value;
        else if (strcmp(name, "--key") == 0) load.key = value;
        else if (strcmp(name, "--reports") == 0) reports = value;
        else if (strcmp(name, "--clients") == 0) load.clients = (unsigned) atoi(value);
        else if (strcmp(name, "--count") == 0) load.count = strtoul(value, NULL, 10);
        else if (strcmp(name, "--seconds") == 0) load.seconds = atof(value);
        else if (strcmp(name, "--deadline") == 0) load.deadline = atof(value);
        else if (strcmp(name, "--log") == 0) load.log = value;
        else if (strcmp(name, "--ca-file") == 0) load.ca_file = value;
        else die("unknown option (see the comment at the top of load.c)");
    }
    if (!load.url || !load.key || !reports || !load.clients || (!load.count && !load.seconds))
        die("usage: load --url URL --key KEY --reports DIR [--clients N] "
            "(--count N | --seconds S) [--log FILE] [--deadline S] [--ca-file FILE]");
    read_templates(reports);
    curl_global_init(CURL_GLOBAL_ALL);
    struct client *clients = calloc(load.clients, sizeof *clients);
    load.start = now();
    for (unsigned c = 0; c < load.clients; c++) {
        clients[c].index = c;
        pthread_create(&clients[c].thread, NULL, client_thread, &clients[c]);
    }
    for (unsigned c = 0; c < load.clients; c++)
        pthread_join(clients[c].thread, NULL);
    report_results(clients);
    curl_global_cleanup();
    return 0;
}
