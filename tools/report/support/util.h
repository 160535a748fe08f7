/* Small shared pieces of sampler-report: diagnostics, checked allocation,
   growable byte buffers and whole-file reading.  */
#ifndef SAMPLER_REPORT_UTIL_H
#define SAMPLER_REPORT_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PROGRAM_NAME "sampler-report"

/* A + B, or the greatest count when that overflows: counters saturate, as
   the runtime's do.  */
static inline unsigned long long saturating_add(unsigned long long a, unsigned long long b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* The one error a failing reader reports, already formatted
   ("FILE:LINE: what is wrong").  Callers own it, so there is no global
   error state.  */
struct diag {
    char message[1024];
};

/* Formats the message into D and returns false, so that a failing parser
   can `return diag_fail (...)'.  */
bool diag_fail(struct diag *d, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

/* Allocation that cannot fail: on exhaustion the tool says so and exits
   with status 2 (bad input is the usual cause).  */
void *xmalloc(size_t size);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *block, size_t size);
char *xstrdup(const char *text);
char *xmemdup0(const void *data, size_t size);

/* Makes *ITEMS hold at least NEEDED elements of ITEM_SIZE bytes, growing
   geometrically; *CAPACITY is the current element count allocated.  */
void grow_array(void **items, size_t *capacity, size_t needed, size_t item_size);

struct byte_buffer {
    char *data;
    size_t size;
    size_t capacity;
};

void buffer_append(struct byte_buffer *buffer, const void *data, size_t size);
void buffer_free(struct byte_buffer *buffer);

/* Reads all of PATH ("-" is standard input) into OUT.  */
bool read_whole_file(const char *path, struct byte_buffer *out, struct diag *d);

/* A map from strings to indices (open addressing).  Keys are not copied:
   they must outlive the map.  */
struct name_index {
    const char **keys;
    size_t *values;
    size_t n_slots;
    size_t n_used;
};

/* Looks KEY up; on success stores its value in *VALUE (if VALUE is set).  */
bool name_index_find(const struct name_index *index, const char *key, size_t *value);
/* Adds KEY, or replaces its value.  */
void name_index_put(struct name_index *index, const char *key, size_t value);
void name_index_free(struct name_index *index);

/* Writes TEXT (SIZE bytes) into OUT (OUT_SIZE bytes, NUL-terminated) for
   quoting inside a one-line message: control bytes escaped, long text cut
   with "...".  Returns OUT.  */
char *quote_for_message(const char *text, size_t size, char *out, size_t out_size);

#endif
