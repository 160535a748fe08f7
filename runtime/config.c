/* Configuration from the environment: SAMPLER_SPARSITY and SAMPLER_SEED.
   Bad values never stop the program: they switch sampling off and leave one
   warning line per bad variable on stderr.  */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "sampler-internal.h"

/* At most this many bytes of a bad value are quoted in a warning, so that a
   huge value cannot flood stderr.  */
#define QUOTED_VALUE_MAX 64
/* Each quoted byte takes at most 4 characters (\xNN), plus "..." and NUL.  */
#define QUOTED_SIZE (4 * QUOTED_VALUE_MAX + 4)

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

/* Copies value into quoted, escaping anything that could break the warning
   line or the terminal (control bytes, newlines, quotes), and truncating.  */
static void quote_value(const char *value, char quoted[QUOTED_SIZE])
{
    size_t length = 0;
    size_t i;

    for (i = 0; i < QUOTED_VALUE_MAX && value[i] != '\0'; i++) {
        unsigned char c = (unsigned char)value[i];
        if (c >= 0x20 && c < 0x7f && c != '\'' && c != '\\')
            quoted[length++] = (char)c;
        else
            length += (size_t)sprintf(quoted + length, "\\x%02x", c);
    }
    if (value[i] != '\0') {
        memcpy(quoted + length, "...", 3);
        length += 3;
    }
    quoted[length] = '\0';
}

/* Appends one warning line to err (lines are separated by '\n').  */
static void report_bad_value(char *err, size_t errlen, size_t *used,
                             const char *name, const char *value,
                             const char *expected)
{
    char quoted[QUOTED_SIZE];

    if (*used + 1 >= errlen)
        return;
    quote_value(value, quoted);
    int written = snprintf(err + *used, errlen - *used,
                           "%ssampler: ignoring %s='%s': expected %s; "
                           "sampling is off",
                           *used > 0 ? "\n" : "", name, quoted, expected);
    if (written > 0)
        *used += (size_t)written < errlen - *used ? (size_t)written
                                                  : errlen - *used - 1;
}

int sampler_config_parse(const char *sparsity, const char *seed,
                         struct sampler_config *out, char *err, size_t errlen)
{
    struct sampler_config parsed = { .sparsity = 0, .seeded = false, .seed = 0 };
    char expected[96];
    size_t used = 0;
    bool valid = true;
    uint64_t value;

    if (errlen > 0)
        err[0] = '\0';

    /* Unset and empty both mean "not configured": off, or a fresh seed.  */
    if (sparsity != NULL && sparsity[0] != '\0') {
        if (parse_decimal(sparsity, SAMPLER_SPARSITY_MAX, &value)) {
            parsed.sparsity = (long)value;
        } else {
            valid = false;
            snprintf(expected, sizeof expected,
                     "0 (off) or a whole number from 1 to %ld",
                     SAMPLER_SPARSITY_MAX);
            report_bad_value(err, errlen, &used, "SAMPLER_SPARSITY",
                             sparsity, expected);
        }
    }
    if (seed != NULL && seed[0] != '\0') {
        if (parse_decimal(seed, UINT64_MAX, &value)) {
            parsed.seeded = true;
            parsed.seed = value;
        } else {
            valid = false;
            snprintf(expected, sizeof expected,
                     "a whole number from 0 to %" PRIu64, UINT64_MAX);
            report_bad_value(err, errlen, &used, "SAMPLER_SEED", seed,
                             expected);
        }
    }

    if (!valid)
        parsed = (struct sampler_config){ .sparsity = 0, .seeded = false, .seed = 0 };
    *out = parsed;
    return valid ? 0 : -1;
}

/* One write(2) for the whole message: no stdio state of the program is
   touched, and concurrent writers cannot split a line.  */
static void write_warning(const char *message)
{
    char line[1024];
    int length = snprintf(line, sizeof line, "%s\n", message);
    if (length <= 0)
        return;
    if ((size_t)length >= sizeof line) {
        length = sizeof line - 1;
        line[length - 1] = '\n';
    }

    const char *rest = line;
    while (length > 0) {
        ssize_t written = write(STDERR_FILENO, rest, (size_t)length);
        if (written < 0 && errno == EINTR)
            continue;
        if (written <= 0)
            return;
        rest += written;
        length -= (int)written;
    }
}

void sampler_config_from_environment(struct sampler_config *out)
{
    char err[1024];

    if (sampler_config_parse(getenv("SAMPLER_SPARSITY"), getenv("SAMPLER_SEED"),
                             out, err, sizeof err) != 0)
        write_warning(err);
    if (out->sparsity != 0 && !out->seeded)
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
