/* The service's pages (pages.h).  */
#include "pages.h"

#include <stdio.h>
#include <string.h>

#include "http.h"

bool pages_start(struct service *service, struct diag *d)
{
    (void) service;
    (void) d;
    return true;
}

void pages_stop(struct service *service)
{
    (void) service;
}

enum MHD_Result pages_answer(struct service *service, struct MHD_Connection *connection,
                             const char *url)
{
    if (strcmp(url, "/v1/status") == 0) {
        char text[512];
        struct writer *w = &service->writer;
        int n = snprintf(text, sizeof text, "stored %lu\nduplicates %lu\nrefused %lu\n"
                         "batches %lu\nfailed-batches %lu\nstore %s\n",
                         atomic_load(&w->stored), atomic_load(&w->duplicates),
                         atomic_load(&w->refused), atomic_load(&w->batches),
                         atomic_load(&w->failed_batches),
                         atomic_load(&w->store_up) ? "up" : "down");
        return http_send(connection, 200, "text/plain; charset=utf-8", text, (size_t) n, 0);
    }
    static const char missing[] = "no such page\n";
    return http_send(connection, 404, "text/plain; charset=utf-8", missing, sizeof missing - 1,
                     0);
}
