/* Run ids (run-id.h).  */
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "run-id.h"
#include "sampler-internal.h"

void sampler_run_id_new(unsigned char id[SAMPLER_RUN_ID_BYTES])
{
    static atomic_ulong fallbacks;

    if (getrandom(id, SAMPLER_RUN_ID_BYTES, GRND_NONBLOCK) == SAMPLER_RUN_ID_BYTES)
        return;
    /* Unique rather than unpredictable: what differs between runs, and a
       counter for the sequences of one process.  */
    struct timespec now = { 0, 0 };
    clock_gettime(CLOCK_REALTIME, &now);
    uint64_t halves[2];
    halves[0] = sampler_mix64((uint64_t)now.tv_sec * UINT64_C(1000000000)
                              + (uint64_t)now.tv_nsec);
    halves[1] = sampler_mix64((uint64_t)getpid() ^ (uint64_t)(uintptr_t)&now
                              ^ ((uint64_t)atomic_fetch_add(&fallbacks, 1) << 32));
    halves[0] = sampler_mix64(halves[0] ^ halves[1]);
    memcpy(id, halves, SAMPLER_RUN_ID_BYTES);
}

void sampler_run_id_format(const unsigned char id[SAMPLER_RUN_ID_BYTES],
                           char text[2 * SAMPLER_RUN_ID_BYTES + 1])
{
    static const char hex[] = "0123456789abcdef";

    for (unsigned i = 0; i < SAMPLER_RUN_ID_BYTES; i++) {
        text[2 * i] = hex[id[i] >> 4];
        text[2 * i + 1] = hex[id[i] & 0xf];
    }
    text[2 * SAMPLER_RUN_ID_BYTES] = '\0';
}
