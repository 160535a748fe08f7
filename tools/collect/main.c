/* sampler-collect: receives the reports of instrumented releases
   (docs/collect.md; the protocol in docs/remote.md) and keeps them in a
   store of tools/sql/'s schema, on PostgreSQL or SQLite.

     serve              the service (foreground; under systemd, its unit)
     register-release   a release's site tables and keys, from its binaries
     retire-release     a release takes no more reports (410)
     revoke-key         an upload key is refused (403)
     releases           what the store holds
     migrate            makes the store's schema current, and stops

   Exit status: 0 done; 1 the store or a file failed; 2 bad usage.  */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "releases.h"
#include "schema.h"
#include "service.h"

#define PROGRAM "sampler-collect"

static const char usage_text[] =
    "usage: " PROGRAM " serve --store URL [--listen ADDRESS:PORT] [--tls-cert FILE --tls-key FILE]\n"
    "           [--pages-listen ADDRESS:PORT | --no-pages] [--port-file FILE]\n"
    "           [--threads N] [--max-body SIZE] [--max-report SIZE] [--memory SIZE]\n"
    "           [--key-quota N] [--address-quota N] [--trusted-proxy ADDRESS]\n"
    "           [--connections N] [--address-connections N] [--idle-timeout S]\n"
    "           [--request-timeout S] [--batch N] [--queue N] [--fold-interval MS]\n"
    "           [--fold-batch N]\n"
    "           [--elimination-interval S] [--elimination-steps N]\n"
    "       " PROGRAM " register-release --store URL --binary FILE... [--sites FILE]...\n"
    "           [--product NAME --version VERSION] [--key KEY]... [--fail-if RULE]\n"
    "           [--hourly-quota N]\n"
    "       " PROGRAM " retire-release --store URL PRODUCT/VERSION\n"
    "       " PROGRAM " revoke-key --store URL KEY\n"
    "       " PROGRAM " releases --store URL\n"
    "       " PROGRAM " migrate --store URL\n"
    "\n"
    "URL: postgresql://USER@HOST:PORT/DATABASE (libpq), or sqlite:FILE (or a FILE).\n"
    "SIZE: bytes, or with K, M, G (powers of 1024).  docs/collect.md says more.\n";

static int usage_error(const char *format, ...) __attribute__((format(printf, 1, 2)));

static int usage_error(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    fputs(PROGRAM ": ", stderr);
    vfprintf(stderr, format, args);
    va_end(args);
    fputs("\n", stderr);
    fputs(usage_text, stderr);
    return 2;
}

/* ARGV[*I] as "--NAME VALUE" or "--NAME=VALUE": false if it is another
   option; *VALUE NULL when the value is missing.  */
static bool option_value(const char *name, int argc, char **argv, int *i, const char **value)
{
    size_t length = strlen(name);
    if (strncmp(argv[*i], name, length) != 0)
        return false;
    if (argv[*i][length] == '=')
        *value = argv[*i] + length + 1;
    else if (argv[*i][length] == '\0')
        *value = *i + 1 < argc ? argv[++*i] : NULL;
    else
        return false;
    return true;
}

static bool parse_number(const char *text, unsigned long long low, unsigned long long high,
                         bool sized, unsigned long long *out)
{
    if (!text || !*text || *text == '-')
        return false;
    char *end;
    errno = 0;
    unsigned long long value = strtoull(text, &end, 10);
    if (sized && *end) {
        int shift = *end == 'K' ? 10 : *end == 'M' ? 20 : *end == 'G' ? 30 : -1;
        if (shift < 0 || end[1] || value > (~0ULL >> shift))
            return false;
        value <<= shift;
        end++;
    }
    if (errno || *end || value < low || value > high)
        return false;
    *out = value;
    return true;
}

/* A numeric option of serve: 1 taken, 0 another option, -1 bad value.  */
struct numeric_option {
    const char *name;
    unsigned long long low, high;
    bool sized;
    size_t offset;
    size_t size;        /* of the field: unsigned, unsigned long or size_t */
};

#define NUMERIC(name, low, high, sized, field) \
    { name, low, high, sized, offsetof(struct service_options, field), \
      sizeof ((struct service_options *) 0)->field }

static const struct numeric_option numeric_options[] = {
    NUMERIC("--threads", 1, 64, false, threads),
    NUMERIC("--connections", 16, 1000000, false, connection_limit),
    NUMERIC("--address-connections", 1, 1000000, false, address_connection_limit),
    NUMERIC("--idle-timeout", 1, 3600, false, idle_timeout),
    NUMERIC("--request-timeout", 1, 3600, false, request_timeout),
    NUMERIC("--max-body", 1024, 1ULL << 30, true, body_max),
    NUMERIC("--max-report", 1024, 1ULL << 32, true, report_max),
    NUMERIC("--memory", 1ULL << 20, 1ULL << 40, true, memory_limit),
    NUMERIC("--key-quota", 0, 1000000000, false, key_quota),
    NUMERIC("--address-quota", 0, 1000000000, false, address_quota),
    NUMERIC("--batch", 1, 4096, false, batch_max),
    NUMERIC("--queue", 1, 1000000, false, queue_max),
    NUMERIC("--elimination-interval", 0, 86400, false, elimination_interval),
    NUMERIC("--elimination-steps", 0, 1000000, false, elimination_steps),
    NUMERIC("--fold-interval", 10, 3600000, false, fold_interval),
    NUMERIC("--fold-batch", 1, 100000, false, fold_batch),
};

static int take_numeric(struct service_options *options, int argc, char **argv, int *i)
{
    for (size_t k = 0; k < sizeof numeric_options / sizeof numeric_options[0]; k++) {
        const struct numeric_option *option = &numeric_options[k];
        const char *value;
        if (!option_value(option->name, argc, argv, i, &value))
            continue;
        unsigned long long number;
        if (!parse_number(value, option->low, option->high, option->sized, &number)) {
            usage_error("%s wants a number from %llu to %llu%s, not '%s'", option->name,
                        option->low, option->high, option->sized ? " (K, M, G allowed)" : "",
                        value ? value : "");
            return -1;
        }
        char *field = (char *) options + option->offset;
        if (option->size == sizeof (unsigned))
            *(unsigned *) field = (unsigned) number;
        else
            *(unsigned long *) field = (unsigned long) number;
        return 1;
    }
    return 0;
}

static int serve(int argc, char **argv)
{
    struct service_options options;
    service_options_default(&options);
    const char **texts[] = {
        &options.store_url, &options.listen, &options.pages_listen, &options.port_file,
        &options.tls_cert, &options.tls_key, &options.trusted_proxy,
    };
    const char *names[] = {
        "--store", "--listen", "--pages-listen", "--port-file", "--tls-cert", "--tls-key",
        "--trusted-proxy",
    };
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--no-pages") == 0) {
            options.no_pages = true;
            continue;
        }
        int taken = take_numeric(&options, argc, argv, &i);
        if (taken < 0)
            return 2;
        for (size_t k = 0; !taken && k < sizeof names / sizeof names[0]; k++) {
            const char *value;
            if (!option_value(names[k], argc, argv, &i, &value))
                continue;
            if (!value || !*value)
                return usage_error("%s needs a value", names[k]);
            *texts[k] = value;
            taken = 1;
        }
        if (!taken)
            return usage_error("unknown argument '%s' for serve", argv[i]);
    }
    if (!options.store_url)
        return usage_error("serve needs --store URL");
    if (!options.tls_cert != !options.tls_key)
        return usage_error("give --tls-cert and --tls-key together");
    return service_run(&options);
}

/* The commands that take --store URL and a few arguments of their own.  */
struct store_command {
    const char *store_url;
    const char **words;
    size_t n_words;
};

static void append(const char ***items, size_t *n, const char *item)
{
    *items = xrealloc(*items, (*n + 1) * sizeof **items);
    (*items)[(*n)++] = item;
}

static int register_release(int argc, char **argv)
{
    struct release_registration registration = { 0 };
    const char *store_url = NULL;
    for (int i = 1; i < argc; i++) {
        const char *value;
        const char ***list = NULL;
        size_t *count = NULL;
        const char **single = NULL;
        if (option_value("--binary", argc, argv, &i, &value)) {
            list = &registration.binaries;
            count = &registration.n_binaries;
        } else if (option_value("--sites", argc, argv, &i, &value)) {
            list = &registration.site_files;
            count = &registration.n_site_files;
        } else if (option_value("--key", argc, argv, &i, &value)) {
            list = &registration.keys;
            count = &registration.n_keys;
        } else if (option_value("--store", argc, argv, &i, &value)) {
            single = &store_url;
        } else if (option_value("--product", argc, argv, &i, &value)) {
            single = &registration.product;
        } else if (option_value("--version", argc, argv, &i, &value)) {
            single = &registration.version;
        } else if (option_value("--fail-if", argc, argv, &i, &value)) {
            single = &registration.fail_if;
        } else if (option_value("--hourly-quota", argc, argv, &i, &value)) {
            unsigned long long quota;
            if (!parse_number(value, 0, 1000000000, false, &quota))
                return usage_error("--hourly-quota wants a number of reports, not '%s'",
                                   value ? value : "");
            registration.hourly_quota = (unsigned long) quota;
            continue;
        } else {
            return usage_error("unknown argument '%s' for register-release", argv[i]);
        }
        if (!value || !*value)
            return usage_error("%s needs a value", argv[i]);
        if (list)
            append(list, count, value);
        else
            *single = value;
    }
    if (!store_url)
        return usage_error("register-release needs --store URL");
    if (!registration.product != !registration.version)
        return usage_error("give --product and --version together");
    struct store *store;
    struct diag d;
    int from;
    bool ok = store_open(&store, store_url, &d);
    if (ok) {
        ok = schema_make_current(store, &from, &d) && release_register(store, &registration, &d);
        store_close(store);
    }
    free(registration.binaries);
    free(registration.site_files);
    free(registration.keys);
    if (!ok)
        fprintf(stderr, PROGRAM ": %s\n", d.message);
    return ok ? 0 : 1;
}

static int read_store_command(int argc, char **argv, size_t n_words,
                              struct store_command *command)
{
    memset(command, 0, sizeof *command);
    for (int i = 1; i < argc; i++) {
        const char *value;
        if (option_value("--store", argc, argv, &i, &value)) {
            if (!value || !*value)
                return usage_error("--store needs a URL");
            command->store_url = value;
        } else if (argv[i][0] == '-') {
            return usage_error("unknown option '%s' for %s", argv[i], argv[0]);
        } else {
            append(&command->words, &command->n_words, argv[i]);
        }
    }
    if (!command->store_url)
        return usage_error("%s needs --store URL", argv[0]);
    if (command->n_words != n_words)
        return usage_error("%s takes %zu argument%s besides --store", argv[0], n_words,
                           n_words == 1 ? "" : "s");
    return 0;
}

static int store_command(int argc, char **argv)
{
    const char *name = argv[0];
    size_t n_words = strcmp(name, "retire-release") == 0 || strcmp(name, "revoke-key") == 0;
    struct store_command command;
    int status = read_store_command(argc, argv, n_words, &command);
    if (status)
        return status;
    struct store *store;
    struct diag d;
    int from;
    bool ok = store_open(&store, command.store_url, &d)
              && schema_make_current(store, &from, &d);
    if (ok && strcmp(name, "migrate") == 0)
        printf(PROGRAM ": the store is of version %d%s\n", SCHEMA_VERSION,
               from == 0 ? " (created)" : from < SCHEMA_VERSION ? " (migrated)" : "");
    else if (ok && strcmp(name, "retire-release") == 0)
        ok = release_retire(store, command.words[0], &d);
    else if (ok && strcmp(name, "revoke-key") == 0)
        ok = release_revoke_key(store, command.words[0], &d);
    else if (ok)
        ok = releases_list(store, &d);
    if (store)
        store_close(store);
    free(command.words);
    if (!ok)
        fprintf(stderr, PROGRAM ": %s\n", d.message);
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return usage_error("no command given");
    const char *command = argv[1];
    if (strcmp(command, "--help") == 0 || strcmp(command, "-h") == 0
        || strcmp(command, "help") == 0) {
        fputs(usage_text, stdout);
        return 0;
    }
    if (strcmp(command, "serve") == 0)
        return serve(argc - 1, argv + 1);
    if (strcmp(command, "register-release") == 0)
        return register_release(argc - 1, argv + 1);
    if (strcmp(command, "retire-release") == 0 || strcmp(command, "revoke-key") == 0
        || strcmp(command, "releases") == 0 || strcmp(command, "migrate") == 0)
        return store_command(argc - 1, argv + 1);
    return usage_error("unknown command '%s'", command);
}
