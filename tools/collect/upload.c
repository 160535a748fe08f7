/* One upload: inflating, reading and checking the report (upload.h).  */
#include "upload.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "schemes/registry.h"
#include "schemes/subpaths/subpath-records.h"

/* Inflated text grows by at least this much at a time.  */
enum { TEXT_STEP = 64 * 1024 };

bool run_id_valid(const char *text)
{
    return strlen(text) == 32 && strspn(text, "0123456789abcdef") == 32;
}

void upload_init(struct upload *upload, const struct upload_limits *limits,
                 struct release *release, const char *run_id)
{
    memset(upload, 0, sizeof *upload);
    upload->limits = limits;
    upload->release = release;
    snprintf(upload->run_id, sizeof upload->run_id, "%s", run_id);
}

bool upload_answer(struct upload *upload, unsigned status, unsigned retry_after,
                   const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(upload->answer, sizeof upload->answer, format, args);
    va_end(args);
    /* The submitter reads the first line: the answer is one.  */
    for (char *p = upload->answer; *p; p++)
        if (*p == '\n' || *p == '\r')
            *p = ' ';
    upload->status = status;
    upload->retry_after = retry_after;
    return false;
}

/* Takes SIZE more bytes of the budget for this upload.  */
static bool reserve(struct upload *upload, size_t size)
{
    struct memory_budget *budget = upload->limits->budget;
    size_t used = atomic_fetch_add(&budget->used, size) + size;
    if (used > budget->limit) {
        atomic_fetch_sub(&budget->used, size);
        return upload_answer(upload, 503, 30, "the collector is busy (its memory for uploads "
                             "is in use); try later");
    }
    upload->reserved += size;
    return true;
}

/* Room for SIZE more bytes in BUFFER, reserved from the budget.  */
static bool make_room(struct upload *upload, struct byte_buffer *buffer, size_t size)
{
    if (buffer->size + size <= buffer->capacity)
        return true;
    size_t grown = buffer->capacity ? buffer->capacity : TEXT_STEP;
    while (grown < buffer->size + size)
        grown *= 2;
    if (!reserve(upload, grown - buffer->capacity))
        return false;
    buffer->data = xrealloc(buffer->data, grown);
    buffer->capacity = grown;
    return true;
}

static bool inflate_some(struct upload *upload, const char *data, size_t size)
{
    z_stream *z = &upload->inflater;
    if (!upload->inflating) {
        if (inflateInit2(z, 15 + 16) != Z_OK)
            return upload_answer(upload, 503, 30, "the collector is out of memory; try later");
        upload->inflating = true;
    }
    z->next_in = (Bytef *) data;
    z->avail_in = (uInt) size;
    while (z->avail_in > 0) {
        if (upload->inflated)
            return upload_answer(upload, 400, 0, "data after the end of the gzip stream");
        size_t limit = upload->limits->report_max;
        if (upload->text.size > limit)
            return upload_answer(upload, 413, 0, "the report inflates to more than %zu bytes "
                                 "(the protocol's limit)", limit);
        size_t room = upload->text.size + TEXT_STEP <= limit + 1 ? TEXT_STEP
                                                                 : limit + 1 - upload->text.size;
        if (!make_room(upload, &upload->text, room))
            return false;
        z->next_out = (Bytef *) upload->text.data + upload->text.size;
        z->avail_out = (uInt) room;
        int status = inflate(z, Z_NO_FLUSH);
        upload->text.size += room - z->avail_out;
        if (status == Z_STREAM_END)
            upload->inflated = true;
        else if (status == Z_NEED_DICT || status == Z_DATA_ERROR || status == Z_STREAM_ERROR)
            return upload_answer(upload, 400, 0, "the body is not a whole gzip stream: %s",
                                 z->msg ? z->msg : "damaged");
        else if (status == Z_MEM_ERROR)
            return upload_answer(upload, 503, 30, "the collector is out of memory; try later");
    }
    if (upload->text.size > upload->limits->report_max)
        return upload_answer(upload, 413, 0, "the report inflates to more than %zu bytes (the "
                             "protocol's limit)", upload->limits->report_max);
    return true;
}

bool upload_feed(struct upload *upload, const char *data, size_t size)
{
    if (upload->body.size + size > upload->limits->body_max)
        return upload_answer(upload, 413, 0, "the body is longer than %zu bytes (the "
                             "protocol's limit)", upload->limits->body_max);
    if (!make_room(upload, &upload->body, size))
        return false;
    memcpy(upload->body.data + upload->body.size, data, size);
    upload->body.size += size;
    return inflate_some(upload, data, size);
}

/* Every unit of the report has a table in the release, and fits it;
   every subpath's blocks are blocks.  */
static bool check_units(struct upload *upload)
{
    const struct run_report *report = &upload->report;
    const struct site_catalog *catalog = &upload->release->catalog;
    struct diag d;
    const struct unit_table **tables = xcalloc(report->n_units + 1, sizeof *tables);
    bool ok = true;
    for (size_t i = 0; ok && i < report->n_units; i++) {
        const struct unit_counts *unit = &report->units[i];
        tables[i] = site_catalog_find(catalog, unit->signature);
        if (!tables[i])
            ok = upload_answer(upload, 422, 0, "unit %s (%s) is not in release %s's site "
                               "tables (a build that was not registered?)", unit->signature,
                               unit->source, upload->release->name);
        else if (!unit_counts_fit_table(report, unit, tables[i], &d))
            ok = upload_answer(upload, 422, 0, "the report does not fit release %s's site "
                               "tables: %s", upload->release->name, d.message);
    }
    const struct subpath_lists *lists = subpath_lists_of(report);
    for (size_t l = 0; ok && lists && l < lists->n_lists; l++) {
        const struct subpath_list *list = &lists->lists[l];
        for (size_t e = 0; ok && e < list->n_entries; e++) {
            const struct subpath_entry *entry = &list->entries[e];
            for (unsigned b = 0; ok && b < entry->length; b++) {
                const struct subpath_block *block = &entry->blocks[b];
                if (!site_is_subpath_block(&tables[block->unit]->sites[block->site]))
                    ok = upload_answer(upload, 422, 0, "line %lu: subpath block %u:%u is not "
                                       "a block of release %s's site tables",
                                       entry->line_number, block->unit, block->site,
                                       upload->release->name);
            }
        }
    }
    free(tables);
    return ok;
}

static bool check_report(struct upload *upload)
{
    const struct run_report *report = &upload->report;
    const struct release *release = upload->release;
    if (!report->run_id[0])
        return upload_answer(upload, 400, 0, "the report has no run-id record");
    if (strcmp(report->run_id, upload->run_id) != 0)
        return upload_answer(upload, 400, 0, "the report's run id %s is not the "
                             "Sampler-Run-Id header's %s", report->run_id, upload->run_id);
    if (!report->product)
        return upload_answer(upload, 422, 0, "the report has no release record: not a report "
                             "of release %s", release->name);
    if (strcmp(report->product, release->product) != 0
        || strcmp(report->version, release->version) != 0)
        return upload_answer(upload, 422, 0, "the report is of release %s/%s, the key is "
                             "release %s's", report->product, report->version, release->name);
    return check_units(upload);
}

bool upload_finish(struct upload *upload)
{
    if (!upload->inflated)
        return upload_answer(upload, 400, 0, upload->body.size ? "the gzip stream is truncated"
                                                               : "the body is empty");
    char origin[64];
    snprintf(origin, sizeof origin, "report %s", upload->run_id);
    struct diag d;
    if (!report_parse_one(&upload->report, origin, upload->text.data, upload->text.size, 1,
                          &d))
        return upload_answer(upload, 400, 0, "not a valid report: %s", d.message);
    upload->parsed = true;
    /* What it was read from is not needed any more.  */
    buffer_free(&upload->text);
    if (!check_report(upload))
        return false;
    upload->interim = upload->report.exit_kind == EXIT_NOT_YET;
    if (!upload->interim
        && !labeller_failed(&upload->release->labeller, origin, &upload->report,
                            &upload->failed, &d))
        return upload_answer(upload, 422, 0, "%s", d.message);
    time_t now = time(NULL);
    struct tm parts;
    gmtime_r(&now, &parts);
    strftime(upload->received, sizeof upload->received, "%Y-%m-%d %H:%M:%S", &parts);
    return true;
}

void upload_free(struct upload *upload)
{
    if (upload->inflating)
        inflateEnd(&upload->inflater);
    if (upload->parsed)
        run_report_free(&upload->report);
    buffer_free(&upload->body);
    buffer_free(&upload->text);
    if (upload->reserved)
        atomic_fetch_sub(&upload->limits->budget->used, upload->reserved);
    upload->reserved = 0;
    upload->inflating = upload->parsed = false;
}
