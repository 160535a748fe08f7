/* libsampler's internal interface: shared between the runtime's own files
   and the unit tests, never exported from libsampler.so (the library is
   built with -fvisibility=hidden; only SAMPLER_EXPORT symbols are public).  */
#ifndef SAMPLER_INTERNAL_H
#define SAMPLER_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SAMPLER_EXPORT __attribute__((visibility("default")))

/* Largest accepted SAMPLER_SPARSITY (inverse sampling density).  */
#define SAMPLER_SPARSITY_MAX 1000000000L

/* Countdowns drawn per refill of a thread's bank.  */
#define SAMPLER_BANK_SIZE 1024

struct sampler_config {
    long sparsity;   /* inverse density; 0 means sampling is off */
    bool seeded;     /* the seed came from SAMPLER_SEED, so runs repeat */
    uint64_t seed;   /* base from which every thread's stream is derived */
};

/* Parses the values of SAMPLER_SPARSITY and SAMPLER_SEED (NULL = unset).
   Returns 0 when both are valid.  Otherwise returns -1, leaves sampling off
   in *out, and writes to err (if errlen > 0) one line per bad variable,
   without a final newline, naming the variable and its value.  A valid
   configuration without a seed has seeded == false and seed == 0; the caller
   supplies a fresh seed.  */
int sampler_config_parse(const char *sparsity, const char *seed,
                         struct sampler_config *out, char *err, size_t errlen);

/* Reads the real environment: parses it, writes any warning to stderr, and
   gives an unseeded configuration a fresh seed.  */
void sampler_config_from_environment(struct sampler_config *out);

/* A fresh 64-bit seed (getrandom, or a time/pid/address mix without it).  */
uint64_t sampler_fresh_seed(void);

/* A bijective 64-bit mixer (splitmix64's finaliser).  */
uint64_t sampler_mix64(uint64_t value);

/* The generator seed of the stream of the thread started order-th from
   base.  Distinct orders give distinct seeds for the same base.  */
uint32_t sampler_stream_seed(uint64_t base, unsigned long order);

/* The process configuration, read from the environment on first use
   (thread-safe).  */
const struct sampler_config *sampler_config_get(void);

/* A stream of geometric countdowns with mean sparsity (>= 1): a generator
   and its bank of pre-drawn values.  Streams are not thread-safe; each
   thread owns one.  sampler_stream_new returns NULL when out of memory.  */
struct sampler_stream;
struct sampler_stream *sampler_stream_new(long sparsity, uint64_t base,
                                          unsigned long order);
long sampler_stream_next(struct sampler_stream *stream);
void sampler_stream_free(struct sampler_stream *stream);

#endif
