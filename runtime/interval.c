/* Interim reports every SAMPLER_INTERVAL seconds, for processes that run
   for long or never exit (online reporting, as in the OSP thesis: Oren,
   Online Subpath Profiling, M.Sc. thesis, 2002): a thread of the runtime
   sleeps and writes them.  It blocks every signal, so that the program's
   signals go to the program's threads, and stops once the final report is
   written (report-writer/writer.c writes no interim report after it).  */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>

#include "sampler-internal.h"

/* The report writer needs little stack: its buffers are static.  */
#define INTERVAL_THREAD_STACK (64 * 1024)

static void *write_interim_reports(void *data)
{
    const long interval = (long)(intptr_t)data;
    struct timespec next;

    clock_gettime(CLOCK_MONOTONIC, &next);
    for (;;) {
        next.tv_sec += interval;
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR)
            ;
        (void)sampler_report_write(SAMPLER_INTERIM, 0);
    }
    return NULL;
}

void sampler_interval_start(const struct sampler_config *config)
{
    pthread_attr_t attributes;
    pthread_t thread;
    sigset_t all, saved_mask;

    if (config->interval <= 0 || pthread_attr_init(&attributes) != 0)
        return;
    int saved_errno = errno;
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attributes, INTERVAL_THREAD_STACK);
    /* The new thread starts with every signal blocked.  */
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &saved_mask);
    if (pthread_create(&thread, &attributes, write_interim_reports,
                       (void *)(intptr_t)config->interval) == 0)
        pthread_setname_np(thread, "sampler-report");
    else
        sampler_warn("sampler: cannot start the thread for SAMPLER_INTERVAL: "
                     "no interim reports");
    pthread_sigmask(SIG_SETMASK, &saved_mask, NULL);
    pthread_attr_destroy(&attributes);
    errno = saved_errno;
}
