/* Report files: their names, and putting them in place atomically.

   What: a report goes to the file SAMPLER_FILE names (%p, %h and %t
   expanded), written under a temporary name in the same directory and
   then given its final name, so that a report is complete under its
   final name or not there at all.  The reports of one process image form
   a sequence: each holds all the counts since the image started (or since
   the last sampler_reset), so the first takes a name no other file has
   (link() never replaces a file) and each later one takes the place of
   its predecessor, which it contains -- but only while that file is
   still the one this process wrote.  A directory of reports thus holds
   one file per process image (and per reset), whose counts add up with
   no double counting.

   Why so careful: reports are read by tools while programs run, several
   runs share a directory, and a directory may be shared with other users
   (docs/security.md): nobody else's file or link is written through or
   removed.

   How to debug: test-report's name and replacement cases; strace -f
   shows the link, renameat2 and unlink calls.  Everything here runs
   under the report lock, possibly in a signal handler: system calls and
   static buffers only.  */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>      /* rename and renameat2 only: no streams */
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "field.h"
#include "report-writer.h"

/* Suffixes tried after the name itself: .1 up to this.  */
#define MAX_NAME_SUFFIX 9999

/* Under the lock: static rather than on the stack, which may be a small
   alternate signal stack.  */
static struct {
    char path[SAMPLER_PATH_MAX];
    char temporary[SAMPLER_PATH_MAX];
    char claimed[SAMPLER_PATH_MAX];
    char previous[SAMPLER_PATH_MAX];   /* the sequence's last report file */
    struct utsname host;
} scratch;

/* Under the lock: the sequence's last report file, which the next one
   replaces while it is still there.  */
static struct {
    bool has_previous;           /* scratch.previous is the sequence's file */
    dev_t previous_device;
    ino_t previous_inode;
} sequence;

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


long sampler_report_expand(const char *pattern,
                           const struct sampler_name_values *values,
                           char *path, size_t size)
{
    char pid_digits[21], time_digits[21];
    const char *pid_text = sampler_format_decimal((unsigned long long)values->pid, pid_digits);
    const char *time_text = sampler_format_decimal((unsigned long long)values->time, time_digits);
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
            if (!sampler_append(path, size, &length, piece))
                return -1;
            continue;
        }
        /* The host name, which must not add directories or climb out of
           one: '/' becomes '_', and so does every dot of a name that is
           only dots ("." or ".."); an empty name is "_".  */
        const char *host = values->host;
        bool only_dots = strspn(host, ".") == strlen(host);
        if (host[0] == '\0' && !sampler_append(path, size, &length, "_"))
            return -1;
        for (const char *h = host; *h != '\0'; h++) {
            char byte[2] = { *h == '/' || only_dots ? '_' : *h, '\0' };
            if (!sampler_append(path, size, &length, byte))
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
        if (!sampler_append(scratch.claimed, sizeof scratch.claimed, &length, path)
            || (suffix > 0
                && (!sampler_append(scratch.claimed, sizeof scratch.claimed, &length, ".")
                    || !sampler_append(scratch.claimed, sizeof scratch.claimed, &length,
                                       sampler_format_decimal(suffix, digits))))) {
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

int sampler_report_to_file(struct sampler_output *out, const struct sampler_config *config,
                           const struct sampler_report_header *header)
{
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
        sampler_report_warn_cannot_write(config->report_file, true, ENAMETOOLONG, NULL);
        return -1;
    }
    length = 0;
    scratch.temporary[0] = '\0';
    if (!sampler_append(scratch.temporary, sizeof scratch.temporary, &length, scratch.path)
        || !sampler_append(scratch.temporary, sizeof scratch.temporary, &length, ".tmp.")
        || !sampler_append(scratch.temporary, sizeof scratch.temporary, &length,
                           sampler_format_decimal((unsigned long long)values.pid,
                                                  digits))) {
        sampler_report_warn_cannot_write(scratch.path, true, ENAMETOOLONG, NULL);
        return -1;
    }

    int fd = create_temporary(scratch.temporary);
    if (fd < 0) {
        sampler_report_warn_cannot_write(scratch.path, true, errno, NULL);
        return -1;
    }
    sampler_output_start(out, fd);
    sampler_report_records(out, config, header);
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
        sampler_report_warn_cannot_write(scratch.path, true, out->error, NULL);
        return -1;
    }
    if (remove_previous) {
        struct stat status;
        if (lstat(scratch.previous, &status) == 0 && is_previous(&status))
            unlink(scratch.previous);
    }
    if (final_name != scratch.previous) {
        length = 0;
        sampler_append(scratch.previous, sizeof scratch.previous, &length, final_name);
    }
    sequence.has_previous = true;
    sequence.previous_device = written.st_dev;
    sequence.previous_inode = written.st_ino;
    return 0;
}

void sampler_report_file_forget_previous(void)
{
    sequence.has_previous = false;
}

const char *sampler_report_file_previous(void)
{
    return scratch.previous;
}
