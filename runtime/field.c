/* Field runs of a release (docs/remote.md).

   A program linked by sampler-gcc --sampler-release=FILE carries its
   release configuration as text under the symbol __sampler_release.
   When the process starts, with the environment parsed (config.c):

   - without a release configuration nothing changes;
   - with one, the release's sparsity stands in for an unset
     SAMPLER_SPARSITY;
   - if the environment names a destination (SAMPLER_FILE,
     SAMPLER_REPORT_FD), the run is a developer's or a test's: reports go
     there, whole, as without a release;
   - otherwise it is a field run: it samples only when consent is recorded
     (release.h), into the store STATE/sampler/<product>/<version>/pending/
     (created 0700; never the working directory), and its reports are the
     form that leaves the machine: paths cut to their last component, only
     the schemes the release sends.

   In secure mode config.c reads nothing and calls nothing here: sampling
   stays off, release or not.  */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "field.h"

/* Weak: a program without a release configuration leaves it null.
   Default visibility, so that libsampler.so finds the executable's (the
   dynamic linker exports it because this library refers to it), else the
   first library's.  */
extern const char __sampler_release[] __attribute__((weak, visibility("default")));

/* Set while the process configures itself, read-only afterwards.  */
static struct sampler_release release;
static bool release_read, release_valid;
static bool field_active;
static char store[SAMPLER_PATH_MAX];

/* Room for the paths the configuration builds: static, as the process
   configures itself once (under pthread_once), maybe on a small thread
   stack.  */
static struct {
    char path[SAMPLER_PATH_MAX];
    char other[SAMPLER_PATH_MAX];
    char text[4096], old[4096];
} work;

const struct sampler_release *sampler_release_carried(void)
{
    if (!release_read) {
        release_read = true;
        if (__sampler_release == NULL)
            return NULL;
        unsigned long line;
        char error[SAMPLER_RELEASE_ERROR_SIZE];
        size_t length = strnlen(__sampler_release, SAMPLER_RELEASE_TEXT_MAX + 1);
        release_valid = sampler_release_parse(__sampler_release, length, &release, &line,
                                              error);
        if (!release_valid) {
            /* sampler-release checked it: another version wrote it.  */
            char message[1024];
            snprintf(message, sizeof message,
                     "sampler: ignoring the program's release configuration: line %lu: %s",
                     line, error);
            sampler_warn(message);
        }
    }
    return release_valid ? &release : NULL;
}

bool sampler_field_active(void)
{
    return field_active;
}

const char *sampler_field_store(void)
{
    return store;
}

/* ---- Consent and the store ---------------------------------------------- */

static bool consent_given(const struct sampler_release *carried)
{
    char *path = work.path;
    enum sampler_consent_answer user = SAMPLER_CONSENT_ABSENT;

    if (sampler_user_consent_path(getenv("XDG_CONFIG_HOME"), getenv("HOME"),
                                  carried->product, path, sizeof work.path))
        user = sampler_consent_read(path);
    snprintf(path, sizeof work.path, "%s/%s", SAMPLER_SYSTEM_CONSENT_DIR, carried->product);
    return sampler_consent_given(carried->consent, user, sampler_consent_read(path));
}

/* mkdir -p PATH, each new directory private to the user.  */
static bool make_directories(char *path)
{
    for (char *slash = strchr(path + 1, '/');; slash = strchr(slash + 1, '/')) {
        if (slash != NULL)
            *slash = '\0';
        int made = mkdir(path, 0700);
        int error = errno;
        if (slash != NULL)
            *slash = '/';
        if (made != 0 && error != EEXIST) {
            errno = error;
            return false;
        }
        if (slash == NULL)
            return true;
    }
}

/* The store's copy of the release configuration, which sampler-submit
   reads: rewritten only when it differs.  */
static void write_release_copy(const struct sampler_release *carried)
{
    /* Every setting written out fits work.text (the longest values are
       the URL and the submitter's path).  */
    char *text = work.text, *old = work.old, *path = work.path, *temporary = work.other;
    long length = sampler_release_format(carried, text, sizeof work.text);

    if (length < 0 || snprintf(path, sizeof work.path, "%s/release", store) >= (int)sizeof work.path
        || snprintf(temporary, sizeof work.other, "%s/release.tmp.%ld", store,
                    (long)getpid()) >= (int)sizeof work.other)
        return;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY);
    if (fd >= 0) {
        ssize_t read_length = read(fd, old, sizeof work.old);
        close(fd);
        if (read_length == length && memcmp(old, text, (size_t)length) == 0)
            return;
    }
    fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY, 0600);
    if (fd < 0)
        return;
    bool whole = write(fd, text, (size_t)length) == length;
    if (close(fd) == 0 && whole && rename(temporary, path) == 0)
        return;
    unlink(temporary);
}

static void warn_store(const char *path, const char *reason)
{
    char quoted[SAMPLER_QUOTED_SIZE(200)], message[1024];

    sampler_quote(path, 200, quoted);
    snprintf(message, sizeof message,
             "sampler: cannot use the report store '%s': %s; sampling is off", quoted, reason);
    sampler_warn(message);
}

/* Finds and makes the store; false (sampling off) when there is none to
   use: no home directory (silently), a store that is not the user's own,
   or a release the collector has retired.  */
static bool prepare_store(const struct sampler_release *carried)
{
    char *base = work.path, *pending = work.other;
    const char *xdg = getenv(carried->store == SAMPLER_STORE_CACHE ? "XDG_CACHE_HOME"
                                                                   : "XDG_STATE_HOME");
    struct stat status;

    if (!sampler_xdg_directory(carried->store, xdg, getenv("HOME"), base, sizeof work.path)
        || !sampler_store_directory(carried, base, store, sizeof store)
        || snprintf(pending, sizeof work.other, "%s/pending", store) >= (int)sizeof work.other)
        return false;
    if (!make_directories(pending)) {
        warn_store(store, strerror(errno));
        return false;
    }
    /* Reports hold what the user's runs did: a store someone else owns,
       or reached through a link, is not written.  */
    if (lstat(store, &status) != 0 || !S_ISDIR(status.st_mode)
        || status.st_uid != geteuid()) {
        warn_store(store, "it is not a directory of the user's own");
        return false;
    }
    char *retired = work.path;
    if (snprintf(retired, sizeof work.path, "%s/retired", store) >= (int)sizeof work.path
        || access(retired, F_OK) == 0)
        return false;
    write_release_copy(carried);
    return true;
}

/* STORE/pending/%t-%p.report, a `%' of the store's path doubled.  */
static bool set_report_pattern(struct sampler_config *config)
{
    static const char tail[] = "/pending/%t-%p.report";
    size_t length = 0;

    for (const char *c = store; *c != '\0'; c++) {
        if (length + 2 + sizeof tail > sizeof config->report_file)
            return false;
        if (*c == '%')
            config->report_file[length++] = '%';
        config->report_file[length++] = *c;
    }
    memcpy(config->report_file + length, tail, sizeof tail);
    return true;
}

/* Whether the environment sets variable NAME (an empty value is unset).  */
static bool is_set(sampler_lookup *lookup, void *context, const char *name)
{
    const char *value = lookup(name, context);
    return value != NULL && value[0] != '\0';
}

void sampler_field_configure(struct sampler_config *config, sampler_lookup *lookup,
                             void *context)
{
    const struct sampler_release *carried = sampler_release_carried();

    if (carried == NULL)
        return;
    if (!is_set(lookup, context, "SAMPLER_SPARSITY"))
        config->sparsity = carried->sparsity;
    bool destination_given = is_set(lookup, context, "SAMPLER_FILE")
                             || is_set(lookup, context, "SAMPLER_REPORT_FD");
    if (destination_given || config->sparsity == 0)
        return;
    if (!consent_given(carried) || !prepare_store(carried) || !set_report_pattern(config)) {
        config->sparsity = 0;
        return;
    }
    field_active = true;
}

/* ---- What a field report shows -------------------------------------------- */

const char *sampler_field_shown_path(const char *path)
{
    if (!field_active || path == NULL)
        return path;
    const char *slash = strrchr(path, '/');
    return slash != NULL && slash[1] != '\0' ? slash + 1 : path;
}

bool sampler_field_scheme_sent(unsigned id)
{
    return !field_active || (id < 32 && (release.send_schemes & 1u << id) != 0);
}

bool sampler_field_site_sent(const struct __sampler_unit *unit, unsigned site)
{
    if (!field_active)
        return true;
    if (release.send_schemes == (1u << SAMPLER_N_SCHEMES) - 1)
        return true;
    if (unit->version < 3 || unit->site_schemes == NULL)
        return false;
    return sampler_field_scheme_sent(unit->site_schemes[site]);
}

/* ---- Starting sampler-submit at exit ---------------------------------------- */

/* Whether a sending round is due: sampler-submit sets the time of the next
   one as the modification time of STORE/next-attempt.  */
static bool round_due(void)
{
    char *path = work.path;
    struct stat status;
    struct timespec now = { 0, 0 };

    if (snprintf(path, sizeof work.path, "%s/next-attempt", store) >= (int)sizeof work.path)
        return false;
    if (stat(path, &status) != 0)
        return errno == ENOENT;
    clock_gettime(CLOCK_REALTIME, &now);
    return status.st_mtim.tv_sec <= now.tv_sec;
}

/* sampler-submit --detach forks its worker into a session of its own and
   leaves at once; it is started with no descriptor of the program's (a
   pipe the program's caller reads to its end would wait for it), the
   standard ones on /dev/null, default signal actions and no signal
   blocked.  Nothing waits for it: the program's exit and status are
   its own.  */
void sampler_field_after_exit_report(void)
{
    extern char **environ;
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    sigset_t none, all;
    pid_t child;
    int saved_errno = errno;

    if (!field_active || release.submit_at_exit[0] == '\0' || !round_due())
        return;
    char *arguments[] = { release.submit_at_exit, "--detach", "--quiet", "--store", store,
                          NULL };
    sigemptyset(&none);
    sigfillset(&all);
    if (posix_spawn_file_actions_init(&actions) != 0)
        return;
    if (posix_spawnattr_init(&attributes) == 0) {
        if (posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0) == 0
            && posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0) == 0
            && posix_spawn_file_actions_adddup2(&actions, 1, 2) == 0
            && posix_spawn_file_actions_addclosefrom_np(&actions, 3) == 0
            && posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSID
                                                     | POSIX_SPAWN_SETSIGMASK
                                                     | POSIX_SPAWN_SETSIGDEF) == 0
            && posix_spawnattr_setsigmask(&attributes, &none) == 0
            && posix_spawnattr_setsigdefault(&attributes, &all) == 0)
            (void)posix_spawn(&child, release.submit_at_exit, &actions, &attributes,
                              arguments, environ);
        posix_spawnattr_destroy(&attributes);
    }
    posix_spawn_file_actions_destroy(&actions);
    errno = saved_errno;
}
