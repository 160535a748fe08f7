#include "input/report-reader.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/record.h"
#include "schemes/registry.h"

enum header_field { HEADER_PROGRAM, HEADER_PID, HEADER_SPARSITY, HEADER_SEED, HEADER_PARENT,
                    HEADER_RESET, HEADER_EXIT, HEADER_INTERIM, HEADER_COUNTDOWN_UNIT,
                    HEADER_RUN_ID, HEADER_RELEASE, HEADER_WITHHELD, HEADER_DROPPED,
                    HEADER_COUNT };

static const char *const header_names[HEADER_COUNT] = {
    "program", "pid", "sparsity", "seed", "parent", "reset", "exit", "interim",
    "countdown-unit", "run-id", "release", "withheld", "dropped",
};

enum { UNIT_FIELDS = 5, MAX_EXIT_STATUS = 255, MAX_SIGNAL = 255 };

struct report_parser {
    struct record_reader reader;
    struct record record;
    struct run_report *report;        /* the one being read */
    bool header_seen[HEADER_COUNT];
    struct name_index first_occurrence;   /* signature -> index in report->units */
    char *object;                     /* named by the last 'object' record */
    bool after_object;                /* no 'unit' record since it */
    int records_of;                   /* the scheme whose records began; -1: none yet */
    struct diag *d;
};

static void unit_counts_free(struct unit_counts *unit)
{
    for (size_t i = 0; i < unit->n_observed; i++)
        free(unit->sites[i].values);
    free(unit->sites);
    free(unit->signature);
    free(unit->source);
    free(unit->object);
}

void run_report_free(struct run_report *report)
{
    for (int s = 0; s < SAMPLER_N_SCHEMES; s++) {
        if (report->scheme_records[s])
            scheme_infos[s].report->records->free(report->scheme_records[s]);
    }
    for (size_t i = 0; i < report->n_units; i++)
        unit_counts_free(&report->units[i]);
    free(report->units);
    for (size_t i = 0; i < report->n_loaded; i++)
        free(report->loaded[i].path);
    free(report->loaded);
    free(report->regions);
    free(report->path);
    free(report->program);
    free(report->product);
    free(report->version);
    free(report->withheld);
    memset(report, 0, sizeof *report);
}

void report_file_free(struct report_file *file)
{
    for (size_t i = 0; i < file->n_reports; i++)
        run_report_free(&file->reports[i]);
    free(file->reports);
    memset(file, 0, sizeof *file);
}

/* The version line, already read into the parser's record.  */
static bool check_version(struct report_parser *parser)
{
    struct record_reader *reader = &parser->reader;
    const struct record *record = &parser->record;
    if (!slice_equals(record->fields[0], "sampler-report")) {
        const char *hint = file_kind_hint(guess_file_kind(record->line.data, record->line.size));
        if (*hint)
            return record_fail(reader, parser->d, "not a sampler report%s", hint);
        return record_fail(reader, parser->d,
                           "not a sampler report (the first line must be "
                           "'sampler-report<TAB>%d')", REPORT_FORMAT_VERSION);
    }
    if (record->n_fields != 2)
        return record_fail(reader, parser->d, "'sampler-report' record has %zu fields, expected 2",
                           record->n_fields);
    char expected[16];
    snprintf(expected, sizeof expected, "%d", REPORT_FORMAT_VERSION);
    if (!slice_equals(record->fields[1], expected)) {
        char shown[128];
        return record_fail(reader, parser->d,
                           "unsupported report version '%s' (this sampler-report reads "
                           "version %d)",
                           slice_for_message(record->fields[1], shown, sizeof shown),
                           REPORT_FORMAT_VERSION);
    }
    return true;
}

const char *exit_kind_name(enum exit_kind kind)
{
    switch (kind) {
    case EXIT_BY_STATUS:
        return "status";
    case EXIT_BY_SIGNAL:
        return "signal";
    case EXIT_BY_EXEC:
        return "exec";
    case EXIT_BY__EXIT:
        return "_exit";
    case EXIT_BY_QUICK_EXIT:
        return "quick_exit";
    case EXIT_NOT_YET:
        break;
    }
    return NULL;
}

static bool parse_exit(struct report_parser *parser)
{
    struct record_reader *reader = &parser->reader;
    const struct text_slice *f = parser->record.fields;
    struct run_report *report = parser->report;
    unsigned long long code;
    if (slice_equals(f[1], "status") || slice_equals(f[1], "_exit")
        || slice_equals(f[1], "quick_exit")) {
        report->exit_kind = slice_equals(f[1], "status") ? EXIT_BY_STATUS
                            : slice_equals(f[1], "_exit") ? EXIT_BY__EXIT
                            : EXIT_BY_QUICK_EXIT;
        if (!field_to_u64(reader, f[2], "exit status", MAX_EXIT_STATUS, &code, parser->d))
            return false;
    } else if (slice_equals(f[1], "exec")) {
        report->exit_kind = EXIT_BY_EXEC;
        code = 0;
    } else if (slice_equals(f[1], "signal")) {
        report->exit_kind = EXIT_BY_SIGNAL;
        if (!field_to_u64(reader, f[2], "signal", MAX_SIGNAL, &code, parser->d))
            return false;
        if (code == 0)
            return record_fail(reader, parser->d, "signal 0 is not a signal");
    } else {
        char shown[128];
        return record_fail(reader, parser->d, "bad exit kind '%s' (expected status, signal, "
                           "exec, _exit or quick_exit)",
                           slice_for_message(f[1], shown, sizeof shown));
    }
    report->exit_code = (unsigned) code;
    return true;
}

/* A process is not its own parent (checked at whichever of `pid' and
   `parent' comes second).  */
static bool check_parent(struct report_parser *parser)
{
    const struct run_report *report = parser->report;
    if (parser->header_seen[HEADER_PID] && parser->header_seen[HEADER_PARENT]
        && report->parent == report->pid)
        return record_fail(&parser->reader, parser->d, "parent pid %llu is the report's own pid",
                           report->parent);
    return true;
}

/* run-id: 32 lowercase hex digits.  */
static bool parse_run_id(struct report_parser *parser)
{
    struct text_slice id = parser->record.fields[1];
    bool valid = id.size == 32;
    for (size_t i = 0; valid && i < id.size; i++)
        valid = (id.data[i] >= '0' && id.data[i] <= '9') || (id.data[i] >= 'a' && id.data[i] <= 'f');
    if (!valid) {
        char shown[128];
        return record_fail(&parser->reader, parser->d,
                           "bad run id '%s' (expected 32 lowercase hex digits)",
                           slice_for_message(id, shown, sizeof shown));
    }
    memcpy(parser->report->run_id, id.data, 32);
    parser->report->run_id[32] = '\0';
    return true;
}

/* withheld: scheme names, comma-separated, each once.  */
static bool parse_withheld(struct report_parser *parser)
{
    struct text_slice list = parser->record.fields[1];
    bool named[SAMPLER_N_SCHEMES] = { false };
    for (size_t start = 0; start <= list.size;) {
        size_t end = start;
        while (end < list.size && list.data[end] != ',')
            end++;
        struct text_slice name = { list.data + start, end - start };
        unsigned id = 0;
        while (id < SAMPLER_N_SCHEMES && !slice_equals(name, scheme_infos[id].name))
            id++;
        if (id == SAMPLER_N_SCHEMES || named[id]) {
            char shown[128];
            return record_fail(&parser->reader, parser->d, "%s scheme '%s' in the 'withheld' record",
                               id == SAMPLER_N_SCHEMES ? "unknown" : "repeated",
                               slice_for_message(name, shown, sizeof shown));
        }
        named[id] = true;
        start = end + 1;
    }
    return field_to_string(&parser->reader, list, "withheld schemes", &parser->report->withheld,
                           parser->d);
}

static bool parse_header_field(struct report_parser *parser, enum header_field field)
{
    struct record_reader *reader = &parser->reader;
    const struct record *record = &parser->record;
    const struct text_slice *f = record->fields;
    struct run_report *report = parser->report;
    struct diag *d = parser->d;
    if (parser->header_seen[field])
        return record_fail(reader, d, "duplicate '%s' record", header_names[field]);
    parser->header_seen[field] = true;
    if ((field == HEADER_EXIT && parser->header_seen[HEADER_INTERIM])
        || (field == HEADER_INTERIM && parser->header_seen[HEADER_EXIT]))
        return record_fail(reader, d, "a report has an 'exit' record or an 'interim' "
                           "one, not both");
    /* exit status N, exit signal N, exit _exit N, exit quick_exit N; exit
       exec; release PRODUCT VERSION.  */
    size_t wanted = (field == HEADER_EXIT && !slice_equals(f[1], "exec"))
                    || field == HEADER_RELEASE ? 3 : 2;
    if (record->n_fields != wanted)
        return record_fail(reader, d, "'%s' record has %zu fields, expected %zu",
                           header_names[field], record->n_fields, wanted);
    switch (field) {
    case HEADER_PROGRAM: {
        char *program;
        if (!field_to_string(reader, f[1], "program", &program, d))
            return false;
        free(report->program);
        report->program = program;
        return true;
    }
    case HEADER_PID:
        return field_to_u64(reader, f[1], "pid", ULLONG_MAX, &report->pid, d)
               && check_parent(parser);
    case HEADER_SPARSITY:
        return field_to_u64(reader, f[1], "sparsity", ULLONG_MAX, &report->sparsity, d);
    case HEADER_COUNTDOWN_UNIT:
        if (!field_to_u64(reader, f[1], "countdown unit", ULLONG_MAX, &report->countdown_unit,
                          d))
            return false;
        if (report->countdown_unit == 0)
            return record_fail(reader, d, "countdown unit 0 (units are 1 or more)");
        return true;
    case HEADER_SEED:
        return field_to_u64(reader, f[1], "seed", ULLONG_MAX, &report->seed, d);
    case HEADER_PARENT:
        if (!field_to_u64(reader, f[1], "parent pid", ULLONG_MAX, &report->parent, d))
            return false;
        if (report->parent == 0)
            return record_fail(reader, d, "parent pid 0 is not a process");
        return check_parent(parser);
    case HEADER_RESET:
        return field_to_u64(reader, f[1], "reset count", ULLONG_MAX, &report->resets, d);
    case HEADER_INTERIM:
        if (!field_to_u64(reader, f[1], "interim report number", ULLONG_MAX,
                          &report->interim, d))
            return false;
        if (report->interim == 0)
            return record_fail(reader, d, "interim reports are numbered from 1");
        return true;
    case HEADER_EXIT:
        return parse_exit(parser);
    case HEADER_RUN_ID:
        return parse_run_id(parser);
    case HEADER_RELEASE:
        if (f[1].size == 0 || f[2].size == 0)
            return record_fail(reader, d, "'release' record without a product or a version");
        return field_to_string(reader, f[1], "product", &report->product, d)
               && field_to_string(reader, f[2], "version", &report->version, d);
    case HEADER_WITHHELD:
        return parse_withheld(parser);
    case HEADER_DROPPED:
        return field_to_u64(reader, f[1], "dropped reports", ULLONG_MAX, &report->dropped, d);
    case HEADER_COUNT:
        break;
    }
    return true;
}

/* Once the counts begin, the header must be complete; `parent', `reset',
   `exit' and `interim' are optional.  */
static bool check_header_complete(struct report_parser *parser)
{
    for (int i = 0; i < HEADER_COUNT; i++) {
        if (!parser->header_seen[i] && i != HEADER_EXIT && i != HEADER_INTERIM
            && i != HEADER_RESET && i != HEADER_PARENT && i != HEADER_COUNTDOWN_UNIT
            && i != HEADER_RUN_ID && i != HEADER_RELEASE && i != HEADER_WITHHELD
            && i != HEADER_DROPPED)
            return record_fail(&parser->reader, parser->d, "missing '%s' record before the units",
                               header_names[i]);
    }
    return true;
}

static int compare_site_counts(const void *a, const void *b)
{
    const struct site_counts *x = a, *y = b;
    if (x->site != y->site)
        return x->site < y->site ? -1 : 1;
    return x->line_number < y->line_number ? -1 : x->line_number > y->line_number;
}

/* Sorts the unit's sites and rejects a site given twice.  */
static bool finish_unit(struct report_parser *parser, struct unit_counts *unit)
{
    if (unit->n_observed > 1)
        qsort(unit->sites, unit->n_observed, sizeof *unit->sites, compare_site_counts);
    for (size_t i = 1; i < unit->n_observed; i++) {
        if (unit->sites[i].site == unit->sites[i - 1].site)
            return diag_fail(parser->d, "%s:%lu: duplicate site %u of unit %s (first at line %lu)",
                             parser->reader.origin, unit->sites[i].line_number,
                             unit->sites[i].site, unit->signature,
                             unit->sites[i - 1].line_number);
    }
    return true;
}

static bool parse_unit(struct report_parser *parser)
{
    struct record_reader *reader = &parser->reader;
    const struct record *record = &parser->record;
    const struct text_slice *f = record->fields;
    struct run_report *report = parser->report;
    struct diag *d = parser->d;
    if (record->n_fields != UNIT_FIELDS)
        return record_fail(reader, d, "'unit' record has %zu fields, expected %d",
                           record->n_fields, UNIT_FIELDS);
    struct unit_counts unit = { 0 };
    unit.line_number = reader->line_number;
    unit.object = parser->object ? xstrdup(parser->object) : NULL;
    if (!field_to_signature(reader, f[1], &unit.signature, d)
        || !field_to_unsigned(reader, f[2], "site count", &unit.n_sites, d)
        || !field_to_unsigned(reader, f[3], "counter count", &unit.n_counters, d)
        || !field_to_string(reader, f[4], "source", &unit.source, d)) {
        unit_counts_free(&unit);
        return false;
    }
    /* Occurrences of one unit are added up, so they must have one shape.  */
    size_t first;
    if (name_index_find(&parser->first_occurrence, unit.signature, &first)) {
        const struct unit_counts *earlier = &report->units[first];
        if (earlier->n_sites != unit.n_sites || earlier->n_counters != unit.n_counters) {
            record_fail(reader, d, "unit %s has %u sites and %u counters here, but %u and %u "
                        "at line %lu", unit.signature, unit.n_sites, unit.n_counters,
                        earlier->n_sites, earlier->n_counters, earlier->line_number);
            unit_counts_free(&unit);
            return false;
        }
    }
    void *items = report->units;
    grow_array(&items, &report->capacity, report->n_units + 1, sizeof *report->units);
    report->units = items;
    report->units[report->n_units] = unit;
    if (!name_index_find(&parser->first_occurrence, unit.signature, NULL))
        name_index_put(&parser->first_occurrence, report->units[report->n_units].signature,
                       report->n_units);
    report->n_units++;
    return true;
}

/* A counts line: "<site index><TAB><c0><TAB><c1>...".  */
static bool parse_site_counts(struct report_parser *parser, struct unit_counts *unit)
{
    struct record_reader *reader = &parser->reader;
    const struct record *record = &parser->record;
    struct diag *d = parser->d;
    struct site_counts site = { 0 };
    site.line_number = reader->line_number;
    if (!field_to_unsigned(reader, record->fields[0], "site index", &site.site, d))
        return false;
    if (site.site >= unit->n_sites)
        return record_fail(reader, d, "site index %u out of range (unit %s has %u sites)",
                           site.site, unit->signature, unit->n_sites);
    size_t n_values = record->n_fields - 1;
    if (n_values == 0)
        return record_fail(reader, d, "site %u has no counters", site.site);
    if (n_values > unit->n_counters)
        return record_fail(reader, d, "site %u has %zu counters, more than unit %s has in all (%u)",
                           site.site, n_values, unit->signature, unit->n_counters);
    site.n_values = (unsigned) n_values;
    site.values = xcalloc(n_values, sizeof *site.values);
    for (size_t i = 0; i < n_values; i++) {
        if (!field_to_u64(reader, record->fields[i + 1], "counter", ULLONG_MAX,
                          &site.values[i], d)) {
            free(site.values);
            return false;
        }
    }
    void *items = unit->sites;
    grow_array(&items, &unit->capacity, unit->n_observed + 1, sizeof *unit->sites);
    unit->sites = items;
    unit->sites[unit->n_observed++] = site;
    return true;
}

/* A record of the report's head (`loaded', `region') named NAME: N_FIELDS
   fields, before the first object or unit, after a complete header.  */
static bool head_record_ok(struct report_parser *parser, const char *name, size_t n_fields)
{
    struct record_reader *reader = &parser->reader;
    const struct record *record = &parser->record;
    if (record->n_fields != n_fields)
        return record_fail(reader, parser->d, "'%s' record has %zu fields, expected %zu",
                           name, record->n_fields, n_fields);
    if (parser->report->n_units > 0 || parser->object != NULL)
        return record_fail(reader, parser->d, "'%s' record after the first 'object' or "
                           "'unit' record", name);
    return check_header_complete(parser);
}

/* region<TAB>heap|stack<TAB>start<TAB>end: after the header, before the
   first object or unit.  */
static bool parse_region(struct report_parser *parser)
{
    struct record_reader *reader = &parser->reader;
    const struct text_slice *f = parser->record.fields;
    struct run_report *report = parser->report;
    struct diag *d = parser->d;
    struct memory_region region = { 0 };
    if (!head_record_ok(parser, "region", 4))
        return false;
    if (slice_equals(f[1], "heap"))
        region.kind = REGION_HEAP;
    else if (slice_equals(f[1], "stack"))
        region.kind = REGION_STACK;
    else
        return record_fail(reader, d, "'region' record of kind '%.*s', expected heap or "
                           "stack", (int) (f[1].size < 40 ? f[1].size : 40), f[1].data);
    if (!field_to_u64(reader, f[2], "start address", ULLONG_MAX, &region.start, d)
        || !field_to_u64(reader, f[3], "end address", ULLONG_MAX, &region.end, d))
        return false;
    if (region.start >= region.end)
        return record_fail(reader, d, "region's start address %llu is not below its end "
                           "address %llu", region.start, region.end);
    void *items = report->regions;
    grow_array(&items, &report->regions_capacity, report->n_regions + 1,
               sizeof *report->regions);
    report->regions = items;
    report->regions[report->n_regions++] = region;
    return true;
}

/* loaded<TAB>base<TAB>start<TAB>end<TAB>path: after the header, before
   the first object or unit.  */
static bool parse_loaded(struct report_parser *parser)
{
    struct record_reader *reader = &parser->reader;
    const struct record *record = &parser->record;
    const struct text_slice *f = record->fields;
    struct run_report *report = parser->report;
    struct diag *d = parser->d;
    struct loaded_object object = { 0 };
    if (!head_record_ok(parser, "loaded", 5)
        || !field_to_u64(reader, f[1], "load address", ULLONG_MAX, &object.base, d)
        || !field_to_u64(reader, f[2], "start address", ULLONG_MAX, &object.start, d)
        || !field_to_u64(reader, f[3], "end address", ULLONG_MAX, &object.end, d))
        return false;
    if (object.start >= object.end)
        return record_fail(reader, d, "loaded object's start address %llu is not below its "
                           "end address %llu", object.start, object.end);
    if (object.start < object.base)
        return record_fail(reader, d, "loaded object's start address %llu is below its load "
                           "address %llu", object.start, object.base);
    if (f[4].size == 0)
        return record_fail(reader, d, "loaded object without a path");
    if (!field_to_string(reader, f[4], "loaded object path", &object.path, d))
        return false;
    void *items = report->loaded;
    grow_array(&items, &report->loaded_capacity, report->n_loaded + 1, sizeof *report->loaded);
    report->loaded = items;
    report->loaded[report->n_loaded++] = object;
    return true;
}

static bool starts_with_digit(struct text_slice field)
{
    return field.size > 0 && field.data[0] >= '0' && field.data[0] <= '9';
}

/* The scheme whose records include one named NAME, and that kind.  */
static bool find_scheme_record(struct text_slice name, int *scheme,
                               const struct scheme_record_kind **kind)
{
    /* Most lines are counts, which no scheme's record is (their names are
       words).  */
    if (starts_with_digit(name))
        return false;
    for (int s = 0; s < SAMPLER_N_SCHEMES; s++) {
        const struct scheme_records *records = scheme_infos[s].report->records;
        for (size_t k = 0; records && k < records->n_kinds; k++) {
            if (slice_equals(name, records->kinds[k].name)) {
                *scheme = s;
                *kind = &records->kinds[k];
                return true;
            }
        }
    }
    return false;
}

/* Everything after the version line, up to and including `end'.  */
static bool parse_body(struct report_parser *parser)
{
    struct record_reader *reader = &parser->reader;
    struct record *record = &parser->record;
    struct run_report *report = parser->report;
    for (;;) {
        enum record_status status = record_read(reader, record, parser->d);
        if (status == RECORD_ERROR)
            return false;
        if (status == RECORD_END)
            return diag_fail(parser->d, "%s:%lu: truncated report (no 'end' line)",
                             reader->origin, reader->line_number);
        struct text_slice name = record->fields[0];
        struct unit_counts *current = report->n_units ? &report->units[report->n_units - 1] : NULL;
        const struct scheme_record_kind *kind;
        int scheme;
        int header = -1;
        for (int i = 0; i < HEADER_COUNT; i++) {
            if (slice_equals(name, header_names[i]))
                header = i;
        }
        if (header >= 0) {
            if (current)
                return record_fail(reader, parser->d, "'%s' record after the first unit",
                                   header_names[header]);
            if (report->n_loaded > 0 || report->n_regions > 0)
                return record_fail(reader, parser->d, "'%s' record after a 'loaded' or "
                                   "'region' record", header_names[header]);
            if (!parse_header_field(parser, (enum header_field) header))
                return false;
        } else if (find_scheme_record(name, &scheme, &kind)) {
            if ((kind->after_header && !check_header_complete(parser))
                || !kind->read(reader, record, report, &report->scheme_records[scheme],
                               parser->d))
                return false;
            parser->records_of = scheme;
        } else if (parser->records_of >= 0 && !slice_equals(name, "end")) {
            return record_fail(reader, parser->d, "units or counts after the %s",
                               scheme_infos[parser->records_of].report->records->what);
        } else if (slice_equals(name, "unit")) {
            if (!check_header_complete(parser) || (current && !finish_unit(parser, current))
                || !parse_unit(parser))
                return false;
            parser->after_object = false;
        } else if (slice_equals(name, "object")) {
            /* Names the loaded object of the units that follow.  */
            char *object;
            if (record->n_fields != 2)
                return record_fail(reader, parser->d, "'object' record has %zu fields, "
                                   "expected 2", record->n_fields);
            if (!check_header_complete(parser)
                || !field_to_string(reader, record->fields[1], "object", &object, parser->d))
                return false;
            free(parser->object);
            parser->object = object;
            parser->after_object = true;
        } else if (slice_equals(name, "loaded")) {
            if (!parse_loaded(parser))
                return false;
        } else if (slice_equals(name, "region")) {
            if (!parse_region(parser))
                return false;
        } else if (slice_equals(name, "end")) {
            if (record->n_fields != 1)
                return record_fail(reader, parser->d, "'end' record has %zu fields, expected 1",
                                   record->n_fields);
            return check_header_complete(parser) && (!current || finish_unit(parser, current));
        } else if (starts_with_digit(name)) {
            if (!current)
                return record_fail(reader, parser->d, "counts before the first 'unit' record");
            if (parser->after_object)
                return record_fail(reader, parser->d, "counts after an 'object' record, before "
                                   "its first 'unit' record");
            if (!parse_site_counts(parser, current))
                return false;
        } else {
            char shown[128];
            return record_fail(reader, parser->d, "unknown record '%s'",
                               slice_for_message(name, shown, sizeof shown));
        }
    }
}

/* Parses one report whose version line the parser has just read.  */
static bool parse_report(struct report_parser *parser, struct run_report *report)
{
    memset(report, 0, sizeof *report);
    report->path = xstrdup(parser->reader.origin);
    report->line_number = parser->reader.line_number;
    report->program = xstrdup("");
    report->countdown_unit = 1;
    parser->report = report;
    memset(parser->header_seen, 0, sizeof parser->header_seen);
    name_index_free(&parser->first_occurrence);
    free(parser->object);
    parser->object = NULL;
    parser->after_object = false;
    parser->records_of = -1;
    return check_version(parser) && parse_body(parser);
}

bool report_file_parse(struct report_file *file, const char *path,
                       const char *data, size_t size, struct diag *d)
{
    struct report_parser parser = { .d = d };
    memset(file, 0, sizeof *file);
    if (guess_file_kind(data, size) == FILE_ELF)
        return diag_fail(d, "%s:1: not a sampler report%s", path, file_kind_hint(FILE_ELF));
    record_reader_init(&parser.reader, path, data, size);
    bool ok = true;
    for (;;) {
        enum record_status status = record_read(&parser.reader, &parser.record, d);
        if (status == RECORD_ERROR) {
            ok = false;
            break;
        }
        if (status == RECORD_END) {
            if (file->n_reports == 0)
                ok = diag_fail(d, "%s:1: not a sampler report (empty file)", path);
            break;
        }
        /* After an `end', only another report may follow.  */
        if (file->n_reports > 0 && !slice_equals(parser.record.fields[0], "sampler-report")) {
            ok = record_fail(&parser.reader, d, "data after 'end'");
            break;
        }
        void *items = file->reports;
        grow_array(&items, &file->capacity, file->n_reports + 1, sizeof *file->reports);
        file->reports = items;
        ok = parse_report(&parser, &file->reports[file->n_reports]);
        file->n_reports++;
        if (!ok)
            break;
    }
    record_free(&parser.record);
    name_index_free(&parser.first_occurrence);
    free(parser.object);
    if (!ok)
        report_file_free(file);
    return ok;
}

bool report_file_load(struct report_file *file, const char *path, struct diag *d)
{
    struct byte_buffer contents = { 0 };
    bool ok = read_whole_file(path, &contents, d);
    if (ok)
        ok = report_file_parse(file, path, contents.data, contents.size, d);
    else
        memset(file, 0, sizeof *file);
    buffer_free(&contents);
    return ok;
}

bool report_parse_one(struct run_report *report, const char *path, const char *data,
                      size_t size, unsigned long first_line, struct diag *d)
{
    struct report_parser parser = { .d = d };
    memset(report, 0, sizeof *report);
    if (guess_file_kind(data, size) == FILE_ELF)
        return diag_fail(d, "%s:%lu: not a sampler report%s", path, first_line,
                         file_kind_hint(FILE_ELF));
    record_reader_init(&parser.reader, path, data, size);
    parser.reader.line_number = first_line - 1;
    bool ok = record_read(&parser.reader, &parser.record, d) == RECORD_READ
              && parse_report(&parser, report);
    record_free(&parser.record);
    name_index_free(&parser.first_occurrence);
    free(parser.object);
    if (!ok)
        run_report_free(report);
    return ok;
}
