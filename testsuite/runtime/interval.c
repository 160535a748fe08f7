/* A long-lived process: interval SECONDS STEPS
   STEPS times: tick() 100 times, then sleep 100 ms.  After half the steps,
   if REPORT_FILE names a file, prints "interim seen" when that file is
   there, complete (ends with "end") and marked interim.  Exits with 0.  */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sampler.h>

static unsigned long ticks;

void tick(void) SAMPLER_SAMPLED;
void tick(void) { ticks++; }

static void look_for_interim_report(const char *path)
{
    static char text[1 << 16];
    FILE *file = fopen(path, "r");
    if (file == NULL) {
        printf("no report yet\n");
        return;
    }
    size_t length = fread(text, 1, sizeof text - 1, file);
    fclose(file);
    text[length] = '\0';
    bool whole = length >= 4 && strcmp(text + length - 4, "end\n") == 0;
    printf(whole && strstr(text, "\ninterim\t") != NULL ? "interim seen\n"
                                                        : "no interim report\n");
}

int main(int argc, char **argv)
{
    const struct timespec pause = { 0, 100000000 };
    int steps = argc > 1 ? atoi(argv[1]) : 10;
    const char *report = getenv("REPORT_FILE");

    for (int step = 0; step < steps; step++) {
        for (int i = 0; i < 100; i++)
            tick();
        nanosleep(&pause, NULL);
        if (step == steps / 2 && report != NULL)
            look_for_interim_report(report);
    }
    printf("ticks %lu\n", ticks);
    return 0;
}
