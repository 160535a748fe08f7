/* What the fuzz targets of sampler-report's readers share: the tool's
   readers take file names, so each input is handed to them as a file (a
   memfd, named through /proc/self/fd), and the readers' invariants that a
   target checks beyond "no crash" end in fuzz_fail, which aborts so that
   libFuzzer keeps the input.  */
#ifndef SAMPLER_FUZZ_INPUT_H
#define SAMPLER_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "commands/command.h"
#include "input/site-table.h"
#include "output/formats.h"

struct fuzz_file {
    int fd;
    char path[64];
};

/* Makes FILE hold DATA (SIZE bytes); returns its name, the same for every
   call.  */
static inline const char *fuzz_file_write(struct fuzz_file *file, const void *data,
                                          size_t size)
{
    if (!file->path[0]) {
        file->fd = memfd_create("fuzz-input", 0);
        if (file->fd < 0) {
            perror("memfd_create");
            abort();
        }
        snprintf(file->path, sizeof file->path, "/proc/self/fd/%d", file->fd);
    }
    int fd = file->fd;
    const char *path = file->path;
    if (ftruncate(fd, 0) != 0) {
        perror("ftruncate");
        abort();
    }
    size_t done = 0;
    while (done < size) {
        ssize_t wrote = pwrite(fd, (const char *) data + done, size - done, (off_t) done);
        if (wrote <= 0) {
            perror("pwrite");
            abort();
        }
        done += (size_t) wrote;
    }
    return path;
}

/* A broken invariant: the reader accepted something it then contradicts.  */
#define fuzz_fail(...) \
    (fprintf(stderr, "fuzz invariant broken: " __VA_ARGS__), fputc('\n', stderr), abort())

/* The fuzzer's input as a file.  */
static inline const char *fuzz_input_file(const uint8_t *data, size_t size)
{
    static struct fuzz_file input;
    return fuzz_file_write(&input, data, size);
}

/* Where the tool's commands may write their output.  */
static inline void fuzz_discard_stdout(void)
{
    if (!freopen("/dev/null", "w", stdout)) {
        perror("/dev/null");
        abort();
    }
}

/* Two runs back to back, a failing one (exit status 1) and a successful
   one, that saw every site of every unit of CATALOG, with different counts,
   so that they fit the tables exactly and give `rank' something to rank;
   written to FILE, whose name is returned.  */
static inline const char *fuzz_runs_for_catalog(const struct site_catalog *catalog,
                                                struct fuzz_file *file)
{
    char *text;
    size_t size;
    FILE *out = open_memstream(&text, &size);
    if (!out)
        abort();
    for (unsigned run = 0; run < 2; run++) {
        fprintf(out, "sampler-report\t1\nprogram\t\npid\t%u\nsparsity\t1\nseed\t3\n"
                "exit\tstatus\t%u\n", run + 2, run == 0);
        for (size_t u = 0; u < catalog->n_units; u++) {
            const struct unit_table *unit = catalog->units[u];
            fprintf(out, "unit\t%s\t%u\t%u\t", unit->signature, unit->n_sites,
                    unit->n_counters);
            write_escaped(out, unit->source);
            fputc('\n', out);
            for (unsigned s = 0; s < unit->n_sites; s++) {
                fprintf(out, "%u", s);
                for (unsigned c = 0; c < unit->sites[s].n_counters; c++)
                    fprintf(out, "\t%u", run == 0 ? c + s + 1 : (c + 2 * s) % 5 + 1);
                fputc('\n', out);
            }
        }
        fputs("end\n", out);
    }
    fclose(out);
    const char *path = fuzz_file_write(file, text, size);
    free(text);
    return path;
}

/* FORMAT for an input of SIZE bytes: text, csv or jsonl, so that the
   corpus covers all three.  */
static inline const char *fuzz_format(size_t size)
{
    return size % 3 == 0 ? "--format=text" : size % 3 == 1 ? "--format=csv" : "--format=jsonl";
}

/* Runs `sampler-report show` on the report PATH with the site tables of
   TABLES (a --sites or --binary option); its exit status.  */
static inline int fuzz_show(const char *path, const char *tables_option, const char *tables,
                            const char *format)
{
    char *argv[] = { "show", (char *) path, (char *) tables_option, (char *) tables, "--all",
                     (char *) format, NULL };
    return command_run(&show_command, 6, argv);
}

/* The runs of fuzz_runs_for_catalog, PATH, are shown and ranked with the
   tables that made them, which must fit: both commands must succeed.  */
static inline void fuzz_show_and_rank(const char *path, const char *tables_option,
                                      const char *tables, const char *format)
{
    int status = fuzz_show(path, tables_option, tables, format);
    if (status != EXIT_FINE)
        fuzz_fail("show refused runs made to fit the tables (status %d)", status);
    char *argv[] = { "rank", (char *) path, (char *) tables_option, (char *) tables,
                     "--fail-if=status=1", "--top=0", (char *) format, NULL };
    status = command_run(&rank_command, 7, argv);
    if (status != EXIT_FINE)
        fuzz_fail("rank refused runs made to fit the tables (status %d)", status);
}

#endif
