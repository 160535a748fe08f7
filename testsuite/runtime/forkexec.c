/* fork and exec: every process image reports its own counts once.

   forkexec HOW       the parent calls parent_work() 1000 times and forks;
                      the child calls child_work() 300 times and execs this
                      program again (HOW: execl, execle, execlp, execv,
                      execve, execvp, execvpe, vfork: vfork then execv, or
                      fail: an exec that fails, after which the child calls
                      after_failure() 40 times and exits with 0); the parent
                      waits, calls parent_work() 500 more times, exits with
                      the child's status
   forkexec spawn     the parent calls parent_work() 1000 times; while a
                      thread writes interim reports without pause
                      (sampler_dump), starts this program with "after" 40
                      times with posix_spawn (no fork handlers run: only
                      close-on-exec keeps the report being written from the
                      new image) and waits for each; calls parent_work()
                      500 more times; prints "spawned 40 failed F" and
                      exits with 0
   forkexec daemon    the parent calls parent_work() 1000 times and becomes
                      a daemon (daemon(3), keeping its directory and
                      descriptors), which calls child_work() 300 times,
                      prints "daemon PID" and exits with 0
   forkexec after     (the new image) checks that no report file is open,
                      calls image_work() 70 times and exits with 0; with 3
                      if a descriptor of a report was inherited  */
#define _GNU_SOURCE
#include <dirent.h>
#include <pthread.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sampler.h>

/* Built without the plugin, the runtime is not linked.  */
#ifndef __SAMPLER__
#define sampler_dump() (-1)
#endif

extern char **environ;
static unsigned long total;

void parent_work(void) SAMPLER_SAMPLED;
void child_work(void) SAMPLER_SAMPLED;
void image_work(void) SAMPLER_SAMPLED;
void after_failure(void) SAMPLER_SAMPLED;
void parent_work(void) { total += 1; }
void child_work(void) { total += 2; }
void image_work(void) { total += 3; }
void after_failure(void) { total += 4; }

/* Descriptors of report files (SAMPLER_FILE is under the directory
   REPORT_DIRECTORY names) that the new image has.  */
static int inherited_report_descriptors(void)
{
    const char *directory = getenv("REPORT_DIRECTORY");
    DIR *fds = opendir("/proc/self/fd");
    struct dirent *entry;
    int found = 0;

    if (directory == NULL || fds == NULL)
        return 0;
    while ((entry = readdir(fds)) != NULL) {
        char link[64], target[4096];
        snprintf(link, sizeof link, "/proc/self/fd/%s", entry->d_name);
        ssize_t length = readlink(link, target, sizeof target - 1);
        if (length <= 0)
            continue;
        target[length] = '\0';
        if (strncmp(target, directory, strlen(directory)) == 0) {
            fprintf(stderr, "inherited descriptor %s: %s\n", entry->d_name, target);
            found++;
        }
    }
    closedir(fds);
    return found;
}

static void exec_self(const char *how, const char *self)
{
    char *argv[] = { (char *)self, "after", NULL };

    if (strcmp(how, "execl") == 0)
        execl(self, self, "after", (char *)NULL);
    else if (strcmp(how, "execle") == 0)
        execle(self, self, "after", (char *)NULL, environ);
    else if (strcmp(how, "execlp") == 0)
        execlp(self, self, "after", (char *)NULL);
    else if (strcmp(how, "execv") == 0)
        execv(self, argv);
    else if (strcmp(how, "execve") == 0)
        execve(self, argv, environ);
    else if (strcmp(how, "execvp") == 0)
        execvp(self, argv);
    else if (strcmp(how, "execvpe") == 0)
        execvpe(self, argv, environ);
}

static atomic_bool spawning = true;

static void *dump_while_spawning(void *unused)
{
    (void)unused;
    while (atomic_load(&spawning))
        (void)sampler_dump();
    return NULL;
}

/* Starts this program with "after" 40 times; returns how many failed.  */
static int spawn_images(const char *self)
{
    char *argv[] = { (char *)self, "after", NULL };
    pthread_t dumper;
    int failures = 0;

    if (pthread_create(&dumper, NULL, dump_while_spawning, NULL) != 0)
        return -1;
    for (int i = 0; i < 40; i++) {
        pid_t child;
        int status;
        if (posix_spawn(&child, self, NULL, NULL, argv, environ) != 0
            || waitpid(child, &status, 0) != child || status != 0)
            failures++;
    }
    atomic_store(&spawning, false);
    pthread_join(dumper, NULL);
    return failures;
}

int main(int argc, char **argv)
{
    const char *how = argc > 1 ? argv[1] : "";
    char self[4096];
    ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);

    if (length <= 0)
        return 2;
    self[length] = '\0';
    if (strcmp(how, "after") == 0) {
        if (inherited_report_descriptors() != 0)
            return 3;
        for (int i = 0; i < 70; i++)
            image_work();
        return 0;
    }

    for (int i = 0; i < 1000; i++)
        parent_work();
    if (strcmp(how, "daemon") == 0) {
        fflush(stdout);
        if (daemon(1, 1) != 0)
            return 4;
        for (int i = 0; i < 300; i++)
            child_work();
        printf("daemon %ld\n", (long)getpid());
        return 0;
    }
    if (strcmp(how, "spawn") == 0) {
        int failures = spawn_images(self);
        for (int i = 0; i < 500; i++)
            parent_work();
        printf("spawned 40 failed %d\n", failures);
        return 0;
    }
    fflush(stdout);
    pid_t child = strcmp(how, "vfork") == 0 ? vfork() : fork();
    if (child < 0)
        return 4;
    if (child == 0) {
        if (strcmp(how, "vfork") == 0) {
            char *vargv[] = { self, "after", NULL };
            execv(self, vargv);
            _exit(127);
        }
        for (int i = 0; i < 300; i++)
            child_work();
        if (strcmp(how, "fail") == 0) {
            char *fargv[] = { "/nonexistent/program", NULL };
            if (execv(fargv[0], fargv) == 0)
                _exit(5);
            for (int i = 0; i < 40; i++)
                after_failure();
            exit(0);
        }
        exec_self(how, self);
        _exit(127);
    }
    int status;
    if (waitpid(child, &status, 0) != child)
        return 6;
    for (int i = 0; i < 500; i++)
        parent_work();
    printf("child %ld status %d\n", (long)child, status);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 7;
}
