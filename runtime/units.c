/* The registry of instrumented units.  Every instrumented object file
   registers its unit descriptor from a constructor, possibly before the
   runtime's own constructors, and possibly late, from a DSO loaded with
   dlopen (in any thread).

   The registry does not chain the descriptors through their `next` field:
   a DSO unloaded with dlclose takes its descriptors with it, and a list
   running through them would break there.  It keeps its own nodes instead,
   appended under a mutex (registration is rare) and published with release
   stores, so that readers walk the list without locking.  Each node
   remembers which loaded object holds its descriptor, so that readers can
   leave out units whose object has been unloaded since.  */
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sampler-abi.h"
#include "sampler-internal.h"

struct unit_node {
    struct __sampler_unit *unit;
    /* The loaded object that held the descriptor at registration, if any:
       its load address and a hash of its name.  */
    bool in_object;
    uintptr_t object_base;
    uint64_t object_name_hash;
    /* Objects unloaded in the process before registration: while this
       does not change, nothing can have been unloaded since.  */
    unsigned long long unloads;
    /* Set when another object took over the descriptor's address.  */
    atomic_bool retired;
    struct unit_node *_Atomic next;
};

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct unit_node *_Atomic registry_head;
/* Under registry_lock: the last node, and a hash set of the nodes by
   descriptor (open addressing, at most half full) to drop duplicates.  */
static struct unit_node *registry_tail;
static struct unit_node **registered;
static size_t registered_capacity;
static size_t registered_count;

static uint64_t hash_name(const char *name)
{
    uint64_t hash = UINT64_C(0xcbf29ce484222325);   /* FNV-1a */

    for (; *name != '\0'; name++)
        hash = (hash ^ (unsigned char)*name) * UINT64_C(0x100000001b3);
    return hash;
}

/* ---- Which loaded object holds an address ------------------------------- */

struct object_search {
    uintptr_t address;
    bool found;
    uintptr_t base;
    uint64_t name_hash;
    unsigned long long unloads;
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

static int search_object(struct dl_phdr_info *info, size_t size, void *data)
{
    struct object_search *search = data;

    /* dlpi_subs came with glibc 2.4; without it, every check looks.  */
    if (size >= offsetof(struct dl_phdr_info, dlpi_subs) + sizeof info->dlpi_subs)
        search->unloads = info->dlpi_subs;
    if (!object_has_address(info, search->address))
        return 0;
    search->found = true;
    search->base = info->dlpi_addr;
    search->name_hash = hash_name(info->dlpi_name != NULL ? info->dlpi_name : "");
    return 1;
}

static struct object_search find_object(const void *address)
{
    struct object_search search = { .address = (uintptr_t)address };

    dl_iterate_phdr(search_object, &search);
    return search;
}

static int count_unloads(struct dl_phdr_info *info, size_t size, void *data)
{
    unsigned long long *unloads = data;

    if (size >= offsetof(struct dl_phdr_info, dlpi_subs) + sizeof info->dlpi_subs)
        *unloads = info->dlpi_subs;
    else
        *unloads = ~0ULL;
    return 1;
}

/* Whether the node's descriptor is still in the object it was registered
   from: the same load address and name.  A descriptor outside every object
   at registration (not from a loaded object) is taken to live forever.  */
static bool same_object(const struct unit_node *node,
                        const struct object_search *object)
{
    return object->found == node->in_object
           && (!object->found || (object->base == node->object_base
                                  && object->name_hash == node->object_name_hash));
}

static bool node_loaded(struct unit_node *node, unsigned long long unloads)
{
    if (atomic_load_explicit(&node->retired, memory_order_relaxed))
        return false;
    if (!node->in_object || node->unloads == unloads)
        return true;
    struct object_search now = find_object(node->unit);
    return same_object(node, &now);
}

/* ---- The set of registered descriptors ---------------------------------- */

/* The slot holding unit's node, or the empty slot where it would go;
   NULL while the set has no room at all.  */
static struct unit_node **set_slot(struct unit_node **slots, size_t capacity,
                                   const struct __sampler_unit *unit)
{
    if (capacity == 0)
        return NULL;
    size_t i = (size_t)sampler_mix64((uint64_t)(uintptr_t)unit) & (capacity - 1);
    while (slots[i] != NULL && slots[i]->unit != unit)
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
            *set_slot(slots, capacity, registered[i]->unit) = registered[i];
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
    if (unit->version != SAMPLER_ABI_VERSION) {
        snprintf(problem, size, "ABI version %u, but this runtime reads version %u",
                 unit->version, (unsigned)SAMPLER_ABI_VERSION);
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
    struct object_search object = find_object(unit);

    pthread_mutex_lock(&registry_lock);
    struct unit_node **slot = set_slot(registered, registered_capacity, unit);
    struct unit_node *old = slot != NULL ? *slot : NULL;
    /* The same descriptor again (registered twice, or its object reloaded
       at the same place) is the same unit.  */
    if (old != NULL && same_object(old, &object)) {
        pthread_mutex_unlock(&registry_lock);
        return;
    }
    struct unit_node *node = malloc(sizeof *node);
    if (node == NULL || (old == NULL && !set_reserve())) {
        /* Out of memory: the unit goes unreported rather than the program
           failing.  */
        pthread_mutex_unlock(&registry_lock);
        free(node);
        return;
    }
    node->unit = unit;
    node->in_object = object.found;
    node->object_base = object.base;
    node->object_name_hash = object.name_hash;
    node->unloads = object.unloads;
    atomic_init(&node->retired, false);
    atomic_init(&node->next, NULL);
    if (old != NULL) {
        /* Another object now lives where the old one was unloaded.  */
        atomic_store_explicit(&old->retired, true, memory_order_relaxed);
        *slot = node;
    } else {
        *set_slot(registered, registered_capacity, unit) = node;
        registered_count++;
    }
    /* Release: a reader that sees the node sees it filled in.  */
    if (registry_tail == NULL)
        atomic_store_explicit(&registry_head, node, memory_order_release);
    else
        atomic_store_explicit(&registry_tail->next, node, memory_order_release);
    registry_tail = node;
    pthread_mutex_unlock(&registry_lock);
}

static void lock_registry(void)
{
    pthread_mutex_lock(&registry_lock);
}

static void unlock_registry(void)
{
    pthread_mutex_unlock(&registry_lock);
}

/* A fork while another thread registers (a dlopen in progress) must not
   leave the child's registry locked for good.  */
static void arm_fork_handlers(void)
{
    (void)pthread_atfork(lock_registry, unlock_registry, unlock_registry);
}

SAMPLER_EXPORT void __sampler_register_unit(struct __sampler_unit *unit)
{
    static pthread_once_t fork_handlers_once = PTHREAD_ONCE_INIT;

    if (unit == NULL)
        return;
    int saved_errno = errno;
    /* Without sampling, counters never move and no report is written: the
       registry stays empty, and costs nothing.  */
    if (sampler_config_get()->sparsity != 0) {
        char problem[256];
        if (sampler_unit_is_valid(unit, problem, sizeof problem)) {
            pthread_once(&fork_handlers_once, arm_fork_handlers);
            register_valid_unit(unit);
        } else {
            warn_bad_unit(unit, problem);
        }
    }
    errno = saved_errno;
}

void sampler_units_visit(void (*visit)(const struct __sampler_unit *unit,
                                       void *context),
                         void *context)
{
    unsigned long long unloads = 0;
    struct unit_node *node = atomic_load_explicit(&registry_head,
                                                  memory_order_acquire);

    if (node == NULL)
        return;
    dl_iterate_phdr(count_unloads, &unloads);
    for (; node != NULL;
         node = atomic_load_explicit(&node->next, memory_order_acquire))
        if (node_loaded(node, unloads))
            visit(node->unit, context);
}
