/* Reports: the counters of every registered unit, written at normal exit
   (and on demand) in the text format of runtime/report-format.md.

   A report goes to SAMPLER_REPORT_FD, or to a file named by SAMPLER_FILE.
   A file is written under a temporary name in the same directory and then
   linked to its final name, which never replaces an existing file: a
   report is complete under its final name, or not there at all.

   Writing uses only open/write/link and our own buffer: no stdio stream of
   the program is touched, and no memory is allocated, which prepares the
   way for reports from crash handlers.  */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>      /* rename only: no streams */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "sampler.h"
#include "sampler-abi.h"
#include "sampler-internal.h"

/* Weak, so that a fully static program does not drag in the dynamic
   loader's functions (and the linker's warning about them); they are only
   needed when the runtime lives in a shared object.  */
#pragma weak dladdr1
#pragma weak dlopen
#pragma weak dlerror

#define REPORT_FORMAT_VERSION "1"
#define OUTPUT_BUFFER_SIZE 4096
/* Suffixes tried after the name itself: .1 up to this.  */
#define MAX_NAME_SUFFIX 9999
/* How long a write to a full non-blocking descriptor may wait.  */
#define WRITE_WAIT_MS 10000

/* ---- Output with our own buffer ----------------------------------------- */

struct output {
    int fd;
    int error;      /* errno of the first failure; 0 while all is well */
    size_t used;
    char buffer[OUTPUT_BUFFER_SIZE];
};

static void output_flush(struct output *out)
{
    const char *rest = out->buffer;
    size_t length = out->used;

    out->used = 0;
    while (length > 0 && out->error == 0) {
        ssize_t written = write(out->fd, rest, length);
        if (written > 0) {
            rest += written;
            length -= (size_t)written;
        } else if (written < 0 && errno == EINTR) {
            continue;
        } else if (written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            /* A non-blocking descriptor the program gave us: wait for
               room, but not forever.  */
            struct pollfd ready = { .fd = out->fd, .events = POLLOUT };
            int polled = poll(&ready, 1, WRITE_WAIT_MS);
            if (polled == 0)
                out->error = EAGAIN;
            else if (polled < 0 && errno != EINTR)
                out->error = errno;
        } else {
            out->error = written < 0 ? errno : EIO;
        }
    }
}

static void output_bytes(struct output *out, const char *bytes, size_t length)
{
    while (length > 0) {
        if (out->used == sizeof out->buffer)
            output_flush(out);
        size_t room = sizeof out->buffer - out->used;
        size_t chunk = length < room ? length : room;
        memcpy(out->buffer + out->used, bytes, chunk);
        out->used += chunk;
        bytes += chunk;
        length -= chunk;
    }
}

static void output_char(struct output *out, char c)
{
    output_bytes(out, &c, 1);
}

static void output_text(struct output *out, const char *text)
{
    output_bytes(out, text, strlen(text));
}

/* A string field: backslash, TAB and newline escaped.  */
static void output_field(struct output *out, const char *text)
{
    for (; *text != '\0'; text++) {
        switch (*text) {
        case '\\': output_bytes(out, "\\\\", 2); break;
        case '\t': output_bytes(out, "\\t", 2); break;
        case '\n': output_bytes(out, "\\n", 2); break;
        default: output_char(out, *text); break;
        }
    }
}

/* Writes value in decimal into digits (at least 21 bytes); returns the
   start of the NUL-terminated text, within digits.  */
static char *format_decimal(unsigned long long value, char digits[21])
{
    char *start = digits + 20;

    *start = '\0';
    do {
        *--start = (char)('0' + value % 10);
        value /= 10;
    } while (value != 0);
    return start;
}

static void output_decimal(struct output *out, unsigned long long value)
{
    char digits[21];
    output_text(out, format_decimal(value, digits));
}

/* ---- The report's text -------------------------------------------------- */

static void output_unit(const struct __sampler_unit *unit, void *context)
{
    struct output *out = context;

    output_text(out, "unit\t");
    output_field(out, unit->signature);
    output_char(out, '\t');
    output_decimal(out, unit->n_sites);
    output_char(out, '\t');
    output_decimal(out, unit->n_counters);
    output_char(out, '\t');
    output_field(out, unit->source != NULL ? unit->source : "");
    output_char(out, '\n');

    for (unsigned site = 0; site < unit->n_sites; site++) {
        unsigned first = unit->site_offsets[site];
        unsigned end = unit->site_offsets[site + 1];
        unsigned i = first;
        /* Other threads may still be counting: read the slots the way
           instrumented code writes them.  */
        while (i < end && __atomic_load_n(&unit->counters[i], __ATOMIC_RELAXED) == 0)
            i++;
        if (i == end)
            continue;
        output_decimal(out, site);
        for (i = first; i < end; i++) {
            output_char(out, '\t');
            output_decimal(out, __atomic_load_n(&unit->counters[i], __ATOMIC_RELAXED));
        }
        output_char(out, '\n');
    }
}

/* Under report_lock: static rather than on the stack, which may be a small
   alternate signal stack one day.  */
static struct {
    struct output out;
    char program[SAMPLER_PATH_MAX];
    char path[SAMPLER_PATH_MAX];
    char temporary[SAMPLER_PATH_MAX];
    char claimed[SAMPLER_PATH_MAX];
} scratch;
static pthread_mutex_t report_lock = PTHREAD_MUTEX_INITIALIZER;

static const char *program_path(void)
{
    ssize_t length = readlink("/proc/self/exe", scratch.program,
                              sizeof scratch.program - 1);
    if (length > 0) {
        scratch.program[length] = '\0';
        return scratch.program;
    }
    return program_invocation_name != NULL ? program_invocation_name : "";
}

static void output_report(struct output *out, const struct sampler_config *config,
                          enum sampler_ending ending, int value)
{
    output_text(out, "sampler-report\t" REPORT_FORMAT_VERSION "\nprogram\t");
    output_field(out, program_path());
    output_text(out, "\npid\t");
    output_decimal(out, (unsigned long long)getpid());
    output_text(out, "\nsparsity\t");
    output_decimal(out, (unsigned long long)config->sparsity);
    output_text(out, "\nseed\t");
    output_decimal(out, config->seed);
    output_char(out, '\n');
    if (ending != SAMPLER_RUNNING) {
        output_text(out, ending == SAMPLER_EXIT_STATUS ? "exit\tstatus\t"
                                                       : "exit\tsignal\t");
        output_decimal(out, (unsigned long long)value);
        output_char(out, '\n');
    }
    sampler_units_visit(output_unit, out);
    output_text(out, "end\n");
    output_flush(out);
}

/* ---- File names --------------------------------------------------------- */

bool sampler_report_pattern_valid(const char *pattern)
{
    size_t length = strnlen(pattern, SAMPLER_PATH_MAX);

    if (length == 0 || length == SAMPLER_PATH_MAX)
        return false;
    for (const char *c = pattern; *c != '\0'; c++) {
        if (*c != '%')
            continue;
        c++;
        if (*c != 'p' && *c != '%')
            return false;
    }
    return true;
}

/* Appends text to the NUL-terminated string in buffer (size bytes), or
   returns false when it does not fit.  */
static bool append(char *buffer, size_t size, size_t *length, const char *text)
{
    size_t text_length = strlen(text);

    if (*length + text_length >= size)
        return false;
    memcpy(buffer + *length, text, text_length + 1);
    *length += text_length;
    return true;
}

long sampler_report_expand(const char *pattern, long pid, char *path, size_t size)
{
    char digits[21];
    const char *pid_text = format_decimal((unsigned long long)pid, digits);
    size_t length = 0;

    if (size == 0)
        return -1;
    path[0] = '\0';
    for (const char *c = pattern; *c != '\0'; c++) {
        char one[2] = { *c, '\0' };
        const char *piece = one;
        if (c[0] == '%' && c[1] == 'p') {
            piece = pid_text;
            c++;
        } else if (c[0] == '%' && c[1] == '%') {
            c++;
        }
        if (!append(path, size, &length, piece))
            return -1;
    }
    return (long)length;
}

/* mkdir -p of the directories leading to path.  */
static int make_parent_directories(char *path)
{
    for (char *slash = strchr(path + 1, '/'); slash != NULL;
         slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        int made = mkdir(path, 0777);
        int error = errno;
        *slash = '/';
        if (made != 0 && error != EEXIST) {
            errno = error;
            return -1;
        }
    }
    return 0;
}

/* Creates the temporary file, and the directories it needs.  O_EXCL and
   O_NOFOLLOW: nobody else's file or link is written through, even in a
   shared directory; a leftover of ours (same pid, earlier boot or
   container) is removed first.  */
static int create_temporary(char *temporary)
{
    const int flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY;
    int fd = open(temporary, flags, 0666);

    if (fd < 0 && errno == ENOENT && make_parent_directories(temporary) == 0)
        fd = open(temporary, flags, 0666);
    if (fd < 0 && errno == EEXIST && unlink(temporary) == 0)
        fd = open(temporary, flags, 0666);
    return fd;
}

/* Gives the finished temporary file the first free name among path,
   path.1, path.2, ...: link() never replaces a file, so two runs cannot
   take the same name.  Where hard links are not supported, the name is
   reserved with O_EXCL and the reservation replaced with rename().  */
static int claim_name(const char *temporary, const char *path)
{
    for (unsigned suffix = 0; suffix <= MAX_NAME_SUFFIX; suffix++) {
        char digits[21];
        size_t length = 0;
        scratch.claimed[0] = '\0';
        if (!append(scratch.claimed, sizeof scratch.claimed, &length, path)
            || (suffix > 0
                && (!append(scratch.claimed, sizeof scratch.claimed, &length, ".")
                    || !append(scratch.claimed, sizeof scratch.claimed, &length,
                               format_decimal(suffix, digits))))) {
            errno = ENAMETOOLONG;
            return -1;
        }

        if (link(temporary, scratch.claimed) == 0) {
            unlink(temporary);
            return 0;
        }
        if (errno == EEXIST)
            continue;
        if (errno != EPERM && errno != EOPNOTSUPP && errno != ENOSYS && errno != EMLINK)
            return -1;

        int reserved = open(scratch.claimed,
                            O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY, 0666);
        if (reserved < 0) {
            if (errno == EEXIST)
                continue;
            return -1;
        }
        close(reserved);
        if (rename(temporary, scratch.claimed) == 0)
            return 0;
        int error = errno;
        unlink(scratch.claimed);
        errno = error;
        return -1;
    }
    errno = EEXIST;
    return -1;
}

/* ---- Destinations ------------------------------------------------------- */

/* The warning for a failed report: why, from error, or reason if given.  */
static void warn_cannot_write(const char *destination, bool quote, int error,
                              const char *reason)
{
    char message[1024];
    size_t length = 0;
    const char *description = reason != NULL ? reason : strerrordesc_np(error);

    message[0] = '\0';
    append(message, sizeof message, &length, "sampler: cannot write report to ");
    if (quote) {
        /* At most 200 bytes, so that the line always fits.  */
        char quoted[SAMPLER_QUOTED_SIZE(200)];
        sampler_quote(destination, 200, quoted);
        append(message, sizeof message, &length, "'");
        append(message, sizeof message, &length, quoted);
        append(message, sizeof message, &length, "'");
    } else {
        append(message, sizeof message, &length, destination);
    }
    append(message, sizeof message, &length, ": ");
    if (description != NULL) {
        append(message, sizeof message, &length, description);
    } else {
        char digits[21];
        append(message, sizeof message, &length, "error ");
        append(message, sizeof message, &length,
               format_decimal((unsigned long long)error, digits));
    }
    sampler_warn(message);
}

static void warn_cannot_write_descriptor(int fd, int error, const char *reason)
{
    char digits[21];
    char destination[64] = "file descriptor ";
    size_t length = strlen(destination);

    append(destination, sizeof destination, &length,
           format_decimal((unsigned long long)fd, digits));
    warn_cannot_write(destination, false, error, reason);
}

static int write_to_descriptor(const struct sampler_config *config,
                               enum sampler_ending ending, int value)
{
    struct output *out = &scratch.out;
    struct stat status;

    /* Closed, or reused by the program for a file of its own: the report
       goes nowhere rather than into the program's data.  */
    if (fstat(config->report_fd, &status) != 0) {
        warn_cannot_write_descriptor(config->report_fd, errno, NULL);
        return -1;
    }
    if (status.st_dev != config->report_fd_device
        || status.st_ino != config->report_fd_inode) {
        warn_cannot_write_descriptor(config->report_fd, 0,
                                     "the program has replaced it");
        return -1;
    }
    out->fd = config->report_fd;
    out->error = 0;
    out->used = 0;
    output_report(out, config, ending, value);
    if (out->error == 0)
        return 0;
    warn_cannot_write_descriptor(config->report_fd, out->error, NULL);
    return -1;
}

static int write_to_file(const struct sampler_config *config,
                         enum sampler_ending ending, int value)
{
    struct output *out = &scratch.out;
    long pid = (long)getpid();
    char digits[21];
    size_t length;

    if (sampler_report_expand(config->report_file, pid, scratch.path,
                              sizeof scratch.path) < 0) {
        warn_cannot_write(config->report_file, true, ENAMETOOLONG, NULL);
        return -1;
    }
    length = 0;
    scratch.temporary[0] = '\0';
    if (!append(scratch.temporary, sizeof scratch.temporary, &length, scratch.path)
        || !append(scratch.temporary, sizeof scratch.temporary, &length, ".tmp.")
        || !append(scratch.temporary, sizeof scratch.temporary, &length,
                   format_decimal((unsigned long long)pid, digits))) {
        warn_cannot_write(scratch.path, true, ENAMETOOLONG, NULL);
        return -1;
    }

    out->fd = create_temporary(scratch.temporary);
    if (out->fd < 0) {
        warn_cannot_write(scratch.path, true, errno, NULL);
        return -1;
    }
    out->error = 0;
    out->used = 0;
    output_report(out, config, ending, value);
    /* close reports late errors of some file systems (NFS quotas).  */
    if (close(out->fd) != 0 && out->error == 0 && errno != EINTR)
        out->error = errno;
    if (out->error == 0 && claim_name(scratch.temporary, scratch.path) != 0)
        out->error = errno;
    if (out->error == 0)
        return 0;
    unlink(scratch.temporary);
    warn_cannot_write(scratch.path, true, out->error, NULL);
    return -1;
}

/* Writing to a closed pipe or past the file size limit raises SIGPIPE or
   SIGXFSZ, whose default is to kill the process: the program would die of
   its report.  They are blocked while writing, and one raised by our own
   write is taken back before they are unblocked.  */
struct quiet_signals {
    sigset_t previous_mask;
    sigset_t pending_before;
};

static void quiet_signals_begin(struct quiet_signals *quiet)
{
    sigset_t blocked;

    sigemptyset(&blocked);
    sigaddset(&blocked, SIGPIPE);
    sigaddset(&blocked, SIGXFSZ);
    pthread_sigmask(SIG_BLOCK, &blocked, &quiet->previous_mask);
    sigpending(&quiet->pending_before);
}

static void quiet_signals_end(struct quiet_signals *quiet)
{
    static const int quieted[] = { SIGPIPE, SIGXFSZ };
    const struct timespec no_wait = { 0, 0 };
    sigset_t pending;

    sigpending(&pending);
    for (size_t i = 0; i < sizeof quieted / sizeof quieted[0]; i++) {
        int signal_number = quieted[i];
        if (sigismember(&pending, signal_number)
            && !sigismember(&quiet->pending_before, signal_number)) {
            sigset_t only;
            sigemptyset(&only);
            sigaddset(&only, signal_number);
            (void)sigtimedwait(&only, NULL, &no_wait);
        }
    }
    pthread_sigmask(SIG_SETMASK, &quiet->previous_mask, NULL);
}

int sampler_report_write(enum sampler_ending ending, int value)
{
    const struct sampler_config *config = sampler_config_get();
    struct quiet_signals quiet;
    int cancel_state;
    int result;

    if (config->sparsity == 0)
        return -1;
    int saved_errno = errno;
    /* write() is a cancellation point: a thread cancelled mid-report would
       leave report_lock held, and the exit report waiting for it.  */
    pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cancel_state);
    pthread_mutex_lock(&report_lock);
    quiet_signals_begin(&quiet);
    if (config->report_fd >= 0)
        result = write_to_descriptor(config, ending, value);
    else
        result = write_to_file(config, ending, value);
    quiet_signals_end(&quiet);
    pthread_mutex_unlock(&report_lock);
    pthread_setcancelstate(cancel_state, NULL);
    errno = saved_errno;
    return result;
}

SAMPLER_EXPORT int sampler_write_report(void)
{
    return sampler_report_write(SAMPLER_RUNNING, 0);
}

/* ---- At exit ------------------------------------------------------------ */

static void report_at_exit(int status, void *unused)
{
    (void)unused;
    /* The status as the parent sees it (WEXITSTATUS).  */
    (void)sampler_report_write(SAMPLER_EXIT_STATUS, status & 0xff);
}

static void lock_reports(void)
{
    pthread_mutex_lock(&report_lock);
}

static void unlock_reports(void)
{
    pthread_mutex_unlock(&report_lock);
}

/* The exit handler is code of the object that holds the runtime; if a
   dlclose unloaded that object (libsampler.so, or a DSO the static runtime
   was linked into), exit would call into unmapped memory.  So that object
   is made permanent, as -z nodelete would.  A program linked statically
   has no such object, and no dlopen.  */
static void keep_runtime_loaded(void)
{
    Dl_info info;
    struct link_map *map = NULL;

    if (dladdr1 == NULL || dlopen == NULL)
        return;
    if (dladdr1(&report_lock, &info, (void **)&map, RTLD_DL_LINKMAP) == 0
        || map == NULL || map->l_name == NULL || map->l_name[0] == '\0')
        return;   /* the main program: never unloaded */
    if (dlopen(map->l_name, RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE) == NULL
        && dlerror != NULL)
        (void)dlerror();   /* leave no error for the program to find */
}

void sampler_report_arm(void)
{
    keep_runtime_loaded();
    (void)pthread_atfork(lock_reports, unlock_reports, unlock_reports);
    (void)on_exit(report_at_exit, NULL);
}
