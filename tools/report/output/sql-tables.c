/* The rows of tools/sql/'s schema from the site catalog and from each run
   (sql-tables.h; the tables and columns are documented in docs/schema.md).  */
#include "output/sql-tables.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schemes/paths/pathtable.h"
#include "schemes/registry.h"
#include "schemes/subpaths/subpath-records.h"
#include "schemes/values/hotlist.h"
#include "statistics/predicates.h"

const struct sql_table_info sql_tables[SQL_N_TABLES] = {
    [SQL_RELEASES] = { "releases", "release,name", 2 },
    [SQL_RUNS] = { "runs", "release,run,run_id,origin,program,pid,sparsity,countdown_unit,"
                           "seed,exit_kind,exit_code,failed,received", 13 },
    [SQL_SITES] = { "sites", "release,site,unit,unit_site,scheme,file,line,column_number,"
                             "function,site_text,counters,weight,value_kind,every_run,"
                             "tie_group", 15 },
    [SQL_PREDICATES] = { "predicates", "release,predicate,site,k,word,bit,text,tie_order", 8 },
    [SQL_OBSERVATIONS] = { "observations", "release,run,site,word,truths", 5 },
    [SQL_HOT_LISTS] = { "hot_lists", "release,run,site,sampled,tau_log2", 5 },
    [SQL_HOT_VALUES] = { "hot_values", "release,run,site,hot_value,target,count", 6 },
    [SQL_PATH_SAMPLES] = { "path_samples", "release,run,site,sampled,lost", 5 },
    [SQL_PATH_COUNTS] = { "path_counts", "release,run,site,path,count", 5 },
    [SQL_SUBPATH_LISTS] = { "subpath_lists", "release,run,list_index,longest,all_lengths,"
                                             "offered,tau_log2,capacity,dropped", 9 },
    [SQL_SUBPATH_COUNTS] = { "subpath_counts", "release,run,list_index,n_blocks,first_site,"
                                               "blocks,count", 7 },
    [SQL_COUNTS] = { "counts", "release,run,site,counter,count", 5 },
};

enum { MAX_FIELDS = 16, FIELD_SIZE = 32 };

/* One row being made: numbers formatted into STORAGE, texts pointed to.  */
struct row {
    const char *fields[MAX_FIELDS];
    char storage[MAX_FIELDS][FIELD_SIZE];
    unsigned n;
};

static void add_text(struct row *row, const char *text)
{
    row->fields[row->n++] = text;
}

static void add_unsigned(struct row *row, unsigned long long value)
{
    snprintf(row->storage[row->n], FIELD_SIZE, "%llu", value);
    row->fields[row->n] = row->storage[row->n];
    row->n++;
}

/* A 64-bit pattern as a signed BIGINT (two's complement).  */
static void add_pattern(struct row *row, uint64_t bits)
{
    long long value;
    memcpy(&value, &bits, sizeof value);
    snprintf(row->storage[row->n], FIELD_SIZE, "%lld", value);
    row->fields[row->n] = row->storage[row->n];
    row->n++;
}

/* Starts a row of a run's table with its release, run and site (when SITE
   is not SIZE_MAX).  */
static void start_run_row(struct row *row, const struct sql_release *release,
                          const struct sql_run *run, size_t site)
{
    row->n = 0;
    add_unsigned(row, release->id);
    add_unsigned(row, run->number);
    if (site != SIZE_MAX)
        add_unsigned(row, site);
}

static bool emit(const struct sql_sink *sink, enum sql_table table, const struct row *row,
                 struct diag *d)
{
    return sink->row(sink->context, table, row->fields, d);
}

static const char *value_kind(const struct site *site)
{
    size_t length = strlen(site->predicate);
    if (length >= 9 && strcmp(site->predicate + length - 9, "(pointer)") == 0)
        return "pointer";
    switch (site->bound_kind) {
    case BOUND_SIGNED:
        return "signed";
    case BOUND_UNSIGNED:
        return "unsigned";
    case BOUND_DOUBLE:
        return "double";
    default:
        return "";
    }
}

static bool site_rows(const struct sql_sink *sink, const struct sql_release *release,
                      const struct unit_table *unit, const struct site *site, size_t global,
                      size_t first_predicate, struct diag *d)
{
    struct row row = { .n = 0 };
    add_unsigned(&row, release->id);
    add_unsigned(&row, global);
    add_text(&row, unit->signature);
    add_unsigned(&row, site->index);
    add_text(&row, scheme_name(site->scheme));
    add_text(&row, site->file);
    add_unsigned(&row, site->line);
    add_unsigned(&row, site->column);
    add_text(&row, site->function);
    add_text(&row, site->predicate);
    struct byte_buffer names = { 0 };
    for (unsigned c = 0; c < site->n_counters; c++) {
        if (c)
            buffer_append(&names, ",", 1);
        buffer_append_text(&names, site->counter_names[c]);
    }
    buffer_append(&names, "", 1);
    add_text(&row, names.data);
    add_unsigned(&row, site->weight);
    add_text(&row, value_kind(site));
    add_unsigned(&row, site_observed_in_every_run(site));
    snprintf(row.storage[row.n], FIELD_SIZE, "%d", scheme_infos[site->scheme].report->tie_group);
    row.fields[row.n] = row.storage[row.n];
    row.n++;
    bool ok = emit(sink, SQL_SITES, &row, d);
    buffer_free(&names);
    unsigned count = site_predicate_count(site);
    for (unsigned k = 0; ok && k < count; k++) {
        size_t predicate = first_predicate + k;
        struct byte_buffer text = { 0 };
        site_predicate_text(site, k, &text);
        row.n = 0;
        add_unsigned(&row, release->id);
        add_unsigned(&row, predicate);
        add_unsigned(&row, global);
        add_unsigned(&row, k);
        add_unsigned(&row, k / SQL_TRUTH_BITS);
        add_unsigned(&row, 1ULL << (k % SQL_TRUTH_BITS));
        add_text(&row, text.data);
        add_unsigned(&row, release->tie_order ? release->tie_order[predicate] : predicate);
        ok = emit(sink, SQL_PREDICATES, &row, d);
        buffer_free(&text);
    }
    return ok;
}

bool sql_release_rows(const struct sql_sink *sink, const struct sql_release *release,
                      struct diag *d)
{
    struct row row = { .n = 0 };
    add_unsigned(&row, release->id);
    add_text(&row, release->name);
    bool ok = emit(sink, SQL_RELEASES, &row, d);
    const struct universe *universe = release->universe;
    const struct site_catalog *catalog = universe->catalog;
    for (size_t u = 0; ok && u < catalog->n_units; u++) {
        const struct unit_table *unit = catalog->units[u];
        for (unsigned s = 0; ok && s < unit->n_sites; s++) {
            size_t global = universe->unit_first_site[u] + s;
            ok = site_rows(sink, release, unit, &unit->sites[s], global,
                           universe->site_first_predicate[global], d);
        }
    }
    return ok;
}

static bool run_row(const struct sql_sink *sink, const struct sql_release *release,
                    const struct sql_run *run, const struct run_view *view, struct diag *d)
{
    const struct run_report *report = view->report;
    struct row row;
    start_run_row(&row, release, run, SIZE_MAX);
    add_text(&row, run->id);
    add_text(&row, view->origin);
    add_text(&row, report->program);
    add_unsigned(&row, report->pid);
    add_unsigned(&row, report->sparsity);
    add_unsigned(&row, report->countdown_unit);
    add_unsigned(&row, report->seed);
    add_text(&row, exit_kind_name(report->exit_kind));
    add_unsigned(&row, report->exit_code);
    add_unsigned(&row, run->failed);
    add_text(&row, run->received);
    return emit(sink, SQL_RUNS, &row, d);
}

/* The site's row per word of its predicates (word 0 always: the site was
   observed; later words only with a true predicate).  */
static bool observation_rows(const struct sql_sink *sink, const struct sql_release *release,
                             const struct sql_run *run, const struct site *site, size_t global,
                             const unsigned long long *values, struct diag *d)
{
    unsigned count = site_predicate_count(site);
    bool ok = true;
    for (unsigned word = 0; ok && word * SQL_TRUTH_BITS < count; word++) {
        unsigned long long truths = 0;
        for (unsigned bit = 0; bit < SQL_TRUTH_BITS && word * SQL_TRUTH_BITS + bit < count; bit++)
            if (site_predicate_true(site, values, word * SQL_TRUTH_BITS + bit))
                truths |= 1ULL << bit;
        if (word > 0 && truths == 0)
            continue;
        struct row row;
        start_run_row(&row, release, run, global);
        add_unsigned(&row, word);
        add_unsigned(&row, truths);
        ok = emit(sink, SQL_OBSERVATIONS, &row, d);
    }
    return ok;
}

/* A hot-list's row and its entries, values of the same text added up (a
   list written during an update may hold a value twice; indirect-call
   targets are named, and two addresses may share a name).  */
static bool hot_list_rows(const struct sql_sink *sink, const struct sql_release *release,
                          const struct sql_run *run, const struct run_view *view,
                          const struct site *site, size_t global,
                          const unsigned long long *slots, struct symbol_namer *namer,
                          struct diag *d)
{
    struct row row;
    start_run_row(&row, release, run, global);
    add_unsigned(&row, slots[HOT_SLOT_SAMPLED]);
    unsigned long long tau_log2 = slots[HOT_SLOT_TAU_LOG2];
    add_unsigned(&row, tau_log2 > HOT_MAX_TAU_LOG2 ? HOT_MAX_TAU_LOG2 : tau_log2);
    bool ok = emit(sink, SQL_HOT_LISTS, &row, d);
    /* Addresses as names that hold in every run (docs/values.md): an
       indirect call's target, where a pointer pointed.  */
    bool target = scheme_infos[site->scheme].report->values_are_functions;
    bool named = target || strcmp(value_kind(site), "pointer") == 0;
    unsigned capacity = hot_list_capacity(site);
    struct { uint64_t value; char name[512]; unsigned long long count; } *entries =
        xcalloc(capacity, sizeof *entries);
    unsigned n = 0;
    for (unsigned i = 0; i < capacity; i++) {
        uint64_t value = slots[HOT_SLOT_ENTRIES + 2 * i];
        unsigned long long count = slots[HOT_SLOT_ENTRIES + 2 * i + 1];
        if (count == 0)
            continue;
        char name[512] = "";
        if (named) {
            if (target)
                symbol_namer_name(namer, view->report, value, name, sizeof name);
            else
                pointer_place_name(namer, view->report, value, name, sizeof name);
            value = 0;
        }
        unsigned e = 0;
        while (e < n && !(entries[e].value == value && strcmp(entries[e].name, name) == 0))
            e++;
        if (e == n) {
            entries[n].value = value;
            memcpy(entries[n].name, name, sizeof name);
            n++;
        }
        entries[e].count += count;
    }
    for (unsigned e = 0; ok && e < n; e++) {
        start_run_row(&row, release, run, global);
        add_pattern(&row, entries[e].value);
        add_text(&row, entries[e].name);
        add_unsigned(&row, entries[e].count);
        ok = emit(sink, SQL_HOT_VALUES, &row, d);
    }
    free(entries);
    return ok;
}

static bool path_rows(const struct sql_sink *sink, const struct sql_release *release,
                      const struct sql_run *run, const struct site *site, size_t global,
                      const unsigned long long *slots, struct diag *d)
{
    struct row row;
    start_run_row(&row, release, run, global);
    add_unsigned(&row, slots[PATH_SLOT_SAMPLED]);
    add_unsigned(&row, slots[PATH_SLOT_LOST]);
    bool ok = emit(sink, SQL_PATH_SAMPLES, &row, d);
    unsigned capacity = path_table_capacity(site);
    for (unsigned p = 0; ok && p < capacity; p++) {
        unsigned long long key = slots[PATH_SLOT_PAIRS + 2 * p];
        unsigned long long count = slots[PATH_SLOT_PAIRS + 2 * p + 1];
        if (key == 0 || count == 0)
            continue;
        start_run_row(&row, release, run, global);
        add_unsigned(&row, key - 1);
        add_unsigned(&row, count);
        ok = emit(sink, SQL_PATH_COUNTS, &row, d);
    }
    return ok;
}

static bool counter_rows(const struct sql_sink *sink, const struct sql_release *release,
                         const struct sql_run *run, const struct site *site, size_t global,
                         const unsigned long long *values, struct diag *d)
{
    bool ok = true;
    for (unsigned c = 0; ok && c < site->n_counters; c++) {
        struct row row;
        start_run_row(&row, release, run, global);
        add_unsigned(&row, c);
        add_pattern(&row, values[c]);
        ok = emit(sink, SQL_COUNTS, &row, d);
    }
    return ok;
}

/* The catalog position of the report's unit U in VIEW, or SIZE_MAX.  */
static size_t catalog_unit_of(const struct run_view *view, unsigned u)
{
    const char *signature = view->report->units[u].signature;
    for (size_t i = 0; i < view->n_units; i++)
        if (strcmp(view->units[i].totals->table->signature, signature) == 0)
            return i;
    return SIZE_MAX;
}

/* One subpath's blocks as "unit:site unit:site", its first block's global
   site in *FIRST; false when a block's unit has no site table.  */
static bool subpath_blocks(const struct sql_release *release, const struct run_view *view,
                           const struct subpath_entry *entry, struct byte_buffer *blocks,
                           size_t *first, struct diag *d, bool *bad)
{
    blocks->size = 0;
    for (unsigned b = 0; b < entry->length; b++) {
        size_t i = catalog_unit_of(view, entry->blocks[b].unit);
        if (i == SIZE_MAX)
            return false;
        const struct unit_table *table = view->units[i].totals->table;
        const struct site *site = &table->sites[entry->blocks[b].site];
        if (!site_is_subpath_block(site)) {
            *bad = true;
            return diag_fail(d, "%s:%lu: subpath block %u:%u is a %s site, not a block",
                             view->origin, entry->line_number, entry->blocks[b].unit,
                             entry->blocks[b].site, scheme_infos[site->scheme].name);
        }
        char text[48];
        snprintf(text, sizeof text, "%s%s:%u", b ? " " : "", table->signature, site->index);
        buffer_append_text(blocks, text);
        if (b == 0)
            *first = release->universe->unit_first_site[view->units[i].catalog_index]
                     + site->index;
    }
    buffer_append(blocks, "", 1);
    return true;
}

static bool subpath_rows(const struct sql_sink *sink, const struct sql_release *release,
                         const struct sql_run *run, const struct run_view *view,
                         struct diag *d)
{
    const struct subpath_lists *lists = subpath_lists_of(view->report);
    struct byte_buffer blocks = { 0 };
    bool ok = true;
    for (size_t l = 0; ok && lists && l < lists->n_lists; l++) {
        const struct subpath_list *list = &lists->lists[l];
        struct row row;
        start_run_row(&row, release, run, SIZE_MAX);
        add_unsigned(&row, l);
        add_unsigned(&row, 1ULL << list->max_log2);
        add_unsigned(&row, list->all_lengths);
        add_unsigned(&row, list->offered);
        add_unsigned(&row, list->tau_log2);
        add_unsigned(&row, list->capacity);
        add_unsigned(&row, list->dropped);
        ok = emit(sink, SQL_SUBPATH_LISTS, &row, d);
        for (size_t e = 0; ok && e < list->n_entries; e++) {
            const struct subpath_entry *entry = &list->entries[e];
            size_t first = 0;
            bool bad = false;
            if (!subpath_blocks(release, view, entry, &blocks, &first, d, &bad)) {
                ok = !bad;     /* a unit without a table: left out, as subpaths does */
                continue;
            }
            start_run_row(&row, release, run, SIZE_MAX);
            add_unsigned(&row, l);
            add_unsigned(&row, entry->length);
            add_unsigned(&row, first);
            add_text(&row, blocks.data);
            add_unsigned(&row, entry->count);
            ok = emit(sink, SQL_SUBPATH_COUNTS, &row, d);
        }
    }
    buffer_free(&blocks);
    return ok;
}

static bool site_of_run_rows(const struct sql_sink *sink, const struct sql_release *release,
                             const struct sql_run *run, const struct run_view *view,
                             const struct site *site, size_t global,
                             const unsigned long long *values, struct symbol_namer *namer,
                             struct diag *d)
{
    if (!site_observed(site, values))
        return true;
    bool ok = true;
    if (site_predicate_count(site) > 0)
        ok = observation_rows(sink, release, run, site, global, values, d);
    enum sampler_merge_kind merge = scheme_infos[site->scheme].merge;
    if (ok && merge == SAMPLER_MERGE_HOT_LIST)
        ok = hot_list_rows(sink, release, run, view, site, global, values, namer, d);
    if (ok && merge == SAMPLER_MERGE_PATH_TABLE)
        ok = path_rows(sink, release, run, site, global, values, d);
    if (ok && sink->counts)
        ok = counter_rows(sink, release, run, site, global, values, d);
    return ok;
}

bool sql_run_rows(const struct sql_sink *sink, const struct sql_release *release,
                  const struct sql_run *run, const struct run_view *view,
                  struct symbol_namer *namer, struct diag *d)
{
    bool ok = run_row(sink, release, run, view, d);
    for (size_t u = 0; ok && u < view->n_units; u++) {
        const struct run_unit *unit = &view->units[u];
        const struct unit_table *table = unit->totals->table;
        size_t first_site = release->universe->unit_first_site[unit->catalog_index];
        for (size_t i = 0; ok && i < unit->n_sites; i++) {
            const struct site *site = &table->sites[unit->sites[i]];
            ok = site_of_run_rows(sink, release, run, view, site, first_site + site->index,
                                  unit->totals->values + site->first_counter, namer, d);
        }
    }
    return ok && subpath_rows(sink, release, run, view, d);
}

/* FNV-1a, 64 bits, over TEXT and its terminating NUL.  */
static uint64_t fnv1a(uint64_t hash, const char *text)
{
    const unsigned char *p = (const unsigned char *) text;
    do {
        hash ^= *p;
        hash *= UINT64_C(0x100000001b3);
    } while (*p++);
    return hash;
}

void sql_run_id_of(const struct run_view *view, char id[33])
{
    /* The report's own (docs/remote.md), the same wherever it was read.  */
    if (view->report->run_id[0] != '\0') {
        memcpy(id, view->report->run_id, 33);
        return;
    }
    char numbers[64];
    snprintf(numbers, sizeof numbers, "%llu %llu", view->report->pid, view->report->seed);
    uint64_t halves[2] = { UINT64_C(0xcbf29ce484222325), UINT64_C(0x84222325cbf29ce4) };
    for (int h = 0; h < 2; h++)
        halves[h] = fnv1a(fnv1a(fnv1a(halves[h], view->origin), view->report->program),
                          numbers);
    snprintf(id, 33, "%016llx%016llx", (unsigned long long) halves[0],
             (unsigned long long) halves[1]);
}
