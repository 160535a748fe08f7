#include "input/labels.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/record.h"

/* Parses a decimal number from TEXT up to END into *VALUE (at most 255).  */
static bool parse_code(const char *text, const char *end, unsigned *value)
{
    if (text == end || end - text > 3)
        return false;
    unsigned parsed = 0;
    for (const char *p = text; p < end; p++) {
        if (*p < '0' || *p > '9')
            return false;
        parsed = parsed * 10 + (unsigned) (*p - '0');
    }
    if (parsed > 255)
        return false;
    *value = parsed;
    return true;
}

static bool parse_condition(const char *text, size_t length, struct exit_condition *condition)
{
    const char *end = text + length;
    const char *equals = memchr(text, '=', length);
    size_t name_length = equals ? (size_t) (equals - text) : length;
    if (name_length == 6 && memcmp(text, "signal", 6) == 0) {
        condition->kind = EXIT_BY_SIGNAL;
        if (!equals) {
            condition->low = 1;
            condition->high = 255;
            return true;
        }
        if (!parse_code(equals + 1, end, &condition->low) || condition->low == 0)
            return false;
        condition->high = condition->low;
        return true;
    }
    if (name_length == 6 && memcmp(text, "status", 6) == 0 && equals) {
        condition->kind = EXIT_BY_STATUS;
        const char *dash = memchr(equals + 1, '-', (size_t) (end - equals - 1));
        if (!dash) {
            if (!parse_code(equals + 1, end, &condition->low))
                return false;
            condition->high = condition->low;
            return true;
        }
        return parse_code(equals + 1, dash, &condition->low)
               && parse_code(dash + 1, end, &condition->high) && condition->low <= condition->high;
    }
    return false;
}

bool labeller_init_rule(struct labeller *labeller, const char *rule, struct diag *d)
{
    memset(labeller, 0, sizeof *labeller);
    if (!rule)
        rule = DEFAULT_FAILURE_RULE;
    labeller->rule = xstrdup(rule);
    size_t capacity = 0;
    const char *start = rule;
    for (;;) {
        const char *comma = strchr(start, ',');
        size_t length = comma ? (size_t) (comma - start) : strlen(start);
        struct exit_condition condition;
        if (!parse_condition(start, length, &condition)) {
            char shown[128];
            labeller_free(labeller);
            return diag_fail(d, "bad failure condition '%s' in '%s' (expected signal, signal=N, "
                             "status=N or status=N-M, N from 0 to 255, comma-separated)",
                             quote_for_message(start, length, shown, sizeof shown), rule);
        }
        void *items = labeller->conditions;
        grow_array(&items, &capacity, labeller->n_conditions + 1, sizeof condition);
        labeller->conditions = items;
        labeller->conditions[labeller->n_conditions++] = condition;
        if (!comma)
            return true;
        start = comma + 1;
    }
}

static bool add_label(struct labeller *labeller, size_t *capacity, char *origin, bool failed,
                      unsigned long line_number, const struct record_reader *reader,
                      struct diag *d)
{
    size_t earlier;
    if (name_index_find(&labeller->by_origin, origin, &earlier)) {
        record_fail(reader, d, "second label for '%s' (first at line %lu)", origin,
                    labeller->line_numbers[earlier]);
        free(origin);
        return false;
    }
    size_t n = labeller->n_labels;
    size_t grown = *capacity;
    void *items = labeller->origins;
    grow_array(&items, &grown, n + 1, sizeof *labeller->origins);
    labeller->origins = items;
    items = labeller->failed;
    labeller->failed = xrealloc(items, grown * sizeof *labeller->failed);
    labeller->used = xrealloc(labeller->used, grown * sizeof *labeller->used);
    labeller->line_numbers = xrealloc(labeller->line_numbers,
                                      grown * sizeof *labeller->line_numbers);
    *capacity = grown;
    labeller->origins[n] = origin;
    labeller->failed[n] = failed;
    labeller->used[n] = false;
    labeller->line_numbers[n] = line_number;
    labeller->n_labels = n + 1;
    name_index_put(&labeller->by_origin, origin, n);
    return true;
}

bool labeller_init_file(struct labeller *labeller, const char *path, struct diag *d)
{
    memset(labeller, 0, sizeof *labeller);
    labeller->labels_path = path;
    struct byte_buffer contents = { 0 };
    if (!read_whole_file(path, &contents, d)) {
        buffer_free(&contents);
        return false;
    }
    enum file_kind kind = guess_file_kind(contents.data, contents.size);
    if (kind != FILE_UNKNOWN && kind != FILE_LABELS) {
        buffer_free(&contents);
        return diag_fail(d, "%s:1: not a label file%s", path, file_kind_hint(kind));
    }
    struct record_reader reader;
    struct record record = { 0 };
    size_t capacity = 0;
    bool ok = true;
    record_reader_init(&reader, path, contents.data, contents.size);
    while (ok) {
        enum record_status status = record_read(&reader, &record, d);
        if (status == RECORD_END)
            break;
        if (status == RECORD_ERROR) {
            ok = false;
            break;
        }
        bool failed = slice_equals(record.fields[0], "failure");
        if (record.n_fields != 2 || (!failed && !slice_equals(record.fields[0], "success"))) {
            ok = record_fail(&reader, d, "expected 'success' or 'failure', a TAB and a report");
            break;
        }
        char *origin;
        ok = field_to_string(&reader, record.fields[1], "report", &origin, d)
             && add_label(labeller, &capacity, origin, failed, reader.line_number, &reader, d);
    }
    record_free(&record);
    buffer_free(&contents);
    if (ok && labeller->n_labels == 0)
        ok = diag_fail(d, "%s: no labels", path);
    if (ok) {
        labeller->canonical = xcalloc(labeller->n_labels, sizeof *labeller->canonical);
        for (size_t i = 0; i < labeller->n_labels; i++) {
            labeller->canonical[i] = realpath(labeller->origins[i], NULL);
            if (labeller->canonical[i]
                && !name_index_find(&labeller->by_canonical, labeller->canonical[i], NULL))
                name_index_put(&labeller->by_canonical, labeller->canonical[i], i);
        }
    }
    if (!ok)
        labeller_free(labeller);
    return ok;
}

bool labeller_failed(struct labeller *labeller, const char *origin,
                     const struct run_report *report, bool *failed, struct diag *d)
{
    if (labeller->labels_path) {
        size_t position;
        bool found = name_index_find(&labeller->by_origin, origin, &position);
        if (!found) {
            char *canonical = realpath(origin, NULL);
            found = canonical && name_index_find(&labeller->by_canonical, canonical, &position);
            free(canonical);
        }
        if (!found)
            return diag_fail(d, "%s: no label for this run in %s", origin,
                             labeller->labels_path);
        labeller->used[position] = true;
        *failed = labeller->failed[position];
        return true;
    }
    *failed = false;
    for (size_t i = 0; i < labeller->n_conditions; i++) {
        const struct exit_condition *condition = &labeller->conditions[i];
        /* status=N holds for every way of exiting with a status.  */
        bool kind_matches = condition->kind == EXIT_BY_STATUS
                            ? EXIT_HAS_STATUS(report->exit_kind)
                            : condition->kind == report->exit_kind;
        if (kind_matches && report->exit_code >= condition->low
            && report->exit_code <= condition->high)
            *failed = true;
    }
    return true;
}

bool labeller_check_all_used(const struct labeller *labeller, struct diag *d)
{
    for (size_t i = 0; i < labeller->n_labels; i++) {
        if (!labeller->used[i])
            return diag_fail(d, "%s:%lu: '%s' is labelled, but no run was read from it",
                             labeller->labels_path, labeller->line_numbers[i],
                             labeller->origins[i]);
    }
    return true;
}

void labeller_describe(const struct labeller *labeller, char *out, size_t size)
{
    if (labeller->labels_path)
        snprintf(out, size, "as labelled in %s", labeller->labels_path);
    else
        snprintf(out, size, "--fail-if=%s", labeller->rule);
}

void labeller_free(struct labeller *labeller)
{
    for (size_t i = 0; i < labeller->n_labels; i++) {
        free(labeller->origins[i]);
        if (labeller->canonical)
            free(labeller->canonical[i]);
    }
    free(labeller->canonical);
    name_index_free(&labeller->by_canonical);
    free(labeller->origins);
    free(labeller->failed);
    free(labeller->used);
    free(labeller->line_numbers);
    free(labeller->conditions);
    free(labeller->rule);
    name_index_free(&labeller->by_origin);
    memset(labeller, 0, sizeof *labeller);
}
