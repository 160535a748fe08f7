/* sampler-submit: sends the pending reports of a user's release stores to
   their collectors, records consent, and says how things stand
   (docs/remote.md).

     sampler-submit [OPTIONS]                     a sending round for every store
     sampler-submit status [--store DIR]
     sampler-submit consent PRODUCT [yes|no] [--system]

   Exit status: 0 when every store was dealt with (sent, nothing due, no
   consent); 1 when a report could not be sent (it is kept) or a store is
   unreadable; 2 on bad usage.  */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <curl/curl.h>

#include "commands.h"
#include "submit.h"

static const char usage_text[] =
    "usage: sampler-submit [--store DIR] [--dry-run] [--force] [--collector URL]\n"
    "                      [--ca-file FILE] [--timeout SECONDS] [--quiet] [--detach]\n"
    "       sampler-submit status [--store DIR]\n"
    "       sampler-submit consent PRODUCT [yes|no] [--system]\n";

static int usage(const char *problem)
{
    if (problem != NULL)
        fprintf(stderr, "sampler-submit: %s\n", problem);
    fputs(usage_text, stderr);
    return 2;
}

/* The time to wait after FAILURES rounds in a row failed: a minute,
   doubling up to a day, a fifth of it random so that a fleet spreads
   out; at least what the collector asked (at most a week).  */
static time_t backoff(unsigned failures, long retry_after)
{
    time_t delay = 60;

    for (unsigned i = 1; i < failures && delay < 86400; i++)
        delay *= 2;
    if (delay > 86400)
        delay = 86400;
    delay += (time_t)(random() % (delay / 5 + 1));
    if (retry_after > 7 * 86400)
        retry_after = 7 * 86400;
    return delay > retry_after ? delay : retry_after;
}

/* Decimal after NAME<TAB> at the start of a line of HEADER.  */
static bool header_number(const char *header, const char *name, unsigned long long *value)
{
    const char *found = strstr(header, name);

    if (found == NULL || (found != header && found[-1] != '\n'))
        return false;
    char *end;
    errno = 0;
    *value = strtoull(found + strlen(name), &end, 10);
    return errno == 0 && end != found + strlen(name) && *end == '\n';
}

/* What sampler-submit reads of a report before sending it: its run id,
   whether it is the last of its sequence, and that it is whole and
   belongs to the store's release.  */
struct report_head {
    char run_id[33];
    bool interim;
    unsigned long long pid;
};

static bool read_head(const struct store *store, const char *text, size_t length,
                      struct report_head *head, const char **problem)
{
    static char header[4096];
    char release[2 * SAMPLER_RELEASE_NAME_SIZE + 16];
    size_t header_length = length < sizeof header - 1 ? length : sizeof header - 1;
    unsigned long long value;

    memcpy(header, text, header_length);
    header[header_length] = '\0';
    char *units = strstr(header, "\nobject\t");
    if (units != NULL)
        units[1] = '\0';
    *problem = NULL;
    if (strncmp(header, "sampler-report\t1\n", 17) != 0)
        *problem = "not a sampler report of version 1";
    else if (length < 4 || memcmp(text + length - 4, "end\n", 4) != 0)
        *problem = "truncated (no 'end' line)";
    else if (memchr(text, '\0', length) != NULL)
        *problem = "a NUL byte in it";
    if (*problem != NULL)
        return false;
    const char *id = strstr(header, "\nrun-id\t");
    if (id == NULL || strspn(id + 8, "0123456789abcdef") != 32 || id[40] != '\n') {
        *problem = "no run id";
        return false;
    }
    memcpy(head->run_id, id + 8, 32);
    head->run_id[32] = '\0';
    snprintf(release, sizeof release, "\nrelease\t%s\t%s\n", store->release.product,
             store->release.version);
    if (strstr(header, release) == NULL) {
        *problem = "not a report of this store's release";
        return false;
    }
    if (!header_number(header, "pid\t", &head->pid)) {
        *problem = "no pid";
        return false;
    }
    head->interim = header_number(header, "interim\t", &value);
    if (!head->interim && strstr(header, "\nexit\t") == NULL) {
        *problem = "neither an exit nor an interim record";
        return false;
    }
    return true;
}

/* An interim report waits for the last report of its run, which will take
   its place, while the process that wrote it lives.  */
static bool writer_alive(unsigned long long pid)
{
    return pid > 0 && pid < (1ull << 22) && (kill((pid_t)pid, 0) == 0 || errno == EPERM);
}

/* The whole file NAME of STORE/pending, opened without following links;
   the descriptor stays open, so that what is deleted is what was sent.  */
static char *read_report(const struct store *store, const char *name, size_t *length, int *fd)
{
    char path[4500];
    struct stat status;

    snprintf(path, sizeof path, "%s/pending/%s", store->path, name);
    *fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (*fd < 0 || fstat(*fd, &status) != 0 || !S_ISREG(status.st_mode)
        || status.st_size > SUBMIT_REPORT_MAX) {
        return NULL;
    }
    char *text = malloc((size_t)status.st_size + 1);
    size_t done = 0;
    while (text != NULL && done < (size_t)status.st_size) {
        ssize_t n = read(*fd, text + done, (size_t)status.st_size - done);
        if (n <= 0)
            break;
        done += (size_t)n;
    }
    *length = done;
    return text;
}

/* Deletes the report that was sent, if the name still holds that file.  */
static void remove_sent(const struct store *store, const char *name, int fd)
{
    char path[4500];
    struct stat sent, now;

    snprintf(path, sizeof path, "%s/pending/%s", store->path, name);
    if (fstat(fd, &sent) == 0 && lstat(path, &now) == 0 && sent.st_dev == now.st_dev
        && sent.st_ino == now.st_ino)
        unlink(path);
}

static void retire(const struct store *store)
{
    char path[4200];
    size_t count;

    snprintf(path, sizeof path, "%s/retired", store->path);
    int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd >= 0)
        close(fd);
    struct pending *reports = store_pending(store, &count);
    for (size_t i = 0; i < count; i++) {
        snprintf(path, sizeof path, "%s/pending/%s", store->path, reports[i].name);
        unlink(path);
    }
    free(reports);
}

/* Whether a round may start for STORE now: consent, a release still
   collected, no other round running (its lock in *LOCK), and its time
   come (unless forced).  */
static bool round_may_start(const struct store *store, const struct submit_options *options,
                            int *lock, struct submit_state *state, time_t now)
{
    const char *why;
    char marker[4200];

    *lock = -1;
    if (!store_consent(store, &why)) {
        if (!options->quiet)
            fprintf(stderr, "sampler-submit: %s/%s: %s: nothing is sent\n",
                    store->release.product, store->release.version, why);
        return false;
    }
    snprintf(marker, sizeof marker, "%s/retired", store->path);
    if (access(marker, F_OK) == 0) {
        if (!options->quiet)
            fprintf(stderr, "sampler-submit: %s/%s: the collector retired this release\n",
                    store->release.product, store->release.version);
        return false;
    }
    if (options->dry_run)
        return true;
    *lock = store_lock(store);
    if (*lock < 0) {
        store_log(store, options->quiet, "another sampler-submit is sending this store's reports");
        return false;
    }
    store_read_state(store, state);
    if (!options->force && state->next > now) {
        if (!options->quiet)
            fprintf(stderr, "sampler-submit: %s/%s: the next round is due in %lld s (--force "
                    "sends now)\n", store->release.product, store->release.version,
                    (long long)(state->next - now));
        close(*lock);
        return false;
    }
    return true;
}

/* What a round did.  */
struct round {
    const char *url;
    size_t tried, sent, refused;
    bool failed, retired;
    long retry_after;
};

/* Offers the pending report NAME (SIZE bytes) to the collector, or with
   --dry-run shows it, and acts on the answer.  */
static void send_report(const struct store *store, const struct submit_options *options,
                        const struct pending *report, struct round *round)
{
    size_t length = 0;
    int fd = -1;
    const char *problem = NULL;
    struct report_head head;
    char *text = read_report(store, report->name, &length, &fd);

    if (text == NULL)
        problem = report->size > SUBMIT_REPORT_MAX ? "larger than the protocol allows"
                                                   : "unreadable";
    else if (read_head(store, text, length, &head, &problem) && head.interim
             && writer_alive(head.pid))
        goto done;   /* not yet: its run goes on */
    round->tried++;
    if (problem != NULL) {
        if (!options->dry_run) {
            store_log(store, options->quiet, "%s: %s; kept aside in refused/", report->name,
                      problem);
            store_refuse(store, report->name);
        }
        goto done;
    }
    if (options->dry_run) {
        upload_describe(round->url, store->release.upload_key, head.run_id, text, length);
        goto done;
    }
    struct upload_result result;
    upload_report(options, round->url, store->release.upload_key, head.run_id, text, length,
                  &result);
    switch (result.answer) {
    case ANSWER_STORED:
        remove_sent(store, report->name, fd);
        round->sent++;
        break;
    case ANSWER_REFUSED:
        store_log(store, options->quiet, "%s: %s; kept aside in refused/", report->name,
                  result.message);
        store_refuse(store, report->name);
        round->refused++;
        break;
    case ANSWER_RETIRED:
        store_log(store, options->quiet, "%s; the pending reports are deleted and this "
                  "release samples no more", result.message);
        round->retired = true;
        break;
    case ANSWER_LATER:
        store_log(store, options->quiet, "%s: %s", report->name, result.message);
        round->retry_after = result.retry_after;
        round->failed = true;
        break;
    }
done:
    free(text);
    if (fd >= 0)
        close(fd);
}

/* One round for the store at PATH.  */
static bool submit_store(const char *path, const struct submit_options *options)
{
    struct store store;
    struct submit_state state = { 0, 0 };
    time_t now = time(NULL);
    int lock;

    if (!store_open(&store, path))
        return false;
    if (!round_may_start(&store, options, &lock, &state, now))
        return true;
    char url[SAMPLER_RELEASE_URL_SIZE + 32];
    upload_endpoint(options->collector != NULL ? options->collector : store.release.collector,
                    url, sizeof url);
    struct round round = { .url = url };
    size_t count;
    struct pending *reports = store_pending(&store, &count);
    for (size_t i = 0; i < count && round.tried < store.release.submit_batch && !round.failed
                       && !round.retired; i++)
        send_report(&store, options, &reports[i], &round);
    free(reports);
    if (options->dry_run) {
        if (round.tried == 0)
            printf("# %s/%s: nothing to send\n", store.release.product, store.release.version);
        return true;
    }
    if (round.retired)
        retire(&store);
    state.failures = round.failed ? state.failures + 1 : 0;
    state.next = round.failed ? now + backoff(state.failures, round.retry_after)
                 : round.sent > 0 ? now + (time_t)store.release.submit_interval : now;
    store_write_state(&store, &state);
    if (round.sent > 0 || round.refused > 0 || round.failed)
        store_log(&store, options->quiet, "sent %zu, refused %zu%s; next round in %lld s",
                  round.sent, round.refused, round.failed ? ", then stopped" : "",
                  (long long)(state.next - now));
    close(lock);
    return !round.failed;
}

static bool visit_store(const char *path, void *context)
{
    return submit_store(path, context);
}

/* --detach (how the runtime starts it at exit): the work goes on in a
   child in a session of its own, and the command returns at once.  */
static void detach(void)
{
    pid_t child = fork();

    if (child < 0)
        return;   /* then in the foreground */
    if (child > 0)
        _exit(0);
    setsid();
}

int main(int argc, char **argv)
{
    static const struct option long_options[] = {
        { "store", required_argument, NULL, 's' },
        { "dry-run", no_argument, NULL, 'n' },
        { "force", no_argument, NULL, 'f' },
        { "collector", required_argument, NULL, 'c' },
        { "ca-file", required_argument, NULL, 'a' },
        { "timeout", required_argument, NULL, 't' },
        { "quiet", no_argument, NULL, 'q' },
        { "detach", no_argument, NULL, 'd' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    struct submit_options options = { .timeout = 60 };
    const char *store = NULL;
    bool detached = false;
    char error[SAMPLER_RELEASE_ERROR_SIZE];

    if (argc > 1 && strcmp(argv[1], "consent") == 0)
        return consent_command(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "status") == 0)
        return status_command(argc - 1, argv + 1);
    for (int c; (c = getopt_long(argc, argv, "", long_options, NULL)) != -1;) {
        char *end;
        switch (c) {
        case 's': store = optarg; break;
        case 'n': options.dry_run = true; break;
        case 'f': options.force = true; break;
        case 'q': options.quiet = true; break;
        case 'd': detached = true; break;
        case 'a': options.ca_file = optarg; break;
        case 'c':
            if (!sampler_release_check_url(optarg, error)) {
                fprintf(stderr, "sampler-submit: bad --collector '%s': %s\n", optarg, error);
                return 2;
            }
            options.collector = optarg;
            break;
        case 't':
            errno = 0;
            options.timeout = strtol(optarg, &end, 10);
            if (errno != 0 || *end != '\0' || end == optarg || options.timeout < 1
                || options.timeout > 3600)
                return usage("--timeout takes a number of seconds from 1 to 3600");
            break;
        case 'h':
            fputs(usage_text, stdout);
            return 0;
        default:
            return usage(NULL);
        }
    }
    if (optind < argc)
        return usage("unexpected argument");
    if (detached)
        detach();
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != 0) {
        fputs("sampler-submit: cannot initialise libcurl\n", stderr);
        return 1;
    }
    srandom((unsigned)time(NULL) ^ (unsigned)getpid());
    bool ok = store != NULL ? submit_store(store, &options)
                            : stores_visit(visit_store, (void *)&options);
    curl_global_cleanup();
    return ok ? 0 : 1;
}
