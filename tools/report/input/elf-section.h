/* Finding a named section in an ELF64 little-endian file (executable,
   shared library or object) by reading its section headers directly.  */
#ifndef SAMPLER_REPORT_ELFSECTION_H
#define SAMPLER_REPORT_ELFSECTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "support/util.h"

/* A little-endian field of SIZE bytes.  Fields are decoded byte by byte,
   so neither the host's byte order nor alignment matters.  */
static inline uint64_t elf_read_le(const unsigned char *bytes, size_t size)
{
    uint64_t value = 0;
    for (size_t i = size; i > 0; i--)
        value = (value << 8) | bytes[i - 1];
    return value;
}

/* MEMBER of the ELF structure TYPE (from <elf.h>) held at BYTES.  */
#define ELF_FIELD(bytes, type, member) \
    elf_read_le((bytes) + offsetof(type, member), sizeof(((type *) 0)->member))

/* Appends the contents of every section called SECTION_NAME in the ELF file
   PATH to OUT (in section-header order) and sets *FOUND to whether there was
   one.  A file that is not ELF64 little-endian, or whose headers are
   damaged, is an error.  */
bool elf_read_section(const char *path, const char *section_name,
                      struct byte_buffer *out, bool *found, struct diag *d);

#endif
