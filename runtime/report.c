/* Reports: the counters of every registered unit, in the text format of
   runtime/report-format.md, written when the process image ends (exit,
   _exit and quick_exit (see exit.c), a fatal or terminating signal, exec),
   every SAMPLER_INTERVAL seconds, and on demand.

   A report goes to SAMPLER_REPORT_FD, or to a file named by SAMPLER_FILE.
   A file is written under a temporary name in the same directory and then
   given its final name, so that a report is complete under its final name
   or not there at all.  The reports of one process image form a sequence:
   each holds all the counts since the image started (or since the last
   sampler_reset), so the first takes a name no other file has (link()
   never replaces a file) and each later one takes the place of its
   predecessor, which it contains -- but only while that file is still the
   one this process wrote.  A directory of reports thus holds one file per
   process image (and per reset), whose counts add up with no double
   counting.

   Writing uses only system calls and static buffers: no stdio stream of
   the program is touched, no memory is allocated and no lock of the C
   library or the dynamic loader is taken, so that the same code writes the
   report of a run that dies of a signal, from the signal handler.  */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>      /* rename and renameat2 only: no streams */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "field.h"
#include "run-id.h"
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
/* A fatal-signal handler waits at most this many milliseconds for another
   thread's report to finish.  */
#define SIGNAL_LOCK_WAIT_MS 3000

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
    if (out->used == sizeof out->buffer)
        output_flush(out);
    out->buffer[out->used++] = c;
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

/* VALUE in decimal, written straight into the buffer (a report writes a
   number for every slot of every site it holds).  */
static void output_decimal(struct output *out, unsigned long long value)
{
    unsigned length = 1;
    for (unsigned long long v = value; v >= 10; v /= 10)
        length++;
    if (sizeof out->buffer - out->used < length)
        output_flush(out);
    char *digit = out->buffer + out->used + length;
    do {
        *--digit = (char)('0' + value % 10);
        value /= 10;
    } while (value != 0);
    out->used += length;
}


/* ---- The lock, the scratch space and the sequence ----------------------- */

/* The thread id of the report writer, 0 when none: a lock that a signal
   handler can try without blocking for good, and that tells a thread
   which already holds it (a crash while writing a report) from another.  */
static atomic_int report_owner;

/* Under the lock: static rather than on the stack, which may be a small
   alternate signal stack.  */
static struct {
    struct output out;
    char program[SAMPLER_PATH_MAX];
    char path[SAMPLER_PATH_MAX];
    char temporary[SAMPLER_PATH_MAX];
    char claimed[SAMPLER_PATH_MAX];
    char previous[SAMPLER_PATH_MAX];   /* the sequence's last report file */
    struct utsname host;
} scratch;

/* Under the lock: whether the failure of the report being written goes
   unsaid (an interim report failing again, as the last one did).  */
static bool quiet_failure;

/* The `parent' record: the pid of the process this one was forked from, 0
   if it was not.  */
static long parent_pid;

/* Under the lock: where this process image is in its sequence of reports.  */
static struct {
    bool final;                  /* an exit, exec or signal report is written */
    bool ended_by_signal;        /* ... for a signal: nothing follows */
    bool exec_written;           /* the exec report is written */
    unsigned long long interims; /* interim reports written */
    unsigned long long resets;   /* sampler_reset calls (and failed execs) */
    bool interim_failed;         /* the last interim report could not be written */
    bool has_previous;           /* scratch.previous is the sequence's file */
    dev_t previous_device;
    ino_t previous_inode;
    bool has_run_id;             /* run_id is drawn (at the first report) */
    unsigned char run_id[SAMPLER_RUN_ID_BYTES];
    unsigned long long dropped;  /* a field report's drops, carried on */
} sequence;

/* Under the lock: the `dropped' record of the field report being written.  */
static unsigned long long report_dropped;

/* Signal handlers waiting for the lock.  A thread that writes interim
   reports back to back would otherwise take the lock again before a
   handler's next try, and the final report would be lost.  */
static atomic_int signal_waiters;

/* Takes the lock; false when the calling thread holds it already, or, from
   a signal handler, when another thread keeps it too long.  Outside a
   signal handler, the lock goes to waiting handlers first.  */
static bool acquire_lock(bool from_signal)
{
    const struct timespec pause = { 0, 1000000 };
    int self = (int)gettid();
    bool acquired = false;

    if (from_signal)
        atomic_fetch_add_explicit(&signal_waiters, 1, memory_order_acq_rel);
    for (unsigned waited = 0;; waited++) {
        int owner = 0;
        if (!from_signal && atomic_load_explicit(&signal_waiters, memory_order_acquire) > 0)
            owner = atomic_load_explicit(&report_owner, memory_order_relaxed);
        else if (atomic_compare_exchange_strong_explicit(&report_owner, &owner, self,
                                                         memory_order_acquire,
                                                         memory_order_relaxed)) {
            acquired = true;
            break;
        }
        if (owner == self || (from_signal && waited >= SIGNAL_LOCK_WAIT_MS))
            break;
        nanosleep(&pause, NULL);
    }
    if (from_signal)
        atomic_fetch_sub_explicit(&signal_waiters, 1, memory_order_acq_rel);
    return acquired;
}

static void release_lock(void)
{
    atomic_store_explicit(&report_owner, 0, memory_order_release);
}

/* The signal mask of the thread that took the lock with
   sampler_report_lock.  */
static __thread sigset_t lock_saved_mask __attribute__((tls_model("initial-exec")));

/* The terminating signals wait while the lock is held outside a report
   (a reset, a failed exec, an unloaded unit): their handler writes a
   report, and would find the lock taken by its own thread.  */
void sampler_report_lock(void)
{
    static const int terminating[] = { SAMPLER_TERMINATING_SIGNALS };
    int cancel_state;
    sigset_t blocked, saved_mask;

    sigemptyset(&blocked);
    for (size_t i = 0; i < sizeof terminating / sizeof terminating[0]; i++)
        sigaddset(&blocked, terminating[i]);
    pthread_sigmask(SIG_BLOCK, &blocked, &saved_mask);
    pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cancel_state);
    (void)acquire_lock(false);
    pthread_setcancelstate(cancel_state, NULL);
    lock_saved_mask = saved_mask;
}

void sampler_report_unlock(void)
{
    release_lock();
    pthread_sigmask(SIG_SETMASK, &lock_saved_mask, NULL);
}

/* ---- The report's text -------------------------------------------------- */

struct report_context {
    struct output *out;
    const char *program;
    bool first_unit;
    const char *object;   /* of the last unit written */
    unsigned long units;  /* written so far */
};

static void output_unit(const struct __sampler_unit *unit, const char *object,
                        void *data)
{
    struct report_context *context = data;
    struct output *out = context->out;

    /* Each unit belongs to the object named last: a new record when the
       object changes.  */
    if (context->first_unit || object != context->object) {
        output_text(out, "object\t");
        output_field(out, sampler_field_shown_path(object != NULL ? object : context->program));
        output_char(out, '\n');
        context->first_unit = false;
        context->object = object;
    }
    output_text(out, "unit\t");
    output_field(out, unit->signature);
    output_char(out, '\t');
    output_decimal(out, unit->n_sites);
    output_char(out, '\t');
    output_decimal(out, unit->n_counters);
    output_char(out, '\t');
    output_field(out, unit->source != NULL ? sampler_field_shown_path(unit->source) : "");
    output_char(out, '\n');
    context->units++;

    for (unsigned site = 0; site < unit->n_sites; site++) {
        unsigned first = unit->site_offsets[site];
        unsigned end = unit->site_offsets[site + 1];
        unsigned i = first;
        if (!sampler_field_site_sent(unit, site))
            continue;
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

/* loaded, base, start, end, name: what names the addresses an
   indirect-calls site saw.  */
static void output_loaded_object(const struct sampler_loaded_object *object, void *data)
{
    struct report_context *context = data;
    struct output *out = context->out;

    output_text(out, "loaded\t");
    output_decimal(out, object->base);
    output_char(out, '\t');
    output_decimal(out, object->start);
    output_char(out, '\t');
    output_decimal(out, object->end);
    output_char(out, '\t');
    output_field(out, sampler_field_shown_path(object->name != NULL ? object->name
                                                                    : context->program));
    output_char(out, '\n');
}

/* ---- Subpaths ------------------------------------------------------------

   Each thread's subpath hot-list (runtime/schemes/subpaths.c) follows the
   units: a `subpaths' record, then a `subpath' record per entry with a
   count, its blocks named by the unit's place among the report's unit
   records and the site's index.  */

static bool spell_block(unsigned long long block, unsigned long units,
                        unsigned long *unit, unsigned *site)
{
    return sampler_units_find_counter((const unsigned long long *)(uintptr_t)block,
                                      unit, site)
           && *unit < units;
}

static void output_subpath_list(const struct sampler_subpath_list *list, void *data)
{
    struct report_context *context = data;
    struct output *out = context->out;
    struct sampler_subpath_figures figures;
    /* Under the report lock: static, not on a signal stack.  */
    static unsigned long units[1 << SAMPLER_SUBPATH_MAX_LOG2];
    static unsigned sites[1 << SAMPLER_SUBPATH_MAX_LOG2];

    sampler_subpath_list_figures(list, &figures);
    output_text(out, "subpaths\t");
    output_decimal(out, 1ULL << figures.max_log2);
    output_text(out, figures.all_lengths ? "\tall\t" : "\tosp\t");
    output_decimal(out, figures.offered);
    output_char(out, '\t');
    output_decimal(out, figures.tau_log2);
    output_char(out, '\t');
    output_decimal(out, figures.capacity);
    /* Dropped: hash collisions, and the counts of entries whose blocks
       cannot be named (a unit registered after the report's units).  */
    unsigned long long dropped = figures.dropped;
    for (unsigned long i = 0; i < figures.capacity; i++) {
        unsigned long long count;
        unsigned long length;
        const unsigned long long *blocks = sampler_subpath_entry(list, i, &count, &length);
        for (unsigned long b = 0; blocks != NULL && b < length; b++)
            if (!spell_block(blocks[b], context->units, &units[b], &sites[b])) {
                dropped += count;
                break;
            }
    }
    output_char(out, '\t');
    output_decimal(out, dropped);
    output_char(out, '\n');
    for (unsigned long i = 0; i < figures.capacity; i++) {
        unsigned long long count;
        unsigned long length;
        const unsigned long long *blocks = sampler_subpath_entry(list, i, &count, &length);
        bool whole = blocks != NULL;
        for (unsigned long b = 0; whole && b < length; b++)
            whole = spell_block(blocks[b], context->units, &units[b], &sites[b]);
        if (!whole)
            continue;
        output_text(out, "subpath\t");
        output_decimal(out, count);
        for (unsigned long b = 0; b < length; b++) {
            output_char(out, '\t');
            output_decimal(out, units[b]);
            output_char(out, ':');
            output_decimal(out, sites[b]);
        }
        output_char(out, '\n');
    }
}

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

/* The records of docs/remote.md: the sequence's run id in every report;
   the release a program carries; in a field report, the schemes left out
   and the reports dropped from the store before it.  */
static void output_release_records(struct output *out)
{
    char run_id[2 * SAMPLER_RUN_ID_BYTES + 1];
    const struct sampler_release *release = sampler_release_carried();

    if (!sequence.has_run_id) {
        sampler_run_id_new(sequence.run_id);
        sequence.has_run_id = true;
    }
    sampler_run_id_format(sequence.run_id, run_id);
    output_text(out, "run-id\t");
    output_text(out, run_id);
    output_char(out, '\n');
    if (release != NULL) {
        output_text(out, "release\t");
        output_field(out, release->product);
        output_char(out, '\t');
        output_field(out, release->version);
        output_char(out, '\n');
    }
    if (!sampler_field_active())
        return;
    bool first = true;
    for (unsigned id = 0; id < SAMPLER_N_SCHEMES; id++) {
        if (sampler_field_scheme_sent(id))
            continue;
        output_text(out, first ? "withheld\t" : ",");
        output_text(out, sampler_scheme_name(id));
        first = false;
    }
    if (!first)
        output_char(out, '\n');
    if (report_dropped > 0) {
        output_text(out, "dropped\t");
        output_decimal(out, report_dropped);
        output_char(out, '\n');
    }
}

static void output_report(struct output *out, const struct sampler_config *config,
                          enum sampler_ending ending, int value)
{
    struct report_context context = { .out = out, .program = program_path(),
                                      .first_unit = true };

    output_text(out, "sampler-report\t" REPORT_FORMAT_VERSION "\nprogram\t");
    output_field(out, sampler_field_shown_path(context.program));
    output_text(out, "\npid\t");
    output_decimal(out, (unsigned long long)getpid());
    output_text(out, "\nsparsity\t");
    output_decimal(out, (unsigned long long)sampler_current_sparsity());
    if (sampler_countdown_unit() != 1) {
        output_text(out, "\ncountdown-unit\t");
        output_decimal(out, (unsigned long long)sampler_countdown_unit());
    }
    output_text(out, "\nseed\t");
    output_decimal(out, config->seed);
    output_char(out, '\n');
    output_release_records(out);
    if (parent_pid > 0) {
        output_text(out, "parent\t");
        output_decimal(out, (unsigned long long)parent_pid);
        output_char(out, '\n');
    }
    if (sequence.resets > 0) {
        output_text(out, "reset\t");
        output_decimal(out, sequence.resets);
        output_char(out, '\n');
    }
    switch (ending) {
    case SAMPLER_INTERIM:
        output_text(out, "interim\t");
        output_decimal(out, sequence.interims + 1);
        break;
    case SAMPLER_EXIT_STATUS:
        output_text(out, "exit\tstatus\t");
        output_decimal(out, (unsigned long long)value);
        break;
    case SAMPLER_EXIT_SIGNAL:
        output_text(out, "exit\tsignal\t");
        output_decimal(out, (unsigned long long)value);
        break;
    case SAMPLER_EXIT_EXEC:
        output_text(out, "exit\texec");
        break;
    case SAMPLER_EXIT_UNDERSCORE:
        output_text(out, "exit\t_exit\t");
        output_decimal(out, (unsigned long long)value);
        break;
    case SAMPLER_EXIT_QUICK:
        output_text(out, "exit\tquick_exit\t");
        output_decimal(out, (unsigned long long)value);
        break;
    }
    output_char(out, '\n');
    if (atomic_load_explicit(&sampler_indirect_targets_seen, memory_order_relaxed)
        && sampler_field_scheme_sent(SAMPLER_SCHEME_INDIRECT_CALLS))
        sampler_loaded_objects_visit(output_loaded_object, &context);
    sampler_units_visit(output_unit, &context);
    if (sampler_field_scheme_sent(SAMPLER_SCHEME_SUBPATHS))
        sampler_subpath_lists_visit(output_subpath_list, &context);
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
        if (*c != 'p' && *c != 'h' && *c != 't' && *c != '%')
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


long sampler_report_expand(const char *pattern,
                           const struct sampler_name_values *values,
                           char *path, size_t size)
{
    char pid_digits[21], time_digits[21];
    const char *pid_text = format_decimal((unsigned long long)values->pid, pid_digits);
    const char *time_text = format_decimal((unsigned long long)values->time, time_digits);
    size_t length = 0;

    if (size == 0)
        return -1;
    path[0] = '\0';
    for (const char *c = pattern; *c != '\0'; c++) {
        char one[2] = { *c, '\0' };
        const char *piece = one;
        if (c[0] == '%' && c[1] != '\0') {
            c++;
            if (*c == 'p')
                piece = pid_text;
            else if (*c == 't')
                piece = time_text;
            else if (*c == 'h')
                piece = NULL;
            else
                one[0] = *c;   /* %% */
        }
        if (piece != NULL) {
            if (!append(path, size, &length, piece))
                return -1;
            continue;
        }
        /* The host name, which must not add directories or climb out of
           one: '/' becomes '_', and so does every dot of a name that is
           only dots ("." or ".."); an empty name is "_".  */
        const char *host = values->host;
        bool only_dots = strspn(host, ".") == strlen(host);
        if (host[0] == '\0' && !append(path, size, &length, "_"))
            return -1;
        for (const char *h = host; *h != '\0'; h++) {
            char byte[2] = { *h == '/' || only_dots ? '_' : *h, '\0' };
            if (!append(path, size, &length, byte))
                return -1;
        }
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

/* Whether what is at path is a leftover temporary file of this user's
   (same pid, an earlier boot or another container): a regular file that
   the process's effective user owns, not a link.  */
static bool is_own_leftover(const char *path)
{
    struct stat status;

    return lstat(path, &status) == 0 && S_ISREG(status.st_mode)
           && status.st_uid == geteuid();
}

/* Creates the temporary file, and the directories it needs.  O_EXCL and
   O_NOFOLLOW: nobody else's file or link is written through, even in a
   shared directory; a leftover of ours is removed first, and anything
   else there (another user's file, a link, a directory) is left alone:
   root, whom a sticky directory does not stop, must not remove another
   user's file.  */
static int create_temporary(char *temporary)
{
    const int flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY;
    /* A field report is the user's private business until it is sent.  */
    const mode_t mode = sampler_field_active() ? 0600 : 0666;
    int fd = open(temporary, flags, mode);

    if (fd < 0 && errno == ENOENT && make_parent_directories(temporary) == 0)
        fd = open(temporary, flags, mode);
    if (fd < 0 && errno == EEXIST) {
        if (!is_own_leftover(temporary) || unlink(temporary) != 0) {
            errno = EEXIST;
            return -1;
        }
        fd = open(temporary, flags, mode);
    }
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


static bool is_previous(const struct stat *status)
{
    return status->st_dev == sequence.previous_device
           && status->st_ino == sequence.previous_inode;
}

/* Puts the finished temporary file in the place of the sequence's previous
   report, which it contains, if that is still the file this process wrote
   (the report stays where it is and may be moved or removed by anyone; a
   new file under the same name is somebody else's).  RENAME_EXCHANGE swaps
   the two atomically, so that the name always holds a complete report, and
   swaps back if the file it got was not ours.  Returns true when the report
   took the previous one's place; otherwise the caller gives it a new name,
   and then removes the previous report if *remove_previous says so (no
   exchange here: an old kernel, or a file system without it).  */
static bool replace_previous(const char *temporary, bool *remove_previous)
{
    struct stat status;

    *remove_previous = false;
    if (renameat2(AT_FDCWD, temporary, AT_FDCWD, scratch.previous, RENAME_EXCHANGE) == 0) {
        if (lstat(temporary, &status) == 0 && is_previous(&status)) {
            unlink(temporary);
            return true;
        }
        /* Not ours: back it goes.  Should that fail, the report stays in
           the name and the other file under the temporary one, not lost.  */
        return renameat2(AT_FDCWD, temporary, AT_FDCWD, scratch.previous,
                         RENAME_EXCHANGE) != 0;
    }
    *remove_previous = errno != ENOENT;
    return false;
}

/* ---- Destinations ------------------------------------------------------- */

/* The warning for a failed report: why, from error, or reason if given.  */
static void warn_cannot_write(const char *destination, bool quote, int error,
                              const char *reason)
{
    if (quiet_failure)
        return;
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
    struct timespec now = { 0, 0 };
    struct stat written;
    char digits[21];
    size_t length;

    if (uname(&scratch.host) != 0)
        memcpy(scratch.host.nodename, "localhost", sizeof "localhost");
    clock_gettime(CLOCK_REALTIME, &now);
    const struct sampler_name_values values = {
        .pid = (long)getpid(), .host = scratch.host.nodename, .time = now.tv_sec,
    };
    if (sampler_report_expand(config->report_file, &values, scratch.path,
                              sizeof scratch.path) < 0) {
        warn_cannot_write(config->report_file, true, ENAMETOOLONG, NULL);
        return -1;
    }
    length = 0;
    scratch.temporary[0] = '\0';
    if (!append(scratch.temporary, sizeof scratch.temporary, &length, scratch.path)
        || !append(scratch.temporary, sizeof scratch.temporary, &length, ".tmp.")
        || !append(scratch.temporary, sizeof scratch.temporary, &length,
                   format_decimal((unsigned long long)values.pid, digits))) {
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
    if (out->error == 0 && fstat(out->fd, &written) != 0)
        out->error = errno;
    /* close reports late errors of some file systems (NFS quotas).  */
    if (close(out->fd) != 0 && out->error == 0 && errno != EINTR)
        out->error = errno;

    bool remove_previous = false;
    const char *final_name = scratch.previous;
    if (out->error == 0
        && !(sequence.has_previous && replace_previous(scratch.temporary, &remove_previous))) {
        if (claim_name(scratch.temporary, scratch.path) == 0)
            final_name = scratch.claimed;
        else
            out->error = errno;
    }
    if (out->error != 0) {
        unlink(scratch.temporary);
        warn_cannot_write(scratch.path, true, out->error, NULL);
        return -1;
    }
    if (remove_previous) {
        struct stat status;
        if (lstat(scratch.previous, &status) == 0 && is_previous(&status))
            unlink(scratch.previous);
    }
    if (final_name != scratch.previous) {
        length = 0;
        append(scratch.previous, sizeof scratch.previous, &length, final_name);
    }
    sequence.has_previous = true;
    sequence.previous_device = written.st_dev;
    sequence.previous_inode = written.st_ino;
    return 0;
}

/* Writing to a closed pipe or past the file size limit raises SIGPIPE or
   SIGXFSZ, whose default is to kill the process: the program would die of
   its report.  They are blocked while writing, and one raised by our own
   write is taken back before they are unblocked.  */
struct quiet_signals {
    sigset_t previous_mask;
    sigset_t pending_before;
};

static void quiet_signals_begin(struct quiet_signals *quiet, bool block_fatal)
{
    sigset_t blocked;

    sigemptyset(&blocked);
    sigaddset(&blocked, SIGPIPE);
    sigaddset(&blocked, SIGXFSZ);
    /* A fatal signal sent while an interim or exit report is written waits
       for it (and then has a report of its own); one raised by the writing
       itself, a fault, kills the process at once, as the kernel does for
       blocked faults.  (In a fatal-signal handler, signals.c deals with a
       fault in the report.)  */
    /* A terminating signal waits for the report being written, and then
       has one of its own (see signals.c).  */
    static const int terminating[] = { SAMPLER_TERMINATING_SIGNALS };
    for (size_t i = 0; i < sizeof terminating / sizeof terminating[0]; i++)
        sigaddset(&blocked, terminating[i]);
    if (block_fatal) {
        sigaddset(&blocked, SIGSEGV);
        sigaddset(&blocked, SIGBUS);
        sigaddset(&blocked, SIGFPE);
        sigaddset(&blocked, SIGILL);
        sigaddset(&blocked, SIGABRT);
        sigaddset(&blocked, SIGTRAP);
    }
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


/* Writes the report when it is due; the caller holds the lock.  */
static int write_due_report(const struct sampler_config *config,
                            enum sampler_ending ending, int value)
{
    /* Nothing follows the report of a fatal signal, and an interim report
       would only repeat a final one.  */
    if (sequence.ended_by_signal || (ending == SAMPLER_INTERIM && sequence.final))
        return -1;
    /* Interim reports that keep failing (a full disk, every
       SAMPLER_INTERVAL seconds) warn once, until one is written.  */
    quiet_failure = ending == SAMPLER_INTERIM && sequence.interim_failed;
    /* A field report carries the drops of its sequence's earlier reports,
       which it replaces, and those waiting in the store.  */
    struct sampler_store_session store = { .lock_fd = -1, .waiting = 0 };
    bool field = sampler_field_active() && config->report_fd < 0;
    if (field)
        sampler_store_begin(&store);
    report_dropped = sequence.dropped + store.waiting;
    int result = config->report_fd >= 0 ? write_to_descriptor(config, ending, value)
                                        : write_to_file(config, ending, value);
    if (field) {
        if (result == 0)
            sequence.dropped = report_dropped;
        sampler_store_end(&store, result == 0, scratch.previous);
    }
    quiet_failure = false;
    if (ending == SAMPLER_INTERIM) {
        sequence.interims += result == 0;
        sequence.interim_failed = result != 0;
    } else {
        sequence.final = true;
        sequence.ended_by_signal = ending == SAMPLER_EXIT_SIGNAL;
        sequence.exec_written = ending == SAMPLER_EXIT_EXEC && result == 0;
    }
    return result;
}

static int write_report(enum sampler_ending ending, int value, bool from_signal)
{
    const struct sampler_config *config = sampler_config_if_ready();
    struct quiet_signals quiet;
    int cancel_state = PTHREAD_CANCEL_ENABLE;
    int result = -1;

    /* A process made by vfork or clone shares its parent's memory: its
       counts are the parent's to report.  */
    if (config == NULL || config->sparsity == 0 || getpid() != sampler_process_pid())
        return -1;
    int saved_errno = errno;
    /* Objects loaded since (dlopen of a library without units) name
       targets too; from a signal handler, the list as it was.  */
    if (!from_signal
        && atomic_load_explicit(&sampler_indirect_targets_seen, memory_order_relaxed))
        sampler_loaded_objects_refresh();
    /* The writes are cancellation points: a thread cancelled mid-report
       would leave the lock held.  (Not from a signal handler, where this
       is not async-signal-safe and a crashing thread is not cancelled.)  */
    if (!from_signal)
        pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cancel_state);
    /* The signals wait from before the lock is taken until after it is
       released: a terminating signal's handler on this thread would find
       the lock held by its own thread, and give up its report.  */
    quiet_signals_begin(&quiet, !from_signal);
    if (acquire_lock(from_signal)) {
        result = write_due_report(config, ending, value);
        release_lock();
    }
    quiet_signals_end(&quiet);
    if (!from_signal)
        pthread_setcancelstate(cancel_state, NULL);
    errno = saved_errno;
    return result;
}

int sampler_report_write(enum sampler_ending ending, int value)
{
    return write_report(ending, value, false);
}

int sampler_report_write_from_signal(enum sampler_ending ending, int value)
{
    return write_report(ending, value, true);
}

SAMPLER_EXPORT int sampler_dump(void)
{
    return sampler_report_write(SAMPLER_INTERIM, 0);
}

SAMPLER_EXPORT int sampler_write_report(void)
{
    return sampler_dump();
}

/* Under the lock: later reports count from zero and start a new file.  */
static void start_new_sequence(void)
{
    sampler_units_zero();
    sampler_subpaths_zero();
    sequence.resets++;
    sequence.has_previous = false;
    sequence.has_run_id = false;
    sequence.dropped = 0;
    sequence.final = false;
    sequence.exec_written = false;
}

void sampler_report_reset(void)
{
    sampler_report_lock();
    start_new_sequence();
    sampler_report_unlock();
}

SAMPLER_EXPORT int sampler_reset(void)
{
    if (sampler_config_get()->sparsity == 0)
        return -1;
    int saved_errno = errno;
    sampler_report_reset();
    errno = saved_errno;
    return 0;
}

/* ---- Exec ----------------------------------------------------------------- */

bool sampler_report_before_exec(void)
{
    return sampler_report_write(SAMPLER_EXIT_EXEC, 0) == 0;
}

/* The image goes on: the exec report holds its counts so far, so they
   start again from zero (counts made by other threads between the report
   and now are lost); if the report was not written, the counts stay for
   the next one.  */
void sampler_report_after_failed_exec(void)
{
    sampler_report_lock();
    if (sequence.exec_written)
        start_new_sequence();
    sequence.final = false;
    sampler_report_unlock();
}

/* ---- At exit, and fork ---------------------------------------------------- */

static void report_at_exit(int status, void *unused)
{
    (void)unused;
    /* The status as the parent sees it (WEXITSTATUS).  */
    if (sampler_report_write(SAMPLER_EXIT_STATUS, status & 0xff) == 0)
        sampler_field_after_exit_report();
}

void sampler_report_fork_prepare(void)
{
    sampler_report_lock();
}

void sampler_report_fork_parent(void)
{
    release_lock();
}

/* The child's reports are its own: a sequence of its own, from zero (the
   caller zeroes the counters), which names PARENT, the process it was
   forked from (the pid the parent had noted for itself: getppid() would
   name a reaper if the parent had exited already).  */
void sampler_report_fork_child(long parent)
{
    memset(&sequence, 0, sizeof sequence);
    parent_pid = parent;
    release_lock();
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
    if (dladdr1(&report_owner, &info, (void **)&map, RTLD_DL_LINKMAP) == 0
        || map == NULL || map->l_name == NULL || map->l_name[0] == '\0')
        return;   /* the main program: never unloaded */
    if (dlopen(map->l_name, RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE) == NULL
        && dlerror != NULL)
        (void)dlerror();   /* leave no error for the program to find */
}


void sampler_report_arm(void)
{
    keep_runtime_loaded();
    (void)on_exit(report_at_exit, NULL);
    (void)at_quick_exit(sampler_report_at_quick_exit);
}
