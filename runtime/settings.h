/* The runtime's environment variables as tables: one line per variable
   with its name, its kind and range, its default and what it does, which
   drive the parsing, the warnings for bad values, the bad-input test
   (testsuite/unit/test-settings.c) and docs/reference.md's table
   (testsuite/tools/check-doc-tables.sh env).

   The process's own variables are config.c's table, into struct
   sampler_config; a scheme's own are its table, into its own storage,
   named by its runtime descriptor (runtime/schemes.h).  A new variable is
   a new line in one of them and a member to hold its value; nothing else
   names it.  */
#ifndef SAMPLER_SETTINGS_H
#define SAMPLER_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>

enum sampler_setting_kind {
    /* A whole number in decimal digits (no sign, no blanks) from MIN to
       MAX, or 0 when ZERO says what 0 means.  */
    SAMPLER_SETTING_NUMBER,
    /* A power of two from MIN to MAX, held as its log2.  */
    SAMPLER_SETTING_POWER_OF_TWO,
    /* One of CHOICES' names, held as its index.  */
    SAMPLER_SETTING_CHOICE,
    /* A path shorter than MAX bytes, held as text.  */
    SAMPLER_SETTING_PATH,
    /* A path whose '%' sequences are those of report names
       (sampler_report_pattern_valid), shorter than MAX bytes.  */
    SAMPLER_SETTING_REPORT_PATTERN,
};

struct sampler_setting_choice {
    const char *name;
    const char *meaning;
};

struct sampler_setting {
    const char *name;
    enum sampler_setting_kind kind;
    unsigned long long min, max;
    /* NUMBER: what 0 means, when 0 is accepted below MIN; NULL if not.  */
    const char *zero;
    /* The warning expects "[0 (ZERO) or ]WHAT from MIN to MAX" (numbers)
       or "a path shorter than MAX bytes[ WHAT]" (paths).  */
    const char *what;
    /* CHOICE: the accepted names, up to one with a NULL name.  */
    const struct sampler_setting_choice *choices;
    /* The value when the variable is unset or empty: a number, or the
       text of a path.  */
    long long default_number;
    const char *default_text;
    /* Where the value goes in the table's values: offset and size of a
       member (SAMPLER_SETTING_MEMBER); and, when GIVEN is set, a bool
       member set true when the variable gives a value.  */
    size_t offset, size;
    bool has_given;
    size_t given;
    /* docs/reference.md: what the variable does, and what unset means (for NUMBER
       with ZERO: 0's meaning says it).  */
    const char *help;
    const char *unset;
};

/* The offset and size of MEMBER of TYPE, for a setting's designated
   initialisers.  */
#define SAMPLER_SETTING_MEMBER(type, member) \
    .offset = offsetof(type, member), .size = sizeof(((type *)0)->member)
#define SAMPLER_SETTING_GIVEN(type, member) \
    .has_given = true, .given = offsetof(type, member)

struct sampler_settings {
    const struct sampler_setting *settings;
    size_t count;
};

/* The value of the variable NAME, NULL when unset.  */
typedef const char *sampler_lookup(const char *name, void *context);

/* Sets every member the table names in VALUES to its default.  */
void sampler_settings_default(const struct sampler_settings *table, void *values);

/* Parses the table's variables (unset and empty leave the default) into
   VALUES.  Returns whether all were valid; for each bad one, appends a
   warning line to ERR (ERRLEN bytes, *USED of them used; lines separated
   by '\n') naming the variable and its value.  */
bool sampler_settings_parse(const struct sampler_settings *table, void *values,
                            sampler_lookup *lookup, void *context,
                            char *err, size_t errlen, size_t *used);

/* What a warning says a valid value is, into EXPECTED (SIZE bytes).  */
void sampler_setting_expected(const struct sampler_setting *setting, char *expected,
                              size_t size);

#endif
