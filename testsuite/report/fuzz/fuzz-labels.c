/* Fuzz target: a --labels file (and its first line as a --fail-if rule).
   Every label of a file that is accepted must name a run the labeller then
   finds, with its outcome.  */
#include "fuzz-input.h"

#include <string.h>

#include "input/labels.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *newline = memchr(data, '\n', size);
    char *rule = xmemdup0(data, newline ? (size_t) (newline - (const char *) data) : size);
    struct labeller labeller;
    struct diag d;
    char description[256];
    if (labeller_init_rule(&labeller, rule, &d)) {
        labeller_describe(&labeller, description, sizeof description);
        labeller_free(&labeller);
    }
    free(rule);

    const char *path = fuzz_input_file(data, size);
    if (!labeller_init_file(&labeller, path, &d))
        return 0;
    struct run_report report = { 0 };
    for (size_t i = 0; i < labeller.n_labels; i++) {
        bool failed;
        if (!labeller_failed(&labeller, labeller.origins[i], &report, &failed, &d))
            fuzz_fail("label %zu names no run: %s", i, d.message);
        if (failed != labeller.failed[i])
            fuzz_fail("label %zu gives the wrong outcome", i);
    }
    if (!labeller_check_all_used(&labeller, &d))
        fuzz_fail("a label is unused after every label's run was read: %s", d.message);
    labeller_describe(&labeller, description, sizeof description);
    labeller_free(&labeller);
    return 0;
}

/* CHECKS: sh $SRCDIR/run-fuzz.sh $BUILD ${FUZZ_SECONDS:-12} labels  */
