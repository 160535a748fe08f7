/* The service's requests (http.c): uploads to /v1/reports, pages for GET.  */
#ifndef SAMPLER_COLLECT_HTTP_H
#define SAMPLER_COLLECT_HTTP_H

#include <stdbool.h>
#include <stddef.h>

#include <microhttpd.h>

#include "service.h"

/* libmicrohttpd's access handler and completion callback; CONTEXT is the
   service.  */
enum MHD_Result http_handle(void *context, struct MHD_Connection *connection,
                            const char *url, const char *method, const char *version,
                            const char *upload_data, size_t *upload_data_size,
                            void **connection_context);
void http_completed(void *context, struct MHD_Connection *connection,
                    void **connection_context, enum MHD_RequestTerminationCode code);

/* Queues an answer of STATUS with BODY (copied), and Retry-After when
   RETRY_AFTER is not 0.  */
enum MHD_Result http_send(struct MHD_Connection *connection, unsigned status,
                          const char *content_type, const void *body, size_t size,
                          unsigned retry_after);

#endif
