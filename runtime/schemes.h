/* The runtime's side of a scheme, beyond its sample functions: its
   environment variables, and hooks into the process's life for the state
   a scheme keeps outside its sites' counters (subpaths: per-thread
   hot-lists; indirect-calls: the loaded objects that name its targets).

   Every scheme of the registry (schemes.def) defines its descriptor,
   `const struct sampler_runtime_scheme SAMPLER_RUNTIME_SCHEME(<ID>)`, in
   runtime/schemes/<scheme>.c (or a folder runtime/schemes/<scheme>/ when
   it is large); a hook left out does nothing.  A registry line without
   its descriptor does not link.  The core calls the hooks of every
   scheme, in registry order, through the sampler_schemes_* functions
   below (schemes.c): nothing else in the core names a scheme.  */
#ifndef SAMPLER_SCHEMES_H
#define SAMPLER_SCHEMES_H

#include "sampler-internal.h"
#include "report-writer/output.h"

/* What a scheme's records are written with (report-writer/output.h), and
   what they may refer to.  */
struct sampler_report_context {
    struct sampler_output *out;
    const char *program;    /* the program's path as the report shows it,
                               for an object without a name */
    unsigned long units;    /* unit records written so far: a record after
                               them names a unit by its place among them */
};

struct sampler_runtime_scheme {
    /* Its own SAMPLER_* variables (settings.h), parsed with the process's
       into SETTINGS_VALUES: a bad one turns sampling off.  */
    const struct sampler_settings *settings;
    void *settings_values;
    /* The calling thread is leaving (its countdown stream goes next).  */
    void (*thread_exit)(void);
    /* In the child after fork, once the counters are zero: the child
       counts from zero, with one thread.  */
    void (*fork_child)(void);
    /* The counts start again from zero (sampler_reset, or an exec that
       failed after its report), under the report lock, while other
       threads may be sampling.  */
    void (*reset)(void);
    /* Before a report that is not written from a signal handler, outside
       the report lock: what the report will need that takes locks of the
       C library or the loader.  */
    void (*before_report)(void);
    /* The scheme's records, after the report's header and before the
       units (what the units' counters refer to), or after the units
       (what refers to them).  Under the report lock, maybe in a signal
       handler: async-signal-safe, no allocation.  Not called for a field
       report that withholds the scheme (field.h); a path the records show
       goes through sampler_field_shown_path.  */
    void (*report_head)(struct sampler_report_context *report);
    void (*report_tail)(struct sampler_report_context *report);
};

#define SAMPLER_RUNTIME_SCHEME(ID) sampler_runtime_scheme_##ID

#define SAMPLER_SCHEME(ID, NAME, N_COUNTERS, COUNTERS, MERGE, TEXT) \
    extern const struct sampler_runtime_scheme SAMPLER_RUNTIME_SCHEME(ID);
#include "schemes.def"

/* Each hook of every scheme that has it, in registry order.  */
void sampler_schemes_thread_exit(void);
void sampler_schemes_fork_child(void);
void sampler_schemes_reset(void);
void sampler_schemes_before_report(void);
void sampler_schemes_report_head(struct sampler_report_context *report);
void sampler_schemes_report_tail(struct sampler_report_context *report);

#endif
