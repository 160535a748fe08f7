#include "input/symbols.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/elf-section.h"

struct function_list {
    struct elf_function *items;
    size_t n, capacity;
};

/* The function symbols of one symbol table SYMBOLS whose names are in
   STRINGS (at BASE in the names buffer); with ONLY_PLT, only undefined
   functions with an address (canonical PLT entries).  */
static bool add_functions(const char *path, const char *table_name,
                          const struct byte_buffer *symbols, const struct byte_buffer *strings,
                          size_t base, bool only_plt, struct function_list *list,
                          struct diag *d)
{
    if (symbols->size % sizeof(Elf64_Sym) != 0)
        return diag_fail(d, "%s: %s's size %zu is not a whole number of symbols", path,
                         table_name, symbols->size);
    for (size_t at = 0; at < symbols->size; at += sizeof(Elf64_Sym)) {
        const unsigned char *symbol = (const unsigned char *) symbols->data + at;
        uint64_t name = ELF_FIELD(symbol, Elf64_Sym, st_name);
        unsigned info = (unsigned) ELF_FIELD(symbol, Elf64_Sym, st_info);
        uint64_t section = ELF_FIELD(symbol, Elf64_Sym, st_shndx);
        uint64_t value = ELF_FIELD(symbol, Elf64_Sym, st_value);
        unsigned type = ELF64_ST_TYPE(info);
        if (type != STT_FUNC && type != STT_GNU_IFUNC)
            continue;
        bool undefined = section == SHN_UNDEF;
        if (only_plt ? !undefined || value == 0 : undefined)
            continue;
        if (name == 0)
            continue;
        if (name >= strings->size)
            return diag_fail(d, "%s: a symbol of %s names string %llu, past its string table "
                             "(%zu bytes)", path, table_name, (unsigned long long) name,
                             strings->size);
        if (memchr(strings->data + name, '\0', strings->size - name) == NULL)
            return diag_fail(d, "%s: the string table of %s does not end its last name", path,
                             table_name);
        if (list->n == list->capacity) {
            list->capacity = list->capacity ? 2 * list->capacity : 256;
            list->items = xrealloc(list->items, list->capacity * sizeof *list->items);
        }
        list->items[list->n++] = (struct elf_function) {
            .value = value,
            .size = undefined ? 0 : ELF_FIELD(symbol, Elf64_Sym, st_size),
            .local = ELF64_ST_BIND(info) == STB_LOCAL,
            /* An offset for now: the names buffer may still move.  */
            .name = (const char *) (uintptr_t) (base + name),
        };
    }
    return true;
}

static int by_value(const void *pa, const void *pb)
{
    const struct elf_function *a = pa, *b = pb;
    if (a->value != b->value)
        return a->value < b->value ? -1 : 1;
    /* Of the names of one address, a sized one first, then a global one
       (toupper rather than libc's own alias __GI_toupper), then by name.  */
    if ((a->size == 0) != (b->size == 0))
        return a->size == 0 ? 1 : -1;
    if (a->local != b->local)
        return a->local ? 1 : -1;
    return strcmp(a->name, b->name);
}

static bool read_table(const char *path, const char *symbols_name, const char *strings_name,
                       struct byte_buffer *symbols, struct byte_buffer *strings, bool *found,
                       struct diag *d)
{
    bool strings_found;
    if (!elf_read_section(path, symbols_name, symbols, found, d))
        return false;
    if (!*found)
        return true;
    if (!elf_read_section(path, strings_name, strings, &strings_found, d))
        return false;
    if (!strings_found)
        return diag_fail(d, "%s: %s without %s", path, symbols_name, strings_name);
    return true;
}

/* Where distributions put the symbols stripped from an object (Debian's
   -dbg and -dbgsym packages): by its GNU build ID.  */
#define DEBUG_FILE_DIRECTORY "/usr/lib/debug/.build-id"

/* The debug file of the object PATH, from its build ID note, into OUT
   (SIZE bytes); false if it has no build ID.  */
static bool debug_file_path(const char *path, char *out, size_t size)
{
    struct byte_buffer note = { 0 };
    struct diag d;
    bool found = false;
    bool ok = elf_read_section(path, ".note.gnu.build-id", &note, &found, &d) && found;
    /* namesz, descsz, type, "GNU\0", then the ID.  */
    const unsigned char *bytes = (const unsigned char *) note.data;
    uint64_t name_size = ok && note.size >= 12 ? elf_read_le(bytes, 4) : 0;
    uint64_t id_size = ok && note.size >= 12 ? elf_read_le(bytes + 4, 4) : 0;
    ok = ok && note.size >= 16 && name_size == 4 && elf_read_le(bytes + 8, 4) == NT_GNU_BUILD_ID
         && memcmp(bytes + 12, "GNU", 4) == 0 && id_size >= 2 && id_size <= 64
         && id_size <= note.size - 16;
    if (ok) {
        size_t used = (size_t) snprintf(out, size, DEBUG_FILE_DIRECTORY "/%02x/", bytes[16]);
        for (uint64_t i = 1; i < id_size && used + 2 < size; i++, used += 2)
            snprintf(out + used, size - used, "%02x", bytes[16 + i]);
        ok = used + sizeof ".debug" <= size;
        if (ok)
            memcpy(out + used, ".debug", sizeof ".debug");
    }
    buffer_free(&note);
    return ok;
}

bool elf_functions_read(const char *path, struct elf_functions *out, struct diag *d)
{
    struct byte_buffer symtab = { 0 }, strtab = { 0 }, dynsym = { 0 }, dynstr = { 0 };
    struct function_list list = { 0 };
    bool has_symtab = false, has_dynsym = false;
    memset(out, 0, sizeof *out);
    bool ok = read_table(path, ".symtab", ".strtab", &symtab, &strtab, &has_symtab, d)
              && read_table(path, ".dynsym", ".dynstr", &dynsym, &dynstr, &has_dynsym, d);
    /* A stripped object: its .symtab from its debug file, if installed
       (which names the functions .dynsym does not export).  */
    char debug_path[sizeof DEBUG_FILE_DIRECTORY + 160];
    if (ok && !has_symtab && debug_file_path(path, debug_path, sizeof debug_path)) {
        struct diag ignored;
        if (!read_table(debug_path, ".symtab", ".strtab", &symtab, &strtab, &has_symtab,
                        &ignored)) {
            buffer_free(&symtab);
            buffer_free(&strtab);
            memset(&symtab, 0, sizeof symtab);
            memset(&strtab, 0, sizeof strtab);
            has_symtab = false;
        }
    }
    if (ok && has_symtab)
        ok = add_functions(path, ".symtab", &symtab, &strtab, 0, false, &list, d);
    if (ok && has_dynsym)
        ok = add_functions(path, ".dynsym", &dynsym, &dynstr, strtab.size, has_symtab, &list,
                           d)
             && (has_symtab
                 || add_functions(path, ".dynsym", &dynsym, &dynstr, strtab.size, true, &list,
                                  d));
    if (ok) {
        out->names_size = strtab.size + dynstr.size;
        out->names = xmalloc(out->names_size + 1);
        if (strtab.size)
            memcpy(out->names, strtab.data, strtab.size);
        if (dynstr.size)
            memcpy(out->names + strtab.size, dynstr.data, dynstr.size);
        out->names[out->names_size] = '\0';
        for (size_t i = 0; i < list.n; i++)
            list.items[i].name = out->names + (uintptr_t) list.items[i].name;
        if (list.n > 1)
            qsort(list.items, list.n, sizeof *list.items, by_value);
        out->functions = list.items;
        out->n_functions = list.n;
    } else {
        free(list.items);
    }
    buffer_free(&symtab);
    buffer_free(&strtab);
    buffer_free(&dynsym);
    buffer_free(&dynstr);
    return ok;
}

void elf_functions_free(struct elf_functions *functions)
{
    free(functions->functions);
    free(functions->names);
    memset(functions, 0, sizeof *functions);
}

const char *elf_functions_find(const struct elf_functions *functions, uint64_t offset,
                               uint64_t *into)
{
    /* The last function that starts at or below OFFSET.  */
    size_t low = 0, high = functions->n_functions;
    while (low < high) {
        size_t middle = low + (high - low) / 2;
        if (functions->functions[middle].value <= offset)
            low = middle + 1;
        else
            high = middle;
    }
    if (low == 0)
        return NULL;
    /* Of the names at that address, the first in by_value's order.  */
    uint64_t start = functions->functions[low - 1].value;
    while (low > 1 && functions->functions[low - 2].value == start)
        low--;
    const struct elf_function *f = &functions->functions[low - 1];
    uint64_t into_it = offset - f->value;
    if (into_it != 0 && into_it >= f->size)
        return NULL;
    *into = into_it;
    return f->name;
}

void symbol_namer_init(struct symbol_namer *namer)
{
    memset(namer, 0, sizeof *namer);
}

void symbol_namer_free(struct symbol_namer *namer)
{
    for (size_t i = 0; i < namer->n_objects; i++) {
        free(namer->objects[i].path);
        elf_functions_free(&namer->objects[i].functions);
    }
    free(namer->objects);
    name_index_free(&namer->by_path);
    memset(namer, 0, sizeof *namer);
}

/* The object's functions, read the first time; NULL if it cannot be read
   (gone, not ELF, damaged: its addresses are then named by offset).  */
static const struct elf_functions *functions_of(struct symbol_namer *namer, const char *path)
{
    size_t i;
    if (namer->no_files)
        return NULL;
    if (!name_index_find(&namer->by_path, path, &i)) {
        if (namer->n_objects == namer->capacity) {
            namer->capacity = namer->capacity ? 2 * namer->capacity : 16;
            namer->objects = xrealloc(namer->objects, namer->capacity * sizeof *namer->objects);
        }
        i = namer->n_objects++;
        namer->objects[i].path = xstrdup(path);
        struct diag d;
        namer->objects[i].readable = elf_functions_read(path, &namer->objects[i].functions, &d);
        /* The index keeps the key's pointer: the string stays where it
           is when the array grows.  */
        name_index_put(&namer->by_path, namer->objects[i].path, i);
    }
    return namer->objects[i].readable ? &namer->objects[i].functions : NULL;
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash && slash[1] ? slash + 1 : path;
}

/* The object loaded last that spans ADDRESS, or NULL: a later load may
   reuse the range of one unloaded before.  */
static const struct loaded_object *loaded_object_at(const struct run_report *report,
                                                    uint64_t address)
{
    for (size_t i = report->n_loaded; i > 0; i--)
        if (address >= report->loaded[i - 1].start && address < report->loaded[i - 1].end)
            return &report->loaded[i - 1];
    return NULL;
}

void symbol_namer_name(struct symbol_namer *namer, const struct run_report *report,
                       uint64_t address, char *out, size_t size)
{
    const struct loaded_object *object = loaded_object_at(report, address);
    if (!object) {
        snprintf(out, size, "0x%llx", (unsigned long long) address);
        return;
    }
    uint64_t offset = address - object->base, into = 0;
    const struct elf_functions *functions = functions_of(namer, object->path);
    const char *name = functions ? elf_functions_find(functions, offset, &into) : NULL;
    if (name && into == 0)
        snprintf(out, size, "%s", name);
    else if (name)
        snprintf(out, size, "%s+0x%llx", name, (unsigned long long) into);
    else
        snprintf(out, size, "%s+0x%llx", base_name(object->path), (unsigned long long) offset);
}

void pointer_place_name(struct symbol_namer *namer, const struct run_report *report,
                        uint64_t address, char *out, size_t size)
{
    if (address == 0) {
        snprintf(out, size, "null");
        return;
    }
    if (loaded_object_at(report, address)) {
        symbol_namer_name(namer, report, address, out, size);
        return;
    }
    const char *kind = "other";
    for (size_t i = 0; i < report->n_regions; i++)
        if (address >= report->regions[i].start && address < report->regions[i].end)
            kind = report->regions[i].kind == REGION_HEAP ? "heap" : "stack";
    /* The lowest set bit, up to 16 (the largest alignment malloc and the
       ABI's stack give: beyond it, the bits move with the randomised base). */
    unsigned alignment = 1;
    while (alignment < 16 && (address & (2 * alignment - 1)) == 0)
        alignment *= 2;
    snprintf(out, size, "%s, %u-aligned", kind, alignment);
}
