/* Fuzz target: an ELF file (program, shared library or object) whose
   .debug_sampler_sites section holds site tables (--binary, or a report's
   own program).  Tables that are accepted must be accepted again, and
   `show' must print a report that fits them.  Its function symbols (what
   names indirect-call targets) must come sorted, each found at its own
   address.  */
#include "fuzz-input.h"

#include "input/site-table.h"
#include "input/symbols.h"

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
    bool found;
    site_catalog_init(&catalog);
    if (site_catalog_add_binary(&catalog, path, &found, &d) && found) {
        size_t n_units = catalog.n_units;
        if (!site_catalog_add_binary(&catalog, path, &found, &d))
            fuzz_fail("a binary accepted once is refused the second time: %s", d.message);
        if (catalog.n_units != n_units)
            fuzz_fail("reading a binary twice added units");
        fuzz_show_and_rank(fuzz_runs_for_catalog(&catalog, &report), "--binary", path,
                           fuzz_format(size));
    }
    site_catalog_free(&catalog);
    struct elf_functions functions;
    if (elf_functions_read(path, &functions, &d)) {
        for (size_t i = 0; i < functions.n_functions; i++) {
            const struct elf_function *f = &functions.functions[i];
            uint64_t into = 1;
            if (i > 0 && functions.functions[i - 1].value > f->value)
                fuzz_fail("function symbols out of order");
            if (!elf_functions_find(&functions, f->value, &into) || into != 0)
                fuzz_fail("function %s not found at its own address", f->name);
        }
        elf_functions_free(&functions);
    }
    return 0;
}

/* CHECKS: sh $SRCDIR/run-fuzz.sh $BUILD ${FUZZ_SECONDS:-12} elf  */
