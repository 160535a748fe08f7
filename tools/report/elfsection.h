/* Finding a named section in an ELF64 little-endian file (executable,
   shared library or object) by reading its section headers directly.  */
#ifndef SAMPLER_REPORT_ELFSECTION_H
#define SAMPLER_REPORT_ELFSECTION_H

#include <stdbool.h>

#include "util.h"

/* Appends the contents of every section called SECTION_NAME in the ELF file
   PATH to OUT (in section-header order) and sets *FOUND to whether there was
   one.  A file that is not ELF64 little-endian, or whose headers are
   damaged, is an error.  */
bool elf_read_section(const char *path, const char *section_name,
                      struct byte_buffer *out, bool *found, struct diag *d);

#endif
