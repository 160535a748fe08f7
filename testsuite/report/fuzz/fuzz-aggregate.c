/* Fuzz target: an input of merge, rank and export: an aggregate that
   `merge' wrote (site tables, then runs), or a report.  What merge accepts
   it must write so that merging its own output gives that output again
   byte for byte.  No site tables are looked up outside the input.  */
#include "fuzz-input.h"

#include <string.h>

static char directory[] = "/tmp/sampler-fuzz-XXXXXX";
static char first_output[64], second_output[64];
static struct fuzz_file no_tables;   /* an empty --sites file */

static void remove_outputs(void)
{
    unlink(first_output);
    unlink(second_output);
    rmdir(directory);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void) argc;
    (void) argv;
    fuzz_discard_stdout();
    if (!mkdtemp(directory)) {
        perror(directory);
        abort();
    }
    snprintf(first_output, sizeof first_output, "%s/first", directory);
    snprintf(second_output, sizeof second_output, "%s/second", directory);
    atexit(remove_outputs);
    fuzz_file_write(&no_tables, "", 0);
    return 0;
}

static int merge(const char *input, const char *output)
{
    char *argv[] = { "merge", (char *) input, "--sites", no_tables.path, "-o", (char *) output,
                     NULL };
    return command_run(&merge_command, 6, argv);
}

static char *read_all(const char *path, size_t *size)
{
    struct byte_buffer buffer = { 0 };
    struct diag d;
    if (!read_whole_file(path, &buffer, &d))
        fuzz_fail("%s", d.message);
    *size = buffer.size;
    return buffer.data;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_input_file(data, size);
    if (merge(path, first_output) != EXIT_FINE)
        return 0;
    int status = merge(first_output, second_output);
    if (status != EXIT_FINE)
        fuzz_fail("merge refuses its own output (status %d)", status);
    size_t first_size, second_size;
    char *first = read_all(first_output, &first_size);
    char *second = read_all(second_output, &second_size);
    if (first_size != second_size || memcmp(first, second, first_size) != 0)
        fuzz_fail("merging merge's output changes it");
    free(first);
    free(second);
    return 0;
}

/* CHECKS: sh $SRCDIR/run-fuzz.sh $BUILD ${FUZZ_SECONDS:-12} aggregate  */
