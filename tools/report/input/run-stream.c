#include "input/run-stream.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "input/record.h"
#include "input/store-input.h"

static const char aggregate_magic[] = "sampler-aggregate";

bool looks_like_aggregate(const char *data, size_t size)
{
    size_t length = sizeof aggregate_magic - 1;
    return size > length && memcmp(data, aggregate_magic, length) == 0 && data[length] == '\t';
}

/* Reads the next line into STREAM->line; false at end of file or on a read
   error (D set; *FAILED true).  */
static bool next_line(struct run_stream *stream, bool *failed, struct diag *d)
{
    *failed = false;
    if (stream->have_line) {
        stream->have_line = false;
        return true;
    }
    if (stream->at_end)
        return false;
    errno = 0;
    ssize_t got = getline(&stream->line, &stream->line_capacity, stream->file);
    if (got < 0) {
        stream->at_end = true;
        if (ferror(stream->file)) {
            *failed = true;
            diag_fail(d, "%s: %s", stream->path, strerror(errno ? errno : EIO));
        }
        return false;
    }
    stream->line_number++;
    stream->line_size = (size_t) got;
    if (got > 0 && stream->line[got - 1] == '\n')
        stream->line[--stream->line_size] = '\0';
    return true;
}

static bool line_is(const struct run_stream *stream, const char *name)
{
    size_t length = strlen(name);
    return stream->line_size >= length && memcmp(stream->line, name, length) == 0
           && (stream->line_size == length || stream->line[length] == '\t');
}

/* The line as one record, for field parsing and messages.  */
static bool read_line_record(struct run_stream *stream, struct record_reader *reader,
                             struct record *record, struct diag *d)
{
    record_reader_init(reader, stream->path, stream->line, stream->line_size);
    reader->line_number = stream->line_number - 1;
    return record_read(reader, record, d) == RECORD_READ;
}

static bool read_aggregate_header(struct run_stream *stream, struct diag *d)
{
    struct record_reader reader;
    struct record record = { 0 };
    bool ok = read_line_record(stream, &reader, &record, d);
    char expected[16];
    snprintf(expected, sizeof expected, "%d", AGGREGATE_FORMAT_VERSION);
    if (ok && (record.n_fields != 2 || !slice_equals(record.fields[1], expected))) {
        char shown[128];
        ok = record_fail(&reader, d, "unsupported aggregate version '%s' (this sampler-report "
                         "reads version %d)",
                         record.n_fields == 2 ? slice_for_message(record.fields[1], shown,
                                                                  sizeof shown) : "?",
                         AGGREGATE_FORMAT_VERSION);
    }
    record_free(&record);
    if (!ok)
        return false;
    /* The site tables, up to `runs'.  */
    stream->tables_first_line = stream->line_number + 1;
    bool failed;
    for (;;) {
        if (!next_line(stream, &failed, d)) {
            if (failed)
                return false;
            return diag_fail(d, "%s:%lu: truncated aggregate (no 'runs' line after the site "
                             "tables)", stream->path, stream->line_number);
        }
        if (stream->line_size == 4 && memcmp(stream->line, "runs", 4) == 0)
            return true;
        buffer_append(&stream->tables, stream->line, stream->line_size);
        buffer_append(&stream->tables, "\n", 1);
    }
}

bool run_stream_open(struct run_stream *stream, const char *path, struct diag *d)
{
    memset(stream, 0, sizeof *stream);
    stream->path = xstrdup(path);
    buffer_append(&stream->tables, "", 0);
    if (strcmp(path, "-") == 0) {
        stream->file = stdin;
    } else if (store_input_is(path)) {
        stream->file = store_input_open(path, d);
        if (!stream->file) {
            run_stream_close(stream);
            return false;
        }
    } else {
        stream->file = fopen(path, "rb");
        if (!stream->file) {
            diag_fail(d, "%s: %s", path, strerror(errno));
            run_stream_close(stream);
            return false;
        }
    }
    bool failed;
    if (!next_line(stream, &failed, d)) {
        if (!failed)
            diag_fail(d, "%s:1: not a sampler report (empty file)", path);
        run_stream_close(stream);
        return false;
    }
    stream->have_line = true;
    if (looks_like_aggregate(stream->line, stream->line_size + 1)
        || (stream->line_size == sizeof aggregate_magic - 1
            && memcmp(stream->line, aggregate_magic, stream->line_size) == 0)) {
        stream->have_line = false;
        stream->is_aggregate = true;
        if (!read_aggregate_header(stream, d)) {
            run_stream_close(stream);
            return false;
        }
    }
    return true;
}

/* Reads one report, whose first line is already in STREAM->line, up to
   and including its `end' line into STREAM->block, parses it into REPORT
   and counts it.  */
static bool read_run(struct run_stream *stream, struct run_report *report, struct diag *d)
{
    bool failed;
    stream->block.size = 0;
    unsigned long first_line = stream->line_number;
    for (;;) {
        buffer_append(&stream->block, stream->line, stream->line_size);
        buffer_append(&stream->block, "\n", 1);
        if (line_is(stream, "end"))
            break;
        if (!next_line(stream, &failed, d)) {
            if (failed)
                return false;
            break;            /* a truncated report: the parser says so */
        }
    }
    if (!report_parse_one(report, stream->path, stream->block.data, stream->block.size,
                          first_line, d))
        return false;
    stream->n_runs++;
    return true;
}

static enum run_stream_status next_plain(struct run_stream *stream, struct run_report *report,
                                         const char **origin, struct diag *d)
{
    bool failed;
    if (!next_line(stream, &failed, d))
        return failed ? RUN_STREAM_ERROR : RUN_STREAM_END;
    /* After an `end', only another report may follow.  */
    if (stream->n_runs > 0 && !line_is(stream, "sampler-report")) {
        diag_fail(d, "%s:%lu: data after 'end'", stream->path, stream->line_number);
        return RUN_STREAM_ERROR;
    }
    if (!read_run(stream, report, d))
        return RUN_STREAM_ERROR;
    *origin = stream->path;
    return RUN_STREAM_RUN;
}

static enum run_stream_status next_aggregated(struct run_stream *stream,
                                              struct run_report *report, const char **origin,
                                              struct diag *d)
{
    bool failed;
    struct record_reader reader;
    struct record record = { 0 };
    enum run_stream_status status = RUN_STREAM_ERROR;
    if (!next_line(stream, &failed, d)) {
        if (!failed)
            diag_fail(d, "%s:%lu: truncated aggregate (no 'aggregate-end' line)", stream->path,
                      stream->line_number);
        return RUN_STREAM_ERROR;
    }
    if (!read_line_record(stream, &reader, &record, d))
        goto done;
    if (slice_equals(record.fields[0], "aggregate-end")) {
        unsigned long long count;
        if (record.n_fields != 2) {
            record_fail(&reader, d, "'aggregate-end' record has %zu fields, expected 2",
                        record.n_fields);
        } else if (field_to_u64(&reader, record.fields[1], "run count", ULLONG_MAX, &count, d)) {
            if (count != stream->n_runs)
                record_fail(&reader, d, "the aggregate says it has %llu runs, but holds %lu",
                            count, stream->n_runs);
            else if (next_line(stream, &failed, d))
                diag_fail(d, "%s:%lu: data after 'aggregate-end'", stream->path,
                          stream->line_number);
            else if (!failed)
                status = RUN_STREAM_END;
        }
        goto done;
    }
    if (!slice_equals(record.fields[0], "run") || record.n_fields != 2) {
        char shown[128];
        record_fail(&reader, d, "expected 'run<TAB>ORIGIN' before each report of an aggregate, "
                    "found '%s'", slice_for_message(record.fields[0], shown, sizeof shown));
        goto done;
    }
    char *name;
    if (!field_to_string(&reader, record.fields[1], "run origin", &name, d))
        goto done;
    free(stream->path_of_run);
    stream->path_of_run = name;
    if (!next_line(stream, &failed, d)) {
        if (!failed)
            diag_fail(d, "%s:%lu: truncated aggregate (no report after 'run')", stream->path,
                      stream->line_number);
        goto done;
    }
    if (!read_run(stream, report, d))
        goto done;
    *origin = stream->path_of_run;
    status = RUN_STREAM_RUN;
done:
    record_free(&record);
    return status;
}

enum run_stream_status run_stream_next(struct run_stream *stream, struct run_report *report,
                                       const char **origin, struct diag *d)
{
    return stream->is_aggregate ? next_aggregated(stream, report, origin, d)
                                : next_plain(stream, report, origin, d);
}

void run_stream_close(struct run_stream *stream)
{
    if (stream->file && stream->file != stdin)
        fclose(stream->file);
    free(stream->path);
    free(stream->path_of_run);
    free(stream->line);
    buffer_free(&stream->tables);
    buffer_free(&stream->block);
    memset(stream, 0, sizeof *stream);
}
