/* The report stores as sampler-submit sees them (docs/remote.md).  */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "submit.h"

/* The log is cut back to its newest half when it grows past this.  */
#define LOG_MAX_BYTES 65536
/* Reports the collector refused are kept aside for a look, this many.  */
#define REFUSED_KEPT 20

static bool path_join(char *out, size_t size, const char *directory, const char *name)
{
    int written = snprintf(out, size, "%s/%s", directory, name);
    return written > 0 && (size_t)written < size;
}

bool store_open(struct store *store, const char *path)
{
    char file[4200], error[SAMPLER_RELEASE_ERROR_SIZE];
    static char text[SAMPLER_RELEASE_TEXT_MAX + 1];
    unsigned long line;

    if (strlen(path) >= sizeof store->path) {
        fprintf(stderr, "sampler-submit: store path too long: %s\n", path);
        return false;
    }
    strcpy(store->path, path);
    path_join(file, sizeof file, path, "release");
    FILE *in = fopen(file, "rb");
    if (in == NULL) {
        fprintf(stderr, "sampler-submit: %s: not a report store: %s\n", file, strerror(errno));
        return false;
    }
    size_t length = fread(text, 1, sizeof text, in);
    fclose(in);
    if (!sampler_release_parse(text, length, &store->release, &line, error)) {
        fprintf(stderr, "sampler-submit: %s:%lu: %s\n", file, line, error);
        return false;
    }
    return true;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The subdirectories of DIRECTORY, sorted (malloc'd names).  */
static char **subdirectories(const char *directory, size_t *count)
{
    char **names = NULL;
    size_t capacity = 0;
    DIR *dir = opendir(directory);

    *count = 0;
    if (dir == NULL)
        return NULL;
    for (struct dirent *entry; (entry = readdir(dir)) != NULL;) {
        char path[4200];
        struct stat status;
        if (entry->d_name[0] == '.' || !path_join(path, sizeof path, directory, entry->d_name)
            || lstat(path, &status) != 0 || !S_ISDIR(status.st_mode))
            continue;
        if (*count == capacity) {
            capacity = capacity ? 2 * capacity : 8;
            char **grown = realloc(names, capacity * sizeof *names);
            if (grown == NULL)
                break;
            names = grown;
        }
        names[(*count)++] = strdup(entry->d_name);
    }
    closedir(dir);
    if (*count > 0)
        qsort(names, *count, sizeof *names, compare_names);
    return names;
}

static void free_names(char **names, size_t count)
{
    for (size_t i = 0; i < count; i++)
        free(names[i]);
    free(names);
}

bool stores_visit(bool (*visit)(const char *path, void *context), void *context)
{
    static const struct { enum sampler_store_base base; const char *variable; } bases[] = {
        { SAMPLER_STORE_STATE, "XDG_STATE_HOME" }, { SAMPLER_STORE_CACHE, "XDG_CACHE_HOME" },
    };
    bool ok = true;

    for (size_t b = 0; b < sizeof bases / sizeof bases[0]; b++) {
        char base[4096], root[4200];
        if (!sampler_xdg_directory(bases[b].base, getenv(bases[b].variable), getenv("HOME"),
                                   base, sizeof base)
            || !path_join(root, sizeof root, base, "sampler"))
            continue;
        size_t n_products;
        char **products = subdirectories(root, &n_products);
        for (size_t p = 0; p < n_products; p++) {
            char product[4300];
            path_join(product, sizeof product, root, products[p]);
            size_t n_versions;
            char **versions = subdirectories(product, &n_versions);
            for (size_t v = 0; v < n_versions; v++) {
                char store[4400], release[4500];
                struct stat status;
                if (path_join(store, sizeof store, product, versions[v])
                    && path_join(release, sizeof release, store, "release")
                    && stat(release, &status) == 0)
                    ok = visit(store, context) && ok;
            }
            free_names(versions, n_versions);
        }
        free_names(products, n_products);
    }
    return ok;
}

static int compare_pending(const void *a, const void *b)
{
    const struct pending *x = a, *y = b;
    if (x->mtime.tv_sec != y->mtime.tv_sec)
        return x->mtime.tv_sec < y->mtime.tv_sec ? -1 : 1;
    if (x->mtime.tv_nsec != y->mtime.tv_nsec)
        return x->mtime.tv_nsec < y->mtime.tv_nsec ? -1 : 1;
    return strcmp(x->name, y->name);
}

struct pending *store_pending(const struct store *store, size_t *count)
{
    char directory[4200];
    struct pending *reports = NULL;
    size_t capacity = 0;

    *count = 0;
    if (!path_join(directory, sizeof directory, store->path, "pending"))
        return NULL;
    DIR *dir = opendir(directory);
    if (dir == NULL)
        return NULL;
    for (struct dirent *entry; (entry = readdir(dir)) != NULL;) {
        struct stat status;
        /* Hidden files are not reports; *.tmp.PID are being written (or
           were, by a writer that died: the runtime removes those).  */
        if (entry->d_name[0] == '.' || strstr(entry->d_name, ".tmp.") != NULL
            || strlen(entry->d_name) >= sizeof reports->name
            || fstatat(dirfd(dir), entry->d_name, &status, AT_SYMLINK_NOFOLLOW) != 0
            || !S_ISREG(status.st_mode))
            continue;
        if (*count == capacity) {
            capacity = capacity ? 2 * capacity : 16;
            struct pending *grown = realloc(reports, capacity * sizeof *reports);
            if (grown == NULL)
                break;
            reports = grown;
        }
        struct pending *report = &reports[(*count)++];
        strcpy(report->name, entry->d_name);
        report->size = (long long)status.st_size;
        report->mtime = status.st_mtim;
    }
    closedir(dir);
    if (*count > 1)
        qsort(reports, *count, sizeof *reports, compare_pending);
    return reports;
}

/* STORE/next-attempt: its modification time is when the next round is
   due (the runtime looks at it before starting sampler-submit at exit),
   its text how many rounds in a row failed.  */
void store_read_state(const struct store *store, struct submit_state *state)
{
    char path[4200];
    struct stat status;

    state->next = 0;
    state->failures = 0;
    if (!path_join(path, sizeof path, store->path, "next-attempt") || stat(path, &status) != 0)
        return;
    state->next = status.st_mtim.tv_sec;
    FILE *in = fopen(path, "r");
    if (in != NULL) {
        if (fscanf(in, "failures %u", &state->failures) != 1)
            state->failures = 0;
        fclose(in);
    }
}

void store_write_state(const struct store *store, const struct submit_state *state)
{
    char path[4200], temporary[4300];

    if (!path_join(path, sizeof path, store->path, "next-attempt"))
        return;
    snprintf(temporary, sizeof temporary, "%s.tmp.%ld", path, (long)getpid());
    int fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0)
        return;
    char text[64];
    int length = snprintf(text, sizeof text, "failures %u\n", state->failures);
    const struct timespec times[2] = { { state->next, 0 }, { state->next, 0 } };
    bool ok = write(fd, text, (size_t)length) == length && futimens(fd, times) == 0;
    if (close(fd) == 0 && ok && rename(temporary, path) == 0)
        return;
    unlink(temporary);
}

/* Keeps the log's newest half when it has grown too long.  */
static void trim_log(const char *path)
{
    struct stat status;

    if (stat(path, &status) != 0 || status.st_size <= LOG_MAX_BYTES)
        return;
    FILE *in = fopen(path, "r");
    if (in == NULL)
        return;
    static char kept[LOG_MAX_BYTES];
    fseek(in, -(long)(LOG_MAX_BYTES / 2), SEEK_END);
    size_t length = fread(kept, 1, LOG_MAX_BYTES / 2, in);
    fclose(in);
    char *start = memchr(kept, '\n', length);
    if (start == NULL)
        return;
    start++;
    char temporary[4300];
    snprintf(temporary, sizeof temporary, "%s.tmp.%ld", path, (long)getpid());
    FILE *out = fopen(temporary, "w");
    if (out == NULL)
        return;
    fwrite(start, 1, length - (size_t)(start - kept), out);
    if (fclose(out) == 0)
        rename(temporary, path);
    else
        unlink(temporary);
}

void store_log(const struct store *store, bool quiet, const char *format, ...)
{
    char message[2048], path[4200], stamp[32];
    time_t now = time(NULL);
    struct tm utc;
    va_list arguments;

    va_start(arguments, format);
    vsnprintf(message, sizeof message, format, arguments);
    va_end(arguments);
    gmtime_r(&now, &utc);
    strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &utc);
    if (!quiet)
        fprintf(stderr, "sampler-submit: %s/%s: %s\n", store->release.product,
                store->release.version, message);
    if (!path_join(path, sizeof path, store->path, "submit.log"))
        return;
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0)
        return;
    dprintf(fd, "%s %s\n", stamp, message);
    close(fd);
    trim_log(path);
}

/* Removes the oldest entries of DIRECTORY beyond KEEP.  */
static void keep_newest(const char *directory, size_t keep)
{
    struct entry {
        char name[256];
        struct timespec mtime;
    } *entries = NULL;
    size_t n = 0, capacity = 0;
    DIR *dir = opendir(directory);

    if (dir == NULL)
        return;
    for (struct dirent *entry; (entry = readdir(dir)) != NULL;) {
        struct stat status;
        if (entry->d_name[0] == '.' || strlen(entry->d_name) >= sizeof entries->name
            || fstatat(dirfd(dir), entry->d_name, &status, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        if (n == capacity) {
            capacity = capacity ? 2 * capacity : 32;
            struct entry *grown = realloc(entries, capacity * sizeof *entries);
            if (grown == NULL)
                break;
            entries = grown;
        }
        strcpy(entries[n].name, entry->d_name);
        entries[n++].mtime = status.st_mtim;
    }
    for (; n > keep; n--) {
        size_t oldest = 0;
        for (size_t i = 1; i < n; i++)
            if (entries[i].mtime.tv_sec < entries[oldest].mtime.tv_sec)
                oldest = i;
        unlinkat(dirfd(dir), entries[oldest].name, 0);
        entries[oldest] = entries[n - 1];
    }
    free(entries);
    closedir(dir);
}

void store_refuse(const struct store *store, const char *name)
{
    char directory[4200], pending[4200], from[4500], to[4500];

    if (!path_join(directory, sizeof directory, store->path, "refused")
        || !path_join(pending, sizeof pending, store->path, "pending")
        || !path_join(from, sizeof from, pending, name)
        || !path_join(to, sizeof to, directory, name))
        return;
    if ((mkdir(directory, 0700) != 0 && errno != EEXIST) || rename(from, to) != 0)
        return;
    /* A few stay for a look; the store's bound does not count them.  */
    keep_newest(directory, REFUSED_KEPT);
}

int store_lock(const struct store *store)
{
    char path[4200];

    if (!path_join(path, sizeof path, store->path, "submit.lock"))
        return -1;
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0)
        return -1;
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

bool store_consent(const struct store *store, const char **why)
{
    char user_path[4096], system_path[4096];
    enum sampler_consent_answer user = SAMPLER_CONSENT_ABSENT, system;

    if (sampler_user_consent_path(getenv("XDG_CONFIG_HOME"), getenv("HOME"),
                                  store->release.product, user_path, sizeof user_path))
        user = sampler_consent_read(user_path);
    snprintf(system_path, sizeof system_path, "%s/%s", SAMPLER_SYSTEM_CONSENT_DIR,
             store->release.product);
    system = sampler_consent_read(system_path);
    bool given = sampler_consent_given(store->release.consent, user, system);
    if (user == SAMPLER_CONSENT_NO || system == SAMPLER_CONSENT_NO)
        *why = "consent is withdrawn";
    else if (user == SAMPLER_CONSENT_INVALID || system == SAMPLER_CONSENT_INVALID)
        *why = "a consent file says neither yes nor no (which counts as no)";
    else if (!given)
        *why = "no consent is recorded";
    else
        *why = "consent is given";
    return given;
}
