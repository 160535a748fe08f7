/* The HTTP side of the service (http.h): each request, from its headers
   to its answer.  An upload is checked in the order docs/remote.md gives
   (path, key, headers, size, then the body), each refusal answered as
   soon as it is known: before the body is read, libmicrohttpd closes the
   connection after the answer.  A report that passes waits, its
   connection suspended, for the writer's answer.  */
#include "http.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>

#include "pages.h"

/* Past its answer, an upload refused while its body arrives may send this
   much more (it is read and thrown away) before the connection is closed.  */
enum { DISCARD_MAX = 1 << 20 };

enum request_kind { REQUEST_UPLOAD, REQUEST_ANSWERED };

struct request {
    enum request_kind kind;
    struct service *service;
    struct MHD_Connection *connection;
    struct upload upload;
    bool refused;                 /* answered before its body was all read */
    bool submitted;               /* waits for the writer */
    size_t discarded;
    struct timespec started;
};

static double seconds_since(const struct timespec *start)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double) (now.tv_sec - start->tv_sec) + (now.tv_nsec - start->tv_nsec) / 1e9;
}

enum MHD_Result http_send(struct MHD_Connection *connection, unsigned status,
                          const char *content_type, const void *body, size_t size,
                          unsigned retry_after)
{
    struct MHD_Response *response =
        MHD_create_response_from_buffer(size, (void *) body, MHD_RESPMEM_MUST_COPY);
    if (!response)
        return MHD_NO;
    MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE, content_type);
    MHD_add_response_header(response, "X-Content-Type-Options", "nosniff");
    if (retry_after) {
        char seconds[16];
        snprintf(seconds, sizeof seconds, "%u", retry_after);
        MHD_add_response_header(response, MHD_HTTP_HEADER_RETRY_AFTER, seconds);
    }
    enum MHD_Result result = MHD_queue_response(connection, status, response);
    MHD_destroy_response(response);
    return result;
}

static enum MHD_Result send_text(struct MHD_Connection *connection, unsigned status,
                                 unsigned retry_after, const char *text)
{
    char body[1024];
    int length = snprintf(body, sizeof body, "%s\n", text);
    if (length < 0 || (size_t) length >= sizeof body)
        length = (int) sizeof body - 1;
    return http_send(connection, status, "text/plain; charset=utf-8", body, (size_t) length,
                     retry_after);
}

/* The upload's answer, whatever it is.  */
static enum MHD_Result send_answer(struct request *request)
{
    struct upload *upload = &request->upload;
    request->kind = REQUEST_ANSWERED;
    return send_text(request->connection, upload->status, upload->retry_after, upload->answer);
}

/* The client's address: the connection's, or for a connection from the
   trusted proxy the last address its X-Forwarded-For names.  */
static void client_address(struct service *service, struct MHD_Connection *connection,
                           char *out, size_t size)
{
    snprintf(out, size, "unknown");
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (!info || !info->client_addr)
        return;
    const struct sockaddr *address = info->client_addr;
    socklen_t length = address->sa_family == AF_INET6 ? sizeof (struct sockaddr_in6)
                                                      : sizeof (struct sockaddr_in);
    if (getnameinfo(address, length, out, (socklen_t) size, NULL, 0, NI_NUMERICHOST) != 0)
        snprintf(out, size, "unknown");
    const char *proxy = service->options.trusted_proxy;
    if (!proxy || strcmp(out, proxy) != 0)
        return;
    const char *forwarded = MHD_lookup_connection_value(connection, MHD_HEADER_KIND,
                                                        "X-Forwarded-For");
    if (!forwarded)
        return;
    const char *last = strrchr(forwarded, ',');
    last = last ? last + 1 : forwarded;
    while (*last == ' ')
        last++;
    size_t n = strcspn(last, " ");
    if (n > 0 && n < size && n < 64)
        snprintf(out, size, "%.*s", (int) n, last);
}

static const char *header(struct MHD_Connection *connection, const char *name)
{
    return MHD_lookup_connection_value(connection, MHD_HEADER_KIND, name);
}

/* A media type without its parameters equals TYPE.  */
static bool media_type_is(const char *value, const char *type)
{
    if (!value)
        return false;
    size_t length = strcspn(value, ";");
    while (length > 0 && value[length - 1] == ' ')
        length--;
    return length == strlen(type) && strncasecmp(value, type, length) == 0;
}

/* What the headers of an upload allow: its release, else the answer.  */
static bool start_upload(struct request *request)
{
    struct service *service = request->service;
    struct MHD_Connection *connection = request->connection;
    struct upload *upload = &request->upload;
    upload_init(upload, &service->limits, NULL, "");
    const char *authorization = header(connection, MHD_HTTP_HEADER_AUTHORIZATION);
    if (!authorization)
        return upload_answer(upload, 401, 0, "no upload key: send Authorization: Bearer KEY");
    if (strncasecmp(authorization, "Bearer ", 7) != 0 || !upload_key_valid(authorization + 7))
        return upload_answer(upload, 401, 0, "the Authorization header is not Bearer and an "
                             "upload key");
    struct key_grant grant = registry_find_key(&service->registry, authorization + 7,
                                               service->reader, &service->reader_lock);
    if (grant.state == KEY_UNKNOWN)
        return upload_answer(upload, 401, 0, "unknown upload key");
    if (grant.state == KEY_REVOKED)
        return upload_answer(upload, 403, 0, "the upload key is revoked");
    if (atomic_load(&grant.release->retired))
        return upload_answer(upload, 410, 0, "release %s takes no more reports",
                             grant.release->name);
    upload->release = grant.release;
    char address[128];
    client_address(service, connection, address, sizeof address);
    unsigned long key_quota = grant.hourly_quota ? grant.hourly_quota
                                                 : service->options.key_quota;
    unsigned wait = quota_take(&service->key_quotas, authorization + 7, key_quota);
    if (wait)
        return upload_answer(upload, 429, wait, "release %s's key is over its quota of %lu "
                             "reports an hour; try later", grant.release->name, key_quota);
    wait = quota_take(&service->address_quotas, address, service->options.address_quota);
    if (wait)
        return upload_answer(upload, 429, wait, "%s is over its quota of %lu reports an hour; "
                             "try later", address, service->options.address_quota);
    if (!media_type_is(header(connection, MHD_HTTP_HEADER_CONTENT_TYPE),
                       "application/x-sampler-report"))
        return upload_answer(upload, 415, 0, "Content-Type must be application/x-sampler-report");
    const char *encoding = header(connection, MHD_HTTP_HEADER_CONTENT_ENCODING);
    if (!encoding || strcasecmp(encoding, "gzip") != 0)
        return upload_answer(upload, 415, 0, "Content-Encoding must be gzip");
    const char *run_id = header(connection, "Sampler-Run-Id");
    if (!run_id || !run_id_valid(run_id))
        return upload_answer(upload, 400, 0, "Sampler-Run-Id must be the report's run id, 32 "
                             "lowercase hex digits");
    snprintf(upload->run_id, sizeof upload->run_id, "%s", run_id);
    const char *length = header(connection, MHD_HTTP_HEADER_CONTENT_LENGTH);
    if (length && strtoull(length, NULL, 10) > service->limits.body_max)
        return upload_answer(upload, 413, 0, "the body is longer than %zu bytes (the "
                             "protocol's limit)", service->limits.body_max);
    return true;
}

static void resume(struct upload *upload)
{
    struct request *request = upload->context;
    MHD_resume_connection(request->connection);
}

/* The body is complete: the report is read, checked and handed to the
   writer; the connection waits for its answer.  */
static enum MHD_Result finish_upload(struct request *request)
{
    struct upload *upload = &request->upload;
    if (request->submitted || upload->status)
        return send_answer(request);
    if (!upload_finish(upload))
        return send_answer(request);
    upload->answered = resume;
    upload->context = request;
    request->submitted = true;
    MHD_suspend_connection(request->connection);
    if (!writer_submit(&request->service->writer, upload))
        MHD_resume_connection(request->connection);
    return MHD_YES;
}

static enum MHD_Result take_body(struct request *request, const char *data, size_t *size)
{
    struct service *service = request->service;
    if (seconds_since(&request->started) > service->options.request_timeout) {
        upload_answer(&request->upload, 408, 0, "the upload took longer than %u s",
                      service->options.request_timeout);
        return MHD_NO;     /* a slow drip: closed */
    }
    if (request->refused) {
        request->discarded += *size;
        *size = 0;
        return request->discarded > DISCARD_MAX ? MHD_NO : MHD_YES;
    }
    if (!upload_feed(&request->upload, data, *size))
        request->refused = true;
    *size = 0;
    return MHD_YES;
}

enum MHD_Result http_handle(void *context, struct MHD_Connection *connection,
                            const char *url, const char *method, const char *version,
                            const char *upload_data, size_t *upload_data_size,
                            void **connection_context)
{
    (void) version;
    struct service *service = context;
    struct request *request = *connection_context;
    if (request) {
        if (request->kind != REQUEST_UPLOAD)
            return MHD_NO;
        if (*upload_data_size)
            return take_body(request, upload_data, upload_data_size);
        return finish_upload(request);
    }
    if (strcmp(url, "/v1/reports") == 0 && strcmp(method, MHD_HTTP_METHOD_POST) != 0)
        return send_text(connection, 405, 0, "reports are sent with POST");
    if (strcmp(url, "/v1/reports") != 0) {
        if (strcmp(method, MHD_HTTP_METHOD_GET) == 0 || strcmp(method, MHD_HTTP_METHOD_HEAD) == 0)
            return pages_answer(service, connection, url);
        return send_text(connection, 404, 0, "no such endpoint (reports go to /v1/reports)");
    }
    request = xcalloc(1, sizeof *request);
    request->service = service;
    request->connection = connection;
    clock_gettime(CLOCK_MONOTONIC, &request->started);
    *connection_context = request;
    if (!start_upload(request))
        return send_answer(request);
    return MHD_YES;
}

void http_completed(void *context, struct MHD_Connection *connection,
                    void **connection_context, enum MHD_RequestTerminationCode code)
{
    (void) context;
    (void) connection;
    (void) code;
    struct request *request = *connection_context;
    if (!request)
        return;
    upload_free(&request->upload);
    free(request);
    *connection_context = NULL;
}
