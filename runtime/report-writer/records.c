/* What a report says, record by record (runtime/report-format.md): the
   header (program, pid, sparsity, seed, parent, resets, how the image
   ended), the objects and units with the counters of every site that
   counted anything, the schemes' own records, and `end'.  The writer
   (writer.c) decides when and where; this file only writes.  Everything
   here runs under the report lock, possibly in a signal handler: no
   allocation, no lock, no stdio.  */
#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <unistd.h>

#include "report-writer.h"

#define REPORT_FORMAT_VERSION "1"

/* Under the lock: static rather than on the stack, which may be a small
   alternate signal stack.  */
static char program[SAMPLER_PATH_MAX];

struct report_context {
    struct sampler_output *out;
    const char *program;
    bool first_unit;
    const char *object;   /* of the last unit written */
    unsigned long units;  /* written so far */
};

static void output_unit(const struct __sampler_unit *unit, const char *object,
                        void *data)
{
    struct report_context *context = data;
    struct sampler_output *out = context->out;

    /* Each unit belongs to the object named last: a new record when the
       object changes.  */
    if (context->first_unit || object != context->object) {
        sampler_output_text(out, "object\t");
        sampler_output_field(out, object != NULL ? object : context->program);
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
    sampler_output_field(out, unit->source != NULL ? unit->source : "");
    sampler_output_char(out, '\n');
    context->units++;

    for (unsigned site = 0; site < unit->n_sites; site++) {
        unsigned first = unit->site_offsets[site];
        unsigned end = unit->site_offsets[site + 1];
        unsigned i = first;
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

/* loaded, base, start, end, name: what names the addresses an
   indirect-calls site saw.  */
static void output_loaded_object(const struct sampler_loaded_object *object, void *data)
{
    struct report_context *context = data;
    struct sampler_output *out = context->out;

    sampler_output_text(out, "loaded\t");
    sampler_output_decimal(out, object->base);
    sampler_output_char(out, '\t');
    sampler_output_decimal(out, object->start);
    sampler_output_char(out, '\t');
    sampler_output_decimal(out, object->end);
    sampler_output_char(out, '\t');
    sampler_output_field(out, object->name != NULL ? object->name : context->program);
    sampler_output_char(out, '\n');
}

/* ---- Subpaths ------------------------------------------------------------

   Each thread's subpath hot-list (runtime/schemes/subpaths.c) follows the
   units: a `subpaths' record, then a `subpath' record per entry with a
   count, its blocks named by the unit's place among the report's unit
   records and the site's index.  */

static bool spell_block(unsigned long long block, unsigned long units,
                        unsigned long *unit, unsigned *site)
{
    return sampler_units_find_counter((const unsigned long long *)(uintptr_t)block,
                                      unit, site)
           && *unit < units;
}

static void output_subpath_list(const struct sampler_subpath_list *list, void *data)
{
    struct report_context *context = data;
    struct sampler_output *out = context->out;
    struct sampler_subpath_figures figures;
    /* Under the report lock: static, not on a signal stack.  */
    static unsigned long units[1 << SAMPLER_SUBPATH_MAX_LOG2];
    static unsigned sites[1 << SAMPLER_SUBPATH_MAX_LOG2];

    sampler_subpath_list_figures(list, &figures);
    sampler_output_text(out, "subpaths\t");
    sampler_output_decimal(out, 1ULL << figures.max_log2);
    sampler_output_text(out, figures.all_lengths ? "\tall\t" : "\tosp\t");
    sampler_output_decimal(out, figures.offered);
    sampler_output_char(out, '\t');
    sampler_output_decimal(out, figures.tau_log2);
    sampler_output_char(out, '\t');
    sampler_output_decimal(out, figures.capacity);
    /* Dropped: hash collisions, and the counts of entries whose blocks
       cannot be named (a unit registered after the report's units).  */
    unsigned long long dropped = figures.dropped;
    for (unsigned long i = 0; i < figures.capacity; i++) {
        unsigned long long count;
        unsigned long length;
        const unsigned long long *blocks = sampler_subpath_entry(list, i, &count, &length);
        for (unsigned long b = 0; blocks != NULL && b < length; b++)
            if (!spell_block(blocks[b], context->units, &units[b], &sites[b])) {
                dropped += count;
                break;
            }
    }
    sampler_output_char(out, '\t');
    sampler_output_decimal(out, dropped);
    sampler_output_char(out, '\n');
    for (unsigned long i = 0; i < figures.capacity; i++) {
        unsigned long long count;
        unsigned long length;
        const unsigned long long *blocks = sampler_subpath_entry(list, i, &count, &length);
        bool whole = blocks != NULL;
        for (unsigned long b = 0; whole && b < length; b++)
            whole = spell_block(blocks[b], context->units, &units[b], &sites[b]);
        if (!whole)
            continue;
        sampler_output_text(out, "subpath\t");
        sampler_output_decimal(out, count);
        for (unsigned long b = 0; b < length; b++) {
            sampler_output_char(out, '\t');
            sampler_output_decimal(out, units[b]);
            sampler_output_char(out, ':');
            sampler_output_decimal(out, sites[b]);
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

void sampler_report_records(struct sampler_output *out, const struct sampler_config *config,
                            const struct sampler_report_header *header)
{
    struct report_context context = { .out = out, .program = program_path(),
                                      .first_unit = true };

    sampler_output_text(out, "sampler-report\t" REPORT_FORMAT_VERSION "\nprogram\t");
    sampler_output_field(out, context.program);
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
    switch (header->ending) {
    case SAMPLER_INTERIM:
        sampler_output_text(out, "interim\t");
        sampler_output_decimal(out, header->interim);
        break;
    case SAMPLER_EXIT_STATUS:
        sampler_output_text(out, "exit\tstatus\t");
        sampler_output_decimal(out, (unsigned long long)header->value);
        break;
    case SAMPLER_EXIT_SIGNAL:
        sampler_output_text(out, "exit\tsignal\t");
        sampler_output_decimal(out, (unsigned long long)header->value);
        break;
    case SAMPLER_EXIT_EXEC:
        sampler_output_text(out, "exit\texec");
        break;
    case SAMPLER_EXIT_UNDERSCORE:
        sampler_output_text(out, "exit\t_exit\t");
        sampler_output_decimal(out, (unsigned long long)header->value);
        break;
    case SAMPLER_EXIT_QUICK:
        sampler_output_text(out, "exit\tquick_exit\t");
        sampler_output_decimal(out, (unsigned long long)header->value);
        break;
    }
    sampler_output_char(out, '\n');
    if (atomic_load_explicit(&sampler_indirect_targets_seen, memory_order_relaxed))
        sampler_loaded_objects_visit(output_loaded_object, &context);
    sampler_units_visit(output_unit, &context);
    sampler_subpath_lists_visit(output_subpath_list, &context);
    sampler_output_text(out, "end\n");
    sampler_output_flush(out);
}
