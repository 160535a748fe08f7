/* Preloaded into the case study's runs while the runtime writes no report
   for a run killed by a signal: turns a fatal signal into exit(128 +
   signal), so that the runtime's exit handler writes the report, with that
   status.  The handler runs once (SA_RESETHAND): a second fault kills the
   process as before.  Not for production: exit() after a heap corruption
   may hang (the case study runs each input under a timeout).  */
#include <signal.h>
#include <stdlib.h>

static void exit_on_signal(int signal_number)
{
    exit(128 + signal_number);
}

__attribute__((constructor)) static void install(void)
{
    static const int fatal[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL };
    struct sigaction action = { 0 };
    action.sa_handler = exit_on_signal;
    action.sa_flags = SA_RESETHAND;
    sigemptyset(&action.sa_mask);
    for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++)
        sigaction(fatal[i], &action, NULL);
}
