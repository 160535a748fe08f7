/* Fuzz target: a report file as the runtime writes it (one report, or
   several back to back).  The two report readers, the whole-file one of
   `show' and the streaming one of merge, rank and export, must agree on
   whether it is valid and how many runs it holds; `show' then reads it
   against the site table of the seed corpus's program (FUZZ_SITE_TABLE),
   so that counts meet real tables.  */
#include "fuzz-input.h"

#include <string.h>

#include "input/report-reader.h"
#include "input/run-stream.h"

#ifndef FUZZ_SITE_TABLE
#error "FUZZ_SITE_TABLE must name the site-table file of the seed reports' program"
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void) argc;
    (void) argv;
    fuzz_discard_stdout();
    return 0;
}

/* The streaming reader's verdict: whether every run of PATH was read, and
   how many there were.  */
static bool read_as_stream(const char *path, size_t *n_runs)
{
    struct run_stream stream;
    struct diag d;
    *n_runs = 0;
    if (!run_stream_open(&stream, path, &d))
        return false;
    bool ok = !stream.is_aggregate;
    while (ok) {
        struct run_report report;
        const char *origin;
        enum run_stream_status status = run_stream_next(&stream, &report, &origin, &d);
        if (status != RUN_STREAM_RUN) {
            ok = status == RUN_STREAM_END;
            break;
        }
        run_report_free(&report);
        ++*n_runs;
    }
    run_stream_close(&stream);
    return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_input_file(data, size);
    struct report_file file;
    struct diag d;
    bool whole_ok = report_file_parse(&file, path, (const char *) data, size, &d);
    size_t whole_runs = file.n_reports;
    /* Loaded objects are accepted only with an address range.  */
    for (size_t r = 0; r < file.n_reports; r++)
        for (size_t i = 0; i < file.reports[r].n_loaded; i++) {
            const struct loaded_object *object = &file.reports[r].loaded[i];
            if (object->start < object->base || object->start >= object->end
                || !object->path || !*object->path)
                fuzz_fail("a loaded object accepted without a proper range or path");
        }
    report_file_free(&file);
    /* An aggregate is for the streaming reader alone.  */
    if (!looks_like_aggregate((const char *) data, size)
        && !(size >= 17 && memcmp(data, "sampler-aggregate", 17) == 0)) {
        size_t stream_runs;
        bool stream_ok = read_as_stream(path, &stream_runs);
        if (whole_ok != stream_ok)
            fuzz_fail("show's reader %s the file, merge's %s it (%s)",
                      whole_ok ? "accepts" : "refuses", stream_ok ? "accepts" : "refuses",
                      whole_ok ? "" : d.message);
        if (whole_ok && whole_runs != stream_runs)
            fuzz_fail("show's reader finds %zu runs, merge's %zu", whole_runs, stream_runs);
    }
    fuzz_show(path, "--sites", FUZZ_SITE_TABLE, fuzz_format(size));
    return 0;
}

/* CHECKS: sh $SRCDIR/run-fuzz.sh $BUILD ${FUZZ_SECONDS:-12} report  */
