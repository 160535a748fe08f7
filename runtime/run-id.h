/* Run ids: a random 128-bit number in every report (its `run-id' record),
   one per sequence of reports (a process image between resets), so that
   a collector stores a run once however often it is sent
   (docs/remote.md).  */
#ifndef SAMPLER_RUN_ID_H
#define SAMPLER_RUN_ID_H

#define SAMPLER_RUN_ID_BYTES 16

/* A fresh id from the kernel's random source; where there is none (early
   boot, seccomp), from the time, the pid, an address and a counter,
   mixed.  Async-signal-safe (a system call).  */
void sampler_run_id_new(unsigned char id[SAMPLER_RUN_ID_BYTES]);

/* ID as 32 lowercase hex digits and a NUL.  */
void sampler_run_id_format(const unsigned char id[SAMPLER_RUN_ID_BYTES],
                           char text[2 * SAMPLER_RUN_ID_BYTES + 1]);

#endif
