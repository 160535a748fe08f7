/* _exit, _Exit and quick_exit, as instrumented code calls them (the plugin
   redirects the calls here, as it does the exec family): they end the
   process without the exit handlers that write the report at exit, so the
   report is written first.  A fork child that ends with _exit, the usual
   idiom, thus leaves its own report.  The report says how the process
   ended: "exit _exit N" for _exit and _Exit (the same system call),
   "exit quick_exit N" for quick_exit, whose report is written by the
   at_quick_exit handler the runtime registers when it starts, so that the
   program's own at_quick_exit handlers, registered later and run first,
   are counted.  In a child made by vfork, which shares its parent's
   memory, nothing is written (see sampler_report_write).  */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#include "sampler-abi.h"
#include "sampler-internal.h"

SAMPLER_EXPORT _Noreturn void __sampler__exit(int status)
{
    /* The status as the parent sees it (WEXITSTATUS).  */
    (void)sampler_report_write(SAMPLER_EXIT_UNDERSCORE, status & 0xff);
    _exit(status);
}

SAMPLER_EXPORT _Noreturn void __sampler__Exit(int status)
{
    (void)sampler_report_write(SAMPLER_EXIT_UNDERSCORE, status & 0xff);
    _Exit(status);
}

/* The status given to the redirected quick_exit, plus one; 0: quick_exit
   was not called through the runtime, and the status is not known.  */
static atomic_int quick_exit_status;

SAMPLER_EXPORT _Noreturn void __sampler_quick_exit(int status)
{
    atomic_store_explicit(&quick_exit_status, (status & 0xff) + 1, memory_order_relaxed);
    quick_exit(status);
}

/* Registered by sampler_report_arm.  quick_exit called by uninstrumented
   code, whose status the runtime does not know, writes no report, as
   before.  */
void sampler_report_at_quick_exit(void)
{
    int status = atomic_load_explicit(&quick_exit_status, memory_order_relaxed);

    if (status != 0)
        (void)sampler_report_write(SAMPLER_EXIT_QUICK, status - 1);
}
