/* Reports: the counters of every registered unit, in the text format of
   runtime/report-format.md, written when the process image ends (exit,
   _exit and quick_exit (see exit.c), a fatal or terminating signal, exec),
   every SAMPLER_INTERVAL seconds, and on demand.  This file decides when a
   report is due and where it goes; report-writer.h lists the other parts.

   A report goes to SAMPLER_REPORT_FD, or to a file named by SAMPLER_FILE
   (files.c).  The reports of one process image form a sequence: each
   holds all the counts since the image started or since the last
   sampler_reset; nothing follows a final report (exit, exec, signal) but
   after a failed exec.

   Writing uses only system calls and static buffers: no stdio stream of
   the program is touched, no memory is allocated and no lock of the C
   library or the dynamic loader is taken, so that the same code writes the
   report of a run that dies of a signal, from the signal handler.  */
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sampler.h"
#include "field.h"
#include "report-writer.h"
#include "run-id.h"
#include "schemes.h"

/* Weak, so that a fully static program does not drag in the dynamic
   loader's functions (and the linker's warning about them); they are only
   needed when the runtime lives in a shared object.  */
#pragma weak dladdr1
#pragma weak dlopen
#pragma weak dlerror

/* Under the lock: the output of the report being written, static rather
   than on the stack, which may be a small alternate signal stack.  */
static struct sampler_output report_output;

/* Under the lock: whether the failure of the report being written goes
   unsaid (an interim report failing again, as the last one did).  */
static bool quiet_failure;

/* The `parent' record: the pid of the process this one was forked from, 0
   if it was not.  */
static long parent_pid;

/* Under the lock: where this process image is in its sequence of reports
   (files.c keeps the sequence's last file).  */
static struct {
    bool final;                  /* an exit, exec or signal report is written */
    bool ended_by_signal;        /* ... for a signal: nothing follows */
    bool exec_written;           /* the exec report is written */
    unsigned long long interims; /* interim reports written */
    unsigned long long resets;   /* sampler_reset calls (and failed execs) */
    bool interim_failed;         /* the last interim report could not be written */
    bool has_run_id;             /* run_id is drawn (at the first report) */
    unsigned char run_id[SAMPLER_RUN_ID_BYTES];
    unsigned long long dropped;  /* a field report's drops, carried on */
} sequence;

/* ---- Destinations ------------------------------------------------------- */

void sampler_report_warn_cannot_write(const char *destination, bool quote, int error,
                                      const char *reason)
{
    if (quiet_failure)
        return;
    char message[1024];
    size_t length = 0;
    const char *description = reason != NULL ? reason : strerrordesc_np(error);

    message[0] = '\0';
    sampler_append(message, sizeof message, &length, "sampler: cannot write report to ");
    if (quote) {
        /* At most 200 bytes, so that the line always fits.  */
        char quoted[SAMPLER_QUOTED_SIZE(200)];
        sampler_quote(destination, 200, quoted);
        sampler_append(message, sizeof message, &length, "'");
        sampler_append(message, sizeof message, &length, quoted);
        sampler_append(message, sizeof message, &length, "'");
    } else {
        sampler_append(message, sizeof message, &length, destination);
    }
    sampler_append(message, sizeof message, &length, ": ");
    if (description != NULL) {
        sampler_append(message, sizeof message, &length, description);
    } else {
        char digits[21];
        sampler_append(message, sizeof message, &length, "error ");
        sampler_append(message, sizeof message, &length,
                       sampler_format_decimal((unsigned long long)error, digits));
    }
    sampler_warn(message);
}

static void warn_cannot_write_descriptor(int fd, int error, const char *reason)
{
    char digits[21];
    char destination[64] = "file descriptor ";
    size_t length = strlen(destination);

    sampler_append(destination, sizeof destination, &length,
                   sampler_format_decimal((unsigned long long)fd, digits));
    sampler_report_warn_cannot_write(destination, false, error, reason);
}

static int write_to_descriptor(const struct sampler_config *config,
                               const struct sampler_report_header *header)
{
    struct sampler_output *out = &report_output;
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
    sampler_output_start(out, config->report_fd);
    sampler_report_records(out, config, header);
    if (out->error == 0)
        return 0;
    warn_cannot_write_descriptor(config->report_fd, out->error, NULL);
    return -1;
}

/* ---- When a report is due ----------------------------------------------- */

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
    if (!sequence.has_run_id) {
        sampler_run_id_new(sequence.run_id);
        sequence.has_run_id = true;
    }
    /* A field report carries the drops of its sequence's earlier reports,
       which it replaces, and those waiting in the store.  */
    struct sampler_store_session store = { .lock_fd = -1, .waiting = 0 };
    bool field = sampler_field_active() && config->report_fd < 0;
    if (field)
        sampler_store_begin(&store);
    const struct sampler_report_header header = {
        .ending = ending, .value = value, .interim = sequence.interims + 1,
        .resets = sequence.resets, .parent = parent_pid, .run_id = sequence.run_id,
        .dropped = sequence.dropped + store.waiting,
    };
    int result = config->report_fd >= 0 ? write_to_descriptor(config, &header)
                                        : sampler_report_to_file(&report_output, config,
                                                                 &header);
    if (field) {
        if (result == 0)
            sequence.dropped = header.dropped;
        sampler_store_end(&store, result == 0, sampler_report_file_previous());
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
    struct sampler_quiet_signals quiet;
    int cancel_state = PTHREAD_CANCEL_ENABLE;
    int result = -1;

    /* A process made by vfork or clone shares its parent's memory: its
       counts are the parent's to report.  */
    if (config == NULL || config->sparsity == 0 || getpid() != sampler_process_pid())
        return -1;
    int saved_errno = errno;
    /* What the schemes' records need that takes locks; from a signal
       handler, they write what they have.  */
    if (!from_signal)
        sampler_schemes_before_report();
    /* The writes are cancellation points: a thread cancelled mid-report
       would leave the lock held.  (Not from a signal handler, where this
       is not async-signal-safe and a crashing thread is not cancelled.)  */
    if (!from_signal)
        pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cancel_state);
    /* The signals wait from before the lock is taken until after it is
       released: a terminating signal's handler on this thread would find
       the lock held by its own thread, and give up its report.  */
    sampler_quiet_signals_begin(&quiet, !from_signal);
    if (sampler_report_acquire(from_signal)) {
        result = write_due_report(config, ending, value);
        sampler_report_release();
    }
    sampler_quiet_signals_end(&quiet);
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
    sampler_schemes_reset();
    sequence.resets++;
    sampler_report_file_forget_previous();
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
    sampler_report_release();
}

/* The child's reports are its own: a sequence of its own, from zero (the
   caller zeroes the counters), which names PARENT, the process it was
   forked from (the pid the parent had noted for itself: getppid() would
   name a reaper if the parent had exited already).  */
void sampler_report_fork_child(long parent)
{
    memset(&sequence, 0, sizeof sequence);
    sampler_report_file_forget_previous();
    parent_pid = parent;
    sampler_report_release();
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
    if (dladdr1(&report_output, &info, (void **)&map, RTLD_DL_LINKMAP) == 0
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
