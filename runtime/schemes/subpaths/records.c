/* subpaths: the report's records of the threads' hot-lists (report-
   format.md).  After the units, each list that has observed anything is a
   `subpaths' record (its longest subpath, its mode, the subpaths offered,
   tau-log2, its capacity and the subpaths dropped), then a `subpath'
   record per entry with a count, its blocks named by their unit's place
   among the report's unit records and the site's index.  Under the report
   lock, maybe in a signal handler: the lists are read without locking,
   as their owners write them.  */
#include "subpaths.h"

/* Entry I's count and blocks (counter addresses, *LENGTH of them; NULL when
   the entry is free or its blocks are not whole).  */
static const unsigned long long *entry_blocks(const struct sampler_subpath_list *list,
                                              unsigned long i, unsigned long long *count,
                                              unsigned long *length)
{
    *count = HOT_LOAD(list->slots, HOT_COUNT(i));
    struct subpath_spelling spelling = list->spelling[i];
    if (*count == 0 || spelling.length < 2
        || spelling.length > list->ring_size
        || (unsigned long)spelling.offset + spelling.length > list->pool_size)
        return NULL;
    *length = spelling.length;
    return &list->pool[spelling.offset];
}

static bool spell_block(unsigned long long block, unsigned long units,
                        unsigned long *unit, unsigned *site)
{
    return sampler_units_find_counter((const unsigned long long *)(uintptr_t)block,
                                      unit, site)
           && *unit < units;
}

static void write_list(const struct sampler_subpath_list *list,
                       struct sampler_report_context *report)
{
    struct sampler_output *out = report->out;
    /* Under the report lock: static, not on a signal stack.  */
    static unsigned long units[1 << SUBPATH_MAX_LOG2];
    static unsigned sites[1 << SUBPATH_MAX_LOG2];

    sampler_output_text(out, "subpaths\t");
    sampler_output_decimal(out, 1ULL << list->max_log2);
    sampler_output_text(out, list->all_lengths ? "\tall\t" : "\tosp\t");
    sampler_output_decimal(out, HOT_LOAD(list->slots, HOT_SAMPLED));
    sampler_output_char(out, '\t');
    sampler_output_decimal(out, HOT_LOAD(list->slots, HOT_TAU_LOG2));
    sampler_output_char(out, '\t');
    sampler_output_decimal(out, list->capacity);
    /* Dropped: hash collisions, and the counts of entries whose blocks
       cannot be named (a unit registered after the report's units).  */
    unsigned long long dropped = list->dropped;
    for (unsigned long i = 0; i < list->capacity; i++) {
        unsigned long long count;
        unsigned long length;
        const unsigned long long *blocks = entry_blocks(list, i, &count, &length);
        for (unsigned long b = 0; blocks != NULL && b < length; b++)
            if (!spell_block(blocks[b], report->units, &units[b], &sites[b])) {
                dropped += count;
                break;
            }
    }
    sampler_output_char(out, '\t');
    sampler_output_decimal(out, dropped);
    sampler_output_char(out, '\n');
    for (unsigned long i = 0; i < list->capacity; i++) {
        unsigned long long count;
        unsigned long length;
        const unsigned long long *blocks = entry_blocks(list, i, &count, &length);
        bool whole = blocks != NULL;
        for (unsigned long b = 0; whole && b < length; b++)
            whole = spell_block(blocks[b], report->units, &units[b], &sites[b]);
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

void sampler_subpath_records(struct sampler_report_context *report)
{
    for (struct sampler_subpath_list *list = atomic_load(&sampler_subpath_lists);
         list != NULL; list = list->next)
        if (HOT_LOAD(list->slots, HOT_SAMPLED) > 0)
            write_list(list, report);
}
