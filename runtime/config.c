/* Configuration from the environment: SAMPLER_SPARSITY, SAMPLER_SEED,
   SAMPLER_FILE, SAMPLER_REPORT_FD and SAMPLER_INTERVAL.  Bad values never stop the program:
   they switch sampling off and leave one warning line per bad variable on
   stderr.

   A process the kernel marks secure (AT_SECURE: set-user-ID or
   set-group-ID, file capabilities, a security module's say) reads none of
   them, as the dynamic loader ignores LD_PRELOAD there: its environment
   comes from a user it does not trust, who must not choose where it
   writes.  Sampling stays off, silently (no warning either: the
   program's output is its own).  See docs/security.md.  */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "field.h"
#include "sampler-internal.h"

/* Strict unsigned decimal: digits only (no sign, no blanks), at most max.  */
static bool parse_decimal(const char *text, uint64_t max, uint64_t *value)
{
    uint64_t result = 0;

    if (*text == '\0')
        return false;
    for (const char *c = text; *c != '\0'; c++) {
        if (*c < '0' || *c > '9')
            return false;
        unsigned digit = (unsigned)(*c - '0');
        if (result > (max - digit) / 10)
            return false;
        result = result * 10 + digit;
    }
    *value = result;
    return true;
}

/* Appends one warning line to err (lines are separated by '\n').  */
static void report_bad_value(char *err, size_t errlen, size_t *used,
                             const char *name, const char *value,
                             const char *expected)
{
    char quoted[SAMPLER_QUOTED_SIZE(SAMPLER_QUOTE_MAX)];

    if (*used + 1 >= errlen)
        return;
    sampler_quote(value, SAMPLER_QUOTE_MAX, quoted);
    int written = snprintf(err + *used, errlen - *used,
                           "%ssampler: ignoring %s='%s': expected %s; "
                           "sampling is off",
                           *used > 0 ? "\n" : "", name, quoted, expected);
    if (written > 0)
        *used += (size_t)written < errlen - *used ? (size_t)written
                                                  : errlen - *used - 1;
}

/* The configuration of a run that does not sample.  */
static void set_off(struct sampler_config *config)
{
    config->sparsity = 0;
    config->seeded = false;
    config->seed = 0;
    config->report_fd = -1;
    config->report_fd_device = 0;
    config->report_fd_inode = 0;
    memcpy(config->report_file, SAMPLER_DEFAULT_REPORT_FILE,
           sizeof SAMPLER_DEFAULT_REPORT_FILE);
    config->interval = 0;
    config->subpath_memory = SAMPLER_SUBPATH_MEMORY_DEFAULT;
    config->subpath_max_log2 = 0;
    config->subpath_all_lengths = false;
    config->subpath_trace[0] = '\0';
}

/* A power of two from 2 to 2^SAMPLER_SUBPATH_MAX_LOG2, as its log2.  */
static bool parse_subpath_max(const char *text, unsigned *log2)
{
    uint64_t value;

    if (!parse_decimal(text, UINT64_C(1) << SAMPLER_SUBPATH_MAX_LOG2, &value))
        return false;
    for (unsigned n = 1; n <= SAMPLER_SUBPATH_MAX_LOG2; n++)
        if (value == UINT64_C(1) << n) {
            *log2 = n;
            return true;
        }
    return false;
}

int sampler_config_parse(const struct sampler_environment *env,
                         struct sampler_config *out, char *err, size_t errlen)
{
    struct sampler_config parsed;
    char expected[160];
    size_t used = 0;
    bool valid = true;
    uint64_t value;

    set_off(&parsed);
    if (errlen > 0)
        err[0] = '\0';

    /* Unset and empty both mean "not configured": off, a fresh seed, the
       default destination.  */
    if (env->sparsity != NULL && env->sparsity[0] != '\0') {
        if (parse_decimal(env->sparsity, SAMPLER_SPARSITY_MAX, &value)) {
            parsed.sparsity = (long)value;
        } else {
            valid = false;
            snprintf(expected, sizeof expected,
                     "0 (off) or a whole number from 1 to %ld",
                     SAMPLER_SPARSITY_MAX);
            report_bad_value(err, errlen, &used, "SAMPLER_SPARSITY",
                             env->sparsity, expected);
        }
    }
    if (env->seed != NULL && env->seed[0] != '\0') {
        if (parse_decimal(env->seed, UINT64_MAX, &value)) {
            parsed.seeded = true;
            parsed.seed = value;
        } else {
            valid = false;
            snprintf(expected, sizeof expected,
                     "a whole number from 0 to %" PRIu64, UINT64_MAX);
            report_bad_value(err, errlen, &used, "SAMPLER_SEED", env->seed,
                             expected);
        }
    }
    if (env->file != NULL && env->file[0] != '\0') {
        if (sampler_report_pattern_valid(env->file)) {
            memcpy(parsed.report_file, env->file, strlen(env->file) + 1);
        } else {
            valid = false;
            snprintf(expected, sizeof expected,
                     "a path shorter than %d bytes where '%%' is followed "
                     "only by 'p' (the pid), 'h' (the host), 't' (the time) "
                     "or '%%'", SAMPLER_PATH_MAX);
            report_bad_value(err, errlen, &used, "SAMPLER_FILE", env->file,
                             expected);
        }
    }
    if (env->report_fd != NULL && env->report_fd[0] != '\0') {
        if (parse_decimal(env->report_fd, INT_MAX, &value)) {
            parsed.report_fd = (int)value;
        } else {
            valid = false;
            snprintf(expected, sizeof expected,
                     "the number of an open file descriptor, from 0 to %d",
                     INT_MAX);
            report_bad_value(err, errlen, &used, "SAMPLER_REPORT_FD",
                             env->report_fd, expected);
        }
    }
    if (env->interval != NULL && env->interval[0] != '\0') {
        if (parse_decimal(env->interval, SAMPLER_INTERVAL_MAX, &value)) {
            parsed.interval = (long)value;
        } else {
            valid = false;
            snprintf(expected, sizeof expected,
                     "0 (no interim reports) or a whole number of seconds "
                     "from 1 to %ld", SAMPLER_INTERVAL_MAX);
            report_bad_value(err, errlen, &used, "SAMPLER_INTERVAL",
                             env->interval, expected);
        }
    }
    if (env->subpath_memory != NULL && env->subpath_memory[0] != '\0') {
        if (parse_decimal(env->subpath_memory, SAMPLER_SUBPATH_MEMORY_MAX, &value)
            && value >= SAMPLER_SUBPATH_MEMORY_MIN) {
            parsed.subpath_memory = (unsigned long)value;
        } else {
            valid = false;
            snprintf(expected, sizeof expected,
                     "a number of bytes from %lu to %lu",
                     SAMPLER_SUBPATH_MEMORY_MIN, SAMPLER_SUBPATH_MEMORY_MAX);
            report_bad_value(err, errlen, &used, "SAMPLER_SUBPATH_MEMORY",
                             env->subpath_memory, expected);
        }
    }
    if (env->subpath_max != NULL && env->subpath_max[0] != '\0') {
        if (!parse_subpath_max(env->subpath_max, &parsed.subpath_max_log2)) {
            valid = false;
            snprintf(expected, sizeof expected,
                     "a power of two from 2 to %lu",
                     1UL << SAMPLER_SUBPATH_MAX_LOG2);
            report_bad_value(err, errlen, &used, "SAMPLER_SUBPATH_MAX",
                             env->subpath_max, expected);
        }
    }
    if (env->subpath_lengths != NULL && env->subpath_lengths[0] != '\0') {
        if (strcmp(env->subpath_lengths, "osp") == 0) {
            parsed.subpath_all_lengths = false;
        } else if (strcmp(env->subpath_lengths, "all") == 0) {
            parsed.subpath_all_lengths = true;
        } else {
            valid = false;
            report_bad_value(err, errlen, &used, "SAMPLER_SUBPATH_LENGTHS",
                             env->subpath_lengths,
                             "'osp' (2^n with probability 2^-n) or 'all' "
                             "(every length from each start)");
        }
    }
    if (env->subpath_trace != NULL && env->subpath_trace[0] != '\0') {
        if (strlen(env->subpath_trace) < SAMPLER_PATH_MAX - SAMPLER_SUBPATH_TRACE_SUFFIX) {
            strcpy(parsed.subpath_trace, env->subpath_trace);
        } else {
            valid = false;
            snprintf(expected, sizeof expected, "a path shorter than %d bytes",
                     SAMPLER_PATH_MAX - SAMPLER_SUBPATH_TRACE_SUFFIX);
            report_bad_value(err, errlen, &used, "SAMPLER_SUBPATH_TRACE",
                             env->subpath_trace, expected);
        }
    }

    if (!valid)
        set_off(&parsed);
    *out = parsed;
    return valid ? 0 : -1;
}

/* Reports are written where the program started, whatever directory it is
   in when it ends.  Without a current directory (deleted, or too long a
   path), the pattern stays relative.  */
static void resolve_report_file(struct sampler_config *config)
{
    char absolute[SAMPLER_PATH_MAX];

    if (config->report_file[0] == '/' || getcwd(absolute, sizeof absolute) == NULL)
        return;
    size_t directory_length = strlen(absolute);
    size_t file_length = strlen(config->report_file);
    /* Room for the '/' and the NUL.  */
    if (directory_length + 1 + file_length + 1 > sizeof absolute)
        return;
    absolute[directory_length] = '/';
    memcpy(absolute + directory_length + 1, config->report_file, file_length + 1);
    memcpy(config->report_file, absolute, directory_length + 1 + file_length + 1);
}

/* A report descriptor that is not open for writing would lose the report
   silently; say so now, while the user is looking.  Remembers what the
   descriptor is.  */
static bool report_fd_usable(struct sampler_config *config)
{
    char message[256];
    struct stat status;

    if (config->report_fd < 0)
        return true;
    int flags = fcntl(config->report_fd, F_GETFL);
    if (flags != -1 && (flags & O_ACCMODE) != O_RDONLY
        && fstat(config->report_fd, &status) == 0) {
        config->report_fd_device = status.st_dev;
        config->report_fd_inode = status.st_ino;
        return true;
    }
    snprintf(message, sizeof message,
             "sampler: ignoring SAMPLER_REPORT_FD='%d': file descriptor %d "
             "is not open for writing; sampling is off",
             config->report_fd, config->report_fd);
    sampler_warn(message);
    return false;
}

bool sampler_process_is_secure(void)
{
    return getauxval(AT_SECURE) != 0;
}

void sampler_config_from_environment(struct sampler_config *out)
{
    char err[2048];

    if (sampler_process_is_secure()) {
        set_off(out);
        return;
    }
    const struct sampler_environment env = {
        .sparsity = getenv("SAMPLER_SPARSITY"),
        .seed = getenv("SAMPLER_SEED"),
        .file = getenv("SAMPLER_FILE"),
        .report_fd = getenv("SAMPLER_REPORT_FD"),
        .interval = getenv("SAMPLER_INTERVAL"),
        .subpath_memory = getenv("SAMPLER_SUBPATH_MEMORY"),
        .subpath_max = getenv("SAMPLER_SUBPATH_MAX"),
        .subpath_lengths = getenv("SAMPLER_SUBPATH_LENGTHS"),
        .subpath_trace = getenv("SAMPLER_SUBPATH_TRACE"),
    };

    if (sampler_config_parse(&env, out, err, sizeof err) != 0) {
        /* One write per line, so that each stays whole.  */
        for (char *line = err; line != NULL;) {
            char *newline = strchr(line, '\n');
            if (newline != NULL)
                *newline = '\0';
            sampler_warn(line);
            line = newline != NULL ? newline + 1 : NULL;
        }
    } else {
        /* What the environment leaves out, a release may say.  */
        sampler_field_configure(out, &env);
    }
    if (out->sparsity == 0)
        return;
    if (!report_fd_usable(out)) {
        set_off(out);
        return;
    }
    if (out->report_fd < 0)
        resolve_report_file(out);
    if (!out->seeded)
        out->seed = sampler_fresh_seed();
}

uint64_t sampler_mix64(uint64_t value)
{
    value = (value ^ (value >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    value = (value ^ (value >> 27)) * UINT64_C(0x94d049bb133111eb);
    return value ^ (value >> 31);
}

uint64_t sampler_fresh_seed(void)
{
    uint64_t seed;

    if (getrandom(&seed, sizeof seed, GRND_NONBLOCK) == (ssize_t)sizeof seed)
        return seed;

    /* No kernel entropy (old kernel, early boot, seccomp): mix what differs
       between runs and between processes.  */
    struct timespec now = { 0, 0 };
    clock_gettime(CLOCK_REALTIME, &now);
    seed = sampler_mix64((uint64_t)now.tv_sec * UINT64_C(1000000000)
                         + (uint64_t)now.tv_nsec);
    seed = sampler_mix64(seed ^ (uint64_t)getpid());
    /* With address-space randomisation a stack address adds a few bits.  */
    seed = sampler_mix64(seed ^ (uint64_t)(uintptr_t)&now);
    return seed;
}

uint32_t sampler_stream_seed(uint64_t base, unsigned long order)
{
    /* mt19937 takes a 32-bit seed.  Multiplying the order by an odd constant
       is a bijection modulo 2^32, so the threads of one process never share
       a stream, and neighbouring threads do not get neighbouring seeds.  The
       added constant keeps base 0 from mapping to seed 0.  */
    uint32_t per_base = (uint32_t)(sampler_mix64(base + UINT64_C(0x9e3779b97f4a7c15)) >> 32);
    return per_base + (uint32_t)order * UINT32_C(0x9e3779b9);
}
