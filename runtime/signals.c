/* Reports from runs that die of a signal.

   Terminating signals (SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2,
   SIGALRM, SIGPIPE, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF: how servers are
   stopped, how pipelines end) are taken only where the program leaves them
   at the default action: the runtime's handler stands for the default,
   writes the report ("exit signal N"), restores the default and sends the
   signal again, which ends the process as it would have (same wait
   status, same core dump).  A disposition the program sets through
   signal() or sigaction() (redirected by the plugin to the wrappers
   below) is installed as it is, so that its handler runs as the kernel
   calls it (mask, SA_RESTART, stack) and an ignored signal stays ignored;
   setting the default action again installs the runtime's handler, and
   the program is told the default where the runtime's handler is.  A
   one-shot handler (SA_RESETHAND) is installed without the flag, behind a
   trampoline that puts the runtime's handler back, as the kernel would
   have put back the default, and calls it.  A signal ignored when the
   runtime starts (nohup, a shell's background job) stays ignored: the
   runtime never installs a handler over SIG_IGN, nor over a handler set
   before it started.  The runtime's handler blocks the other terminating
   signals: the first one to arrive ends the process; one that arrives in
   another thread meanwhile is dropped, as the process dies anyway.

   Fatal signals: SIGSEGV, SIGBUS, SIGFPE,
   SIGILL, SIGABRT and SIGTRAP.  When sampling is on, the runtime installs
   its handler for each; the handler writes the report (async-signal-safe:
   see report-writer/), records the signal, and lets the signal take the process
   as it would have without sampler: with the default action restored, a
   fault is re-executed and a sent signal sent again, so that the exit
   status and the core dump are the same.

   The program's own dispositions are kept, and chained: the one found at
   startup, and those the program sets later through signal() or
   sigaction(), which the plugin redirects to the wrappers below.  For the
   six signals these record the program's disposition without installing
   it, so that the runtime's handler stays in place and calls the
   program's handler as the kernel would have (its mask, SA_RESETHAND,
   SA_SIGINFO).  A program's handler that returns has handled the signal;
   one that sets the default action and raises the signal again (the usual
   way to die after a crash handler) finds the runtime's handler, which
   then reports.  Dispositions set by uninstrumented code replace the
   runtime's handler and are not chained.

   A fault while the handler writes the report ends the process at once,
   by the signal that started it: the report is not finished (nor left
   half-written under its name), and the exit status is what it would have
   been.  A stack overflow needs an alternate signal
   stack to run any handler on: the runtime gives one to the main thread
   and to the threads that instrumented code creates, when they have none.  */
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "sampler-abi.h"
#include "sampler-internal.h"

static const int fatal_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP };
#define N_FATAL (sizeof fatal_signals / sizeof fatal_signals[0])

/* The signals whose default action ends the process, other than the fatal
   ones (report-writer/lock.c blocks them too while it writes a report).  */
static const int terminating_signals[] = { SAMPLER_TERMINATING_SIGNALS };
#define N_TERMINATING (sizeof terminating_signals / sizeof terminating_signals[0])

/* At least this much alternate stack: the report writer's frames, a
   program handler, and the kernel's signal frame (which grows with the
   vector registers).  */
#define ALTSTACK_SIZE (64 * 1024)

/* The dispositions the program has, or believes it has, for the fatal
   signals; changed under disposition_lock, with all signals blocked.  */
static struct sigaction program_actions[N_FATAL];
static atomic_flag disposition_lock = ATOMIC_FLAG_INIT;
static atomic_bool handlers_installed;

static char main_altstack[ALTSTACK_SIZE] __attribute__((aligned(16)));

/* The program's one-shot (SA_RESETHAND) handlers for the terminating
   signals, called by on_one_shot_signal; under disposition_lock.  */
static struct sigaction one_shot_actions[N_TERMINATING];

/* The terminating signal that is ending the process, 0 when none.  */
static atomic_int terminating_signal;

/* The signal whose report the thread is writing, 0 when none.  */
static __thread int signal_being_reported __attribute__((tls_model("initial-exec")));

static int fatal_index(int signal_number)
{
    for (size_t i = 0; i < N_FATAL; i++)
        if (fatal_signals[i] == signal_number)
            return (int)i;
    return -1;
}

static void lock_dispositions(sigset_t *saved_mask)
{
    sigset_t all;

    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, saved_mask);
    while (atomic_flag_test_and_set_explicit(&disposition_lock, memory_order_acquire))
        ;
}

static void unlock_dispositions(const sigset_t *saved_mask)
{
    atomic_flag_clear_explicit(&disposition_lock, memory_order_release);
    pthread_sigmask(SIG_SETMASK, saved_mask, NULL);
}

/* The forking thread's signal mask, kept while fork holds the lock.  */
static sigset_t fork_saved_mask;

/* Signals stay blocked from here until the fork is over in both
   processes: a handler that takes this lock (or the report lock, taken
   next) must not interrupt the thread that holds it.  */
void sampler_signals_fork_prepare(void)
{
    sigset_t saved_mask;

    lock_dispositions(&saved_mask);
    fork_saved_mask = saved_mask;
}

void sampler_signals_fork_parent(void)
{
    unlock_dispositions(&fork_saved_mask);
}

void sampler_signals_fork_child(void)
{
    atomic_store_explicit(&terminating_signal, 0, memory_order_relaxed);
    unlock_dispositions(&fork_saved_mask);
}

static int terminating_index(int signal_number)
{
    for (size_t i = 0; i < N_TERMINATING; i++)
        if (terminating_signals[i] == signal_number)
            return (int)i;
    return -1;
}

static void on_fatal_signal(int signal_number, siginfo_t *info, void *context);

static bool is_runtime_handler(const struct sigaction *action)
{
    return (action->sa_flags & SA_SIGINFO) != 0 && action->sa_sigaction == on_fatal_signal;
}

/* ---- Alternate signal stacks -------------------------------------------- */

/* Makes stack the calling thread's alternate signal stack if it has none;
   returns whether it did.  */
static bool offer_altstack(void *stack, size_t size)
{
    stack_t current;

    if (sigaltstack(NULL, &current) != 0 || !(current.ss_flags & SS_DISABLE))
        return false;
    stack_t offered = { .ss_sp = stack, .ss_size = size, .ss_flags = 0 };
    return sigaltstack(&offered, NULL) == 0;
}

static size_t altstack_size(void)
{
    long minimum = sysconf(_SC_MINSIGSTKSZ);

    return minimum > 0 && (size_t)minimum * 4 > ALTSTACK_SIZE ? (size_t)minimum * 4
                                                             : ALTSTACK_SIZE;
}

void *sampler_signals_thread_begin(void)
{
    if (!atomic_load_explicit(&handlers_installed, memory_order_relaxed))
        return NULL;
    int saved_errno = errno;
    size_t size = altstack_size();
    void *stack = mmap(NULL, size, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (stack != MAP_FAILED && !offer_altstack(stack, size)) {
        munmap(stack, size);
        stack = MAP_FAILED;
    }
    errno = saved_errno;
    return stack != MAP_FAILED ? stack : NULL;
}

/* At the end of a thread: its stack goes, unless the program has put
   another in its place (then ours is just memory).  */
void sampler_signals_thread_end(void *altstack)
{
    stack_t current;

    if (altstack == NULL)
        return;
    int saved_errno = errno;
    if (sigaltstack(NULL, &current) == 0 && current.ss_sp == altstack) {
        if (current.ss_flags & SS_ONSTACK)
            return;   /* a handler still runs on it: leave it */
        stack_t disable = { .ss_flags = SS_DISABLE };
        sigaltstack(&disable, NULL);
    }
    munmap(altstack, altstack_size());
    errno = saved_errno;
}

/* ---- The handler -------------------------------------------------------- */

/* Calls the program's handler as the kernel would have: with the mask of
   the interrupted code plus the handler's own, and the signal itself
   blocked unless SA_NODEFER.  */
static void call_program_handler(const struct sigaction *action, int signal_number,
                                 siginfo_t *info, void *context)
{
    const ucontext_t *interrupted = context;
    sigset_t mask = interrupted->uc_sigmask, runtime_mask;

    for (int s = 1; s < NSIG; s++)
        if (sigismember(&action->sa_mask, s) == 1)
            sigaddset(&mask, s);
    if (!(action->sa_flags & SA_NODEFER))
        sigaddset(&mask, signal_number);
    pthread_sigmask(SIG_SETMASK, &mask, &runtime_mask);
    if (action->sa_flags & SA_SIGINFO)
        action->sa_sigaction(signal_number, info, context);
    else
        action->sa_handler(signal_number);
    pthread_sigmask(SIG_SETMASK, &runtime_mask, NULL);
}

static void set_default_action(int signal_number)
{
    struct sigaction default_action;

    memset(&default_action, 0, sizeof default_action);
    default_action.sa_handler = SIG_DFL;
    sigemptyset(&default_action.sa_mask);
    sigaction(signal_number, &default_action, NULL);
}

/* Whether the kernel raised the signal for the instruction that was
   running, so that running it again raises it again.  A breakpoint trap
   (int3) is reported after the instruction: not re-run.  */
static bool raised_by_instruction(int signal_number, const siginfo_t *info)
{
    return info != NULL && info->si_code > 0 && signal_number != SIGTRAP
           && signal_number != SIGABRT;
}

/* A fault in the report writer: the process dies of the signal that was
   being reported, sent again and unblocked now.  */
static void die_of_reported_signal(void)
{
    int original = signal_being_reported;
    sigset_t only;

    set_default_action(original);
    tgkill(getpid(), gettid(), original);
    sigemptyset(&only);
    sigaddset(&only, original);
    pthread_sigmask(SIG_UNBLOCK, &only, NULL);
}

static void on_fatal_signal(int signal_number, siginfo_t *info, void *context)
{
    int saved_errno = errno;
    int index = fatal_index(signal_number);
    struct sigaction program;
    sigset_t saved_mask;

    if (index < 0)
        return;
    if (signal_being_reported != 0) {
        /* A signal sent to this thread meanwhile is dropped: the process is
           about to die anyway.  */
        if (raised_by_instruction(signal_number, info)) {
            die_of_reported_signal();
            set_default_action(signal_number);
        }
        errno = saved_errno;
        return;
    }
    lock_dispositions(&saved_mask);
    program = program_actions[index];
    if ((program.sa_flags & SA_RESETHAND) && program.sa_handler != SIG_DFL
        && program.sa_handler != SIG_IGN) {
        memset(&program_actions[index], 0, sizeof program_actions[index]);
        program_actions[index].sa_handler = SIG_DFL;
    }
    unlock_dispositions(&saved_mask);

    if (program.sa_handler != SIG_DFL && program.sa_handler != SIG_IGN
        && !is_runtime_handler(&program)) {
        call_program_handler(&program, signal_number, info, context);
        /* abort() does not come back to a handler: if the program's
           handler returned from its SIGABRT, abort resets the action and
           ends the process.  An interim report keeps the counts; a later
           report replaces it if the run goes on.  */
        if (signal_number == SIGABRT) {
            signal_being_reported = signal_number;
            (void)sampler_report_write_from_signal(SAMPLER_INTERIM, 0);
            signal_being_reported = 0;
        }
        errno = saved_errno;
        return;
    }
    /* An ignored signal is ignored -- unless the kernel raised it for a
       faulting instruction, which kills the process anyway.  */
    if (program.sa_handler == SIG_IGN && !raised_by_instruction(signal_number, info)) {
        errno = saved_errno;
        return;
    }
    signal_being_reported = signal_number;
    (void)sampler_report_write_from_signal(SAMPLER_EXIT_SIGNAL, signal_number);
    signal_being_reported = 0;
    set_default_action(signal_number);
    /* The faulting instruction runs again and raises the signal with the
       default action, with its own address in the core dump; a signal that
       was sent is sent again, to this thread, and arrives as soon as the
       handler returns and unblocks it.  */
    if (!raised_by_instruction(signal_number, info))
        tgkill(getpid(), gettid(), signal_number);
    errno = saved_errno;
}

/* ---- Terminating signals ------------------------------------------------ */

static void on_terminating_signal(int signal_number, siginfo_t *info, void *context);
static void on_one_shot_signal(int signal_number, siginfo_t *info, void *context);

/* The runtime's stand-in for the default action.  */
static struct sigaction terminating_action;

static bool is_terminating_handler(const struct sigaction *action)
{
    return (action->sa_flags & SA_SIGINFO) != 0
           && action->sa_sigaction == on_terminating_signal;
}

static bool is_one_shot_trampoline(const struct sigaction *action)
{
    return (action->sa_flags & SA_SIGINFO) != 0
           && action->sa_sigaction == on_one_shot_signal;
}

static void on_terminating_signal(int signal_number, siginfo_t *info, void *context)
{
    int saved_errno = errno;
    int expected = 0;

    (void)info;
    (void)context;
    /* A child made by vfork or clone shares the parent's memory: it
       touches none of it, and dies as the default action would.  */
    if (getpid() != sampler_process_pid()) {
        set_default_action(signal_number);
        tgkill(getpid(), gettid(), signal_number);
        errno = saved_errno;
        return;
    }
    /* Another thread is already ending the process by a terminating
       signal: this one is dropped.  */
    if (!atomic_compare_exchange_strong_explicit(&terminating_signal, &expected,
                                                 signal_number, memory_order_acq_rel,
                                                 memory_order_relaxed)) {
        errno = saved_errno;
        return;
    }
    signal_being_reported = signal_number;
    (void)sampler_report_write_from_signal(SAMPLER_EXIT_SIGNAL, signal_number);
    signal_being_reported = 0;
    /* Blocked in this handler, the signal arrives with the default action
       as soon as the handler returns.  */
    set_default_action(signal_number);
    tgkill(getpid(), gettid(), signal_number);
    errno = saved_errno;
}

/* The program's SA_RESETHAND handler, installed without the flag: the
   runtime's handler goes back in place (the default the kernel would have
   restored), then the program's runs, under the mask the kernel gave it.  */
static void on_one_shot_signal(int signal_number, siginfo_t *info, void *context)
{
    int index = terminating_index(signal_number);
    struct sigaction program, current;
    sigset_t saved_mask;

    if (index < 0)
        return;
    lock_dispositions(&saved_mask);
    program = one_shot_actions[index];
    if (sigaction(signal_number, NULL, &current) == 0 && is_one_shot_trampoline(&current))
        sigaction(signal_number, &terminating_action, NULL);
    unlock_dispositions(&saved_mask);
    if (program.sa_handler == SIG_DFL || program.sa_handler == SIG_IGN)
        return;
    if (program.sa_flags & SA_SIGINFO)
        program.sa_sigaction(signal_number, info, context);
    else
        program.sa_handler(signal_number);
}

/* The disposition the program sees for a terminating signal: the default
   where the runtime's handler is, its own one-shot handler where the
   trampoline is.  */
static struct sigaction program_view(int index, const struct sigaction *current)
{
    struct sigaction view = *current;

    if (is_terminating_handler(current)) {
        memset(&view, 0, sizeof view);
        view.sa_handler = SIG_DFL;
        sigemptyset(&view.sa_mask);
    } else if (is_one_shot_trampoline(current)) {
        view = one_shot_actions[index];
    }
    return view;
}

/* sigaction() for a terminating signal once the runtime is armed.  */
static int set_terminating_action(int signal_number, const struct sigaction *action,
                                  struct sigaction *old_action)
{
    int index = terminating_index(signal_number);
    struct sigaction current, installed;
    sigset_t saved_mask;

    lock_dispositions(&saved_mask);
    int result = sigaction(signal_number, NULL, &current);
    if (result == 0 && action != NULL) {
        installed = *action;
        if (action->sa_handler == SIG_DFL || is_terminating_handler(action)) {
            installed = terminating_action;
        } else if (is_one_shot_trampoline(action)) {
            /* Handed back by a program that read it: what it stands for.  */
            installed = current;
        } else if ((action->sa_flags & SA_RESETHAND) && action->sa_handler != SIG_IGN) {
            one_shot_actions[index] = *action;
            installed.sa_flags = (action->sa_flags & ~SA_RESETHAND) | SA_SIGINFO;
            installed.sa_sigaction = on_one_shot_signal;
        }
        result = sigaction(signal_number, &installed, NULL);
    }
    int error = errno;
    if (result == 0 && old_action != NULL)
        *old_action = program_view(index, &current);
    unlock_dispositions(&saved_mask);
    errno = error;
    return result;
}

/* Installs the runtime's handler for each terminating signal left at the
   default action; called with the dispositions locked.  */
static void arm_terminating_signals(void)
{
    memset(&terminating_action, 0, sizeof terminating_action);
    terminating_action.sa_sigaction = on_terminating_signal;
    terminating_action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
    /* The others wait: the first terminating signal ends the process.
       Fatal signals stay unblocked, so that a fault in the report writer
       is handled (see die_of_reported_signal).  */
    sigemptyset(&terminating_action.sa_mask);
    for (size_t i = 0; i < N_TERMINATING; i++)
        sigaddset(&terminating_action.sa_mask, terminating_signals[i]);

    for (size_t i = 0; i < N_TERMINATING; i++) {
        struct sigaction current;
        if (sigaction(terminating_signals[i], NULL, &current) == 0
            && current.sa_handler == SIG_DFL)
            sigaction(terminating_signals[i], &terminating_action, NULL);
    }
}

void sampler_signals_arm(void)
{
    struct sigaction runtime_action;

    offer_altstack(main_altstack, sizeof main_altstack);
    memset(&runtime_action, 0, sizeof runtime_action);
    runtime_action.sa_sigaction = on_fatal_signal;
    runtime_action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
    /* The others stay unblocked, so that a fault in the report writer
       comes back here (see die_of_reported_signal).  */
    sigemptyset(&runtime_action.sa_mask);

    sigset_t saved_mask;
    lock_dispositions(&saved_mask);
    for (size_t i = 0; i < N_FATAL; i++) {
        if (sigaction(fatal_signals[i], NULL, &program_actions[i]) != 0) {
            memset(&program_actions[i], 0, sizeof program_actions[i]);
            program_actions[i].sa_handler = SIG_DFL;
        }
        sigaction(fatal_signals[i], &runtime_action, NULL);
    }
    arm_terminating_signals();
    atomic_store_explicit(&handlers_installed, true, memory_order_relaxed);
    unlock_dispositions(&saved_mask);
}

/* ---- signal() and sigaction(), as the program calls them ----------------- */

static bool handled_by_runtime(int signal_number)
{
    return (fatal_index(signal_number) >= 0 || terminating_index(signal_number) >= 0)
           && atomic_load_explicit(&handlers_installed, memory_order_relaxed);
}

SAMPLER_EXPORT int __sampler_sigaction(int signal_number, const struct sigaction *action,
                                       struct sigaction *old_action)
{
    if (!handled_by_runtime(signal_number))
        return sigaction(signal_number, action, old_action);
    if (terminating_index(signal_number) >= 0)
        return set_terminating_action(signal_number, action, old_action);
    int index = fatal_index(signal_number);
    sigset_t saved_mask;
    lock_dispositions(&saved_mask);
    if (old_action != NULL)
        *old_action = program_actions[index];
    if (action != NULL) {
        program_actions[index] = *action;
        /* Handing back the runtime's own handler (found by uninstrumented
           code) means the default: it must not call itself.  */
        if (is_runtime_handler(action)) {
            memset(&program_actions[index], 0, sizeof program_actions[index]);
            program_actions[index].sa_handler = SIG_DFL;
        }
    }
    unlock_dispositions(&saved_mask);
    return 0;
}

/* signal() and sysv_signal() for a fatal or terminating signal: the
   program's new handler as a sigaction with FLAGS, the signal itself
   blocked in it unless SA_NODEFER; returns the previous handler.  */
static __sighandler_t set_program_handler(int signal_number, __sighandler_t handler,
                                          int flags)
{
    struct sigaction action, old_action;

    if (handler == SIG_ERR) {
        errno = EINVAL;
        return SIG_ERR;
    }
    memset(&action, 0, sizeof action);
    action.sa_handler = handler;
    sigemptyset(&action.sa_mask);
    if (!(flags & SA_NODEFER))
        sigaddset(&action.sa_mask, signal_number);
    action.sa_flags = flags;
    if (__sampler_sigaction(signal_number, &action, &old_action) != 0)
        return SIG_ERR;
    return old_action.sa_handler;
}

/* glibc's signal(): BSD semantics, the signal blocked in its handler and
   interrupted calls restarted.  */
SAMPLER_EXPORT __sighandler_t __sampler_signal(int signal_number, __sighandler_t handler)
{
    if (!handled_by_runtime(signal_number))
        return signal(signal_number, handler);
    return set_program_handler(signal_number, handler, SA_RESTART);
}

/* SysV semantics: the handler is reset when it runs, and the signal is not
   blocked in it.  */
SAMPLER_EXPORT __sighandler_t __sampler_sysv_signal(int signal_number,
                                                    __sighandler_t handler)
{
    if (!handled_by_runtime(signal_number))
        return sysv_signal(signal_number, handler);
    return set_program_handler(signal_number, handler, SA_RESETHAND | SA_NODEFER);
}
