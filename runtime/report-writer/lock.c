/* Crash-safe writing: the report lock, and the signals held while a
   report is written.

   What: one report at a time, from any thread or from a fatal-signal
   handler.  The lock is the writer's thread id in an atomic int, so that
   a handler can try it without blocking for good (it gives up after
   SIGNAL_LOCK_WAIT_MS), and can tell a crash in its own thread's report
   (it holds the lock already: give up) from another thread's report
   (wait).  While a report is written, SIGPIPE and SIGXFSZ, which the
   writing itself may raise, are blocked and taken back; the terminating
   signals wait for the report (and then have one of their own).

   Why: a run that dies of a signal must still leave its report, and a
   report must never kill the program it describes.

   How to debug: testsuite/runtime/crash.c and terminate.c, and
   test-report's signal cases.  */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>

#include "report-writer.h"

/* A fatal-signal handler waits at most this many milliseconds for another
   thread's report to finish.  */
#define SIGNAL_LOCK_WAIT_MS 3000

/* The thread id of the report writer, 0 when none: a lock that a signal
   handler can try without blocking for good, and that tells a thread
   which already holds it (a crash while writing a report) from another.  */
static atomic_int report_owner;

/* Signal handlers waiting for the lock.  A thread that writes interim
   reports back to back would otherwise take the lock again before a
   handler's next try, and the final report would be lost.  */
static atomic_int signal_waiters;

bool sampler_report_acquire(bool from_signal)
{
    const struct timespec pause = { 0, 1000000 };
    int self = (int)gettid();
    bool acquired = false;

    if (from_signal)
        atomic_fetch_add_explicit(&signal_waiters, 1, memory_order_acq_rel);
    for (unsigned waited = 0;; waited++) {
        int owner = 0;
        if (!from_signal && atomic_load_explicit(&signal_waiters, memory_order_acquire) > 0)
            owner = atomic_load_explicit(&report_owner, memory_order_relaxed);
        else if (atomic_compare_exchange_strong_explicit(&report_owner, &owner, self,
                                                         memory_order_acquire,
                                                         memory_order_relaxed)) {
            acquired = true;
            break;
        }
        if (owner == self || (from_signal && waited >= SIGNAL_LOCK_WAIT_MS))
            break;
        nanosleep(&pause, NULL);
    }
    if (from_signal)
        atomic_fetch_sub_explicit(&signal_waiters, 1, memory_order_acq_rel);
    return acquired;
}

void sampler_report_release(void)
{
    atomic_store_explicit(&report_owner, 0, memory_order_release);
}

/* The signal mask of the thread that took the lock with
   sampler_report_lock.  */
static __thread sigset_t lock_saved_mask __attribute__((tls_model("initial-exec")));

/* The terminating signals wait while the lock is held outside a report
   (a reset, a failed exec, an unloaded unit): their handler writes a
   report, and would find the lock taken by its own thread.  */
void sampler_report_lock(void)
{
    static const int terminating[] = { SAMPLER_TERMINATING_SIGNALS };
    int cancel_state;
    sigset_t blocked, saved_mask;

    sigemptyset(&blocked);
    for (size_t i = 0; i < sizeof terminating / sizeof terminating[0]; i++)
        sigaddset(&blocked, terminating[i]);
    pthread_sigmask(SIG_BLOCK, &blocked, &saved_mask);
    pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cancel_state);
    (void)sampler_report_acquire(false);
    pthread_setcancelstate(cancel_state, NULL);
    lock_saved_mask = saved_mask;
}

void sampler_report_unlock(void)
{
    sampler_report_release();
    pthread_sigmask(SIG_SETMASK, &lock_saved_mask, NULL);
}

/* Writing to a closed pipe or past the file size limit raises SIGPIPE or
   SIGXFSZ, whose default is to kill the process: the program would die of
   its report.  They are blocked while writing, and one raised by our own
   write is taken back before they are unblocked.  */
void sampler_quiet_signals_begin(struct sampler_quiet_signals *quiet, bool block_fatal)
{
    sigset_t blocked;

    sigemptyset(&blocked);
    sigaddset(&blocked, SIGPIPE);
    sigaddset(&blocked, SIGXFSZ);
    /* A fatal signal sent while an interim or exit report is written waits
       for it (and then has a report of its own); one raised by the writing
       itself, a fault, kills the process at once, as the kernel does for
       blocked faults.  (In a fatal-signal handler, signals.c deals with a
       fault in the report.)  */
    /* A terminating signal waits for the report being written, and then
       has one of its own (see signals.c).  */
    static const int terminating[] = { SAMPLER_TERMINATING_SIGNALS };
    for (size_t i = 0; i < sizeof terminating / sizeof terminating[0]; i++)
        sigaddset(&blocked, terminating[i]);
    if (block_fatal) {
        sigaddset(&blocked, SIGSEGV);
        sigaddset(&blocked, SIGBUS);
        sigaddset(&blocked, SIGFPE);
        sigaddset(&blocked, SIGILL);
        sigaddset(&blocked, SIGABRT);
        sigaddset(&blocked, SIGTRAP);
    }
    pthread_sigmask(SIG_BLOCK, &blocked, &quiet->previous_mask);
    sigpending(&quiet->pending_before);
}

void sampler_quiet_signals_end(struct sampler_quiet_signals *quiet)
{
    static const int quieted[] = { SIGPIPE, SIGXFSZ };
    const struct timespec no_wait = { 0, 0 };
    sigset_t pending;

    sigpending(&pending);
    for (size_t i = 0; i < sizeof quieted / sizeof quieted[0]; i++) {
        int signal_number = quieted[i];
        if (sigismember(&pending, signal_number)
            && !sigismember(&quiet->pending_before, signal_number)) {
            sigset_t only;
            sigemptyset(&only);
            sigaddset(&only, signal_number);
            (void)sigtimedwait(&only, NULL, &no_wait);
        }
    }
    pthread_sigmask(SIG_SETMASK, &quiet->previous_mask, NULL);
}
