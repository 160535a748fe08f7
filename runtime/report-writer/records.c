/* What a report says, record by record (runtime/report-format.md): the
   header (program, pid, sparsity, seed, the run id and release, a field
   report's withheld schemes and drops, parent, resets, how the image
   ended), the schemes' records that come before the units, the objects
   and units with the counters of every site that counted anything, the
   schemes' records that come after them (runtime/schemes.h), and `end'.  The writer
   (writer.c) decides when and where; this file only writes.  Everything
   here runs under the report lock, possibly in a signal handler: no
   allocation, no lock, no stdio.  */
#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <unistd.h>

#include "field.h"
#include "report-writer.h"
#include "run-id.h"
#include "schemes.h"

#define REPORT_FORMAT_VERSION "1"

/* Under the lock: static rather than on the stack, which may be a small
   alternate signal stack.  */
static char program[SAMPLER_PATH_MAX];

struct report_context {
    struct sampler_report_context report;   /* what the schemes' records see */
    bool first_unit;
    const char *object;   /* of the last unit written */
};

static void output_unit(const struct __sampler_unit *unit, const char *object,
                        void *data)
{
    struct report_context *context = data;
    struct sampler_output *out = context->report.out;

    /* Each unit belongs to the object named last: a new record when the
       object changes.  */
    if (context->first_unit || object != context->object) {
        sampler_output_text(out, "object\t");
        sampler_output_field(out, object != NULL ? sampler_field_shown_path(object)
                                                 : context->report.program);
        sampler_output_char(out, '\n');
        context->first_unit = false;
        context->object = object;
    }
    sampler_output_text(out, "unit\t");
    sampler_output_field(out, unit->signature);
    sampler_output_char(out, '\t');
    sampler_output_decimal(out, unit->n_sites);
    sampler_output_char(out, '\t');
    sampler_output_decimal(out, unit->n_counters);
    sampler_output_char(out, '\t');
    sampler_output_field(out, unit->source != NULL ? sampler_field_shown_path(unit->source)
                                                   : "");
    sampler_output_char(out, '\n');
    context->report.units++;

    for (unsigned site = 0; site < unit->n_sites; site++) {
        unsigned first = unit->site_offsets[site];
        unsigned end = unit->site_offsets[site + 1];
        unsigned i = first;
        if (!sampler_field_site_sent(unit, site))
            continue;
        /* Other threads may still be counting: read the slots the way
           instrumented code writes them.  */
        while (i < end && __atomic_load_n(&unit->counters[i], __ATOMIC_RELAXED) == 0)
            i++;
        if (i == end)
            continue;
        sampler_output_decimal(out, site);
        for (i = first; i < end; i++) {
            sampler_output_char(out, '\t');
            sampler_output_decimal(out, __atomic_load_n(&unit->counters[i], __ATOMIC_RELAXED));
        }
        sampler_output_char(out, '\n');
    }
}

static const char *program_path(void)
{
    ssize_t length = readlink("/proc/self/exe", program, sizeof program - 1);
    if (length > 0) {
        program[length] = '\0';
        return program;
    }
    return program_invocation_name != NULL ? program_invocation_name : "";
}

/* The records of docs/remote.md: the sequence's run id in every report;
   the release a program carries; in a field report, the schemes left out
   and the reports dropped from the store before it.  */
static void output_release_records(struct sampler_output *out,
                                   const struct sampler_report_header *header)
{
    char run_id[2 * SAMPLER_RUN_ID_BYTES + 1];
    const struct sampler_release *release = sampler_release_carried();

    sampler_run_id_format(header->run_id, run_id);
    sampler_output_text(out, "run-id\t");
    sampler_output_text(out, run_id);
    sampler_output_char(out, '\n');
    if (release != NULL) {
        sampler_output_text(out, "release\t");
        sampler_output_field(out, release->product);
        sampler_output_char(out, '\t');
        sampler_output_field(out, release->version);
        sampler_output_char(out, '\n');
    }
    if (!sampler_field_active())
        return;
    bool first = true;
    for (unsigned id = 0; id < SAMPLER_N_SCHEMES; id++) {
        if (sampler_field_scheme_sent(id))
            continue;
        sampler_output_text(out, first ? "withheld\t" : ",");
        sampler_output_text(out, sampler_scheme_name(id));
        first = false;
    }
    if (!first)
        sampler_output_char(out, '\n');
    if (header->dropped > 0) {
        sampler_output_text(out, "dropped\t");
        sampler_output_decimal(out, header->dropped);
        sampler_output_char(out, '\n');
    }
}

void sampler_report_records(struct sampler_output *out, const struct sampler_config *config,
                            const struct sampler_report_header *header)
{
    /* A field report names files by their last component only.  */
    const char *shown_program = sampler_field_shown_path(program_path());
    struct report_context context = { .report = { .out = out, .program = shown_program },
                                      .first_unit = true };

    sampler_output_text(out, "sampler-report\t" REPORT_FORMAT_VERSION "\nprogram\t");
    sampler_output_field(out, context.report.program);
    sampler_output_text(out, "\npid\t");
    sampler_output_decimal(out, (unsigned long long)getpid());
    sampler_output_text(out, "\nsparsity\t");
    sampler_output_decimal(out, (unsigned long long)sampler_current_sparsity());
    if (sampler_countdown_unit() != 1) {
        sampler_output_text(out, "\ncountdown-unit\t");
        sampler_output_decimal(out, (unsigned long long)sampler_countdown_unit());
    }
    sampler_output_text(out, "\nseed\t");
    sampler_output_decimal(out, config->seed);
    sampler_output_char(out, '\n');
    output_release_records(out, header);
    if (header->parent > 0) {
        sampler_output_text(out, "parent\t");
        sampler_output_decimal(out, (unsigned long long)header->parent);
        sampler_output_char(out, '\n');
    }
    if (header->resets > 0) {
        sampler_output_text(out, "reset\t");
        sampler_output_decimal(out, header->resets);
        sampler_output_char(out, '\n');
    }
    /* How the image ended, or the interim report's number.  */
    static const char *const endings[] = {
        [SAMPLER_INTERIM] = "interim\t",
        [SAMPLER_EXIT_STATUS] = "exit\tstatus\t",
        [SAMPLER_EXIT_SIGNAL] = "exit\tsignal\t",
        [SAMPLER_EXIT_EXEC] = "exit\texec",
        [SAMPLER_EXIT_UNDERSCORE] = "exit\t_exit\t",
        [SAMPLER_EXIT_QUICK] = "exit\tquick_exit\t",
    };
    sampler_output_text(out, endings[header->ending]);
    if (header->ending == SAMPLER_INTERIM)
        sampler_output_decimal(out, header->interim);
    else if (header->ending != SAMPLER_EXIT_EXEC)
        sampler_output_decimal(out, (unsigned long long)header->value);
    sampler_output_char(out, '\n');
    sampler_schemes_report_head(&context.report);
    sampler_units_visit(output_unit, &context);
    sampler_schemes_report_tail(&context.report);
    sampler_output_text(out, "end\n");
    sampler_output_flush(out);
}
