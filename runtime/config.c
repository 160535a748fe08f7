/* Configuration from the environment: the variables of the table below
   (settings.h says how tables are read), and the schemes' own.  Bad
   values never stop the program: they switch sampling off and leave one
   warning line per bad variable on stderr.

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
#include "settings.h"

/* The process's variables, in the order their warnings come.  */
static const struct sampler_setting process_settings[] = {
    {
        .name = "SAMPLER_SPARSITY", .kind = SAMPLER_SETTING_NUMBER,
        .min = 1, .max = SAMPLER_SPARSITY_MAX, .zero = "off", .what = "a whole number",
        SAMPLER_SETTING_MEMBER(struct sampler_config, sparsity),
        .help = "the inverse of the sampling density: `N` samples each site visit "
                "with probability 1/N, `1` every visit; off, instrumented code costs "
                "almost nothing",
    },
    {
        .name = "SAMPLER_SEED", .kind = SAMPLER_SETTING_NUMBER,
        .min = 0, .max = UINT64_MAX, .what = "a whole number",
        SAMPLER_SETTING_MEMBER(struct sampler_config, seed),
        SAMPLER_SETTING_GIVEN(struct sampler_config, seeded),
        .help = "a seed: the same seed, sparsity and program (and the order in which it "
                "creates threads) give the same samples (a full hot-list of "
                "addresses may thin differently: docs/values.md)",
        .unset = "a fresh seed each run",
    },
    {
        .name = "SAMPLER_FILE", .kind = SAMPLER_SETTING_REPORT_PATTERN,
        .max = SAMPLER_PATH_MAX,
        .what = "where '%' is followed only by 'p' (the pid), 'h' (the host), "
                "'t' (the time) or '%'",
        .default_text = SAMPLER_DEFAULT_REPORT_FILE,
        SAMPLER_SETTING_MEMBER(struct sampler_config, report_file),
        .help = "where reports go: a path pattern, `%p` the pid, `%h` the host name, "
                "`%t` the time (seconds since the Epoch), `%%` a `%`; missing "
                "directories are created",
        .unset = "`" SAMPLER_DEFAULT_REPORT_FILE "` in the starting directory",
    },
    {
        .name = "SAMPLER_REPORT_FD", .kind = SAMPLER_SETTING_NUMBER,
        .min = 0, .max = INT_MAX, .what = "the number of an open file descriptor,",
        .default_number = -1,
        SAMPLER_SETTING_MEMBER(struct sampler_config, report_fd),
        .help = "write reports to this inherited file descriptor instead of a file",
        .unset = "none",
    },
    {
        .name = "SAMPLER_INTERVAL", .kind = SAMPLER_SETTING_NUMBER,
        .min = 1, .max = SAMPLER_INTERVAL_MAX, .zero = "no interim reports",
        .what = "a whole number of seconds",
        SAMPLER_SETTING_MEMBER(struct sampler_config, interval),
        .help = "write an interim report every this many seconds while the program runs",
    },
};

const struct sampler_settings sampler_process_settings = {
    process_settings, sizeof process_settings / sizeof process_settings[0],
};

/* The configuration of a run that does not sample: every table's
   defaults.  */
static void set_off(struct sampler_config *config)
{
    const struct sampler_settings *table;
    const char *scheme;
    void *values;

    memset(config, 0, sizeof *config);
    for (size_t i = 0; (table = sampler_settings_table(i, &scheme, &values)) != NULL; i++)
        sampler_settings_default(table, values != NULL ? values : config);
}

int sampler_config_parse(sampler_lookup *lookup, void *context,
                         struct sampler_config *out, char *err, size_t errlen)
{
    struct sampler_config parsed;
    size_t used = 0;

    set_off(&parsed);
    if (errlen > 0)
        err[0] = '\0';
    const struct sampler_settings *table;
    const char *scheme;
    void *values;
    bool valid = true;
    for (size_t i = 0; (table = sampler_settings_table(i, &scheme, &values)) != NULL; i++)
        valid &= sampler_settings_parse(table, values != NULL ? values : &parsed, lookup,
                                        context, err, errlen, &used);
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

static const char *lookup_environment(const char *name, void *unused)
{
    (void)unused;
    return getenv(name);
}

void sampler_config_from_environment(struct sampler_config *out)
{
    char err[2048];

    if (sampler_process_is_secure()) {
        set_off(out);
        return;
    }
    if (sampler_config_parse(lookup_environment, NULL, out, err, sizeof err) != 0) {
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
        sampler_field_configure(out, lookup_environment, NULL);
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
