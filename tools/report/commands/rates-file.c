/* Writing rates files (rates-file.h).  */
#include "commands/rates-file.h"

#include <math.h>
#include <string.h>

#include "output/formats.h"
#include "schemes/registry.h"

unsigned rates_weight_for(double rate, double mean)
{
    if (rate >= 1)
        /* Every visit, as nearly as a weight can: the countdown's chance
           of outlasting the visit below 1e-6.  */
        rate = 1 - 1e-6;
    double w = mean <= 1 ? 1 : log1p(-rate) / log1p(-1 / mean);
    if (w > SAMPLER_SITE_WEIGHT_MAX)
        return SAMPLER_SITE_WEIGHT_MAX;
    /* The tolerance: a rate computed back from its own weight.  */
    return w < 1 ? 1 : (unsigned) (w + 1e-9);
}

void rates_write_site(FILE *out, unsigned weight, const struct unit_table *table,
                      const struct site *site)
{
    fprintf(out, "site\t%u\t", weight);
    write_escaped(out, table->source);
    fputc('\t', out);
    write_escaped(out, site->file);
    fprintf(out, "\t%u\t", site->line);
    write_escaped(out, site->function);
    fprintf(out, "\t%s\t", scheme_name(site->scheme));
    write_escaped(out, site->predicate);
    fputc('\n', out);
}

int rates_compare_places(const struct unit_table *table_a, const struct site *a,
                         const struct unit_table *table_b, const struct site *b)
{
    int c = strcmp(table_a->source, table_b->source);
    if (!c)
        c = strcmp(a->file, b->file);
    if (!c)
        c = strcmp(a->function, b->function);
    if (!c && a->line != b->line)
        c = a->line < b->line ? -1 : 1;
    if (!c)
        c = a->index < b->index ? -1 : a->index > b->index;
    return c;
}
