#include "statistics/isolate.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum { RUN_FAILED = 1, RUN_DROPPED = 2 };

bool isolation_init(struct isolation *isolation, size_t n_sites,
                    const unsigned *predicates_per_site, const bool *every_run, struct diag *d)
{
    memset(isolation, 0, sizeof *isolation);
    size_t n_predicates = 0;
    for (size_t s = 0; s < n_sites; s++)
        n_predicates += predicates_per_site[s];
    if (n_sites > UINT32_MAX || n_predicates > UINT32_MAX)
        return diag_fail(d, "too many sites (%zu) or predicates (%zu): at most %u", n_sites,
                         n_predicates, UINT32_MAX);
    isolation->n_sites = n_sites;
    isolation->n_predicates = n_predicates;
    isolation->predicate_site = xcalloc(n_predicates, sizeof *isolation->predicate_site);
    isolation->site_in_every_run = xcalloc(n_sites, sizeof *isolation->site_in_every_run);
    size_t p = 0;
    for (size_t s = 0; s < n_sites; s++) {
        isolation->site_in_every_run[s] = every_run[s];
        for (unsigned k = 0; k < predicates_per_site[s]; k++)
            isolation->predicate_site[p++] = (uint32_t) s;
    }
    for (int failed = 0; failed < 2; failed++) {
        isolation->site_observed[failed] = xcalloc(n_sites, sizeof (unsigned long));
        isolation->predicate_true[failed] = xcalloc(n_predicates, sizeof (unsigned long));
    }
    isolation->spill = tmpfile();
    if (!isolation->spill) {
        int error = errno;
        isolation_free(isolation);
        return diag_fail(d, "cannot create a temporary file for the runs (in TMPDIR or /tmp): %s",
                         strerror(error));
    }
    return true;
}

static bool spill_write(struct isolation *isolation, const void *data, size_t size,
                        struct diag *d)
{
    if (size && fwrite(data, 1, size, isolation->spill) != size)
        return diag_fail(d, "cannot write the temporary file of runs: %s", strerror(errno));
    return true;
}

bool isolation_add_run(struct isolation *isolation, bool failed, const uint32_t *sites,
                       size_t n_sites, const uint32_t *predicates, size_t n_predicates,
                       struct diag *d)
{
    uint32_t header[2] = { (uint32_t) n_sites, (uint32_t) n_predicates };
    if (!spill_write(isolation, header, sizeof header, d)
        || !spill_write(isolation, sites, n_sites * sizeof *sites, d)
        || !spill_write(isolation, predicates, n_predicates * sizeof *predicates, d))
        return false;
    void *items = isolation->run_state;
    grow_array(&items, &isolation->run_state_capacity, isolation->n_runs + 1, 1);
    isolation->run_state = items;
    isolation->run_state[isolation->n_runs++] = failed ? RUN_FAILED : 0;
    isolation->runs[failed]++;
    for (size_t i = 0; i < n_sites; i++)
        isolation->site_observed[failed][sites[i]]++;
    for (size_t i = 0; i < n_predicates; i++)
        isolation->predicate_true[failed][predicates[i]]++;
    return true;
}

void isolation_counts(const struct isolation *isolation, size_t predicate,
                      struct predicate_counts *counts)
{
    uint32_t site = isolation->predicate_site[predicate];
    bool every = isolation->site_in_every_run[site];
    counts->failing_true = isolation->predicate_true[1][predicate];
    counts->successful_true = isolation->predicate_true[0][predicate];
    counts->failing_observed = every ? isolation->runs[1] : isolation->site_observed[1][site];
    counts->successful_observed = every ? isolation->runs[0] : isolation->site_observed[0][site];
}

bool isolation_tie_before(const struct isolation *isolation, size_t a, size_t b)
{
    if (isolation->tie_order)
        return isolation->tie_order[a] < isolation->tie_order[b];
    return a < b;
}

size_t isolation_score_all(const struct isolation *isolation, const struct score_rule *rule,
                           struct predicate_score *scores)
{
    size_t best = SIZE_MAX;
    struct predicate_counts best_counts = { 0 };
    for (size_t p = 0; p < isolation->n_predicates; p++) {
        struct predicate_counts counts;
        isolation_counts(isolation, p, &counts);
        score_predicate(&counts, isolation->runs[1], rule, &scores[p]);
        if (!scores[p].kept)
            continue;
        int order = best == SIZE_MAX ? -1
                    : compare_scores(&scores[p], &counts, &scores[best], &best_counts);
        if (order < 0 || (order == 0 && isolation_tie_before(isolation, p, best))) {
            best = p;
            best_counts = counts;
        }
    }
    return best;
}

static bool contains(const uint32_t *items, size_t n, uint32_t wanted)
{
    size_t low = 0, high = n;
    while (low < high) {
        size_t middle = low + (high - low) / 2;
        if (items[middle] < wanted)
            low = middle + 1;
        else if (items[middle] > wanted)
            high = middle;
        else
            return true;
    }
    return false;
}

bool isolation_drop(struct isolation *isolation, size_t predicate, unsigned long *failing,
                    unsigned long *successful, struct diag *d)
{
    *failing = *successful = 0;
    if (fflush(isolation->spill) != 0 || fseek(isolation->spill, 0, SEEK_SET) != 0)
        return diag_fail(d, "cannot read the temporary file of runs back: %s", strerror(errno));
    uint32_t *record = NULL;
    size_t capacity = 0;
    bool ok = true;
    for (unsigned long run = 0; ok && run < isolation->n_runs; run++) {
        uint32_t header[2];
        if (fread(header, sizeof header, 1, isolation->spill) != 1) {
            ok = diag_fail(d, "cannot read the temporary file of runs back");
            break;
        }
        size_t n = (size_t) header[0] + header[1];
        if (isolation->run_state[run] & RUN_DROPPED) {
            if (fseek(isolation->spill, (long) (n * sizeof *record), SEEK_CUR) != 0)
                ok = diag_fail(d, "cannot read the temporary file of runs back: %s",
                               strerror(errno));
            continue;
        }
        void *items = record;
        grow_array(&items, &capacity, n, sizeof *record);
        record = items;
        if (n && fread(record, sizeof *record, n, isolation->spill) != n) {
            ok = diag_fail(d, "cannot read the temporary file of runs back");
            break;
        }
        const uint32_t *sites = record, *predicates = record + header[0];
        if (!contains(predicates, header[1], (uint32_t) predicate))
            continue;
        int failed = isolation->run_state[run] & RUN_FAILED;
        isolation->run_state[run] |= RUN_DROPPED;
        isolation->runs[failed]--;
        for (uint32_t i = 0; i < header[0]; i++)
            isolation->site_observed[failed][sites[i]]--;
        for (uint32_t i = 0; i < header[1]; i++)
            isolation->predicate_true[failed][predicates[i]]--;
        if (failed)
            ++*failing;
        else
            ++*successful;
    }
    free(record);
    if (ok && fseek(isolation->spill, 0, SEEK_END) != 0)
        ok = diag_fail(d, "cannot seek in the temporary file of runs: %s", strerror(errno));
    return ok;
}

void isolation_free(struct isolation *isolation)
{
    if (isolation->spill)
        fclose(isolation->spill);
    free(isolation->predicate_site);
    free(isolation->site_in_every_run);
    for (int failed = 0; failed < 2; failed++) {
        free(isolation->site_observed[failed]);
        free(isolation->predicate_true[failed]);
    }
    free(isolation->run_state);
    memset(isolation, 0, sizeof *isolation);
}
