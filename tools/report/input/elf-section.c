#include "input/elf-section.h"

#include <elf.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

struct elf_file {
    const char *path;
    FILE *stream;
    uint64_t size;
};

static bool read_at(struct elf_file *file, uint64_t offset, void *buffer, size_t size,
                    const char *what, struct diag *d)
{
    if (offset > file->size || size > file->size - offset)
        return diag_fail(d, "%s: %s lies outside the file (truncated or damaged ELF file)",
                         file->path, what);
    if (size == 0)
        return true;
    if (fseeko(file->stream, (off_t) offset, SEEK_SET) != 0
        || fread(buffer, 1, size, file->stream) != size)
        return diag_fail(d, "%s: cannot read %s: %s", file->path, what,
                         ferror(file->stream) ? strerror(errno) : "unexpected end of file");
    return true;
}

/* Explains why a file without the ELF magic was not accepted.  */
static bool not_elf(const struct elf_file *file, const unsigned char *start, size_t size,
                    struct diag *d)
{
    static const char table_start[] = "unit\t";
    static const char report_start[] = "sampler-report\t";
    const char *hint = "";
    if (size >= sizeof table_start - 1 && memcmp(start, table_start, sizeof table_start - 1) == 0)
        hint = " (it looks like a site table: pass it with --sites)";
    else if (size >= sizeof report_start - 1
             && memcmp(start, report_start, sizeof report_start - 1) == 0)
        hint = " (it looks like a report)";
    return diag_fail(d, "%s: not an ELF file%s", file->path, hint);
}

static bool check_identification(const struct elf_file *file, const unsigned char *header,
                                 size_t size, struct diag *d)
{
    if (size < SELFMAG || memcmp(header, ELFMAG, SELFMAG) != 0)
        return not_elf(file, header, size, d);
    if (size < EI_NIDENT)
        return diag_fail(d, "%s: truncated ELF header", file->path);
    if (header[EI_CLASS] == ELFCLASS32)
        return diag_fail(d, "%s: 32-bit ELF files are not supported (only ELF64)", file->path);
    if (header[EI_CLASS] != ELFCLASS64)
        return diag_fail(d, "%s: unknown ELF class %u", file->path, header[EI_CLASS]);
    if (header[EI_DATA] == ELFDATA2MSB)
        return diag_fail(d, "%s: big-endian ELF files are not supported (only little-endian)",
                         file->path);
    if (header[EI_DATA] != ELFDATA2LSB)
        return diag_fail(d, "%s: unknown ELF data encoding %u", file->path, header[EI_DATA]);
    if (size < sizeof(Elf64_Ehdr))
        return diag_fail(d, "%s: truncated ELF header", file->path);
    return true;
}

static bool read_sections(struct elf_file *file, const char *section_name,
                          struct byte_buffer *out, bool *found, struct diag *d)
{
    unsigned char header[sizeof(Elf64_Ehdr)];
    size_t header_size = file->size < sizeof header ? (size_t) file->size : sizeof header;
    if (!read_at(file, 0, header, header_size, "ELF header", d)
        || !check_identification(file, header, header_size, d))
        return false;
    uint64_t table_offset = ELF_FIELD(header, Elf64_Ehdr, e_shoff);
    uint64_t entry_size = ELF_FIELD(header, Elf64_Ehdr, e_shentsize);
    uint64_t n_sections = ELF_FIELD(header, Elf64_Ehdr, e_shnum);
    uint64_t names_index = ELF_FIELD(header, Elf64_Ehdr, e_shstrndx);
    if (table_offset == 0)
        return true;    /* no section headers at all: nothing to find */
    if (entry_size != sizeof(Elf64_Shdr))
        return diag_fail(d, "%s: unexpected section header size %llu", file->path,
                         (unsigned long long) entry_size);
    unsigned char first[sizeof(Elf64_Shdr)];
    if (!read_at(file, table_offset, first, sizeof first, "section header table", d))
        return false;
    /* Extended numbering: with many sections the real counts live in
       section 0.  */
    if (n_sections == 0)
        n_sections = ELF_FIELD(first, Elf64_Shdr, sh_size);
    if (names_index == SHN_XINDEX)
        names_index = ELF_FIELD(first, Elf64_Shdr, sh_link);
    if (n_sections > (file->size - table_offset) / sizeof(Elf64_Shdr))
        return diag_fail(d, "%s: section header table lies outside the file "
                         "(truncated or damaged ELF file)", file->path);
    if (names_index >= n_sections)
        return diag_fail(d, "%s: bad section name table index %llu", file->path,
                         (unsigned long long) names_index);

    size_t table_size = (size_t) n_sections * sizeof(Elf64_Shdr);
    unsigned char *table = xmalloc(table_size);
    char *names = NULL;
    bool ok = read_at(file, table_offset, table, table_size, "section header table", d);
    const unsigned char *names_header = table + names_index * sizeof(Elf64_Shdr);
    uint64_t names_size = ELF_FIELD(names_header, Elf64_Shdr, sh_size);
    if (ok && (ELF_FIELD(names_header, Elf64_Shdr, sh_type) == SHT_NOBITS
               || names_size > file->size))
        ok = diag_fail(d, "%s: damaged section name table", file->path);
    if (ok) {
        names = xmalloc((size_t) names_size + 1);
        ok = read_at(file, ELF_FIELD(names_header, Elf64_Shdr, sh_offset), names,
                     (size_t) names_size, "section name table", d);
        names[names_size] = '\0';
    }
    for (uint64_t i = 0; ok && i < n_sections; i++) {
        const unsigned char *section = table + i * sizeof(Elf64_Shdr);
        uint64_t name = ELF_FIELD(section, Elf64_Shdr, sh_name);
        if (name >= names_size || strcmp(names + name, section_name) != 0)
            continue;
        uint64_t type = ELF_FIELD(section, Elf64_Shdr, sh_type);
        uint64_t flags = ELF_FIELD(section, Elf64_Shdr, sh_flags);
        uint64_t size = ELF_FIELD(section, Elf64_Shdr, sh_size);
        if (type == SHT_NOBITS) {
            ok = diag_fail(d, "%s: section %s has no contents (SHT_NOBITS)", file->path,
                           section_name);
        } else if (flags & SHF_COMPRESSED) {
            ok = diag_fail(d, "%s: section %s is compressed, which sampler-report does not "
                           "read; decompress it with objcopy --decompress-debug-sections",
                           file->path, section_name);
        } else if (size > file->size) {
            ok = diag_fail(d, "%s: section %s lies outside the file (truncated or damaged "
                           "ELF file)", file->path, section_name);
        } else {
            char *contents = xmalloc((size_t) size);
            ok = read_at(file, ELF_FIELD(section, Elf64_Shdr, sh_offset), contents, (size_t) size,
                         section_name, d);
            if (ok)
                buffer_append(out, contents, (size_t) size);
            free(contents);
            *found = true;
        }
    }
    free(names);
    free(table);
    return ok;
}

bool elf_read_section(const char *path, const char *section_name,
                      struct byte_buffer *out, bool *found, struct diag *d)
{
    struct elf_file file = { path, fopen(path, "rb"), 0 };
    *found = false;
    if (!file.stream)
        return diag_fail(d, "%s: %s", path, strerror(errno));
    struct stat status;
    if (fstat(fileno(file.stream), &status) == 0 && !S_ISREG(status.st_mode)) {
        fclose(file.stream);
        return diag_fail(d, "%s: not a regular file", path);
    }
    off_t end;
    if (fseeko(file.stream, 0, SEEK_END) != 0 || (end = ftello(file.stream)) < 0) {
        int seek_errno = errno;
        fclose(file.stream);
        return diag_fail(d, "%s: %s", path, strerror(seek_errno));
    }
    file.size = (uint64_t) end;
    bool ok = read_sections(&file, section_name, out, found, d);
    fclose(file.stream);
    return ok;
}
