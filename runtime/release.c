/* The release configuration's parser and writer, consent files and the
   store's place (release.h, docs/remote.md).  Shared by the runtime,
   sampler-release (which checks a maintainer's file at build time) and
   sampler-submit, so that the three read one language.  */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "release.h"
#include "sampler-abi.h"

static const char *const scheme_names[] = {
#define SAMPLER_SCHEME(ID, NAME, N_COUNTERS, COUNTERS, MERGE, TEXT) NAME,
#include "schemes.def"
};

int sampler_scheme_by_name(const char *name, size_t length)
{
    for (unsigned id = 0; id < SAMPLER_N_SCHEMES; id++)
        if (strlen(scheme_names[id]) == length && memcmp(scheme_names[id], name, length) == 0)
            return (int)id;
    return -1;
}

const char *sampler_scheme_name(unsigned id)
{
    return id < SAMPLER_N_SCHEMES ? scheme_names[id] : NULL;
}

/* ---- Values ------------------------------------------------------------- */

/* A value being parsed: its bytes (not NUL-terminated) and where a
   message goes.  */
struct value {
    const char *text;
    size_t length;
    char *error;
};

static bool fail(const struct value *value, const char *format, const char *detail)
{
    snprintf(value->error, SAMPLER_RELEASE_ERROR_SIZE, format, detail);
    return false;
}

static bool equals(const struct value *value, const char *word)
{
    return strlen(word) == value->length && memcmp(value->text, word, value->length) == 0;
}

/* Decimal digits, from MIN to MAX, times MULTIPLIER.  */
static bool parse_number(const struct value *value, size_t digits, unsigned long long min,
                         unsigned long long max, unsigned long long multiplier,
                         unsigned long long *number, const char *expected)
{
    unsigned long long result = 0;

    if (digits == 0 || digits > 19)
        return fail(value, "expected %s", expected);
    for (size_t i = 0; i < digits; i++) {
        char c = value->text[i];
        if (c < '0' || c > '9')
            return fail(value, "expected %s", expected);
        result = result * 10 + (unsigned)(c - '0');
    }
    if (result > max / multiplier || result * multiplier < min)
        return fail(value, "expected %s", expected);
    *number = result * multiplier;
    return true;
}

static bool whole_number(const struct value *value, unsigned long long min,
                         unsigned long long max, unsigned long long *number,
                         const char *expected)
{
    return parse_number(value, value->length, min, max, 1, number, expected);
}

/* A product or version: it names a directory of the store, so letters,
   digits and . _ + ~ : - only, not starting with a dot.  */
static bool name_value(const struct value *value, char *out, const char *what)
{
    static const char expected[] =
        "1 to 64 letters, digits and '.', '_', '+', '~', ':' or '-', "
        "not starting with '.'";
    if (value->length == 0 || value->length >= SAMPLER_RELEASE_NAME_SIZE
        || value->text[0] == '.')
        return fail(value, "expected %s", expected);
    for (size_t i = 0; i < value->length; i++) {
        char c = value->text[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
              || strchr("._+~:-", c) != NULL)) {
            char message[200];
            snprintf(message, sizeof message, "a %s of %s", what, expected);
            return fail(value, "expected %s", message);
        }
    }
    memcpy(out, value->text, value->length);
    out[value->length] = '\0';
    return true;
}

/* The items of a comma-separated list, blanks around them ignored; calls
   ITEM on each (false stops).  */
static bool each_item(const struct value *value,
                      bool (*item)(const struct value *value, const char *text, size_t length,
                                   unsigned *bits),
                      unsigned *bits)
{
    const char *end = value->text + value->length;
    const char *start = value->text;

    *bits = 0;
    for (;;) {
        const char *comma = memchr(start, ',', (size_t)(end - start));
        const char *stop = comma != NULL ? comma : end;
        const char *first = start, *last = stop;
        while (first < last && (*first == ' ' || *first == '\t'))
            first++;
        while (last > first && (last[-1] == ' ' || last[-1] == '\t'))
            last--;
        if (!item(value, first, (size_t)(last - first), bits))
            return false;
        if (comma == NULL)
            return true;
        start = comma + 1;
    }
}

static bool scheme_item(const struct value *value, const char *text, size_t length,
                        unsigned *bits)
{
    char name[64];
    int id = sampler_scheme_by_name(text, length);

    snprintf(name, sizeof name, "%.*s", (int)(length < 40 ? length : 40), text);
    if (id < 0) {
        char message[SAMPLER_RELEASE_ERROR_SIZE];
        size_t used = (size_t)snprintf(message, sizeof message,
                                       "unknown scheme '%s' (the schemes:", name);
        for (unsigned i = 0; i < SAMPLER_N_SCHEMES && used < sizeof message; i++)
            used += (size_t)snprintf(message + used, sizeof message - used, " %s",
                                     scheme_names[i]);
        if (used < sizeof message)
            snprintf(message + used, sizeof message - used, "; or 'none')");
        return fail(value, "%s", message);
    }
    if (*bits & 1u << id)
        return fail(value, "scheme '%s' is named twice", name);
    *bits |= 1u << id;
    return true;
}

static bool consent_item(const struct value *value, const char *text, size_t length,
                         unsigned *bits)
{
    unsigned bit = length == 4 && memcmp(text, "user", 4) == 0 ? SAMPLER_CONSENT_USER
                   : length == 6 && memcmp(text, "system", 6) == 0 ? SAMPLER_CONSENT_SYSTEM
                   : 0;
    if (bit == 0)
        return fail(value, "expected %s", "'user', 'system' or 'user, system'");
    if (*bits & bit)
        return fail(value, "'%s' is named twice", bit == SAMPLER_CONSENT_USER ? "user" : "system");
    *bits |= bit;
    return true;
}

static bool is_loopback_host(const char *host, size_t length)
{
    if ((length == 9 && memcmp(host, "localhost", 9) == 0)
        || (length == 5 && memcmp(host, "[::1]", 5) == 0))
        return true;
    if (length < 7 || memcmp(host, "127.", 4) != 0)
        return false;
    for (size_t i = 4; i < length; i++)
        if ((host[i] < '0' || host[i] > '9') && host[i] != '.')
            return false;
    return true;
}

/* An http(s) URL without user, query or fragment (the submitter adds a
   path to it, and a user name in it would be written into logs).  Plain
   http only to this machine: reports leave it encrypted.  */
static bool url_value(const struct value *value, char *out)
{
    static const char path_characters[] =
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@%/";
    const char *text = value->text;
    size_t length = value->length, scheme;

    if (length >= SAMPLER_RELEASE_URL_SIZE)
        return fail(value, "%s", "longer than 512 bytes");
    if (length > 8 && memcmp(text, "https://", 8) == 0)
        scheme = 8;
    else if (length > 7 && memcmp(text, "http://", 7) == 0)
        scheme = 7;
    else
        return fail(value, "%s", "expected an https:// URL");
    const char *host = text + scheme;
    size_t host_length = 0;
    if (host[0] == '[') {
        while (scheme + host_length < length && host[host_length] != ']')
            host_length++;
        if (scheme + host_length == length)
            return fail(value, "%s", "an IPv6 address without its ']'");
        host_length++;
        for (size_t i = 1; i + 1 < host_length; i++)
            if (strchr("0123456789abcdefABCDEF:.", host[i]) == NULL)
                return fail(value, "%s", "a bad IPv6 address");
    } else {
        while (scheme + host_length < length
               && strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-",
                         host[host_length]) != NULL)
            host_length++;
    }
    size_t at = scheme + host_length;
    for (size_t i = scheme; i < length && text[i] != '/'; i++)
        if (text[i] == '@')
            return fail(value, "%s", "a user name in the URL (it would be written into logs)");
    if (host_length == 0 || host[0] == '.' || host[0] == '-')
        return fail(value, "%s", "no host name");
    if (at < length && text[at] == ':') {
        size_t digits = 0;
        unsigned long port = 0;
        while (at + 1 + digits < length && text[at + 1 + digits] >= '0'
               && text[at + 1 + digits] <= '9' && digits < 6)
            port = port * 10 + (unsigned long)(text[at + 1 + digits++] - '0');
        if (digits == 0 || port == 0 || port > 65535)
            return fail(value, "%s", "expected a port from 1 to 65535");
        at += 1 + digits;
    }
    if (at < length && text[at] != '/')
        return fail(value, "%s", "expected '/' or the end after the host and port");
    for (size_t i = at; i < length; i++) {
        if (text[i] == '?' || text[i] == '#')
            return fail(value, "%s", "a query or fragment in the URL (the submitter adds a path)");
        if (text[i] == '\0' || strchr(path_characters, text[i]) == NULL)
            return fail(value, "%s", "a character a URL's path cannot hold (spaces are %20)");
    }
    if (scheme == 7 && !is_loopback_host(host, host_length))
        return fail(value, "%s", "plain http:// is for localhost, 127.x.x.x and [::1] only: "
                    "reports leave the machine encrypted (https://)");
    memcpy(out, text, length);
    out[length] = '\0';
    return true;
}

bool sampler_release_check_url(const char *url, char *error)
{
    char out[SAMPLER_RELEASE_URL_SIZE];
    struct value value = { .text = url, .length = strlen(url), .error = error };

    return url_value(&value, out);
}

bool sampler_release_check_name(const char *name)
{
    char out[SAMPLER_RELEASE_NAME_SIZE];
    char error[SAMPLER_RELEASE_ERROR_SIZE];
    struct value value = { .text = name, .length = strlen(name), .error = error };

    return name_value(&value, out, "name");
}

/* ---- Settings ------------------------------------------------------------ */

enum setting_id {
    SET_PRODUCT, SET_VERSION, SET_SPARSITY, SET_SEND_SCHEMES, SET_COLLECTOR,
    SET_UPLOAD_KEY, SET_CONSENT, SET_STORE, SET_STORE_MAX_REPORTS, SET_STORE_MAX_BYTES,
    SET_SUBMIT_AT_EXIT, SET_SUBMIT_INTERVAL, SET_SUBMIT_BATCH, SET_COUNT
};

struct setting {
    const char *key;
    bool required;
};

/* In the order sampler_release_format writes them.  */
static const struct setting settings[SET_COUNT] = {
    [SET_PRODUCT] = { "product", true },
    [SET_VERSION] = { "version", true },
    [SET_SPARSITY] = { "sparsity", false },
    [SET_SEND_SCHEMES] = { "send-schemes", false },
    [SET_COLLECTOR] = { "collector", true },
    [SET_UPLOAD_KEY] = { "upload-key", true },
    [SET_CONSENT] = { "consent", false },
    [SET_STORE] = { "store", false },
    [SET_STORE_MAX_REPORTS] = { "store-max-reports", false },
    [SET_STORE_MAX_BYTES] = { "store-max-bytes", false },
    [SET_SUBMIT_AT_EXIT] = { "submit-at-exit", false },
    [SET_SUBMIT_INTERVAL] = { "submit-interval", false },
    [SET_SUBMIT_BATCH] = { "submit-batch", false },
};

/* Schemes whose observations are program data (values, sizes, call
   targets, extremes of variables) stay on the machine unless the release
   says otherwise.  */
#define DATA_SCHEMES ((1u << SAMPLER_SCHEME_VALUES) | (1u << SAMPLER_SCHEME_SIZES)      \
                      | (1u << SAMPLER_SCHEME_INDIRECT_CALLS) | (1u << SAMPLER_SCHEME_BOUNDS))
#define ALL_SCHEMES ((1u << SAMPLER_N_SCHEMES) - 1)

static void set_defaults(struct sampler_release *release)
{
    memset(release, 0, sizeof *release);
    release->sparsity = 1000;
    release->send_schemes = ALL_SCHEMES & ~DATA_SCHEMES;
    release->consent = SAMPLER_CONSENT_USER | SAMPLER_CONSENT_SYSTEM;
    release->store = SAMPLER_STORE_STATE;
    release->store_max_reports = 100;
    release->store_max_bytes = 16ull << 20;
    release->submit_interval = 3600;
    release->submit_batch = 50;
}

static bool parse_setting(enum setting_id id, const struct value *value,
                          struct sampler_release *release)
{
    unsigned long long number;

    switch (id) {
    case SET_PRODUCT:
        return name_value(value, release->product, "product");
    case SET_VERSION:
        return name_value(value, release->version, "version");
    case SET_SPARSITY:
        if (!whole_number(value, 1, 1000000000, &number, "a whole number from 1 to 1000000000"))
            return false;
        release->sparsity = (long)number;
        return true;
    case SET_SEND_SCHEMES:
        if (equals(value, "none")) {
            release->send_schemes = 0;
            return true;
        }
        return each_item(value, scheme_item, &release->send_schemes);
    case SET_COLLECTOR:
        return url_value(value, release->collector);
    case SET_UPLOAD_KEY:
        if (value->length < 16 || value->length >= SAMPLER_RELEASE_KEY_SIZE)
            return fail(value, "expected %s", "16 to 128 letters, digits and '-', '.', '_', '~', '+' or '/'");
        for (size_t i = 0; i < value->length; i++)
            if (strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~+/",
                       value->text[i]) == NULL)
                return fail(value, "expected %s", "16 to 128 letters, digits and '-', '.', '_', '~', '+' or '/'");
        memcpy(release->upload_key, value->text, value->length);
        release->upload_key[value->length] = '\0';
        return true;
    case SET_CONSENT:
        return each_item(value, consent_item, &release->consent);
    case SET_STORE:
        if (equals(value, "state"))
            release->store = SAMPLER_STORE_STATE;
        else if (equals(value, "cache"))
            release->store = SAMPLER_STORE_CACHE;
        else
            return fail(value, "expected %s", "'state' ($XDG_STATE_HOME) or 'cache' ($XDG_CACHE_HOME)");
        return true;
    case SET_STORE_MAX_REPORTS:
        if (!whole_number(value, 1, 100000, &number, "a whole number from 1 to 100000"))
            return false;
        release->store_max_reports = (unsigned long)number;
        return true;
    case SET_STORE_MAX_BYTES: {
        static const char expected[] =
            "a number of bytes from 4096 to 1T, with an optional K, M, G or T (powers of 1024)";
        char last = value->length > 0 ? value->text[value->length - 1] : '\0';
        unsigned long long multiplier = last == 'K' ? 1ull << 10 : last == 'M' ? 1ull << 20
                                        : last == 'G' ? 1ull << 30 : last == 'T' ? 1ull << 40
                                        : 1;
        if (!parse_number(value, value->length - (multiplier > 1), 4096, 1ull << 40,
                          multiplier, &number, expected))
            return false;
        release->store_max_bytes = number;
        return true;
    }
    case SET_SUBMIT_AT_EXIT:
        if (equals(value, "no")) {
            release->submit_at_exit[0] = '\0';
            return true;
        }
        if (value->text[0] != '/' || value->length >= SAMPLER_RELEASE_PATH_SIZE)
            return fail(value, "expected %s", "'no' or the absolute path of sampler-submit on the users' machines");
        memcpy(release->submit_at_exit, value->text, value->length);
        release->submit_at_exit[value->length] = '\0';
        return true;
    case SET_SUBMIT_INTERVAL:
        if (!whole_number(value, 60, 2592000, &number, "a number of seconds from 60 to 2592000 (30 days)"))
            return false;
        release->submit_interval = (unsigned long)number;
        return true;
    case SET_SUBMIT_BATCH:
        if (!whole_number(value, 1, 10000, &number, "a whole number from 1 to 10000"))
            return false;
        release->submit_batch = (unsigned long)number;
        return true;
    case SET_COUNT:
        break;
    }
    return false;
}

static bool is_blank(char c)
{
    return c == ' ' || c == '\t';
}

/* One line (without its newline): a comment, or key = value.  */
static bool parse_line(const char *line, size_t length, bool seen[SET_COUNT],
                       struct sampler_release *release, char *error)
{
    const char *end = line + length;
    struct value value = { .error = error };

    while (line < end && is_blank(*line))
        line++;
    while (end > line && is_blank(end[-1]))
        end--;
    if (line == end || *line == '#')
        return true;
    const char *equal = memchr(line, '=', (size_t)(end - line));
    if (equal == NULL) {
        snprintf(error, SAMPLER_RELEASE_ERROR_SIZE, "expected 'key = value' or a # comment");
        return false;
    }
    const char *key_end = equal;
    while (key_end > line && is_blank(key_end[-1]))
        key_end--;
    size_t key_length = (size_t)(key_end - line);
    enum setting_id id = SET_COUNT;
    for (unsigned i = 0; i < SET_COUNT; i++)
        if (strlen(settings[i].key) == key_length
            && memcmp(settings[i].key, line, key_length) == 0)
            id = (enum setting_id)i;
    if (id == SET_COUNT) {
        size_t used = (size_t)snprintf(error, SAMPLER_RELEASE_ERROR_SIZE,
                                       "unknown setting '%.*s' (the settings:",
                                       (int)(key_length < 40 ? key_length : 40), line);
        for (unsigned i = 0; i < SET_COUNT && used < SAMPLER_RELEASE_ERROR_SIZE; i++)
            used += (size_t)snprintf(error + used, SAMPLER_RELEASE_ERROR_SIZE - used, "%s %s",
                                     i > 0 ? "," : "", settings[i].key);
        if (used < SAMPLER_RELEASE_ERROR_SIZE)
            snprintf(error + used, SAMPLER_RELEASE_ERROR_SIZE - used, ")");
        return false;
    }
    if (seen[id]) {
        snprintf(error, SAMPLER_RELEASE_ERROR_SIZE, "'%s' is set twice", settings[id].key);
        return false;
    }
    seen[id] = true;
    value.text = equal + 1;
    while (value.text < end && is_blank(*value.text))
        value.text++;
    value.length = (size_t)(end - value.text);
    if (value.length == 0) {
        snprintf(error, SAMPLER_RELEASE_ERROR_SIZE, "'%s' has no value", settings[id].key);
        return false;
    }
    if (parse_setting(id, &value, release))
        return true;
    /* Name the setting before what was expected of it.  */
    char detail[SAMPLER_RELEASE_ERROR_SIZE];
    memcpy(detail, error, SAMPLER_RELEASE_ERROR_SIZE);
    snprintf(error, SAMPLER_RELEASE_ERROR_SIZE, "bad %s '%.*s': %.380s", settings[id].key,
             (int)(value.length < 80 ? value.length : 80), value.text, detail);
    return false;
}

bool sampler_release_parse(const char *text, size_t length, struct sampler_release *release,
                           unsigned long *line, char *error)
{
    bool seen[SET_COUNT] = { false };
    const char *end = text + length;

    set_defaults(release);
    *line = 0;
    error[0] = '\0';
    if (length > SAMPLER_RELEASE_TEXT_MAX) {
        snprintf(error, SAMPLER_RELEASE_ERROR_SIZE, "longer than %d bytes",
                 SAMPLER_RELEASE_TEXT_MAX);
        return false;
    }
    for (const char *start = text; start < end;) {
        const char *newline = memchr(start, '\n', (size_t)(end - start));
        const char *stop = newline != NULL ? newline : end;
        ++*line;
        for (const char *c = start; c < stop; c++) {
            if (*c == '\0' || *c == '\r' || ((unsigned char)*c < 0x20 && *c != '\t')) {
                snprintf(error, SAMPLER_RELEASE_ERROR_SIZE,
                         "a control character (byte %u): the file must be text with "
                         "Unix line ends", (unsigned char)*c);
                return false;
            }
        }
        if (!parse_line(start, (size_t)(stop - start), seen, release, error))
            return false;
        start = stop + 1;
    }
    for (unsigned i = 0; i < SET_COUNT; i++) {
        if (settings[i].required && !seen[i]) {
            *line = 0;
            snprintf(error, SAMPLER_RELEASE_ERROR_SIZE, "'%s' is not set (product, version, "
                     "collector and upload-key are required)", settings[i].key);
            return false;
        }
    }
    return true;
}

/* ---- Writing ------------------------------------------------------------- */

struct writer {
    char *buffer;
    size_t size, used;
    bool overflow;
};

static void put(struct writer *writer, const char *key, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

static void put(struct writer *writer, const char *key, const char *format, ...)
{
    va_list arguments;
    char value[SAMPLER_RELEASE_PATH_SIZE + 64];

    va_start(arguments, format);
    vsnprintf(value, sizeof value, format, arguments);
    va_end(arguments);
    int written = snprintf(writer->buffer + writer->used, writer->size - writer->used,
                           "%s = %s\n", key, value);
    if (written < 0 || (size_t)written >= writer->size - writer->used)
        writer->overflow = true;
    else
        writer->used += (size_t)written;
}

long sampler_release_format(const struct sampler_release *release, char *buffer, size_t size)
{
    struct writer writer = { .buffer = buffer, .size = size };
    char schemes[256] = "";
    size_t used = 0;

    if (size == 0)
        return -1;
    buffer[0] = '\0';
    for (unsigned id = 0; id < SAMPLER_N_SCHEMES; id++)
        if (release->send_schemes & 1u << id)
            used += (size_t)snprintf(schemes + used, sizeof schemes - used, "%s%s",
                                     used > 0 ? ", " : "", scheme_names[id]);
    put(&writer, "product", "%s", release->product);
    put(&writer, "version", "%s", release->version);
    put(&writer, "sparsity", "%ld", release->sparsity);
    put(&writer, "send-schemes", "%s", used > 0 ? schemes : "none");
    put(&writer, "collector", "%s", release->collector);
    put(&writer, "upload-key", "%s", release->upload_key);
    put(&writer, "consent", "%s",
        release->consent == (SAMPLER_CONSENT_USER | SAMPLER_CONSENT_SYSTEM) ? "user, system"
        : release->consent == SAMPLER_CONSENT_USER ? "user" : "system");
    put(&writer, "store", "%s", release->store == SAMPLER_STORE_CACHE ? "cache" : "state");
    put(&writer, "store-max-reports", "%lu", release->store_max_reports);
    put(&writer, "store-max-bytes", "%llu", release->store_max_bytes);
    put(&writer, "submit-at-exit", "%s",
        release->submit_at_exit[0] != '\0' ? release->submit_at_exit : "no");
    put(&writer, "submit-interval", "%lu", release->submit_interval);
    put(&writer, "submit-batch", "%lu", release->submit_batch);
    return writer.overflow ? -1 : (long)writer.used;
}

/* ---- Consent and places -------------------------------------------------- */

enum sampler_consent_answer sampler_consent_read(const char *path)
{
    char text[512];
    ssize_t length;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);

    if (fd < 0)
        return errno == ENOENT || errno == ENOTDIR ? SAMPLER_CONSENT_ABSENT
                                                   : SAMPLER_CONSENT_INVALID;
    do
        length = read(fd, text, sizeof text - 1);
    while (length < 0 && errno == EINTR);
    close(fd);
    if (length < 0)
        return SAMPLER_CONSENT_INVALID;
    text[length] = '\0';
    for (char *line = text; *line != '\0';) {
        char *newline = strchr(line, '\n');
        char *end = newline != NULL ? newline : line + strlen(line);
        while (line < end && is_blank(*line))
            line++;
        while (end > line && is_blank(end[-1]))
            end--;
        if (line < end && *line != '#') {
            size_t n = (size_t)(end - line);
            if (n == 3 && memcmp(line, "yes", 3) == 0)
                return SAMPLER_CONSENT_YES;
            if (n == 2 && memcmp(line, "no", 2) == 0)
                return SAMPLER_CONSENT_NO;
            return SAMPLER_CONSENT_INVALID;
        }
        if (newline == NULL)
            break;
        line = newline + 1;
    }
    return SAMPLER_CONSENT_INVALID;
}

bool sampler_consent_given(unsigned rule, enum sampler_consent_answer user,
                           enum sampler_consent_answer system)
{
    if (user == SAMPLER_CONSENT_NO || user == SAMPLER_CONSENT_INVALID
        || system == SAMPLER_CONSENT_NO || system == SAMPLER_CONSENT_INVALID)
        return false;
    return ((rule & SAMPLER_CONSENT_USER) && user == SAMPLER_CONSENT_YES)
           || ((rule & SAMPLER_CONSENT_SYSTEM) && system == SAMPLER_CONSENT_YES);
}

/* Writes the pieces, one after the other, into PATH (SIZE bytes).  */
static bool join(char *path, size_t size, const char *a, const char *b, const char *c,
                 const char *d)
{
    int written = snprintf(path, size, "%s%s%s%s", a, b, c != NULL ? c : "", d != NULL ? d : "");
    return written > 0 && (size_t)written < size;
}

static bool home_or_xdg(const char *xdg_value, const char *home, const char *fallback,
                        char *path, size_t size)
{
    if (xdg_value != NULL && xdg_value[0] == '/')
        return join(path, size, xdg_value, "", NULL, NULL);
    if (home == NULL || home[0] != '/')
        return false;
    return join(path, size, home, fallback, NULL, NULL);
}

bool sampler_xdg_directory(enum sampler_store_base base, const char *xdg_value,
                           const char *home, char *path, size_t size)
{
    return home_or_xdg(xdg_value, home,
                       base == SAMPLER_STORE_CACHE ? "/.cache" : "/.local/state", path, size);
}

bool sampler_user_consent_path(const char *xdg_config_home, const char *home,
                               const char *product, char *path, size_t size)
{
    char base[4096];

    return home_or_xdg(xdg_config_home, home, "/.config", base, sizeof base)
           && join(path, size, base, "/sampler/consent/", product, NULL);
}

bool sampler_store_directory(const struct sampler_release *release, const char *base,
                             char *path, size_t size)
{
    char tail[2 * SAMPLER_RELEASE_NAME_SIZE + 2];

    return join(tail, sizeof tail, release->product, "/", release->version, NULL)
           && join(path, size, base, "/sampler/", tail, NULL);
}
