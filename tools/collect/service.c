/* Starting and stopping the service (service.h): the store made current,
   the releases loaded, the writer and the listeners started; systemd's
   readiness notice and socket activation; signals.  */
#include "service.h"

#include <errno.h>
#include <netdb.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <microhttpd.h>

#include "http.h"
#include "pages.h"
#include "schema.h"

#define PROGRAM "sampler-collect"

void service_options_default(struct service_options *options)
{
    memset(options, 0, sizeof *options);
    options->listen = "127.0.0.1:8439";
    options->threads = 2;
    options->connection_limit = 10000;
    options->address_connection_limit = 64;
    options->idle_timeout = 30;
    options->request_timeout = 60;
    options->body_max = 16u << 20;
    options->report_max = 64u << 20;
    options->memory_limit = 1024u << 20;
    options->address_quota = 3600;
    options->batch_max = 256;
    options->queue_max = 4096;
    options->elimination_interval = 60;
    options->elimination_steps = 20;
    options->fold_interval = 1000;
    options->fold_batch = 1000;
}

static void say(const char *format, ...) __attribute__((format(printf, 1, 2)));

static void say(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    fputs(PROGRAM ": ", stderr);
    vfprintf(stderr, format, args);
    va_end(args);
    fputc('\n', stderr);
}

/* systemd's notification socket, if the service runs under it
   (sd_notify(3), without libsystemd).  */
static void notify_systemd(const char *state)
{
    const char *path = getenv("NOTIFY_SOCKET");
    if (!path || (path[0] != '/' && path[0] != '@') || strlen(path) >= 108)
        return;
    struct sockaddr_un address = { .sun_family = AF_UNIX };
    memcpy(address.sun_path, path, strlen(path));
    if (path[0] == '@')
        address.sun_path[0] = '\0';
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return;
    socklen_t length = (socklen_t) (offsetof(struct sockaddr_un, sun_path) + strlen(path));
    if (sendto(fd, state, strlen(state), MSG_NOSIGNAL, (struct sockaddr *) &address, length) < 0)
        say("cannot notify systemd: %s", strerror(errno));
    close(fd);
}

/* A socket systemd passed (socket activation, sd_listen_fds(3)), or -1.  */
static int activated_socket(void)
{
    const char *pid = getenv("LISTEN_PID"), *fds = getenv("LISTEN_FDS");
    if (!pid || !fds || strtol(pid, NULL, 10) != (long) getpid() || atoi(fds) < 1)
        return -1;
    return 3;
}

/* ADDRESS:PORT ([v6]:PORT) as a socket address.  */
static bool parse_listen(const char *listen, struct sockaddr_storage *out, bool *ipv6,
                         struct diag *d)
{
    char host[256], port[16];
    const char *colon = strrchr(listen, ':');
    if (!colon || colon == listen || !colon[1] || strlen(colon + 1) >= sizeof port)
        return diag_fail(d, "--listen wants ADDRESS:PORT, not '%s'", listen);
    size_t host_length = (size_t) (colon - listen);
    const char *start = listen;
    if (*start == '[' && colon[-1] == ']') {
        start++;
        host_length -= 2;
    }
    if (host_length >= sizeof host)
        return diag_fail(d, "--listen: address too long in '%s'", listen);
    memcpy(host, start, host_length);
    host[host_length] = '\0';
    snprintf(port, sizeof port, "%s", colon + 1);
    struct addrinfo hints = { .ai_flags = AI_PASSIVE | AI_NUMERICSERV,
                              .ai_socktype = SOCK_STREAM };
    struct addrinfo *found;
    int status = getaddrinfo(host, port, &hints, &found);
    if (status != 0)
        return diag_fail(d, "--listen %s: %s", listen, gai_strerror(status));
    memcpy(out, found->ai_addr, found->ai_addrlen);
    *ipv6 = found->ai_family == AF_INET6;
    freeaddrinfo(found);
    return true;
}

static bool read_pem(const char *path, char **out, struct diag *d)
{
    struct byte_buffer text = { 0 };
    if (!read_whole_file(path, &text, d))
        return false;
    buffer_append(&text, "", 1);
    *out = text.data;
    return true;
}

struct listener {
    struct MHD_Daemon *daemon;
    char *cert, *key;
};

static bool start_listener(struct service *service, struct listener *listener,
                           const char *listen, bool may_activate, struct diag *d)
{
    const struct service_options *options = &service->options;
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME
                     | MHD_USE_ERROR_LOG;
    struct sockaddr_storage address;
    bool ipv6 = false;
    int fd = may_activate ? activated_socket() : -1;
    if (fd < 0 && !parse_listen(listen, &address, &ipv6, d))
        return false;
    if (ipv6)
        flags |= MHD_USE_IPv6;
    struct MHD_OptionItem items[16];
    unsigned n = 0;
    if (options->tls_cert) {
        if (!MHD_is_feature_supported(MHD_FEATURE_TLS))
            return diag_fail(d, "this libmicrohttpd has no TLS: use a reverse proxy "
                             "(docs/collect.md)");
        if (!read_pem(options->tls_cert, &listener->cert, d)
            || !read_pem(options->tls_key, &listener->key, d))
            return false;
        flags |= MHD_USE_TLS;
        items[n++] = (struct MHD_OptionItem) { MHD_OPTION_HTTPS_MEM_CERT, 0, listener->cert };
        items[n++] = (struct MHD_OptionItem) { MHD_OPTION_HTTPS_MEM_KEY, 0, listener->key };
    }
    if (fd >= 0)
        items[n++] = (struct MHD_OptionItem) { MHD_OPTION_LISTEN_SOCKET, fd, NULL };
    else
        items[n++] = (struct MHD_OptionItem) { MHD_OPTION_SOCK_ADDR, 0, &address };
    if (options->threads > 1)
        items[n++] = (struct MHD_OptionItem) { MHD_OPTION_THREAD_POOL_SIZE, options->threads,
                                               NULL };
    items[n++] = (struct MHD_OptionItem) { MHD_OPTION_CONNECTION_LIMIT,
                                           options->connection_limit, NULL };
    items[n++] = (struct MHD_OptionItem) { MHD_OPTION_PER_IP_CONNECTION_LIMIT,
                                           options->address_connection_limit, NULL };
    items[n++] = (struct MHD_OptionItem) { MHD_OPTION_CONNECTION_TIMEOUT,
                                           options->idle_timeout, NULL };
    /* Room for a request's headers: a report's are a few hundred bytes.  */
    items[n++] = (struct MHD_OptionItem) { MHD_OPTION_CONNECTION_MEMORY_LIMIT, 32 * 1024,
                                           NULL };
    items[n++] = (struct MHD_OptionItem) { MHD_OPTION_LISTEN_BACKLOG_SIZE, 1024, NULL };
    items[n++] = (struct MHD_OptionItem) { MHD_OPTION_END, 0, NULL };
    listener->daemon = MHD_start_daemon(flags, 0, NULL, NULL, http_handle, service,
                                        MHD_OPTION_NOTIFY_COMPLETED, http_completed, service,
                                        MHD_OPTION_ARRAY, items, MHD_OPTION_END);
    if (!listener->daemon)
        return diag_fail(d, "cannot listen on %s (in use, or not an address of this machine?)",
                         fd >= 0 ? "the socket systemd passed" : listen);
    return true;
}

static unsigned bound_port(const struct listener *listener)
{
    const union MHD_DaemonInfo *info =
        MHD_get_daemon_info(listener->daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

static void stop_listener(struct listener *listener)
{
    if (listener->daemon)
        MHD_stop_daemon(listener->daemon);
    free(listener->cert);
    free(listener->key);
    memset(listener, 0, sizeof *listener);
}

static bool write_port_file(const char *path, unsigned port, unsigned pages_port,
                            struct diag *d)
{
    char temporary[4096];
    snprintf(temporary, sizeof temporary, "%s.tmp", path);
    FILE *file = fopen(temporary, "w");
    if (!file)
        return diag_fail(d, "cannot write %s: %s", temporary, strerror(errno));
    fprintf(file, "%u\n", port);
    if (pages_port)
        fprintf(file, "%u\n", pages_port);
    if (fclose(file) != 0 || rename(temporary, path) != 0)
        return diag_fail(d, "cannot write %s: %s", path, strerror(errno));
    return true;
}

/* As many descriptors as the system lets us: each connection is one.  */
static void raise_descriptor_limit(void)
{
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
        limit.rlim_cur = limit.rlim_max;
        setrlimit(RLIMIT_NOFILE, &limit);
    }
}

/* Opens the store, makes its schema current, loads the releases.  */
static bool open_store(struct service *service, struct diag *d)
{
    char shown[512];
    store_describe_url(service->options.store_url, shown, sizeof shown);
    int from;
    if (!store_open(&service->reader, service->options.store_url, d)
        || !schema_make_current(service->reader, &from, d))
        return false;
    if (from == 0)
        say("store %s (%s) created, version %d", shown,
            store_engine_name(store_engine(service->reader)), SCHEMA_VERSION);
    else if (from < SCHEMA_VERSION)
        say("store %s migrated from version %d to %d", shown, from, SCHEMA_VERSION);
    if (!registry_reload(&service->registry, service->reader, d))
        return false;
    say("store %s (%s, version %d): %zu releases", shown,
        store_engine_name(store_engine(service->reader)), SCHEMA_VERSION,
        service->registry.n_releases);
    return true;
}

/* Waits for SIGTERM or SIGINT; SIGHUP reloads the releases.  */
static void wait_for_signals(struct service *service, const sigset_t *signals)
{
    for (;;) {
        int signal_number;
        if (sigwait(signals, &signal_number) != 0)
            continue;
        if (signal_number != SIGHUP) {
            say("%s: stopping", strsignal(signal_number));
            return;
        }
        struct diag d;
        pthread_mutex_lock(&service->reader_lock);
        bool ok = registry_reload(&service->registry, service->reader, &d);
        pthread_mutex_unlock(&service->reader_lock);
        if (ok)
            say("releases reloaded: %zu", service->registry.n_releases);
        else
            say("reloading the releases: %s", d.message);
    }
}

int service_run(const struct service_options *options)
{
    struct service *service = xcalloc(1, sizeof *service);
    service->options = *options;
    registry_init(&service->registry);
    pthread_mutex_init(&service->reader_lock, NULL);
    pthread_mutex_init(&service->analysis_lock, NULL);
    quota_table_init(&service->key_quotas);
    quota_table_init(&service->address_quotas);
    service->budget.limit = options->memory_limit;
    service->limits = (struct upload_limits) { options->body_max, options->report_max,
                                               &service->budget };
    /* Signals go to sigwait, not to the threads started below.  */
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGTERM);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &signals, NULL);
    signal(SIGPIPE, SIG_IGN);
    raise_descriptor_limit();

    struct diag d;
    struct listener uploads = { 0 }, pages = { 0 };
    bool pages_apart = options->pages_listen && !options->no_pages;
    bool ok = open_store(service, &d)
              && folder_start(&service->folder, options->store_url, &service->registry,
                              options->fold_interval, options->fold_batch, options->report_max,
                              &service->analysis_lock, &d)
              && writer_start(&service->writer, options->store_url, options->batch_max,
                              options->queue_max, &service->folder, &d)
              && pages_start(service, &d)
              && start_listener(service, &uploads, options->listen, true, &d)
              && (!pages_apart || start_listener(service, &pages, options->pages_listen, false,
                                                 &d));
    if (ok && options->port_file)
        ok = write_port_file(options->port_file, bound_port(&uploads),
                             pages_apart ? bound_port(&pages) : 0, &d);
    int status = 0;
    if (ok) {
        say("listening on port %u%s%s", bound_port(&uploads), options->tls_cert ? " (HTTPS)" : "",
            options->no_pages ? ", no pages" : "");
        notify_systemd("READY=1");
        wait_for_signals(service, &signals);
        notify_systemd("STOPPING=1");
    } else {
        say("%s", d.message);
        status = 1;
    }
    /* No new connection; the writer answers what waits; then the rest.  */
    if (uploads.daemon)
        MHD_quiesce_daemon(uploads.daemon);
    writer_stop(&service->writer);
    folder_stop(&service->folder);
    stop_listener(&uploads);
    stop_listener(&pages);
    pages_stop(service);
    store_close(service->reader);
    registry_free(&service->registry);
    quota_table_free(&service->key_quotas);
    quota_table_free(&service->address_quotas);
    pthread_mutex_destroy(&service->reader_lock);
    pthread_mutex_destroy(&service->analysis_lock);
    free(service);
    return status;
}
