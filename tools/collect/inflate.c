/* One gzip stream inflated whole (inflate.h).  */
#include "inflate.h"

#include <string.h>

#include <zlib.h>

enum { STEP = 64 * 1024 };

bool gzip_inflate(const void *data, size_t size, size_t max, struct byte_buffer *out,
                  struct diag *d)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, 15 + 16) != Z_OK)
        return diag_fail(d, "out of memory");
    out->size = 0;
    z.next_in = (Bytef *) data;
    z.avail_in = (uInt) size;
    int status = Z_OK;
    while (status == Z_OK) {
        if (out->size > max) {
            inflateEnd(&z);
            return diag_fail(d, "the report inflates to more than %zu bytes", max);
        }
        grow_array((void **) &out->data, &out->capacity, out->size + STEP, 1);
        z.next_out = (Bytef *) out->data + out->size;
        z.avail_out = (uInt) (out->capacity - out->size);
        size_t before = out->capacity - out->size;
        status = inflate(&z, Z_NO_FLUSH);
        out->size += before - z.avail_out;
        if (status == Z_BUF_ERROR && z.avail_in == 0)
            break;
    }
    bool whole = status == Z_STREAM_END && z.avail_in == 0;
    const char *why = z.msg;
    inflateEnd(&z);
    if (!whole)
        return diag_fail(d, "the stored report is not one whole gzip stream%s%s",
                         why ? ": " : "", why ? why : "");
    if (out->size > max)
        return diag_fail(d, "the report inflates to more than %zu bytes", max);
    return true;
}
