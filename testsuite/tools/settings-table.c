/* settings-table: prints README's table of environment variables, in
   Markdown, from the runtime's tables (runtime/settings.h: the process's,
   then each scheme's), one row per variable:

     | `NAME` | [`SCHEME`: ]HELP (RANGE; unset[, empty or `0`]: UNSET) |

   testsuite/tools/check-doc-tables.sh env compares it with README.md.
   Linked with the static runtime, whose internal symbols it reads.  */
#include <stdio.h>

#include "sampler-internal.h"

static void print_range(const struct sampler_setting *setting)
{
    switch (setting->kind) {
    case SAMPLER_SETTING_NUMBER:
        printf("%llu to %llu", setting->min, setting->max);
        break;
    case SAMPLER_SETTING_POWER_OF_TWO:
        printf("a power of two from %llu to %llu", setting->min, setting->max);
        break;
    case SAMPLER_SETTING_CHOICE:
        for (size_t i = 0; setting->choices[i].name != NULL; i++)
            printf("%s`%s`: %s", i > 0 ? ", " : "", setting->choices[i].name,
                   setting->choices[i].meaning);
        break;
    case SAMPLER_SETTING_PATH:
    case SAMPLER_SETTING_REPORT_PATTERN:
        printf("shorter than %llu bytes", setting->max);
        break;
    }
}

int main(void)
{
    const struct sampler_settings *table;
    const char *scheme;
    void *values;

    printf("| variable | meaning |\n|---|---|\n");
    for (size_t t = 0; (table = sampler_settings_table(t, &scheme, &values)) != NULL; t++)
        for (size_t i = 0; i < table->count; i++) {
            const struct sampler_setting *setting = &table->settings[i];
            printf("| `%s` | ", setting->name);
            if (scheme != NULL)
                printf("`%s`: ", scheme);
            printf("%s (", setting->help);
            print_range(setting);
            if (setting->zero != NULL)
                printf("; unset, empty or `0`: %s) |\n", setting->zero);
            else
                printf("; unset or empty: %s) |\n", setting->unset);
        }
    return 0;
}
