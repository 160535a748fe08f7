/* Fuzz target: a site-table file (--sites, or what the plugin appends with
   -fplugin-arg-sampler-site-table).  A table that is accepted must be
   accepted again unchanged (same signature, same text), and `show' must
   print a report that fits it.  */
#include "fuzz-input.h"

#include "input/site-table.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void) argc;
    (void) argv;
    fuzz_discard_stdout();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct fuzz_file report;
    const char *path = fuzz_input_file(data, size);
    struct site_catalog catalog;
    struct diag d;
    site_catalog_init(&catalog);
    if (site_catalog_add_file(&catalog, path, &d)) {
        size_t n_units = catalog.n_units;
        if (!site_catalog_add_text(&catalog, "again", (const char *) data, size, &d))
            fuzz_fail("a site table accepted once is refused the second time: %s", d.message);
        if (catalog.n_units != n_units)
            fuzz_fail("reading a site table twice added units");
        fuzz_show_and_rank(fuzz_runs_for_catalog(&catalog, &report), "--sites", path,
                           fuzz_format(size));
    }
    site_catalog_free(&catalog);
    return 0;
}

/* CHECKS: sh $SRCDIR/run-fuzz.sh $BUILD ${FUZZ_SECONDS:-12} sites  */
