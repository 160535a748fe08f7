/* One report to the collector: gzip, POST, and what the answer means
   (docs/remote.md, "The upload protocol").  Whatever goes wrong on the
   way -- no network, a TLS failure, a redirect, an answer that is not
   HTTP or does not say the report was stored, a collector that answers
   too slowly -- keeps the report for a later round.  */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>
#include <zlib.h>

#include "submit.h"

/* The collector's answer is short; a longer one is not an answer.  */
#define ANSWER_MAX 4096
/* Connecting takes at most this long, in seconds.  */
#define CONNECT_TIMEOUT 15

void upload_endpoint(const char *collector, char *url, size_t size)
{
    size_t length = strlen(collector);
    while (length > 0 && collector[length - 1] == '/')
        length--;
    snprintf(url, size, "%.*s/v1/reports", (int)length, collector);
}

/* TEXT compressed with gzip (malloc'd), its length in *COMPRESSED.  */
static unsigned char *gzip(const char *text, size_t length, size_t *compressed)
{
    z_stream stream = { 0 };

    if (deflateInit2(&stream, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return NULL;
    size_t bound = deflateBound(&stream, (uLong)length);
    unsigned char *out = malloc(bound);
    if (out == NULL) {
        deflateEnd(&stream);
        return NULL;
    }
    stream.next_in = (unsigned char *)text;
    stream.avail_in = (uInt)length;
    stream.next_out = out;
    stream.avail_out = (uInt)bound;
    int status = deflate(&stream, Z_FINISH);
    *compressed = stream.total_out;
    deflateEnd(&stream);
    if (status != Z_STREAM_END) {
        free(out);
        return NULL;
    }
    return out;
}

struct answer_text {
    char body[ANSWER_MAX + 1];
    size_t length;
    bool too_long;
    long retry_after;       /* from Retry-After; 0: none */
    char location[256];     /* from Location */
};

static size_t take_body(char *data, size_t size, size_t count, void *context)
{
    struct answer_text *answer = context;
    size_t length = size * count;

    if (answer->length + length > ANSWER_MAX) {
        answer->too_long = true;
        return 0;   /* stops the transfer */
    }
    memcpy(answer->body + answer->length, data, length);
    answer->length += length;
    answer->body[answer->length] = '\0';
    return length;
}

/* Header NAME's value in LINE (LENGTH bytes, "Name: value\r\n") into
   VALUE, without the blanks and line end.  */
static bool header_value(const char *line, size_t length, const char *name, char *value,
                         size_t size)
{
    size_t name_length = strlen(name);

    if (length <= name_length || strncasecmp(line, name, name_length) != 0
        || line[name_length] != ':')
        return false;
    const char *start = line + name_length + 1, *end = line + length;
    while (start < end && isblank((unsigned char)*start))
        start++;
    while (end > start && isspace((unsigned char)end[-1]))
        end--;
    snprintf(value, size, "%.*s", (int)(end - start), start);
    return true;
}

static size_t take_header(char *data, size_t size, size_t count, void *context)
{
    struct answer_text *answer = context;
    size_t length = size * count;
    char value[256];

    if (header_value(data, length, "Retry-After", value, sizeof value)) {
        char *end;
        long seconds = strtol(value, &end, 10);
        if (end != value && *end == '\0' && seconds >= 0)
            answer->retry_after = seconds;
        else {
            /* An HTTP date.  */
            time_t when = curl_getdate(value, NULL);
            if (when > 0)
                answer->retry_after = when > time(NULL) ? (long)(when - time(NULL)) : 0;
        }
    }
    header_value(data, length, "Location", answer->location, sizeof answer->location);
    return length;
}

/* The answer's first line, made printable, for a message.  */
static void first_line(const struct answer_text *answer, char *out, size_t size)
{
    size_t n = 0;

    for (size_t i = 0; i < answer->length && answer->body[i] != '\n' && n + 5 < size && i < 200;
         i++) {
        unsigned char c = (unsigned char)answer->body[i];
        if (c == '\r')
            continue;
        n += (size_t)snprintf(out + n, size - n, c >= 0x20 && c < 0x7f ? "%c" : "\\x%02x", c);
    }
    out[n] = '\0';
}

static void classify(long code, const struct answer_text *answer, const char *run_id,
                     struct upload_result *result)
{
    char line[256];
    char stored[64], duplicate[64];

    first_line(answer, line, sizeof line);
    snprintf(stored, sizeof stored, "stored %s", run_id);
    snprintf(duplicate, sizeof duplicate, "duplicate %s", run_id);
    result->retry_after = answer->retry_after;
    if (code >= 200 && code < 300) {
        /* Only the collector's own words count: a proxy or a captive
           portal also answers 200.  */
        if (strcmp(line, stored) == 0 || strcmp(line, duplicate) == 0) {
            result->answer = ANSWER_STORED;
            snprintf(result->message, sizeof result->message, "%s (HTTP %ld)", line, code);
        } else {
            result->answer = ANSWER_LATER;
            snprintf(result->message, sizeof result->message,
                     "HTTP %ld, but the answer '%s' does not say that run %s is stored "
                     "(not a sampler collector, or a proxy in the way?); the report is kept",
                     code, line, run_id);
        }
    } else if (code >= 300 && code < 400) {
        result->answer = ANSWER_LATER;
        snprintf(result->message, sizeof result->message,
                 "HTTP %ld, a redirect to '%s': sampler-submit follows no redirect (the release's "
                 "collector URL may be out of date); the report is kept", code,
                 answer->location[0] != '\0' ? answer->location : "(nowhere)");
    } else if (code == 400 || code == 413 || code == 415 || code == 422) {
        result->answer = ANSWER_REFUSED;
        snprintf(result->message, sizeof result->message,
                 "HTTP %ld: the collector refuses this report for good: %s", code, line);
    } else if (code == 410) {
        result->answer = ANSWER_RETIRED;
        snprintf(result->message, sizeof result->message,
                 "HTTP 410: the collector takes no more reports of this release: %s", line);
    } else {
        /* 401, 403 (the key), 404, 429, 5xx and anything else: the report
           is fine, the collector is not ready for it.  */
        result->answer = ANSWER_LATER;
        snprintf(result->message, sizeof result->message, "HTTP %ld: %s; the report is kept",
                 code, line[0] != '\0' ? line : "(no explanation)");
    }
}

static struct curl_slist *request_headers(const char *key, const char *run_id)
{
    char authorization[SAMPLER_RELEASE_KEY_SIZE + 32], run[64];
    struct curl_slist *headers = NULL;

    snprintf(authorization, sizeof authorization, "Authorization: Bearer %s", key);
    snprintf(run, sizeof run, "Sampler-Run-Id: %s", run_id);
    const char *lines[] = { authorization, "Content-Type: application/x-sampler-report",
                            "Content-Encoding: gzip", run, "Expect:" };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        struct curl_slist *grown = curl_slist_append(headers, lines[i]);
        if (grown == NULL) {
            curl_slist_free_all(headers);
            return NULL;
        }
        headers = grown;
    }
    return headers;
}

void upload_report(const struct submit_options *options, const char *url, const char *key,
                   const char *run_id, const char *text, size_t length,
                   struct upload_result *result)
{
    static struct answer_text answer;
    char curl_error[CURL_ERROR_SIZE] = "";
    size_t compressed_length;

    memset(result, 0, sizeof *result);
    memset(&answer, 0, sizeof answer);
    result->answer = ANSWER_LATER;
    unsigned char *compressed = gzip(text, length, &compressed_length);
    struct curl_slist *headers = request_headers(key, run_id);
    CURL *curl = curl_easy_init();
    if (compressed == NULL || headers == NULL || curl == NULL) {
        snprintf(result->message, sizeof result->message, "out of memory; the report is kept");
        goto done;
    }
    if ((long long)compressed_length > SUBMIT_BODY_MAX) {
        result->answer = ANSWER_REFUSED;
        snprintf(result->message, sizeof result->message,
                 "compressed to %zu bytes, more than the protocol's %lld", compressed_length,
                 SUBMIT_BODY_MAX);
        goto done;
    }
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_POST, 1L);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, compressed);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)compressed_length);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_USERAGENT, "sampler-submit/1");
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, curl_error);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, options->timeout < CONNECT_TIMEOUT
                                                   ? options->timeout : (long)CONNECT_TIMEOUT);
    /* A collector that answers a byte at a time is no better than none.  */
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, options->timeout);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, take_body);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &answer);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, take_header);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &answer);
    if (options->ca_file != NULL)
        curl_easy_setopt(curl, CURLOPT_CAINFO, options->ca_file);
    CURLcode status = curl_easy_perform(curl);
    long code = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &code);
    if (status == CURLE_WRITE_ERROR && answer.too_long) {
        snprintf(result->message, sizeof result->message,
                 "HTTP %ld: the answer is longer than %d bytes, not a collector's; the report is "
                 "kept", code, ANSWER_MAX);
    } else if (status != CURLE_OK) {
        const char *what = status == CURLE_OPERATION_TIMEDOUT ? "the collector is too slow"
                           : status == CURLE_WEIRD_SERVER_REPLY
                                 || status == CURLE_UNSUPPORTED_PROTOCOL
                               ? "the answer is not HTTP"
                           : status == CURLE_GOT_NOTHING
                               ? "the collector closed the connection without an answer"
                           : status == CURLE_PEER_FAILED_VERIFICATION
                                 || status == CURLE_SSL_CONNECT_ERROR
                                 || status == CURLE_SSL_CACERT_BADFILE
                                 || status == CURLE_SSL_CERTPROBLEM
                               ? "TLS failure"
                               : "cannot reach the collector";
        snprintf(result->message, sizeof result->message, "%s at %s: %s; the report is kept",
                 what, url, curl_error[0] != '\0' ? curl_error : curl_easy_strerror(status));
    } else {
        classify(code, &answer, run_id, result);
    }
done:
    if (curl != NULL)
        curl_easy_cleanup(curl);
    curl_slist_free_all(headers);
    free(compressed);
}

bool upload_describe(const char *url, const char *key, const char *run_id, const char *text,
                     size_t length)
{
    size_t compressed_length;
    unsigned char *compressed = gzip(text, length, &compressed_length);

    if (compressed == NULL)
        return false;
    free(compressed);
    printf("POST %s\n"
           "Authorization: Bearer %s\n"
           "Content-Type: application/x-sampler-report\n"
           "Content-Encoding: gzip\n"
           "Sampler-Run-Id: %s\n"
           "Content-Length: %zu (the gzip of the %zu bytes below)\n\n",
           url, key, run_id, compressed_length, length);
    fwrite(text, 1, length, stdout);
    putchar('\n');
    return !ferror(stdout);
}
