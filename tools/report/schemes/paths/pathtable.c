/* Path profiles (merge kind PATH_TABLE) and path tables: see
   pathtable.h and docs/paths.md.  */
#include "schemes/paths/pathtable.h"

#include <stdlib.h>
#include <string.h>

#include "input/record.h"

unsigned path_table_capacity(const struct site *site)
{
    return (site->n_counters - PATH_SLOT_PAIRS) / 2;
}

void path_slots_merge(unsigned long long *total, const unsigned long long *from,
                      unsigned capacity)
{
    total[PATH_SLOT_SAMPLED] = saturating_add(total[PATH_SLOT_SAMPLED], from[PATH_SLOT_SAMPLED]);
    total[PATH_SLOT_LOST] = saturating_add(total[PATH_SLOT_LOST], from[PATH_SLOT_LOST]);
    for (unsigned i = 0; i < capacity; i++) {
        unsigned long long key = from[PATH_SLOT_PAIRS + 2 * i];
        unsigned long long count = from[PATH_SLOT_PAIRS + 2 * i + 1];
        if (key == 0 || count == 0)
            continue;
        unsigned at = capacity, free_pair = capacity;
        for (unsigned j = 0; j < capacity; j++) {
            unsigned long long held = total[PATH_SLOT_PAIRS + 2 * j];
            if (held == key) {
                at = j;
                break;
            }
            if (free_pair == capacity
                && (held == 0 || total[PATH_SLOT_PAIRS + 2 * j + 1] == 0))
                free_pair = j;
        }
        if (at == capacity && free_pair < capacity) {
            at = free_pair;
            total[PATH_SLOT_PAIRS + 2 * at] = key;
            total[PATH_SLOT_PAIRS + 2 * at + 1] = 0;
        }
        if (at < capacity)
            total[PATH_SLOT_PAIRS + 2 * at + 1]
                = saturating_add(total[PATH_SLOT_PAIRS + 2 * at + 1], count);
        else
            total[PATH_SLOT_LOST] = saturating_add(total[PATH_SLOT_LOST], count);
    }
}

/* ---- Path tables ---------------------------------------------------- */

static void function_free(struct path_function *fn)
{
    free(fn->signature);
    free(fn->function);
    free(fn->file);
    free(fn->regions);
    free(fn->blocks);
    free(fn->edges);
}

void path_catalog_free(struct path_catalog *catalog)
{
    for (size_t i = 0; i < catalog->n_functions; i++)
        function_free(&catalog->functions[i]);
    free(catalog->functions);
    memset(catalog, 0, sizeof *catalog);
}

#define MAX_BLOCK 100000000ULL
#define MAX_LINE 100000000ULL

static bool want_fields(const struct record_reader *reader, const struct record *record,
                        size_t n, struct diag *d)
{
    char shown[64];
    if (record->n_fields != n)
        return record_fail(reader, d, "'%s' record with %zu fields, not %zu",
                           slice_for_message(record->fields[0], shown, sizeof shown),
                           record->n_fields, n);
    return true;
}

static bool field_long(const struct record_reader *reader, struct text_slice field,
                       const char *what, unsigned long long max, long *out, struct diag *d)
{
    unsigned long long value;
    if (!field_to_u64(reader, field, what, max, &value, d))
        return false;
    *out = (long)value;
    return true;
}

static const struct path_block *find_block(const struct path_function *fn, long id)
{
    for (size_t i = 0; i < fn->n_blocks; i++) {
        if (fn->blocks[i].id == id)
            return &fn->blocks[i];
    }
    return NULL;
}

/* The checks a function's table must pass: every region, edge and exit
   names a block of the table; the regions' ranges tile 0 .. n_paths - 1
   in order; every block has a way out.  */
static bool check_function(const struct record_reader *reader, const struct path_function *fn,
                           struct diag *d)
{
    unsigned long long next = 0;
    for (size_t i = 0; i < fn->n_regions; i++) {
        const struct path_region *r = &fn->regions[i];
        if (!find_block(fn, r->entry))
            return record_fail(reader, d, "paths of %s: region entry block %ld is not in the table",
                               fn->function, r->entry);
        if (r->first != next || r->n_paths == 0 || r->first + r->n_paths < r->first)
            return record_fail(reader, d, "paths of %s: region at block %ld has paths %llu to "
                               "%llu + %llu, which do not follow the previous region's",
                               fn->function, r->entry, r->first, r->first, r->n_paths);
        next = r->first + r->n_paths;
    }
    if (next != fn->n_paths)
        return record_fail(reader, d, "paths of %s: the regions hold %llu paths, the function %llu",
                           fn->function, next, fn->n_paths);
    for (size_t i = 0; i < fn->n_edges; i++) {
        const struct path_edge *e = &fn->edges[i];
        if (!find_block(fn, e->from) || (e->to >= 0 && !find_block(fn, e->to)))
            return record_fail(reader, d, "paths of %s: an edge from block %ld names a block "
                               "that is not in the table", fn->function, e->from);
    }
    return true;
}

/* Reads one `paths' group, RECORD its first line.  */
static bool read_function(struct record_reader *reader, struct record *record,
                          const char *signature, struct path_function *fn, struct diag *d)
{
    size_t capacity_regions = 0, capacity_blocks = 0, capacity_edges = 0;
    char shown[64];
    memset(fn, 0, sizeof *fn);
    fn->signature = xstrdup(signature);
    if (!want_fields(reader, record, 6, d)
        || !field_to_unsigned(reader, record->fields[1], "site", &fn->site, d)
        || !field_to_string(reader, record->fields[2], "function", &fn->function, d)
        || !field_to_string(reader, record->fields[3], "file", &fn->file, d)
        || !field_to_u64(reader, record->fields[4], "number of paths", ~0ULL, &fn->n_paths, d))
        return false;
    if (slice_equals(record->fields[5], "array"))
        fn->in_array = true;
    else if (!slice_equals(record->fields[5], "hash"))
        return record_fail(reader, d, "paths of %s: counted in '%s', not 'array' or 'hash'",
                           fn->function, slice_for_message(record->fields[5], shown, sizeof shown));
    for (;;) {
        enum record_status status = record_read(reader, record, d);
        if (status == RECORD_ERROR)
            return false;
        if (status == RECORD_END)
            return record_fail(reader, d, "paths of %s without its 'end'", fn->function);
        struct text_slice kind = record->fields[0];
        if (slice_equals(kind, "end")) {
            if (!want_fields(reader, record, 1, d))
                return false;
            return check_function(reader, fn, d);
        } else if (slice_equals(kind, "region")) {
            struct path_region r;
            if (!want_fields(reader, record, 5, d)
                || !field_long(reader, record->fields[1], "block", MAX_BLOCK, &r.entry, d)
                || !field_to_u64(reader, record->fields[2], "first path", ~0ULL, &r.first, d)
                || !field_to_u64(reader, record->fields[3], "number of paths", ~0ULL, &r.n_paths, d)
                || !field_long(reader, record->fields[4], "line", MAX_LINE, &r.line, d))
                return false;
            grow_array((void **)&fn->regions, &capacity_regions, fn->n_regions + 1, sizeof r);
            fn->regions[fn->n_regions++] = r;
        } else if (slice_equals(kind, "block")) {
            struct path_block b;
            if (!want_fields(reader, record, 4, d)
                || !field_long(reader, record->fields[1], "block", MAX_BLOCK, &b.id, d)
                || !field_long(reader, record->fields[2], "line", MAX_LINE, &b.first_line, d)
                || !field_long(reader, record->fields[3], "line", MAX_LINE, &b.last_line, d))
                return false;
            if (find_block(fn, b.id))
                return record_fail(reader, d, "paths of %s: block %ld twice", fn->function, b.id);
            grow_array((void **)&fn->blocks, &capacity_blocks, fn->n_blocks + 1, sizeof b);
            fn->blocks[fn->n_blocks++] = b;
        } else if (slice_equals(kind, "edge") || slice_equals(kind, "exit")) {
            struct path_edge e;
            bool is_exit = slice_equals(kind, "exit");
            memset(&e, 0, sizeof e);
            if (!want_fields(reader, record, is_exit ? 4 : 6, d)
                || !field_long(reader, record->fields[1], "block", MAX_BLOCK, &e.from, d))
                return false;
            if (is_exit) {
                e.to = -1;
                strcpy(e.how, "exit");
                if (!field_to_u64(reader, record->fields[2], "value", ~0ULL, &e.value, d)
                    || !field_long(reader, record->fields[3], "line", MAX_LINE, &e.line, d))
                    return false;
            } else {
                struct text_slice how = record->fields[4];
                if (!field_long(reader, record->fields[2], "block", MAX_BLOCK, &e.to, d)
                    || !field_to_u64(reader, record->fields[3], "value", ~0ULL, &e.value, d)
                    || !field_long(reader, record->fields[5], "line", MAX_LINE, &e.line, d))
                    return false;
                if (!slice_equals(how, "true") && !slice_equals(how, "false")
                    && !slice_equals(how, "switch") && !slice_equals(how, "-"))
                    return record_fail(reader, d, "paths of %s: an edge leaves its block by '%s', "
                                       "not true, false, switch or -", fn->function,
                                       slice_for_message(how, shown, sizeof shown));
                memcpy(e.how, how.data, how.size);
                e.how[how.size] = 0;
            }
            grow_array((void **)&fn->edges, &capacity_edges, fn->n_edges + 1, sizeof e);
            fn->edges[fn->n_edges++] = e;
        } else {
            return record_fail(reader, d, "unknown record '%s' in the paths of %s",
                               slice_for_message(kind, shown, sizeof shown), fn->function);
        }
    }
}

bool path_catalog_read_text(struct path_catalog *catalog, const char *text, size_t length,
                            const char *name, struct diag *d)
{
    struct record_reader reader;
    struct record record = { 0 };
    char *signature = NULL;
    char shown[64];
    bool ok = true;
    record_reader_init(&reader, name, text, length);
    while (ok) {
        record_skip_nul_padding(&reader);
        enum record_status status = record_read(&reader, &record, d);
        if (status == RECORD_END)
            break;
        if (status == RECORD_ERROR) {
            ok = false;
            break;
        }
        struct text_slice kind = record.fields[0];
        if (!signature) {
            if (slice_equals(kind, "pathunit")) {
                ok = want_fields(&reader, &record, 2, d)
                     && field_to_signature(&reader, record.fields[1], &signature, d);
            } else if (slice_equals(kind, "paths") || slice_equals(kind, "pathunitend")) {
                ok = record_fail(&reader, d, "'%s' record outside a path table",
                                 slice_for_message(kind, shown, sizeof shown));
            }
            /* Other records: a site table's, in a site-table file.  */
            continue;
        }
        if (slice_equals(kind, "pathunitend")) {
            ok = want_fields(&reader, &record, 1, d);
            free(signature);
            signature = NULL;
        } else if (slice_equals(kind, "paths")) {
            struct path_function fn;
            if (!read_function(&reader, &record, signature, &fn, d)) {
                function_free(&fn);
                ok = false;
            } else if (path_catalog_find(catalog, fn.signature, fn.site)) {
                /* The same unit linked twice, or read from two files.  */
                function_free(&fn);
            } else {
                grow_array((void **)&catalog->functions, &catalog->capacity,
                           catalog->n_functions + 1, sizeof fn);
                catalog->functions[catalog->n_functions++] = fn;
            }
        } else {
            ok = record_fail(&reader, d, "unknown record '%s' in a path table",
                             slice_for_message(kind, shown, sizeof shown));
        }
    }
    if (ok && signature)
        ok = record_fail(&reader, d, "path table without its 'pathunitend'");
    free(signature);
    record_free(&record);
    return ok;
}

const struct path_function *path_catalog_find(const struct path_catalog *catalog,
                                              const char *signature, unsigned site)
{
    for (size_t i = 0; i < catalog->n_functions; i++) {
        const struct path_function *fn = &catalog->functions[i];
        if (fn->site == site && strcmp(fn->signature, signature) == 0)
            return fn;
    }
    return NULL;
}

bool path_decode(const struct path_function *fn, unsigned long long path,
                 struct path_step *steps, size_t max_steps, size_t *n_steps,
                 long *region_line, struct diag *d)
{
    const struct path_region *region = NULL;
    *n_steps = 0;
    for (size_t i = 0; i < fn->n_regions; i++) {
        if (path >= fn->regions[i].first && path - fn->regions[i].first < fn->regions[i].n_paths)
            region = &fn->regions[i];
    }
    if (!region)
        return diag_fail(d, "paths of %s: no path %llu (it has %llu)", fn->function, path,
                         fn->n_paths);
    *region_line = region->line;
    unsigned long long left = path - region->first;
    long at = region->entry;
    /* A path visits each block once: no more steps than blocks.  */
    for (size_t step = 0; step <= fn->n_blocks; step++) {
        const struct path_edge *best = NULL;
        for (size_t i = 0; i < fn->n_edges; i++) {
            const struct path_edge *e = &fn->edges[i];
            if (e->from == at && e->value <= left && (!best || e->value > best->value))
                best = e;
        }
        if (!best)
            return diag_fail(d, "paths of %s: path %llu cannot be decoded at block %ld",
                             fn->function, path, at);
        const struct path_block *b = find_block(fn, at);
        if (*n_steps < max_steps) {
            struct path_step *s = &steps[(*n_steps)++];
            s->block = at;
            s->first_line = b ? b->first_line : 0;
            s->last_line = b ? b->last_line : 0;
            s->how = best->how;
            s->line = best->line;
        }
        left -= best->value;
        if (best->to < 0) {
            if (left != 0)
                return diag_fail(d, "paths of %s: path %llu ends with %llu left over",
                                 fn->function, path, left);
            return true;
        }
        at = best->to;
    }
    return diag_fail(d, "paths of %s: path %llu does not reach an exit", fn->function, path);
}
