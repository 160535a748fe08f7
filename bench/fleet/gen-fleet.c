/* gen-fleet DIR RUNS [SEED]: a synthetic fleet for bench/fleet/run-fleet.sh.
   Writes DIR/fleet.agg, an aggregate of RUNS runs as `sampler-report merge'
   writes it (site tables, then one report per run), and DIR/planted.txt,
   the planted bug's predicate and the predicates correlated with it.

   The program: 3,000 sites, 20,000 predicates, in 10 units of 300 sites:
   900 two-way branches (2 predicates each), 1,000 returns and 1,000 scalar
   pairs (6 each), 100 switches of 62 arms (62 each).  Each run samples at
   sparsity 1000: site s is visited k_s times per run, log10(k_s / 1000)
   uniform on [-4.7, -0.7], so that a run observes about 2% of the sites
   (about 64), most of them once; each sampled visit of a branch goes true
   with the site's own probability, a return or pair falls in <, == or >
   and a switch takes an arm with the site's own probabilities.

   The bug: 1% of runs trigger it, and fail with probability 0.95; the
   other runs fail with probability 0.0105, so that about 2% fail.  The
   planted predicate is a branch (visited 360 times a run: observed in 30%
   of runs) that goes true only in runs that trigger the bug, in half of its
   visits there.  Correlated with it: a return (< 0 at 60% of its visits in
   triggering runs, 5% elsewhere), a scalar pair (the same), a switch arm
   (taken at 50% of visits in triggering runs, 2% elsewhere), each visited
   500 times a run.  Everything is drawn from SEED (default 1).  */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N_UNITS = 10, SITES_PER_UNIT = 300, N_SITES = N_UNITS * SITES_PER_UNIT, ARMS = 62,
       SPARSITY = 1000 };
enum kind { BRANCH, RETURN, PAIR, SWITCH };

struct site {
    enum kind kind;
    double observed;            /* probability that a run samples it at least once */
    double mean;                /* samples per run */
    double outcome[ARMS];       /* each sampled visit's outcome, cumulative */
    double bug_outcome[ARMS];   /* the same in runs that trigger the bug */
    int n_outcomes;
};

static struct site sites[N_SITES];
static uint64_t state[4];

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

/* xoshiro256** (Blackman and Vigna).  */
static uint64_t next64(void)
{
    uint64_t result = rotl(state[1] * 5, 7) * 9, t = state[1] << 17;
    state[2] ^= state[0];
    state[3] ^= state[1];
    state[1] ^= state[2];
    state[0] ^= state[3];
    state[2] ^= t;
    state[3] = rotl(state[3], 45);
    return result;
}

static double uniform(void) { return (double) (next64() >> 11) * 0x1p-53; }

/* Poisson(MEAN) conditioned on being at least 1 (MEAN small: inversion).  */
static unsigned positive_poisson(double mean)
{
    for (;;) {
        double p = exp(-mean), sum = p, u = uniform();
        unsigned k = 0;
        while (u > sum && k < 1000) {
            k++;
            p *= mean / k;
            sum += p;
        }
        if (k > 0)
            return k;
    }
}

static int pick(const double *cumulative, int n)
{
    double u = uniform();
    for (int i = 0; i < n - 1; i++)
        if (u < cumulative[i])
            return i;
    return n - 1;
}

/* Random outcome probabilities (cumulative) for N outcomes, skewed.  */
static void random_outcomes(double *cumulative, int n)
{
    double sum = 0;
    for (int i = 0; i < n; i++) {
        cumulative[i] = pow(uniform(), 3) + 0.001;
        sum += cumulative[i];
    }
    double running = 0;
    for (int i = 0; i < n; i++) {
        running += cumulative[i] / sum;
        cumulative[i] = running;
    }
}

/* Outcome FAVOURED with probability SHARE, the others alike (cumulative).  */
static void favour(double *cumulative, int n, int favoured, double share)
{
    double running = 0;
    for (int k = 0; k < n; k++) {
        running += k == favoured ? share : (1 - share) / (n - 1);
        cumulative[k] = k == n - 1 ? 1 : running;
    }
}

static void set_visits(struct site *site, double visits)
{
    site->mean = visits / SPARSITY;
    site->observed = -expm1(-site->mean);
}

/* Unit site / 300, index site % 300: a branch, a return, a pair, a switch.  */
enum { PLANTED = 7, RETURN_TWIN = 1000, PAIR_TWIN = 2000, SWITCH_TWIN = 2995, TWIN_ARM = 5 };

static void make_sites(void)
{
    for (int s = 0; s < N_SITES; s++) {
        struct site *site = &sites[s];
        int i = s % SITES_PER_UNIT;
        /* Kinds spread over the units: 90 branches, 100 returns, 100 pairs, 10 switches each.  */
        site->kind = i < 90 ? BRANCH : i < 190 ? RETURN : i < 290 ? PAIR : SWITCH;
        site->n_outcomes = site->kind == BRANCH ? 2 : site->kind == SWITCH ? ARMS : 3;
        set_visits(site, SPARSITY * pow(10, -4.7 + 4 * uniform()));
        random_outcomes(site->outcome, site->n_outcomes);
        memcpy(site->bug_outcome, site->outcome, sizeof site->outcome);
    }
}

/* The planted bug and its correlated predicates, by global site number
   (unit s / 300, site s % 300); outcome 1 of a branch is "true".  */
static void plant(void)
{
    struct site *bug = &sites[PLANTED];
    set_visits(bug, 360);
    favour(bug->outcome, 2, 0, 1);               /* never true */
    favour(bug->bug_outcome, 2, 1, 0.5);         /* true at half the visits */
    const int twins[3] = { RETURN_TWIN, PAIR_TWIN, SWITCH_TWIN };
    for (int t = 0; t < 3; t++) {
        struct site *site = &sites[twins[t]];
        set_visits(site, 500);
        int favoured = t < 2 ? 0 : TWIN_ARM;     /* < 0, <, or the switch's arm */
        favour(site->outcome, site->n_outcomes, favoured, t < 2 ? 0.05 : 0.02);
        favour(site->bug_outcome, site->n_outcomes, favoured, t < 2 ? 0.6 : 0.5);
    }
}

static const char *kind_scheme[] = { "branches", "returns", "scalar-pairs", "branches" };

static void write_tables(FILE *out)
{
    for (int u = 0; u < N_UNITS; u++) {
        unsigned n_counters = 0;
        for (int i = 0; i < SITES_PER_UNIT; i++)
            n_counters += sites[u * SITES_PER_UNIT + i].n_outcomes;
        fprintf(out, "unit\t%032x\tsrc/unit%d.c\t%d\t%u\n", 0xf1ee7000 + u, u, SITES_PER_UNIT,
                n_counters);
        for (int i = 0; i < SITES_PER_UNIT; i++) {
            const struct site *site = &sites[u * SITES_PER_UNIT + i];
            fprintf(out, "site\t%d\t%s\tsrc/unit%d.c\t%d\t1\tf%d\t%d\t", i,
                    kind_scheme[site->kind], u, 10 + i, i / 10, site->n_outcomes);
            if (site->kind == BRANCH)
                fprintf(out, "x%d > 0\tfalse,true\n", i);
            else if (site->kind == RETURN)
                fprintf(out, "g%d (p)\t<0,==0,>0\n", i);
            else if (site->kind == PAIR)
                fprintf(out, "a%d ? b\t<,==,>\n", i);
            else {
                fprintf(out, "switch (m%d)\t", i);
                for (int k = 0; k < ARMS; k++)
                    fprintf(out, "%scase %d", k ? "," : "", k);
                fputc('\n', out);
            }
        }
        fputs("end\n", out);
    }
}

static void write_run(FILE *out, unsigned long run)
{
    int bug = uniform() < 0.01;
    int failed = uniform() < (bug ? 0.95 : 0.0105);
    fprintf(out, "run\tfleet/run-%lu\nsampler-report\t1\nprogram\t/fleet/prog\npid\t%lu\n"
            "sparsity\t%d\nseed\t%lu\n%s\n", run, run + 1, SPARSITY, run,
            failed ? "exit\tsignal\t11" : "exit\tstatus\t0");
    unsigned counts[ARMS];
    for (int u = 0; u < N_UNITS; u++) {
        unsigned n_counters = 0;
        for (int i = 0; i < SITES_PER_UNIT; i++)
            n_counters += sites[u * SITES_PER_UNIT + i].n_outcomes;
        fprintf(out, "unit\t%032x\t%d\t%u\tsrc/unit%d.c\n", 0xf1ee7000 + u, SITES_PER_UNIT,
                n_counters, u);
        for (int i = 0; i < SITES_PER_UNIT; i++) {
            const struct site *site = &sites[u * SITES_PER_UNIT + i];
            if (uniform() >= site->observed)
                continue;
            unsigned n = positive_poisson(site->mean);
            memset(counts, 0, sizeof counts);
            for (unsigned v = 0; v < n; v++)
                counts[pick(bug ? site->bug_outcome : site->outcome, site->n_outcomes)]++;
            fprintf(out, "%d", i);
            for (int k = 0; k < site->n_outcomes; k++)
                fprintf(out, "\t%u", counts[k]);
            fputc('\n', out);
        }
    }
    fputs("end\n", out);
}

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: gen-fleet DIR RUNS [SEED]\n");
        return 2;
    }
    char *end;
    unsigned long runs = strtoul(argv[2], &end, 10);
    unsigned long long seed = argc == 4 ? strtoull(argv[3], NULL, 10) : 1;
    if (*end || runs == 0) {
        fprintf(stderr, "gen-fleet: RUNS must be a positive number, not '%s'\n", argv[2]);
        return 2;
    }
    for (int i = 0; i < 4; i++)
        state[i] = (seed + 1) * UINT64_C(0x9e3779b97f4a7c15) * (uint64_t) (2 * i + 1);
    make_sites();
    plant();
    char path[4096];
    snprintf(path, sizeof path, "%s/planted.txt", argv[1]);
    FILE *planted = fopen(path, "w");
    snprintf(path, sizeof path, "%s/fleet.agg", argv[1]);
    FILE *out = fopen(path, "w");
    if (!planted || !out) {
        perror(path);
        return 1;
    }
    /* unit, site index, predicate index in the site (rank's numbering).  */
    fprintf(planted, "bug\t%032x\t%d\t0\n", 0xf1ee7000 + PLANTED / SITES_PER_UNIT,
            PLANTED % SITES_PER_UNIT);
    fprintf(planted, "correlated\t%032x\t%d\t0\ncorrelated\t%032x\t%d\t0\n"
            "correlated\t%032x\t%d\t%d\n", 0xf1ee7000 + RETURN_TWIN / SITES_PER_UNIT,
            RETURN_TWIN % SITES_PER_UNIT, 0xf1ee7000 + PAIR_TWIN / SITES_PER_UNIT,
            PAIR_TWIN % SITES_PER_UNIT, 0xf1ee7000 + SWITCH_TWIN / SITES_PER_UNIT,
            SWITCH_TWIN % SITES_PER_UNIT, TWIN_ARM);
    fputs("sampler-aggregate\t1\n", out);
    write_tables(out);
    fputs("runs\n", out);
    for (unsigned long run = 0; run < runs; run++)
        write_run(out, run);
    fprintf(out, "aggregate-end\t%lu\n", runs);
    if (fclose(out) != 0 || fclose(planted) != 0) {
        perror(argv[1]);
        return 1;
    }
    return 0;
}
