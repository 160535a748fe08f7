/* Naming code addresses of a run (the targets of indirect calls): the
   run's `loaded' records say which object held an address and where it
   was loaded; the object's ELF symbol table (.symtab, else .dynsym) names
   the function there.  */
#ifndef SAMPLER_REPORT_SYMBOLS_H
#define SAMPLER_REPORT_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "input/report-reader.h"
#include "support/util.h"

/* An object's functions, sorted by address.  */
struct elf_function {
    uint64_t value;     /* address in the ELF file's own numbering */
    uint64_t size;      /* 0: unknown (only the address itself is it) */
    bool local;         /* STB_LOCAL: an alias of a global is named by it */
    const char *name;
};

struct elf_functions {
    struct elf_function *functions;
    size_t n_functions;
    char *names;        /* the string tables the names point into */
    size_t names_size;
};

/* Reads the function symbols of the ELF file PATH: those of .symtab, or of
   .dynsym when it has none, and the canonical PLT entries .dynsym gives an
   address (a function of another object whose address the program
   takes).  False, with D saying why, if the file cannot be read or is
   damaged; a file without symbols gives none.  */
bool elf_functions_read(const char *path, struct elf_functions *out, struct diag *d);
void elf_functions_free(struct elf_functions *functions);

/* The function at OFFSET: "name", "name+0xN" inside it, or NULL.  */
const char *elf_functions_find(const struct elf_functions *functions, uint64_t offset,
                               uint64_t *into);

/* Objects' symbols read once each, by path.  */
struct symbol_namer {
    bool no_files;                   /* read no object: name every address by
                                        offset (the collector, which must not
                                        open files that reports name) */
    struct name_index by_path;       /* path -> index in objects */
    struct {
        char *path;
        bool readable;
        struct elf_functions functions;
    } *objects;
    size_t n_objects, capacity;
};

void symbol_namer_init(struct symbol_namer *namer);
void symbol_namer_free(struct symbol_namer *namer);

/* ADDRESS of the run REPORT as text in OUT (SIZE bytes): "name" or
   "name+0xN" for a function of an object the run had loaded, else
   "object+0xN" (N the offset from its load address), else "0xADDRESS"
   (no loaded object holds it, or the report lists none).  */
void symbol_namer_name(struct symbol_namer *namer, const struct run_report *report,
                       uint64_t address, char *out, size_t size);

/* Where the pointer value ADDRESS of the run REPORT pointed, in a form
   that holds whatever addresses the run was given (address-space
   randomisation): "null"; inside a loaded object, as symbol_namer_name
   names it; else its region ("heap", "stack" as the run's `region'
   records say, else "other") and alignment, up to 16: "heap, 16-aligned".  */
void pointer_place_name(struct symbol_namer *namer, const struct run_report *report,
                        uint64_t address, char *out, size_t size);

#endif
