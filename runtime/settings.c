/* Environment variables read by tables (settings.h): parsing by kind,
   defaults, and the warning for a bad value.  A bad value never stops the
   program: the caller turns sampling off, and each bad variable gets one
   warning line naming it, its value (quoted, escaped and cut short:
   sampler_quote) and what it expects.  */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "sampler-internal.h"
#include "settings.h"

/* Strict unsigned decimal: digits only (no sign, no blanks), at most max.  */
static bool parse_decimal(const char *text, uint64_t max, uint64_t *value)
{
    uint64_t result = 0;

    if (*text == '\0')
        return false;
    for (const char *c = text; *c != '\0'; c++) {
        if (*c < '0' || *c > '9')
            return false;
        unsigned digit = (unsigned)(*c - '0');
        if (result > (max - digit) / 10)
            return false;
        result = result * 10 + digit;
    }
    *value = result;
    return true;
}

/* Stores VALUE in the integer (or bool) member of SIZE bytes at MEMBER.  */
static void store_number(char *member, size_t size, unsigned long long value)
{
    switch (size) {
    case 1: { uint8_t v = (uint8_t)value; memcpy(member, &v, 1); break; }
    case 2: { uint16_t v = (uint16_t)value; memcpy(member, &v, 2); break; }
    case 4: { uint32_t v = (uint32_t)value; memcpy(member, &v, 4); break; }
    default: { uint64_t v = (uint64_t)value; memcpy(member, &v, 8); break; }
    }
}

static void store_text(char *member, size_t size, const char *text)
{
    size_t length = strlen(text);

    if (length >= size)
        length = size - 1;
    memcpy(member, text, length);
    member[length] = '\0';
}

void sampler_settings_default(const struct sampler_settings *table, void *values)
{
    for (size_t i = 0; i < table->count; i++) {
        const struct sampler_setting *setting = &table->settings[i];
        char *member = (char *)values + setting->offset;
        if (setting->kind == SAMPLER_SETTING_PATH
            || setting->kind == SAMPLER_SETTING_REPORT_PATTERN)
            store_text(member, setting->size,
                       setting->default_text != NULL ? setting->default_text : "");
        else
            store_number(member, setting->size, (unsigned long long)setting->default_number);
        if (setting->has_given)
            *((bool *)((char *)values + setting->given)) = false;
    }
}

/* Parses TEXT (not empty) as SETTING's value into its member; false if it
   is not valid.  */
static bool parse_value(const struct sampler_setting *setting, const char *text,
                        char *member)
{
    uint64_t value;

    switch (setting->kind) {
    case SAMPLER_SETTING_NUMBER:
        if (!parse_decimal(text, setting->max, &value)
            || (value < setting->min && !(value == 0 && setting->zero != NULL)))
            return false;
        store_number(member, setting->size, value);
        return true;
    case SAMPLER_SETTING_POWER_OF_TWO:
        if (!parse_decimal(text, setting->max, &value) || value < setting->min
            || (value & (value - 1)) != 0)
            return false;
        store_number(member, setting->size, (unsigned long long)__builtin_ctzll(value));
        return true;
    case SAMPLER_SETTING_CHOICE:
        for (size_t i = 0; setting->choices[i].name != NULL; i++)
            if (strcmp(text, setting->choices[i].name) == 0) {
                store_number(member, setting->size, i);
                return true;
            }
        return false;
    case SAMPLER_SETTING_PATH:
        if (strlen(text) >= setting->max)
            return false;
        store_text(member, setting->size, text);
        return true;
    case SAMPLER_SETTING_REPORT_PATTERN:
        if (!sampler_report_pattern_valid(text))
            return false;
        store_text(member, setting->size, text);
        return true;
    }
    return false;
}

/* Appends to EXPECTED (SIZE bytes, *LENGTH used) as snprintf would, never
   past its end.  */
static void add(char *expected, size_t size, size_t *length, const char *format,
                const char *text, unsigned long long number)
{
    if (*length + 1 >= size)
        return;
    int written = text != NULL ? snprintf(expected + *length, size - *length, format, text)
                               : snprintf(expected + *length, size - *length, format, number);
    if (written > 0)
        *length += (size_t)written < size - *length ? (size_t)written : size - *length - 1;
}

void sampler_setting_expected(const struct sampler_setting *setting, char *expected,
                              size_t size)
{
    size_t length = 0;

    if (size == 0)
        return;
    expected[0] = '\0';
    switch (setting->kind) {
    case SAMPLER_SETTING_NUMBER:
    case SAMPLER_SETTING_POWER_OF_TWO:
        if (setting->zero != NULL)
            add(expected, size, &length, "0 (%s) or ", setting->zero, 0);
        add(expected, size, &length, "%s from ", setting->what, 0);
        add(expected, size, &length, "%llu to ", NULL, setting->min);
        add(expected, size, &length, "%llu", NULL, setting->max);
        break;
    case SAMPLER_SETTING_CHOICE:
        for (size_t i = 0; setting->choices[i].name != NULL; i++) {
            if (i > 0)
                add(expected, size, &length,
                    setting->choices[i + 1].name == NULL ? " or " : ", ", "", 0);
            add(expected, size, &length, "'%s'", setting->choices[i].name, 0);
            add(expected, size, &length, " (%s)", setting->choices[i].meaning, 0);
        }
        break;
    case SAMPLER_SETTING_PATH:
    case SAMPLER_SETTING_REPORT_PATTERN:
        add(expected, size, &length, "a path shorter than %llu bytes", NULL, setting->max);
        if (setting->what != NULL)
            add(expected, size, &length, " %s", setting->what, 0);
        break;
    }
}

/* Appends one warning line to err (lines are separated by '\n').  */
static void report_bad_value(char *err, size_t errlen, size_t *used,
                             const struct sampler_setting *setting, const char *value)
{
    char quoted[SAMPLER_QUOTED_SIZE(SAMPLER_QUOTE_MAX)];
    char expected[256];

    if (*used + 1 >= errlen)
        return;
    sampler_quote(value, SAMPLER_QUOTE_MAX, quoted);
    sampler_setting_expected(setting, expected, sizeof expected);
    int written = snprintf(err + *used, errlen - *used,
                           "%ssampler: ignoring %s='%s': expected %s; "
                           "sampling is off",
                           *used > 0 ? "\n" : "", setting->name, quoted, expected);
    if (written > 0)
        *used += (size_t)written < errlen - *used ? (size_t)written
                                                  : errlen - *used - 1;
}

bool sampler_settings_parse(const struct sampler_settings *table, void *values,
                            sampler_lookup *lookup, void *context,
                            char *err, size_t errlen, size_t *used)
{
    bool valid = true;

    for (size_t i = 0; i < table->count; i++) {
        const struct sampler_setting *setting = &table->settings[i];
        const char *text = lookup(setting->name, context);
        /* Unset and empty both mean "not configured": the default.  */
        if (text == NULL || text[0] == '\0')
            continue;
        if (parse_value(setting, text, (char *)values + setting->offset)) {
            if (setting->has_given)
                *((bool *)((char *)values + setting->given)) = true;
        } else {
            valid = false;
            report_bad_value(err, errlen, used, setting, text);
        }
    }
    return valid;
}
