/* The sites and records of the subpaths scheme on the report side.  A
   site is a basic block, whose counter counts the subpaths started there;
   a block is no predicate.  The subpaths themselves are in records of
   their own after the report's units (runtime/report-format.md), read
   here; `sampler-report subpaths' shows the hot ones (subpaths.c).  */
#include "schemes/subpaths/subpath-records.h"

#include <limits.h>
#include <stdlib.h>

#include "input/report-reader.h"
#include "schemes/registry.h"

/* "subpaths MAX LENGTHS OFFERED TAU-LOG2 CAPACITY DROPPED": a thread's
   subpath hot-list; its entries follow.  */
static bool read_subpath_list(const struct record_reader *reader, const struct record *record,
                              const struct run_report *report, void **data, struct diag *d)
{
    const struct text_slice *f = record->fields;
    struct subpath_lists *lists = *data;
    struct subpath_list list = { 0 };
    unsigned long long max;

    if (record->n_fields != 7)
        return record_fail(reader, d, "'subpaths' record has %zu fields, expected 7",
                           record->n_fields);
    list.line_number = reader->line_number;
    if (!field_to_u64(reader, f[1], "longest subpath", 1024, &max, d))
        return false;
    for (list.max_log2 = 1; list.max_log2 <= 10 && (1ULL << list.max_log2) != max;
         list.max_log2++)
        ;
    if (list.max_log2 > 10)
        return record_fail(reader, d, "longest subpath %llu is not a power of two from 2 "
                           "to 1024", max);
    if (slice_equals(f[2], "all"))
        list.all_lengths = true;
    else if (!slice_equals(f[2], "osp"))
        return record_fail(reader, d, "subpath lengths must be 'osp' or 'all'");
    if (!field_to_u64(reader, f[3], "subpaths offered", ULLONG_MAX, &list.offered, d)
        || !field_to_u64(reader, f[4], "tau-log2", 63, &list.tau_log2, d)
        || !field_to_u64(reader, f[5], "capacity", UINT_MAX, &list.capacity, d)
        || !field_to_u64(reader, f[6], "subpaths dropped", ULLONG_MAX, &list.dropped, d))
        return false;
    if (list.capacity == 0)
        return record_fail(reader, d, "a subpath list of capacity 0");
    (void) report;
    if (!lists)
        *data = lists = xcalloc(1, sizeof *lists);
    void *items = lists->lists;
    grow_array(&items, &lists->capacity, lists->n_lists + 1, sizeof *lists->lists);
    lists->lists = items;
    lists->lists[lists->n_lists++] = list;
    return true;
}

/* "subpath COUNT U:S U:S...": an entry of the last list.  */
static bool read_subpath(const struct record_reader *reader, const struct record *record,
                         const struct run_report *report, void **data, struct diag *d)
{
    struct subpath_lists *lists = *data;
    if (!lists)
        return record_fail(reader, d, "'subpath' record before any 'subpaths' record");
    struct subpath_list *list = &lists->lists[lists->n_lists - 1];
    size_t length = record->n_fields - 2;
    if (record->n_fields < 4 || (length & (length - 1)) != 0
        || length > (1UL << list->max_log2))
        return record_fail(reader, d, "a subpath of %zu blocks: expected a power of two "
                           "from 2 to %llu", record->n_fields < 2 ? 0 : length,
                           1ULL << list->max_log2);
    if (list->n_entries >= list->capacity)
        return record_fail(reader, d, "more subpaths than the list's capacity %llu",
                           list->capacity);
    struct subpath_entry entry = { 0 };
    entry.line_number = reader->line_number;
    entry.length = (unsigned) length;
    if (!field_to_u64(reader, record->fields[1], "subpath count", ULLONG_MAX, &entry.count, d))
        return false;
    if (entry.count == 0)
        return record_fail(reader, d, "a subpath with count 0");
    entry.blocks = xcalloc(length, sizeof *entry.blocks);
    for (size_t b = 0; b < length; b++) {
        struct text_slice field = record->fields[b + 2];
        size_t colon = 0;
        while (colon < field.size && field.data[colon] != ':')
            colon++;
        struct text_slice unit = { field.data, colon };
        struct text_slice site = { field.data + colon + 1,
                                   colon < field.size ? field.size - colon - 1 : 0 };
        if (colon == field.size
            || !field_to_unsigned(reader, unit, "subpath block's unit", &entry.blocks[b].unit, d)
            || !field_to_unsigned(reader, site, "subpath block's site", &entry.blocks[b].site, d)) {
            if (colon == field.size)
                record_fail(reader, d, "subpath block %zu is not UNIT:SITE", b + 1);
            free(entry.blocks);
            return false;
        }
        if (entry.blocks[b].unit >= report->n_units
            || entry.blocks[b].site >= report->units[entry.blocks[b].unit].n_sites) {
            record_fail(reader, d, "subpath block %u:%u names no site of the report's units",
                        entry.blocks[b].unit, entry.blocks[b].site);
            free(entry.blocks);
            return false;
        }
    }
    void *items = list->entries;
    grow_array(&items, &list->entries_capacity, list->n_entries + 1, sizeof *list->entries);
    list->entries = items;
    list->entries[list->n_entries++] = entry;
    return true;
}

static void free_subpath_lists(void *data)
{
    struct subpath_lists *lists = data;
    for (size_t i = 0; i < lists->n_lists; i++) {
        struct subpath_list *list = &lists->lists[i];
        for (size_t e = 0; e < list->n_entries; e++)
            free(list->entries[e].blocks);
        free(list->entries);
    }
    free(lists->lists);
    free(lists);
}

static const struct scheme_record_kind subpath_record_kinds[] = {
    { "subpaths", true, read_subpath_list },
    { "subpath", false, read_subpath },
};

static const struct scheme_records subpath_records = {
    subpath_record_kinds, sizeof subpath_record_kinds / sizeof subpath_record_kinds[0],
    "subpath lists", "subpaths", free_subpath_lists,
};

const struct scheme_report SCHEME_REPORT(SUBPATHS) = {
    .profile = true,
    .records = &subpath_records,
};

const struct subpath_lists *subpath_lists_of(const struct run_report *report)
{
    return report->scheme_records[SAMPLER_SCHEME_SUBPATHS];
}

bool site_is_subpath_block(const struct site *site)
{
    return site->scheme == SAMPLER_SCHEME_SUBPATHS;
}
