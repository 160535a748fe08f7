/* The contract between code instrumented by sampler.so and libsampler.
   The plugin emits references to exactly these symbols; keep the two in step.

   Countdown convention: a countdown c >= 1 says that the c-th site visit from
   now is the next one sampled.  Every site visit decrements c; the visit that
   brings it to 0 is sampled and c is reloaded with __sampler_next_countdown().
   A thread whose countdown is still 0 (the TLS initial value) has not been
   started: instrumented code calls __sampler_thread_start() on its slow path
   when it sees 0.  When sampling is off, countdowns are SAMPLER_COUNTDOWN_OFF,
   so every threshold check takes the fast path.  */
#ifndef SAMPLER_ABI_H
#define SAMPLER_ABI_H

#include <limits.h>

#define SAMPLER_COUNTDOWN_OFF LONG_MAX

/* Initial-exec TLS: one %fs-relative load or store, no __tls_get_addr call,
   even in -fPIC code.  */
extern __thread long __sampler_countdown __attribute__((tls_model("initial-exec")));

/* Starts the calling thread's random stream (and the process's configuration
   on first use); returns its first countdown.  */
long __sampler_thread_start(void);

/* The calling thread's next countdown, from its pre-drawn bank.  */
long __sampler_next_countdown(void);

#endif
