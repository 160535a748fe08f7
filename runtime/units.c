/* The registry of instrumented units.  Every instrumented object file
   registers its unit descriptor from a constructor, possibly before the
   runtime's own constructors, and possibly late, from a DSO loaded with
   dlopen (in any thread); it unregisters it from a destructor, before the
   descriptor's memory goes.

   The registry does not chain the descriptors through their `next` field:
   a DSO unloaded with dlclose takes its descriptors with it, and a list
   running through them would break there.  It keeps its own nodes instead,
   appended under a mutex (registration is rare) and published with release
   stores, so that readers -- the report writer, also from a signal handler
   -- walk the list without locking and without calling into the dynamic
   loader.  Each node remembers the loaded object its unit came from, so
   that a report can tell apart two objects built from the same source.
   When a unit is unregistered, its node switches to a copy of the
   descriptor with the unit's final counts, made under the report lock so
   that no report is reading the original as it goes.  */
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sampler-abi.h"
#include "sampler-internal.h"

struct unit_node {
    struct __sampler_unit *descriptor;   /* as registered: the set's key */
    /* What reports read: the descriptor, or once it is unregistered the
       runtime's copy of it; NULL if that copy could not be made.  */
    struct __sampler_unit *_Atomic unit;
    const char *object;                  /* NULL: the program itself */
    /* The counters as registered, which instrumented code addresses (the
       subpaths' blocks are their addresses) also once unregistered.  */
    const unsigned long long *origin;
    bool unregistered;                   /* under registry_lock */
    struct unit_node *_Atomic next;
};

/* A loaded object that registered units: its load address and name as the
   loader gives them, and the absolute name reports show.  */
struct object_name {
    uintptr_t base;
    char *loader_name;
    char *name;
    struct object_name *next;
};

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct unit_node *_Atomic registry_head;
/* Under registry_lock: the last node, the names of objects seen, and a
   hash set of the registered nodes by descriptor (open addressing, at most
   half full) to drop duplicates.  */
static struct unit_node *registry_tail;
static struct object_name *objects;
static struct unit_node **registered;
static size_t registered_capacity;
static size_t registered_count;

/* ---- Which loaded object holds an address ------------------------------- */

struct object_search {
    uintptr_t address;
    bool found;
    uintptr_t base;
    const char *loader_name;   /* valid during the search only */
    char *name;                /* the object_name's, once found */
};

static bool object_has_address(const struct dl_phdr_info *info, uintptr_t address)
{
    for (size_t i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *segment = &info->dlpi_phdr[i];
        uintptr_t start = info->dlpi_addr + segment->p_vaddr;
        if (segment->p_type == PT_LOAD && address >= start
            && address - start < segment->p_memsz)
            return true;
    }
    return false;
}

/* The absolute name of a loaded object, made once per object (under
   registry_lock); NULL for the program itself, or when out of memory.  */
static char *object_name_for(uintptr_t base, const char *loader_name)
{
    if (loader_name == NULL || loader_name[0] == '\0')
        return NULL;
    for (struct object_name *known = objects; known != NULL; known = known->next)
        if (known->base == base && strcmp(known->loader_name, loader_name) == 0)
            return known->name;
    struct object_name *object = malloc(sizeof *object);
    if (object == NULL)
        return NULL;
    object->base = base;
    object->loader_name = strdup(loader_name);
    /* dlopen("./x.so") keeps the name as given: make it absolute, so that
       it still names the file after the program changes directory.  */
    object->name = loader_name[0] == '/' ? NULL : realpath(loader_name, NULL);
    if (object->name == NULL)
        object->name = strdup(loader_name);
    if (object->loader_name == NULL || object->name == NULL) {
        free(object->loader_name);
        free(object->name);
        free(object);
        return NULL;
    }
    object->next = objects;
    objects = object;
    return object->name;
}

static int search_object(struct dl_phdr_info *info, size_t size, void *data)
{
    struct object_search *search = data;

    (void)size;
    if (!object_has_address(info, search->address))
        return 0;
    search->found = true;
    search->base = info->dlpi_addr;
    search->loader_name = info->dlpi_name;
    search->name = object_name_for(info->dlpi_addr, info->dlpi_name);
    return 1;
}

/* ---- The loaded objects, for naming addresses --------------------------- */

/* Every object seen loaded (the program, its libraries, dlopen's), with
   its load address and the range its segments span; appended under
   registry_lock, never removed (a library unloaded still names the
   addresses it had), read by reports without locking.  */
struct loaded_node {
    struct sampler_loaded_object object;
    struct loaded_node *_Atomic next;
};

static struct loaded_node *_Atomic loaded_head;
static struct loaded_node *loaded_tail;

static int note_loaded_object(struct dl_phdr_info *info, size_t size, void *data)
{
    uintptr_t start = UINTPTR_MAX, end = 0;

    (void)size;
    (void)data;
    for (size_t i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *segment = &info->dlpi_phdr[i];
        if (segment->p_type != PT_LOAD || segment->p_memsz == 0)
            continue;
        uintptr_t first = info->dlpi_addr + segment->p_vaddr;
        if (first < start)
            start = first;
        if (first + segment->p_memsz > end)
            end = first + segment->p_memsz;
    }
    if (start >= end)
        return 0;
    for (struct loaded_node *known = loaded_head; known != NULL; known = known->next)
        if (known->object.base == info->dlpi_addr && known->object.start == start
            && known->object.end == end)
            return 0;
    struct loaded_node *node = malloc(sizeof *node);
    if (node == NULL)
        return 0;
    node->object.base = info->dlpi_addr;
    node->object.start = start;
    node->object.end = end;
    /* NULL for the program itself (the loader gives it no name).  */
    node->object.name = object_name_for(info->dlpi_addr, info->dlpi_name);
    if (node->object.name == NULL && info->dlpi_name != NULL && info->dlpi_name[0] != '\0') {
        free(node);
        return 0;
    }
    atomic_init(&node->next, NULL);
    if (loaded_tail == NULL)
        atomic_store_explicit(&loaded_head, node, memory_order_release);
    else
        atomic_store_explicit(&loaded_tail->next, node, memory_order_release);
    loaded_tail = node;
    return 0;
}

void sampler_loaded_objects_refresh(void)
{
    int saved_errno = errno;
    pthread_mutex_lock(&registry_lock);
    dl_iterate_phdr(note_loaded_object, NULL);
    pthread_mutex_unlock(&registry_lock);
    errno = saved_errno;
}

void sampler_loaded_objects_visit(void (*visit)(const struct sampler_loaded_object *object,
                                                void *context),
                                  void *context)
{
    for (struct loaded_node *node = atomic_load_explicit(&loaded_head, memory_order_acquire);
         node != NULL; node = atomic_load_explicit(&node->next, memory_order_acquire))
        visit(&node->object, context);
}

/* ---- The set of registered descriptors ---------------------------------- */

static size_t first_slot(const struct __sampler_unit *unit, size_t capacity)
{
    return (size_t)sampler_mix64((uint64_t)(uintptr_t)unit) & (capacity - 1);
}

/* The slot of unit's registered (not unregistered) node, or NULL.  */
static struct unit_node **find_registered(const struct __sampler_unit *unit)
{
    if (registered_capacity == 0)
        return NULL;
    for (size_t i = first_slot(unit, registered_capacity); registered[i] != NULL;
         i = (i + 1) & (registered_capacity - 1))
        if (registered[i]->descriptor == unit && !registered[i]->unregistered)
            return &registered[i];
    return NULL;
}

static struct unit_node **empty_slot(struct unit_node **slots, size_t capacity,
                                     const struct __sampler_unit *unit)
{
    size_t i = first_slot(unit, capacity);
    while (slots[i] != NULL)
        i = (i + 1) & (capacity - 1);
    return &slots[i];
}

/* Makes room for one more node; returns false when out of memory.  */
static bool set_reserve(void)
{
    if (2 * (registered_count + 1) <= registered_capacity)
        return true;
    size_t capacity = registered_capacity == 0 ? 64 : 2 * registered_capacity;
    struct unit_node **slots = calloc(capacity, sizeof *slots);
    if (slots == NULL)
        return false;
    for (size_t i = 0; i < registered_capacity; i++)
        if (registered[i] != NULL)
            *empty_slot(slots, capacity, registered[i]->descriptor) = registered[i];
    free(registered);
    registered = slots;
    registered_capacity = capacity;
    return true;
}

/* ---- Registration ------------------------------------------------------- */

static bool is_signature(const char *signature)
{
    size_t i;

    for (i = 0; i < 32; i++) {
        char c = signature[i];
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
            return false;
    }
    return signature[i] == '\0';
}

bool sampler_unit_is_valid(const struct __sampler_unit *unit, char *problem,
                           size_t size)
{
    if (unit->version < SAMPLER_ABI_VERSION_OLDEST || unit->version > SAMPLER_ABI_VERSION) {
        snprintf(problem, size, "ABI version %u, but this runtime reads versions %u to %u",
                 unit->version, (unsigned)SAMPLER_ABI_VERSION_OLDEST,
                 (unsigned)SAMPLER_ABI_VERSION);
        return false;
    }
    if (unit->countdown_unit > SAMPLER_COUNTDOWN_UNIT_MAX) {
        snprintf(problem, size, "countdown unit %u, above %u", unit->countdown_unit,
                 (unsigned)SAMPLER_COUNTDOWN_UNIT_MAX);
        return false;
    }
    if (unit->signature == NULL || !is_signature(unit->signature)) {
        snprintf(problem, size, "its signature is not 32 lowercase hex digits");
        return false;
    }
    if (unit->site_offsets == NULL) {
        if (unit->n_sites != 0 || unit->n_counters != 0) {
            snprintf(problem, size, "%u sites but no site offsets", unit->n_sites);
            return false;
        }
        return true;
    }
    if (unit->site_offsets[0] != 0) {
        snprintf(problem, size, "site offsets start at %u, not 0",
                 unit->site_offsets[0]);
        return false;
    }
    for (unsigned i = 0; i < unit->n_sites; i++) {
        if (unit->site_offsets[i + 1] <= unit->site_offsets[i]) {
            snprintf(problem, size, "site offsets do not increase at site %u", i);
            return false;
        }
    }
    if (unit->site_offsets[unit->n_sites] != unit->n_counters) {
        snprintf(problem, size, "site offsets end at %u, but there are %u counters",
                 unit->site_offsets[unit->n_sites], unit->n_counters);
        return false;
    }
    if (unit->counters == NULL && unit->n_counters != 0) {
        snprintf(problem, size, "%u counters but no counter array", unit->n_counters);
        return false;
    }
    return true;
}

static void warn_bad_unit(const struct __sampler_unit *unit, const char *problem)
{
    char quoted[SAMPLER_QUOTED_SIZE(128)];
    char message[1024];

    /* The source is read whatever the version: every version keeps the
       fields up to `source` where version 1 has them.  */
    if (unit->source != NULL)
        sampler_quote(unit->source, 128, quoted);
    else
        memcpy(quoted, "?", 2);
    snprintf(message, sizeof message,
             "sampler: ignoring the instrumented unit '%s': %s; its sites are "
             "not reported", quoted, problem);
    sampler_warn(message);
}

static void register_valid_unit(struct __sampler_unit *unit)
{
    pthread_mutex_lock(&registry_lock);
    /* The same descriptor again (registered twice) is the same unit.  */
    if (find_registered(unit) != NULL) {
        pthread_mutex_unlock(&registry_lock);
        return;
    }
    struct object_search object = { .address = (uintptr_t)unit };
    dl_iterate_phdr(search_object, &object);
    /* The objects loaded by now, which indirect calls may reach, for a
       report written where the loader cannot be asked (a signal).  */
    dl_iterate_phdr(note_loaded_object, NULL);
    struct unit_node *node = malloc(sizeof *node);
    if (node == NULL || !set_reserve()) {
        /* Out of memory: the unit goes unreported rather than the program
           failing.  */
        pthread_mutex_unlock(&registry_lock);
        free(node);
        return;
    }
    node->descriptor = unit;
    node->origin = unit->counters;
    atomic_init(&node->unit, unit);
    node->object = object.name;
    node->unregistered = false;
    atomic_init(&node->next, NULL);
    *empty_slot(registered, registered_capacity, unit) = node;
    registered_count++;
    /* Release: a reader that sees the node sees it filled in.  */
    if (registry_tail == NULL)
        atomic_store_explicit(&registry_head, node, memory_order_release);
    else
        atomic_store_explicit(&registry_tail->next, node, memory_order_release);
    registry_tail = node;
    pthread_mutex_unlock(&registry_lock);
}

void sampler_units_lock(void)
{
    pthread_mutex_lock(&registry_lock);
}

void sampler_units_unlock(void)
{
    pthread_mutex_unlock(&registry_lock);
}

SAMPLER_EXPORT void __sampler_register_unit(struct __sampler_unit *unit)
{
    if (unit == NULL)
        return;
    int saved_errno = errno;
    /* Without sampling, counters never move and no report is written: the
       registry stays empty, and costs nothing.  */
    if (sampler_config_get()->sparsity != 0) {
        char problem[256];
        if (sampler_unit_is_valid(unit, problem, sizeof problem)) {
            register_valid_unit(unit);
            if (unit->countdown_unit != 0)
                sampler_countdown_unit_offer(unit->countdown_unit, unit->source);
        }
        else
            warn_bad_unit(unit, problem);
    }
    errno = saved_errno;
}

/* One allocation holding a copy of unit: descriptor, site offsets,
   signature, source and room for the counters (filled in by the caller).  */
static struct __sampler_unit *copy_unit(const struct __sampler_unit *unit)
{
    size_t offsets_size = unit->site_offsets != NULL
                          ? ((size_t)unit->n_sites + 1) * sizeof *unit->site_offsets : 0;
    size_t counters_size = (size_t)unit->n_counters * sizeof *unit->counters;
    size_t signature_size = strlen(unit->signature) + 1;
    size_t source_size = unit->source != NULL ? strlen(unit->source) + 1 : 0;
    size_t schemes_size = unit->version >= 3 && unit->site_schemes != NULL ? unit->n_sites : 0;
    /* Counters first after the descriptor, where they are aligned.  */
    struct copy {
        struct __sampler_unit unit;
        unsigned long long counters[];
    } *copy = malloc(sizeof *copy + counters_size + offsets_size + signature_size
                     + source_size + schemes_size);

    if (copy == NULL)
        return NULL;
    char *rest = (char *)copy->counters + counters_size;
    /* A version 2 descriptor ends before site_schemes.  */
    memcpy(&copy->unit, unit, unit->version >= 3 ? sizeof *unit
                                                 : offsetof(struct __sampler_unit, site_schemes));
    copy->unit.site_schemes = NULL;
    copy->unit.next = NULL;
    copy->unit.counters = copy->counters;
    if (offsets_size > 0) {
        memcpy(rest, unit->site_offsets, offsets_size);
        copy->unit.site_offsets = (const unsigned *)rest;
        rest += offsets_size;
    }
    memcpy(rest, unit->signature, signature_size);
    copy->unit.signature = rest;
    rest += signature_size;
    if (source_size > 0) {
        memcpy(rest, unit->source, source_size);
        copy->unit.source = rest;
        rest += source_size;
    }
    if (schemes_size > 0) {
        memcpy(rest, unit->site_schemes, schemes_size);
        copy->unit.site_schemes = (const unsigned char *)rest;
    }
    return &copy->unit;
}

SAMPLER_EXPORT void __sampler_unregister_unit(struct __sampler_unit *unit)
{
    if (unit == NULL)
        return;
    int saved_errno = errno;
    pthread_mutex_lock(&registry_lock);
    struct unit_node **slot = find_registered(unit);
    if (slot != NULL) {
        struct unit_node *node = *slot;
        struct __sampler_unit *copy = copy_unit(unit);
        if (copy == NULL) {
            char quoted[SAMPLER_QUOTED_SIZE(128)];
            char message[1024];
            sampler_quote(unit->source != NULL ? unit->source : "?", 128, quoted);
            snprintf(message, sizeof message,
                     "sampler: out of memory: the counts of the unloaded unit "
                     "'%s' are not reported", quoted);
            sampler_warn(message);
        }
        /* No report may be reading the descriptor when its object goes.  */
        sampler_report_lock();
        if (copy != NULL)
            for (unsigned i = 0; i < unit->n_counters; i++)
                copy->counters[i] = __atomic_load_n(&unit->counters[i], __ATOMIC_RELAXED);
        atomic_store_explicit(&node->unit, copy, memory_order_release);
        sampler_report_unlock();
        node->unregistered = true;
    }
    pthread_mutex_unlock(&registry_lock);
    errno = saved_errno;
}

void sampler_units_visit(void (*visit)(const struct __sampler_unit *unit,
                                       const char *object, void *context),
                         void *context)
{
    for (struct unit_node *node = atomic_load_explicit(&registry_head,
                                                       memory_order_acquire);
         node != NULL;
         node = atomic_load_explicit(&node->next, memory_order_acquire)) {
        const struct __sampler_unit *unit
            = atomic_load_explicit(&node->unit, memory_order_acquire);
        if (unit != NULL)
            visit(unit, node->object, context);
    }
}

bool sampler_units_find_counter(const unsigned long long *counter, unsigned long *ordinal,
                                unsigned *site)
{
    unsigned long n = 0;

    for (struct unit_node *node = atomic_load_explicit(&registry_head,
                                                       memory_order_acquire);
         node != NULL;
         node = atomic_load_explicit(&node->next, memory_order_acquire)) {
        const struct __sampler_unit *unit
            = atomic_load_explicit(&node->unit, memory_order_acquire);
        if (unit == NULL)
            continue;
        if (counter >= node->origin && counter < node->origin + unit->n_counters) {
            unsigned offset = (unsigned)(counter - node->origin);
            unsigned low = 0, high = unit->n_sites;
            /* The site whose counters start at offset.  */
            while (low < high) {
                unsigned middle = low + (high - low) / 2;
                if (unit->site_offsets[middle] < offset)
                    low = middle + 1;
                else
                    high = middle;
            }
            if (low < unit->n_sites && unit->site_offsets[low] == offset) {
                *ordinal = n;
                *site = low;
                return true;
            }
            return false;
        }
        n++;
    }
    return false;
}

/* Only the counters that are not zero are written: in the child of a
   fork, every page written is copied, and most counters are zero.  */
static void zero_counters(const struct __sampler_unit *unit, const char *object,
                          void *unused)
{
    (void)object;
    (void)unused;
    for (unsigned i = 0; i < unit->n_counters; i++)
        if (__atomic_load_n(&unit->counters[i], __ATOMIC_RELAXED) != 0)
            __atomic_store_n(&unit->counters[i], 0, __ATOMIC_RELAXED);
}

void sampler_units_zero(void)
{
    sampler_units_visit(zero_counters, NULL);
}
