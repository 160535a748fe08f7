/* What the report writer does with something already at its temporary
   name, SAMPLER_FILE.tmp.PID (SAMPLER_FILE without %-sequences).

   leftover own      a regular file of this user's there (a leftover of an
                     earlier process with this pid): removed, the report
                     written
   leftover other    a regular file of user 65534 (needs root): left as it
                     is, no report
   leftover link     a symbolic link to TARGET (the second argument): left
                     as it is, TARGET untouched, no report

   Calls work() 100 times first; exits with 0.  */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sampler.h>

static unsigned long total;

void work(void) SAMPLER_SAMPLED;
void work(void) { total++; }

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    const char *file = getenv("SAMPLER_FILE");
    char temporary[4096];

    if (file == NULL)
        return 2;
    snprintf(temporary, sizeof temporary, "%s.tmp.%ld", file, (long)getpid());
    for (int i = 0; i < 100; i++)
        work();
    if (strcmp(mode, "link") == 0)
        return argc > 2 && symlink(argv[2], temporary) == 0 ? 0 : 2;
    FILE *out = fopen(temporary, "w");
    if (out == NULL || fputs("not a report\n", out) < 0 || fclose(out) != 0)
        return 2;
    if (strcmp(mode, "other") == 0 && chown(temporary, 65534, 65534) != 0)
        return 2;
    return 0;
}
