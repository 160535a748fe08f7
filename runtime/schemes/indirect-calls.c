/* indirect-calls: the targets of calls through function pointers, into
   a site's hot-list as values' are (values.c, hot-list.h).  A target is
   an address, which sampler-report names by function from the loaded
   objects: once a target (or a pointer's value: values.c) is sampled,
   every report lists them (`loaded' records, before the units), with the
   objects loaded since the last report, and the heap and stack (`region'
   records); a report from a signal handler lists the objects as they
   were, since the loader cannot be asked there (units.c keeps the
   list).  */
#include "field.h"
#include "hot-list.h"
#include "schemes.h"

_Atomic bool sampler_addresses_sampled;

/* A call through a function pointer: its target into the hot-list.  */
SAMPLER_EXPORT SAMPLER_PRESERVING void
__sampler_indirect_call(unsigned long long *slots, unsigned long long target,
                        unsigned long capacity)
{
    bool entered;

    UNLESS_FIRST_VISIT_OF_THREAD(sampler_started_out_of_line_preserving);
    sampler_note_address_sampled();
    (void)hot_observe(slots, capacity, target, NULL, NULL, NULL, &entered);
    SAMPLER_SET_COUNTDOWN(sampler_countdown_next_preserving());
}

/* Objects loaded since (dlopen of a library without units) name targets
   too.  */
static void refresh_loaded_objects(void)
{
    if (atomic_load_explicit(&sampler_addresses_sampled, memory_order_relaxed))
        sampler_loaded_objects_refresh();
}

/* loaded, base, start, end, name: what names the addresses a site saw.  */
static void write_loaded_object(const struct sampler_loaded_object *object, void *data)
{
    struct sampler_report_context *report = data;
    struct sampler_output *out = report->out;

    sampler_output_text(out, "loaded\t");
    sampler_output_decimal(out, object->base);
    sampler_output_char(out, '\t');
    sampler_output_decimal(out, object->start);
    sampler_output_char(out, '\t');
    sampler_output_decimal(out, object->end);
    sampler_output_char(out, '\t');
    sampler_output_field(out, object->name != NULL ? sampler_field_shown_path(object->name)
                                                   : report->program);
    sampler_output_char(out, '\n');
}

/* region, kind, start, end: where the heap and the stack were.  */
static void write_region(const char *kind, uintptr_t start, uintptr_t end, void *data)
{
    struct sampler_report_context *report = data;
    struct sampler_output *out = report->out;

    sampler_output_text(out, "region\t");
    sampler_output_text(out, kind);
    sampler_output_char(out, '\t');
    sampler_output_decimal(out, start);
    sampler_output_char(out, '\t');
    sampler_output_decimal(out, end);
    sampler_output_char(out, '\n');
}

static void write_loaded_objects(struct sampler_report_context *report)
{
    if (!atomic_load_explicit(&sampler_addresses_sampled, memory_order_relaxed))
        return;
    sampler_loaded_objects_visit(write_loaded_object, report);
    sampler_regions_visit(write_region, report);
}

const struct sampler_runtime_scheme SAMPLER_RUNTIME_SCHEME(INDIRECT_CALLS) = {
    .before_report = refresh_loaded_objects,
    .report_head = write_loaded_objects,
};
