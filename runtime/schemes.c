/* The schemes' runtime descriptors (schemes.h), in registry order, and
   the calls of their hooks.  */
#include "field.h"
#include "schemes.h"

static const struct sampler_runtime_scheme *const runtime_schemes[] = {
#define SAMPLER_SCHEME(ID, NAME, N_COUNTERS, COUNTERS, MERGE, TEXT) \
    &SAMPLER_RUNTIME_SCHEME(ID),
#include "schemes.def"
};

static const char *const scheme_names[] = {
#define SAMPLER_SCHEME(ID, NAME, N_COUNTERS, COUNTERS, MERGE, TEXT) NAME,
#include "schemes.def"
};

/* Calls HOOK (ARGUMENTS) of every scheme that has it.  */
#define CALL_EACH(hook, ...)                                                 \
    for (size_t i_ = 0; i_ < SAMPLER_N_SCHEMES; i_++)                        \
        if (runtime_schemes[i_]->hook != NULL)                               \
            runtime_schemes[i_]->hook(__VA_ARGS__)

void sampler_schemes_thread_exit(void) { CALL_EACH(thread_exit); }
void sampler_schemes_fork_child(void) { CALL_EACH(fork_child); }
void sampler_schemes_reset(void) { CALL_EACH(reset); }
void sampler_schemes_before_report(void) { CALL_EACH(before_report); }

/* A field report leaves out the records of the schemes it withholds, as
   it leaves out their sites.  */
#define CALL_EACH_SENT(hook, ...)                                            \
    for (size_t i_ = 0; i_ < SAMPLER_N_SCHEMES; i_++)                        \
        if (runtime_schemes[i_]->hook != NULL && sampler_field_scheme_sent(i_)) \
            runtime_schemes[i_]->hook(__VA_ARGS__)

void sampler_schemes_report_head(struct sampler_report_context *report)
{
    CALL_EACH_SENT(report_head, report);
}

void sampler_schemes_report_tail(struct sampler_report_context *report)
{
    CALL_EACH_SENT(report_tail, report);
}

const struct sampler_settings *sampler_settings_table(size_t i, const char **scheme,
                                                      void **values)
{
    *scheme = NULL;
    *values = NULL;
    if (i == 0)
        return &sampler_process_settings;
    for (size_t s = 0; s < SAMPLER_N_SCHEMES; s++)
        if (runtime_schemes[s]->settings != NULL && --i == 0) {
            *scheme = scheme_names[s];
            *values = runtime_schemes[s]->settings_values;
            return runtime_schemes[s]->settings;
        }
    return NULL;
}
