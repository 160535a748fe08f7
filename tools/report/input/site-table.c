#include "input/site-table.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "input/elf-section.h"
#include "input/record.h"
#include "schemes/registry.h"

/* Fields of the records, counting the record name.  */
enum { UNIT_FIELDS = 5, SITE_FIELDS = 10, END_FIELDS = 1 };
/* With weighted sites: the unit's countdown unit, each site's weight.  */
enum { WEIGHTED_UNIT_FIELDS = 6, WEIGHTED_SITE_FIELDS = 11 };

/* The registry's scheme names, for messages.  */
#define SAMPLER_SCHEME(ID, NAME, N_COUNTERS, COUNTERS, MERGE, TEXT) ", " NAME
static const char KNOWN_SCHEMES_LIST[] = ""
#include "schemes.def"
    ;
#define KNOWN_SCHEMES (KNOWN_SCHEMES_LIST + 2)

double site_rate(unsigned long long sparsity, unsigned long long countdown_unit,
                 unsigned weight)
{
    double mean = (double) sparsity * (double) countdown_unit;
    if (weight == 0 || sparsity == 0)
        return 0;
    if (mean <= 1)
        return 1;
    if (weight == 1)
        return 1 / mean;
    return -expm1((double) weight * log1p(-1 / mean));
}

double site_visits_per_sample(unsigned long long sparsity, unsigned long long countdown_unit,
                              unsigned weight)
{
    if (weight == 1 && countdown_unit == 1)
        return (double) sparsity;
    return 1 / site_rate(sparsity, countdown_unit, weight);
}

static bool scheme_lookup(struct text_slice name, enum sampler_scheme_id *out)
{
    for (int i = 0; i < SAMPLER_N_SCHEMES; i++) {
        if (slice_equals(name, scheme_infos[i].name)) {
            *out = (enum sampler_scheme_id) i;
            return true;
        }
    }
    return false;
}

static void site_free(struct site *site)
{
    free(site->file);
    free(site->function);
    free(site->symbol);
    free(site->predicate);
    if (site->counter_names) {
        for (unsigned i = 0; i < site->n_counters; i++)
            free(site->counter_names[i]);
        free(site->counter_names);
    }
}

static void unit_table_free(struct unit_table *unit)
{
    if (!unit)
        return;
    for (unsigned i = 0; i < unit->n_sites; i++)
        site_free(&unit->sites[i]);
    free(unit->sites);
    free(unit->signature);
    free(unit->source);
    free(unit->origin);
    free(unit->text);
    free(unit);
}

void site_catalog_init(struct site_catalog *catalog)
{
    memset(catalog, 0, sizeof *catalog);
}

void site_catalog_free(struct site_catalog *catalog)
{
    for (size_t i = 0; i < catalog->n_units; i++)
        unit_table_free(catalog->units[i]);
    free(catalog->units);
    name_index_free(&catalog->by_signature);
    site_catalog_init(catalog);
}

const char *site_symbol(const struct site *site)
{
    return site->symbol ? site->symbol : site->function;
}

bool site_catalog_has_symbols(const struct site_catalog *catalog)
{
    for (size_t u = 0; u < catalog->n_units; u++)
        for (unsigned i = 0; i < catalog->units[u]->n_sites; i++)
            if (catalog->units[u]->sites[i].symbol)
                return true;
    return false;
}

const struct unit_table *site_catalog_find(const struct site_catalog *catalog,
                                           const char *signature)
{
    size_t position;
    return name_index_find(&catalog->by_signature, signature, &position)
           ? catalog->units[position] : NULL;
}

static void catalog_insert(struct site_catalog *catalog, struct unit_table *unit)
{
    void *items = catalog->units;
    grow_array(&items, &catalog->capacity, catalog->n_units + 1, sizeof *catalog->units);
    catalog->units = items;
    name_index_put(&catalog->by_signature, unit->signature, catalog->n_units);
    catalog->units[catalog->n_units++] = unit;
}

static bool parse_counter_names(const struct record_reader *reader, struct site *site,
                                struct text_slice field, struct diag *d)
{
    char *names;
    if (!field_to_string(reader, field, "counter names", &names, d))
        return false;
    unsigned n_names = 1;
    for (const char *p = names; *p; p++)
        n_names += *p == ',';
    if (n_names != site->n_counters) {
        free(names);
        return record_fail(reader, d, "site %u declares %u counters but names %u",
                           site->index, site->n_counters, n_names);
    }
    site->counter_names = xcalloc(n_names, sizeof *site->counter_names);
    const char *name = names;
    for (unsigned i = 0; i < n_names; i++) {
        const char *comma = strchr(name, ',');
        size_t length = comma ? (size_t) (comma - name) : strlen(name);
        char shown[128];
        if (length == 0) {
            free(names);
            return record_fail(reader, d, "site %u: empty counter name", site->index);
        }
        for (unsigned j = 0; j < i; j++) {
            if (strlen(site->counter_names[j]) == length
                && memcmp(site->counter_names[j], name, length) == 0) {
                record_fail(reader, d, "site %u: duplicate counter name '%s'", site->index,
                            quote_for_message(name, length, shown, sizeof shown));
                free(names);
                return false;
            }
        }
        site->counter_names[i] = xmemdup0(name, length);
        name += length + 1;
    }
    free(names);
    return true;
}

/* Parses RECORD as site number N_READ of a unit declaring N_DECLARED sites,
   into SITE.  */
static bool parse_site(const struct record_reader *reader, const struct record *record,
                       unsigned n_declared, unsigned n_read, bool weighted, struct site *site,
                       unsigned long long *counter_total, struct diag *d)
{
    const struct text_slice *f = record->fields;
    unsigned wanted_fields = weighted ? WEIGHTED_SITE_FIELDS : SITE_FIELDS;
    /* One more, last: the function's symbol, where it is not the name (C++). */
    bool has_symbol = record->n_fields == wanted_fields + 1;
    if (record->n_fields != wanted_fields && !has_symbol)
        return record_fail(reader, d, "'site' record has %zu fields, expected %u or %u",
                           record->n_fields, wanted_fields, wanted_fields + 1);
    if (has_symbol && !field_to_string(reader, f[wanted_fields], "symbol", &site->symbol, d))
        return false;
    site->weight = 1;
    if (weighted) {
        if (!field_to_unsigned(reader, f[10], "weight", &site->weight, d))
            return false;
        if (site->weight > SAMPLER_SITE_WEIGHT_MAX)
            return record_fail(reader, d, "weight %u above %u", site->weight,
                               (unsigned) SAMPLER_SITE_WEIGHT_MAX);
    }
    unsigned index;
    if (!field_to_unsigned(reader, f[1], "site index", &index, d))
        return false;
    if (index >= n_declared)
        return record_fail(reader, d, "site index %u out of range (unit has %u sites)",
                           index, n_declared);
    /* Sites are numbered in table order.  */
    if (index != n_read)
        return record_fail(reader, d, "site index %u out of order (expected %u)",
                           index, n_read);
    site->index = index;
    if (!scheme_lookup(f[2], &site->scheme)) {
        char shown[128];
        return record_fail(reader, d, "unknown scheme '%s' (known: %s)",
                           slice_for_message(f[2], shown, sizeof shown), KNOWN_SCHEMES);
    }
    if (!field_to_string(reader, f[3], "file", &site->file, d)
        || !field_to_unsigned(reader, f[4], "line", &site->line, d)
        || !field_to_unsigned(reader, f[5], "column", &site->column, d)
        || !field_to_string(reader, f[6], "function", &site->function, d)
        || !field_to_unsigned(reader, f[7], "counter count", &site->n_counters, d)
        || !field_to_string(reader, f[8], "predicate", &site->predicate, d))
        return false;
    unsigned wanted = scheme_infos[site->scheme].n_counters;
    if (site->n_counters == 0 || (wanted && site->n_counters != wanted)) {
        if (wanted)
            return record_fail(reader, d, "%s site %u has %u counters, expected %u",
                               scheme_name(site->scheme), index, site->n_counters, wanted);
        return record_fail(reader, d, "%s site %u has no counters",
                           scheme_name(site->scheme), index);
    }
    if (!parse_counter_names(reader, site, f[9], d))
        return false;
    if (!site_read_shape(reader, site, d))
        return false;
    /* The unit's counter total is checked at `end'; until then it may
       exceed what an unsigned holds, so position is only kept when it fits.  */
    site->first_counter = *counter_total <= UINT_MAX ? (unsigned) *counter_total : 0;
    *counter_total += site->n_counters;
    return true;
}

/* Parses one `unit ... end' block whose `unit' record is RECORD; NULL if
   it is not valid.  */
static struct unit_table *parse_unit(struct record_reader *reader, struct record *record,
                                     struct diag *d)
{
    const struct text_slice *f = record->fields;
    char shown[128];
    if (record->n_fields != UNIT_FIELDS && record->n_fields != WEIGHTED_UNIT_FIELDS) {
        record_fail(reader, d, "'unit' record has %zu fields, expected %d or %d",
                    record->n_fields, UNIT_FIELDS, WEIGHTED_UNIT_FIELDS);
        return NULL;
    }
    bool weighted = record->n_fields == WEIGHTED_UNIT_FIELDS;
    struct unit_table *unit = xcalloc(1, sizeof *unit);
    unsigned n_sites = 0;
    const char *block_start = record->line.data;
    unit->origin = xstrdup(reader->origin);
    unit->line_number = reader->line_number;
    if (!field_to_signature(reader, f[1], &unit->signature, d)
        || !field_to_string(reader, f[2], "source", &unit->source, d)
        || !field_to_unsigned(reader, f[3], "site count", &n_sites, d)
        || !field_to_unsigned(reader, f[4], "counter count", &unit->n_counters, d))
        goto fail;
    unit->countdown_unit = 1;
    if (weighted) {
        if (!field_to_unsigned(reader, f[5], "countdown unit", &unit->countdown_unit, d))
            goto fail;
        if (unit->countdown_unit == 0 || unit->countdown_unit > SAMPLER_COUNTDOWN_UNIT_MAX) {
            record_fail(reader, d, "countdown unit %u not from 1 to %u", unit->countdown_unit,
                        (unsigned) SAMPLER_COUNTDOWN_UNIT_MAX);
            goto fail;
        }
    }
    unsigned long long counter_total = 0;
    unsigned n_read = 0;
    size_t sites_capacity = 0;
    for (;;) {
        enum record_status status = record_read(reader, record, d);
        if (status == RECORD_ERROR)
            goto fail;
        if (status == RECORD_END) {
            record_fail(reader, d, "unit %s not closed by 'end'", unit->signature);
            goto fail;
        }
        struct text_slice name = record->fields[0];
        if (slice_equals(name, "site")) {
            /* Sites are allocated only as their lines arrive, so a huge
               declared count in a damaged table costs nothing.  */
            if (n_read < n_sites) {
                void *items = unit->sites;
                grow_array(&items, &sites_capacity, (size_t) n_read + 1, sizeof *unit->sites);
                unit->sites = items;
                memset(&unit->sites[n_read], 0, sizeof *unit->sites);
                unit->n_sites = n_read + 1;
            }
            struct site *site = n_read < n_sites ? &unit->sites[n_read] : NULL;
            struct site overflow = { 0 };
            bool ok = parse_site(reader, record, n_sites, n_read, weighted,
                                 site ? site : &overflow,
                                 &counter_total, d);
            if (!site)
                site_free(&overflow);
            if (!ok)
                goto fail;
            n_read++;
        } else if (slice_equals(name, "end")) {
            break;
        } else if (slice_equals(name, "unit")) {
            record_fail(reader, d, "unit %s not closed by 'end' before the next 'unit'",
                        unit->signature);
            goto fail;
        } else {
            record_fail(reader, d, "unknown record '%s' in a site table",
                        slice_for_message(name, shown, sizeof shown));
            goto fail;
        }
    }
    if (record->n_fields != END_FIELDS) {
        record_fail(reader, d, "'end' record has %zu fields, expected %d",
                    record->n_fields, END_FIELDS);
        goto fail;
    }
    if (n_read != n_sites) {
        record_fail(reader, d, "unit %s declares %u sites, found %u",
                    unit->signature, n_sites, n_read);
        goto fail;
    }
    if (counter_total != unit->n_counters) {
        record_fail(reader, d, "unit %s declares %u counters, its sites have %llu",
                    unit->signature, unit->n_counters, counter_total);
        goto fail;
    }
    const char *block_end = record->line.data + record->line.size;
    unit->text = xmemdup0(block_start, (size_t) (block_end - block_start));
    unit->text_size = (size_t) (block_end - block_start);
    return unit;
fail:
    unit_table_free(unit);
    return NULL;
}

static bool catalog_add_unit(struct site_catalog *catalog, struct unit_table *unit,
                             struct diag *d)
{
    const struct unit_table *known = site_catalog_find(catalog, unit->signature);
    if (!known) {
        catalog_insert(catalog, unit);
        return true;
    }
    bool same = known->text_size == unit->text_size
                && memcmp(known->text, unit->text, unit->text_size) == 0;
    if (!same)
        diag_fail(d, "%s:%lu: unit %s differs from the table with the same signature at %s:%lu",
                  unit->origin, unit->line_number, unit->signature, known->origin,
                  known->line_number);
    unit_table_free(unit);
    return same;
}

bool site_catalog_add_text(struct site_catalog *catalog, const char *origin,
                           const char *data, size_t size, struct diag *d)
{
    return site_catalog_add_text_at(catalog, origin, data, size, 1, d);
}

bool site_catalog_add_text_at(struct site_catalog *catalog, const char *origin,
                              const char *data, size_t size, unsigned long first_line,
                              struct diag *d)
{
    struct record_reader reader;
    struct record record = { 0 };
    char shown[128];
    bool ok = true;
    enum file_kind kind = guess_file_kind(data, size);
    if (kind != FILE_UNKNOWN && kind != FILE_SITE_TABLE)
        return diag_fail(d, "%s:%lu: not a site table%s", origin, first_line,
                         file_kind_hint(kind));
    record_reader_init(&reader, origin, data, size);
    reader.line_number = first_line - 1;
    while (ok) {
        record_skip_nul_padding(&reader);
        enum record_status status = record_read(&reader, &record, d);
        if (status == RECORD_END)
            break;
        if (status == RECORD_ERROR) {
            ok = false;
        } else if (slice_equals(record.fields[0], "unit")) {
            struct unit_table *unit = parse_unit(&reader, &record, d);
            ok = unit && catalog_add_unit(catalog, unit, d);
        } else if (slice_equals(record.fields[0], "pathunit")) {
            /* A unit's path table (paths scheme), after its site table in
               a site-table file: read by `sampler-report paths'
               (pathtable.c), skipped here.  */
            for (;;) {
                status = record_read(&reader, &record, d);
                if (status == RECORD_ERROR) {
                    ok = false;
                    break;
                }
                if (status == RECORD_END) {
                    ok = record_fail(&reader, d, "path table without its 'pathunitend'");
                    break;
                }
                if (slice_equals(record.fields[0], "pathunitend"))
                    break;
            }
        } else if (slice_equals(record.fields[0], "site") || slice_equals(record.fields[0], "end")) {
            ok = record_fail(&reader, d, "'%s' record outside a unit",
                             slice_for_message(record.fields[0], shown, sizeof shown));
        } else {
            ok = record_fail(&reader, d, "unknown record '%s' in a site table",
                             slice_for_message(record.fields[0], shown, sizeof shown));
        }
    }
    record_free(&record);
    return ok;
}

bool site_catalog_add_file(struct site_catalog *catalog, const char *path, struct diag *d)
{
    struct byte_buffer contents = { 0 };
    bool ok = read_whole_file(path, &contents, d)
              && site_catalog_add_text(catalog, path, contents.data, contents.size, d);
    buffer_free(&contents);
    return ok;
}

bool site_catalog_add_binary(struct site_catalog *catalog, const char *path, bool *found,
                             struct diag *d)
{
    struct byte_buffer section = { 0 };
    bool ok = elf_read_section(path, SITE_SECTION, &section, found, d);
    if (ok && *found) {
        size_t origin_size = strlen(path) + sizeof "[" SITE_SECTION "]";
        char *origin = xmalloc(origin_size);
        snprintf(origin, origin_size, "%s[" SITE_SECTION "]", path);
        ok = site_catalog_add_text(catalog, origin, section.data, section.size, d);
        free(origin);
    }
    buffer_free(&section);
    return ok;
}
