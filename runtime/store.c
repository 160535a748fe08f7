/* The report store of a field run (docs/remote.md): its bound, and the
   count of the reports dropped to keep it.

   STORE/pending/   the reports not yet acknowledged by the collector
   STORE/dropped    how many reports were dropped since the last report
                    written (decimal; absent: none)
   STORE/lock       flock()ed while a report is written and the bound kept

   A report dropped for the bound adds one, plus the drops it carried
   itself, to the count; the next report written carries the count in a
   `dropped' record and clears it.  So the reports that reach the
   collector account for every report written: those received, plus the
   sum of their `dropped' records.

   Reports are written from signal handlers (a crash), so everything here
   uses system calls and static buffers only, under the report lock.  */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>      /* rename only: no streams */
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "field.h"

/* A temporary report file older than this is the leftover of a writer
   that died: no report takes this long to write.  */
#define STALE_TEMPORARY_SECONDS 600
/* How long a writer waits for another's store lock, in milliseconds;
   after that it writes its report without the count and the bound (the
   next writer keeps them).  */
#define LOCK_WAIT_MS 2000
/* A report's header, where a `dropped' record is, fits in this.  */
#define HEADER_BYTES 4096

/* Under the report lock.  */
static struct {
    char path[SAMPLER_PATH_MAX];
    char temporary[SAMPLER_PATH_MAX];
    char entries[32768];
    char header[HEADER_BYTES + 1];
} scratch;

/* STORE/NAME into scratch.path; false when it does not fit.  */
static bool store_path(char *out, const char *name)
{
    const char *store = sampler_field_store();
    size_t store_length = strlen(store), name_length = strlen(name);

    if (store_length + 1 + name_length + 1 > SAMPLER_PATH_MAX)
        return false;
    memcpy(out, store, store_length);
    out[store_length] = '/';
    memcpy(out + store_length + 1, name, name_length + 1);
    return true;
}

/* A decimal number at the start of TEXT, up to a byte that is not a digit
   (0 when there is none or it is too long).  */
static unsigned long long leading_decimal(const char *text)
{
    unsigned long long value = 0;

    for (unsigned i = 0; i < 19 && text[i] >= '0' && text[i] <= '9'; i++)
        value = value * 10 + (unsigned)(text[i] - '0');
    return value;
}

/* The count in the file DIRECTORY/NAME (DIRECTORY a descriptor, or
   AT_FDCWD and NAME a path), after PREFIX in its first HEADER_BYTES.  */
static unsigned long long read_count(int directory, const char *name, const char *prefix)
{
    int fd = openat(directory, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY);
    ssize_t length;

    if (fd < 0)
        return 0;
    do
        length = read(fd, scratch.header, HEADER_BYTES);
    while (length < 0 && errno == EINTR);
    close(fd);
    if (length <= 0)
        return 0;
    scratch.header[length] = '\0';
    if (prefix[0] == '\0')
        return leading_decimal(scratch.header);
    const char *found = strstr(scratch.header, prefix);
    return found != NULL ? leading_decimal(found + strlen(prefix)) : 0;
}

/* Writes the count of drops waiting for the next report (none: the file
   goes), replacing the file whole.  */
static void write_count(unsigned long long count)
{
    char digits[24];
    char *start = digits + sizeof digits - 1;

    if (!store_path(scratch.path, "dropped"))
        return;
    if (count == 0) {
        unlink(scratch.path);
        return;
    }
    *start = '\n';
    do {
        *--start = (char)('0' + count % 10);
        count /= 10;
    } while (count != 0);
    if (!store_path(scratch.temporary, "dropped.tmp"))
        return;
    int fd = open(scratch.temporary,
                  O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY, 0600);
    if (fd < 0)
        return;
    size_t length = (size_t)(digits + sizeof digits - start);
    bool whole = write(fd, start, length) == (ssize_t)length;
    if (close(fd) == 0 && whole)
        rename(scratch.temporary, scratch.path);
    else
        unlink(scratch.temporary);
}

void sampler_store_begin(struct sampler_store_session *session)
{
    const struct timespec pause = { 0, 1000000 };

    session->lock_fd = -1;
    session->waiting = 0;
    if (!store_path(scratch.path, "lock"))
        return;
    int fd = open(scratch.path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY, 0600);
    if (fd < 0)
        return;
    for (unsigned waited = 0; flock(fd, LOCK_EX | LOCK_NB) != 0; waited++) {
        if ((errno != EWOULDBLOCK && errno != EINTR) || waited >= LOCK_WAIT_MS) {
            close(fd);
            return;
        }
        nanosleep(&pause, NULL);
    }
    session->lock_fd = fd;
    if (store_path(scratch.path, "dropped"))
        session->waiting = read_count(AT_FDCWD, scratch.path, "");
}

/* ---- The bound ------------------------------------------------------------ */

struct scan {
    unsigned long count;
    unsigned long long bytes;
    bool have_oldest;
    struct timespec oldest_time;
    char oldest[256];
};

static bool older(const struct stat *status, const char *name, const struct scan *scan)
{
    if (!scan->have_oldest)
        return true;
    if (status->st_mtim.tv_sec != scan->oldest_time.tv_sec)
        return status->st_mtim.tv_sec < scan->oldest_time.tv_sec;
    if (status->st_mtim.tv_nsec != scan->oldest_time.tv_nsec)
        return status->st_mtim.tv_nsec < scan->oldest_time.tv_nsec;
    return strcmp(name, scan->oldest) < 0;
}

/* Counts the reports of the pending directory, finds the oldest but KEEP,
   and removes stale temporary files (a writer killed while writing).  */
static void scan_pending(int directory, const char *keep, struct scan *scan)
{
    struct timespec now = { 0, 0 };
    struct stat status;

    clock_gettime(CLOCK_REALTIME, &now);
    memset(scan, 0, sizeof *scan);
    if (lseek(directory, 0, SEEK_SET) != 0)
        return;
    for (;;) {
        ssize_t length = getdents64(directory, scratch.entries, sizeof scratch.entries);
        if (length <= 0)
            return;
        for (ssize_t at = 0; at < length;) {
            const struct dirent64 *entry = (const struct dirent64 *)(scratch.entries + at);
            at += entry->d_reclen;
            const char *name = entry->d_name;
            if (name[0] == '.'
                || fstatat(directory, name, &status, AT_SYMLINK_NOFOLLOW) != 0
                || !S_ISREG(status.st_mode))
                continue;
            if (strstr(name, ".tmp.") != NULL) {
                if (status.st_mtim.tv_sec + STALE_TEMPORARY_SECONDS < now.tv_sec)
                    unlinkat(directory, name, 0);
                continue;
            }
            scan->count++;
            scan->bytes += (unsigned long long)status.st_size;
            if (strcmp(name, keep) != 0 && strlen(name) < sizeof scan->oldest
                && older(&status, name, scan)) {
                scan->have_oldest = true;
                scan->oldest_time = status.st_mtim;
                strcpy(scan->oldest, name);
            }
        }
    }
}

/* Drops the oldest reports until the store is within its bound; returns
   how many reports that loses to the collector (each dropped one and the
   drops it carried).  */
static unsigned long long keep_bound(const char *keep)
{
    const struct sampler_release *release = sampler_release_carried();
    unsigned long long lost = 0;
    struct scan scan;

    if (release == NULL || !store_path(scratch.path, "pending"))
        return 0;
    int directory = open(scratch.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
    if (directory < 0)
        return 0;
    const char *slash = strrchr(keep, '/');
    keep = slash != NULL ? slash + 1 : keep;
    scan_pending(directory, keep, &scan);
    while ((scan.count > release->store_max_reports || scan.bytes > release->store_max_bytes)
           && scan.have_oldest) {
        unsigned long long carried = read_count(directory, scan.oldest, "\ndropped\t");
        if (unlinkat(directory, scan.oldest, 0) != 0)
            break;
        lost += 1 + carried;
        scan_pending(directory, keep, &scan);
    }
    close(directory);
    return lost;
}

void sampler_store_end(struct sampler_store_session *session, bool written, const char *keep)
{
    if (session->lock_fd < 0)
        return;
    unsigned long long waiting = written ? 0 : session->waiting;
    waiting += keep_bound(written ? keep : "");
    if (waiting != session->waiting)
        write_count(waiting);
    close(session->lock_fd);
    session->lock_fd = -1;
}
