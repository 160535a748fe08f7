/* One run's units added up against a catalog (run-adder.h).  */
#include "combining/run-adder.h"

#include <stdlib.h>
#include <string.h>

void run_adder_init(struct run_adder *adder, const struct site_catalog *catalog)
{
    memset(adder, 0, sizeof *adder);
    adder->catalog = catalog;
    size_t n = catalog->n_units;
    adder->totals = xcalloc(n + 1, sizeof *adder->totals);
    adder->touched = xcalloc(n + 1, sizeof *adder->touched);
    adder->n_touched = xcalloc(n + 1, sizeof *adder->n_touched);
    adder->touched_capacity = xcalloc(n + 1, sizeof *adder->touched_capacity);
    for (size_t u = 0; u < n; u++)
        unit_totals_init(&adder->totals[u], catalog->units[u]);
}

static int compare_unsigned(const void *a, const void *b)
{
    unsigned x = *(const unsigned *) a, y = *(const unsigned *) b;
    return (x > y) - (x < y);
}

/* Notes that the run has lines for the sites of OCCURRENCE of unit POSITION.  */
static void touch_sites(struct run_adder *adder, size_t position,
                        const struct unit_counts *occurrence)
{
    for (size_t s = 0; s < occurrence->n_observed; s++) {
        void *items = adder->touched[position];
        grow_array(&items, &adder->touched_capacity[position], adder->n_touched[position] + 1,
                   sizeof **adder->touched);
        adder->touched[position] = items;
        adder->touched[position][adder->n_touched[position]++] = occurrence->sites[s].site;
    }
}

/* The touched sites of each unit of the run, in order and once each.  */
static void list_sites(struct run_adder *adder)
{
    for (size_t j = 0; j < adder->n_units; j++) {
        size_t position = adder->units[j].catalog_index;
        unsigned *sites = adder->touched[position];
        size_t n = adder->n_touched[position];
        /* One occurrence lists its sites in order; several need sorting.  */
        bool sorted = true;
        for (size_t k = 1; k < n && sorted; k++)
            sorted = sites[k - 1] < sites[k];
        if (!sorted) {
            qsort(sites, n, sizeof *sites, compare_unsigned);
            size_t kept = 0;
            for (size_t k = 0; k < n; k++) {
                if (kept == 0 || sites[kept - 1] != sites[k])
                    sites[kept++] = sites[k];
            }
            adder->n_touched[position] = n = kept;
        }
        adder->units[j].sites = sites;
        adder->units[j].n_sites = n;
    }
}

bool run_adder_add(struct run_adder *adder, const struct run_report *report, struct diag *d)
{
    const struct site_catalog *catalog = adder->catalog;
    adder->n_units = 0;
    for (size_t i = 0; i < report->n_units; i++) {
        const struct unit_counts *unit = &report->units[i];
        size_t position;
        if (!name_index_find(&catalog->by_signature, unit->signature, &position))
            return diag_fail(d, "%s:%lu: unit %s (%s): no site table found; pass the program "
                             "or library with --binary, or a site-table file with --sites",
                             report->path, unit->line_number, unit->signature, unit->source);
        const struct unit_table *table = catalog->units[position];
        if (!unit_counts_fit_table(report, unit, table, d))
            return false;
        bool seen = false;
        for (size_t j = 0; j < adder->n_units; j++)
            seen |= adder->units[j].catalog_index == position;
        if (!seen) {
            void *items = adder->units;
            grow_array(&items, &adder->units_capacity, adder->n_units + 1, sizeof *adder->units);
            adder->units = items;
            adder->units[adder->n_units++] = (struct run_unit) { position,
                                                                 &adder->totals[position],
                                                                 NULL, 0 };
        }
        unit_totals_add(&adder->totals[position], unit);
        touch_sites(adder, position, unit);
    }
    list_sites(adder);
    return true;
}

void run_adder_clear(struct run_adder *adder)
{
    /* Every unit with touched sites is in the list, also in a run
       refused half way (a unit is listed before it is added up).  */
    for (size_t j = 0; j < adder->n_units; j++) {
        size_t position = adder->units[j].catalog_index;
        struct unit_totals *totals = &adder->totals[position];
        for (size_t k = 0; k < adder->n_touched[position]; k++) {
            const struct site *site = &totals->table->sites[adder->touched[position][k]];
            memset(totals->values + site->first_counter, 0,
                   site->n_counters * sizeof *totals->values);
            totals->observed[site->index] = false;
        }
        adder->n_touched[position] = 0;
    }
    adder->n_units = 0;
}

void run_adder_free(struct run_adder *adder)
{
    if (adder->totals) {
        for (size_t u = 0; u < adder->catalog->n_units; u++) {
            unit_totals_free(&adder->totals[u]);
            free(adder->touched[u]);
        }
    }
    free(adder->totals);
    free(adder->touched);
    free(adder->n_touched);
    free(adder->touched_capacity);
    free(adder->units);
    memset(adder, 0, sizeof *adder);
}
