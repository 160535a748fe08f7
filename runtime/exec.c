/* The exec family and daemon, as instrumented code calls them (the plugin
   redirects the calls here, as gcov's -fprofile-arcs does for exec): the
   counts of the image about to be replaced are reported first, with "exit
   exec".  If the exec
   fails, the image goes on counting from zero (see
   sampler_report_after_failed_exec), so nothing is counted twice.  In a
   child made by vfork, which shares its parent's memory, nothing is
   written: the counts are the parent's.  */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <unistd.h>

#include "sampler-abi.h"
#include "sampler-internal.h"

/* Runs EXEC (an expression that returns only on failure) between the
   report and its undoing.  */
#define REPORTED_EXEC(exec)                                        \
    do {                                                           \
        bool reported = sampler_report_before_exec();              \
        int result = (exec);                                       \
        int error = errno;                                         \
        if (reported)                                              \
            sampler_report_after_failed_exec();                    \
        errno = error;                                             \
        return result;                                             \
    } while (0)

SAMPLER_EXPORT int __sampler_execve(const char *path, char *const argv[], char *const envp[])
{
    REPORTED_EXEC(execve(path, argv, envp));
}

SAMPLER_EXPORT int __sampler_execv(const char *path, char *const argv[])
{
    REPORTED_EXEC(execv(path, argv));
}

SAMPLER_EXPORT int __sampler_execvp(const char *file, char *const argv[])
{
    REPORTED_EXEC(execvp(file, argv));
}

SAMPLER_EXPORT int __sampler_execvpe(const char *file, char *const argv[],
                                     char *const envp[])
{
    REPORTED_EXEC(execvpe(file, argv, envp));
}

SAMPLER_EXPORT int __sampler_fexecve(int fd, char *const argv[], char *const envp[])
{
    REPORTED_EXEC(fexecve(fd, argv, envp));
}

/* The list forms: the arguments up to the terminating null pointer, as an
   array on the stack (exec copies them anyway).  */
static size_t count_arguments(const char *first, va_list arguments)
{
    size_t count = 1;

    if (first == NULL)
        return 0;
    while (va_arg(arguments, const char *) != NULL)
        count++;
    return count;
}

#define COLLECT_ARGUMENTS(argv, first, last_named)                 \
    va_list arguments;                                             \
    va_start(arguments, last_named);                               \
    size_t count_ = count_arguments(first, arguments);             \
    va_end(arguments);                                             \
    const char *argv[count_ + 1];                                  \
    va_start(arguments, last_named);                               \
    argv[0] = first;                                               \
    for (size_t i_ = 1; i_ < count_; i_++)                         \
        argv[i_] = va_arg(arguments, const char *);                \
    argv[count_] = NULL

SAMPLER_EXPORT int __sampler_execl(const char *path, const char *arg, ...)
{
    COLLECT_ARGUMENTS(argv, arg, arg);
    va_end(arguments);
    return __sampler_execv(path, (char *const *)argv);
}

SAMPLER_EXPORT int __sampler_execlp(const char *file, const char *arg, ...)
{
    COLLECT_ARGUMENTS(argv, arg, arg);
    va_end(arguments);
    return __sampler_execvp(file, (char *const *)argv);
}

/* execle: the environment follows the terminating null pointer.  */
SAMPLER_EXPORT int __sampler_execle(const char *path, const char *arg, ...)
{
    COLLECT_ARGUMENTS(argv, arg, arg);
    if (count_ > 0)
        (void)va_arg(arguments, const char *);   /* the null pointer */
    char *const *envp = va_arg(arguments, char *const *);
    va_end(arguments);
    return __sampler_execve(path, (char *const *)argv, envp);
}

/* daemon() forks, and the parent leaves with _exit, which writes no
   report; the child counts from zero.  The counts so far go into an
   interim report of the parent first (which later reports replace if
   daemon fails and the process goes on).  */
SAMPLER_EXPORT int __sampler_daemon(int nochdir, int noclose)
{
    (void)sampler_report_write(SAMPLER_INTERIM, 0);
    return daemon(nochdir, noclose);
}
