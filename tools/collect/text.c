/* UTF-8 checks (text.h), after RFC 3629's table of well-formed sequences.  */
#include "text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/util.h"

/* The length of the well-formed sequence at P, or 0.  */
static size_t sequence_length(const unsigned char *p)
{
    if (p[0] < 0x80)
        return 1;
    if (p[0] >= 0xc2 && p[0] <= 0xdf)
        return p[1] >= 0x80 && p[1] <= 0xbf ? 2 : 0;
    if (p[0] >= 0xe0 && p[0] <= 0xef) {
        unsigned char low = p[0] == 0xe0 ? 0xa0 : 0x80, high = p[0] == 0xed ? 0x9f : 0xbf;
        return p[1] >= low && p[1] <= high && p[2] >= 0x80 && p[2] <= 0xbf ? 3 : 0;
    }
    if (p[0] >= 0xf0 && p[0] <= 0xf4) {
        unsigned char low = p[0] == 0xf0 ? 0x90 : 0x80, high = p[0] == 0xf4 ? 0x8f : 0xbf;
        return p[1] >= low && p[1] <= high && p[2] >= 0x80 && p[2] <= 0xbf && p[3] >= 0x80
               && p[3] <= 0xbf ? 4 : 0;
    }
    return 0;
}

bool utf8_valid(const char *text)
{
    const unsigned char *p = (const unsigned char *) text;
    while (*p) {
        size_t length = sequence_length(p);
        if (!length)
            return false;
        p += length;
    }
    return true;
}

char *utf8_escaped(const char *text)
{
    struct byte_buffer out = { 0 };
    const unsigned char *p = (const unsigned char *) text;
    while (*p) {
        size_t length = sequence_length(p);
        if (length && *p != '\\') {
            buffer_append(&out, p, length);
            p += length;
        } else {
            char escape[8];
            snprintf(escape, sizeof escape, *p == '\\' ? "\\\\" : "\\x%02x", *p);
            buffer_append(&out, escape, strlen(escape));
            p++;
        }
    }
    buffer_append(&out, "", 1);
    return out.data;
}
