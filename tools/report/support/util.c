#include "support/util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool diag_fail(struct diag *d, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(d->message, sizeof d->message, format, args);
    va_end(args);
    return false;
}

static void out_of_memory(void)
{
    fputs(PROGRAM_NAME ": out of memory\n", stderr);
    exit(2);
}

void *xmalloc(size_t size)
{
    void *block = malloc(size ? size : 1);
    if (!block)
        out_of_memory();
    return block;
}

void *xcalloc(size_t count, size_t size)
{
    void *block = calloc(count ? count : 1, size ? size : 1);
    if (!block)
        out_of_memory();
    return block;
}

void *xrealloc(void *block, size_t size)
{
    void *grown = realloc(block, size ? size : 1);
    if (!grown)
        out_of_memory();
    return grown;
}

char *xmemdup0(const void *data, size_t size)
{
    if (size == SIZE_MAX)
        out_of_memory();
    char *copy = xmalloc(size + 1);
    if (size)
        memcpy(copy, data, size);
    copy[size] = '\0';
    return copy;
}

char *xstrdup(const char *text)
{
    return xmemdup0(text, strlen(text));
}

void grow_array(void **items, size_t *capacity, size_t needed, size_t item_size)
{
    if (needed <= *capacity)
        return;
    size_t grown = *capacity ? *capacity : 8;
    while (grown < needed) {
        if (grown > SIZE_MAX / 2)
            out_of_memory();
        grown *= 2;
    }
    if (grown > SIZE_MAX / item_size)
        out_of_memory();
    *items = xrealloc(*items, grown * item_size);
    *capacity = grown;
}

void buffer_append(struct byte_buffer *buffer, const void *data, size_t size)
{
    if (size > SIZE_MAX - buffer->size - 1)
        out_of_memory();
    void *items = buffer->data;
    /* One spare byte keeps the contents NUL-terminated for convenience.  */
    grow_array(&items, &buffer->capacity, buffer->size + size + 1, 1);
    buffer->data = items;
    memcpy(buffer->data + buffer->size, data, size);
    buffer->size += size;
    buffer->data[buffer->size] = '\0';
}

void buffer_free(struct byte_buffer *buffer)
{
    free(buffer->data);
    buffer->data = NULL;
    buffer->size = buffer->capacity = 0;
}

bool read_whole_file(const char *path, struct byte_buffer *out, struct diag *d)
{
    bool from_stdin = strcmp(path, "-") == 0;
    FILE *file = from_stdin ? stdin : fopen(path, "rb");
    if (!file)
        return diag_fail(d, "%s: %s", path, strerror(errno));
    char chunk[65536];
    size_t got;
    out->size = 0;
    buffer_append(out, "", 0);
    while ((got = fread(chunk, 1, sizeof chunk, file)) > 0)
        buffer_append(out, chunk, got);
    int read_errno = errno;
    bool failed = ferror(file);
    if (!from_stdin)
        fclose(file);
    if (failed)
        return diag_fail(d, "%s: %s", path, strerror(read_errno));
    return true;
}

char *quote_for_message(const char *text, size_t size, char *out, size_t out_size)
{
    static const char hex[] = "0123456789abcdef";
    const size_t shown_max = 60;
    size_t used = 0;
    bool cut = size > shown_max;
    for (size_t i = 0; i < size && i < shown_max; i++) {
        unsigned char c = (unsigned char) text[i];
        char piece[5];
        size_t length;
        if (c == '\t') {
            memcpy(piece, "\\t", length = 2);
        } else if (c == '\n') {
            memcpy(piece, "\\n", length = 2);
        } else if (c == '\\') {
            memcpy(piece, "\\\\", length = 2);
        } else if (c < 0x20 || c == 0x7f) {
            piece[0] = '\\';
            piece[1] = 'x';
            piece[2] = hex[c >> 4];
            piece[3] = hex[c & 15];
            length = 4;
        } else {
            piece[0] = (char) c;
            length = 1;
        }
        if (used + length + 4 > out_size) {
            cut = true;
            break;
        }
        memcpy(out + used, piece, length);
        used += length;
    }
    if (cut && used + 4 <= out_size) {
        memcpy(out + used, "...", 3);
        used += 3;
    }
    if (out_size)
        out[used < out_size ? used : out_size - 1] = '\0';
    return out;
}

static size_t string_hash(const char *text)
{
    /* FNV-1a */
    uint64_t hash = 14695981039346656037u;
    for (const unsigned char *p = (const unsigned char *) text; *p; p++)
        hash = (hash ^ *p) * 1099511628211u;
    return (size_t) hash;
}

/* The slot holding KEY, or the free slot where it would go.  */
static size_t name_index_slot(const struct name_index *index, const char *key)
{
    size_t mask = index->n_slots - 1;
    size_t slot = string_hash(key) & mask;
    while (index->keys[slot] && strcmp(index->keys[slot], key) != 0)
        slot = (slot + 1) & mask;
    return slot;
}

bool name_index_find(const struct name_index *index, const char *key, size_t *value)
{
    if (index->n_slots == 0)
        return false;
    size_t slot = name_index_slot(index, key);
    if (!index->keys[slot])
        return false;
    if (value)
        *value = index->values[slot];
    return true;
}

void name_index_put(struct name_index *index, const char *key, size_t value)
{
    /* At most half full, so probes stay short.  */
    if ((index->n_used + 1) * 2 > index->n_slots) {
        struct name_index grown = { 0 };
        grown.n_slots = index->n_slots ? index->n_slots * 2 : 64;
        if (grown.n_slots < index->n_slots)
            out_of_memory();
        grown.keys = xcalloc(grown.n_slots, sizeof *grown.keys);
        grown.values = xcalloc(grown.n_slots, sizeof *grown.values);
        for (size_t i = 0; i < index->n_slots; i++) {
            if (index->keys[i]) {
                size_t slot = name_index_slot(&grown, index->keys[i]);
                grown.keys[slot] = index->keys[i];
                grown.values[slot] = index->values[i];
            }
        }
        grown.n_used = index->n_used;
        name_index_free(index);
        *index = grown;
    }
    size_t slot = name_index_slot(index, key);
    if (!index->keys[slot])
        index->n_used++;
    index->keys[slot] = key;
    index->values[slot] = value;
}

void name_index_free(struct name_index *index)
{
    free(index->keys);
    free(index->values);
    memset(index, 0, sizeof *index);
}
