/* stat-check: the statistical assertions of the sampler run tests.

   stat-check binom VISITS SAMPLES P CONF
       Is SAMPLES a plausible draw from Binomial(VISITS, P)?  Prints the
       two-sided CONF acceptance bounds [lo, hi] and the tail probabilities;
       exits 0 when lo <= SAMPLES <= hi, 1 when outside.
       lo is the smallest k with P(X <= k) >= (1-CONF)/2 and hi the largest k
       with P(X >= k) >= (1-CONF)/2, so a correct sampler falls outside with
       probability at most 1-CONF (less, as the law is discrete).

   stat-check gaps P [ALPHA] < GAPS
       GAPS holds whitespace-separated inter-arrival gaps (>= 1): the number
       of visits from one sample to the next, counting the sampled visit.  Of
       a Bernoulli(P) process they follow the geometric law
       P(G = k) = (1-P)^(k-1) P.  Pearson's chi-square goodness of fit on
       about equiprobable bins (expected count >= 5 in each); prints the
       statistic, degrees of freedom and p-value; exits 1 when the p-value
       is below ALPHA (default 0.001).  Fewer than 50 gaps is an error.

   stat-check selftest
       Checks the two tests above on synthetic data with fixed seeds (a
       Bernoulli generator must pass; periodic and other wrong sequences must
       fail); prints one "PASS: ..." or "FAIL: ..." line per check.

   P may be written as a decimal or as 1/N.  Exit status 2: bad usage or
   input.  Build: gcc -std=c11 -O2 -Wall -Wextra stat-check.c -lgsl -lgslcblas -lm  */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#define MIN_GAPS 50
#define MIN_EXPECTED 5.0

/* ------------------------------------------------------------------ */
/* Parsing.                                                            */

static int parse_count(const char *text, unsigned long *out)
{
    char *end;
    unsigned long long value;

    if (text[0] < '0' || text[0] > '9')
        return -1;
    errno = 0;
    value = strtoull(text, &end, 10);
    if (errno != 0 || *end != '\0' || value > UINT_MAX)
        return -1;
    *out = (unsigned long)value;
    return 0;
}

static int parse_double(const char *text, double *out)
{
    char *end;

    errno = 0;
    *out = strtod(text, &end);
    return (errno != 0 || end == text || *end != '\0') ? -1 : 0;
}

/* A probability in [0, 1], as a decimal or as 1/N.  */
static int parse_probability(const char *text, double *out)
{
    if (strncmp(text, "1/", 2) == 0) {
        double n;
        if (parse_double(text + 2, &n) != 0 || !(n >= 1.0))
            return -1;
        *out = 1.0 / n;
        return 0;
    }
    if (parse_double(text, out) != 0 || !(*out >= 0.0 && *out <= 1.0))
        return -1;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Binomial bounds.                                                    */

/* P(X <= k) and P(X >= k) for X ~ Binomial(n, p), exact at p = 0 and 1.  */
static double binom_le(unsigned long k, double p, unsigned long n)
{
    if (k >= n)
        return 1.0;
    if (p <= 0.0)
        return 1.0;
    if (p >= 1.0)
        return 0.0;
    return gsl_cdf_binomial_P((unsigned)k, p, (unsigned)n);
}

static double binom_ge(unsigned long k, double p, unsigned long n)
{
    if (k == 0)
        return 1.0;
    if (k > n)
        return 0.0;
    if (p <= 0.0)
        return 0.0;
    if (p >= 1.0)
        return 1.0;
    return gsl_cdf_binomial_Q((unsigned)(k - 1), p, (unsigned)n);
}

struct binom_result {
    unsigned long lo, hi;     /* acceptance region */
    double le, ge;            /* P(X <= k), P(X >= k) at the observed k */
    double size;              /* exact P(X outside [lo, hi]) */
    int inside;
};

static void binom_bounds(unsigned long n, double p, double conf,
                         unsigned long *lo, unsigned long *hi)
{
    double tail = (1.0 - conf) / 2.0;
    unsigned long a, b;

    /* lo: smallest k with P(X <= k) >= tail (P(X <= n) = 1 >= tail).  */
    a = 0;
    b = n;
    while (a < b) {
        unsigned long mid = a + (b - a) / 2;
        if (binom_le(mid, p, n) >= tail)
            b = mid;
        else
            a = mid + 1;
    }
    *lo = a;
    /* hi: largest k with P(X >= k) >= tail (P(X >= 0) = 1 >= tail).  */
    a = 0;
    b = n;
    while (a < b) {
        unsigned long mid = a + (b - a + 1) / 2;
        if (binom_ge(mid, p, n) >= tail)
            a = mid;
        else
            b = mid - 1;
    }
    *hi = a;
}

static struct binom_result binom_test(unsigned long n, unsigned long k,
                                      double p, double conf)
{
    struct binom_result r;

    binom_bounds(n, p, conf, &r.lo, &r.hi);
    r.le = binom_le(k, p, n);
    r.ge = binom_ge(k, p, n);
    r.size = (r.lo > 0 ? binom_le(r.lo - 1, p, n) : 0.0)
             + binom_ge(r.hi + 1, p, n);
    r.inside = k >= r.lo && k <= r.hi;
    return r;
}

/* ------------------------------------------------------------------ */
/* Chi-square of gaps against the geometric law.                       */

struct gaps_result {
    size_t n;
    double mean;
    double chi2;
    int dof;
    double pvalue;
    int bins;
    /* The bins, for a failure report: gap ranges, observed, expected.  */
    unsigned long bin_lo[64], bin_hi[64];   /* bin_hi 0: no upper end */
    double observed[64], expected[64];
};

/* (1-p)^m, the probability that a gap exceeds m.  */
static double geom_survival(double p, double m)
{
    return exp(m * log1p(-p));
}

/* Returns 0, or -1 when the test cannot be made (too few gaps, bad p).  */
static int gaps_test(const unsigned long *gaps, size_t n, double p,
                     struct gaps_result *r)
{
    enum { MAX_BINS = 64 };
    unsigned long edge[MAX_BINS];   /* bin j is (edge[j-1], edge[j]] */
    int nedges = 0;
    double sum = 0.0;
    size_t i;
    int k, j;

    memset(r, 0, sizeof *r);
    r->n = n;
    for (i = 0; i < n; i++)
        sum += (double)gaps[i];
    r->mean = n ? sum / (double)n : 0.0;
    if (n < MIN_GAPS || !(p > 0.0 && p < 1.0))
        return -1;

    /* About n/20 equiprobable bins, between 4 and 40: quantile edges of the
       geometric law, made distinct (the law is discrete).  */
    k = (int)(n / 20);
    if (k < 4)
        k = 4;
    if (k > 40)
        k = 40;
    for (j = 1; j < k; j++) {
        double q = ceil(log1p(-(double)j / k) / log1p(-p));
        unsigned long e = q < 1.0 ? 1 : (unsigned long)q;
        if (nedges == 0 || e > edge[nedges - 1])
            edge[nedges++] = e;
    }

    /* Expected and observed counts per bin; the last bin is open.  */
    {
        int nb = nedges + 1;
        double expct[MAX_BINS], obs[MAX_BINS];
        unsigned long lo[MAX_BINS], hi[MAX_BINS];
        int m = 0;
        double acc_e = 0.0, acc_o = 0.0;
        unsigned long acc_lo = 1;

        for (j = 0; j < nb; j++) {
            unsigned long a = j == 0 ? 0 : edge[j - 1];
            lo[j] = a + 1;
            hi[j] = j < nedges ? edge[j] : 0;
            expct[j] = (double)n * (geom_survival(p, (double)a)
                        - (j < nedges ? geom_survival(p, (double)edge[j]) : 0.0));
            obs[j] = 0.0;
        }
        for (i = 0; i < n; i++) {
            /* Binary search for the bin of gaps[i].  */
            int a = 0, b = nedges;
            while (a < b) {
                int mid = (a + b) / 2;
                if (gaps[i] <= edge[mid])
                    b = mid;
                else
                    a = mid + 1;
            }
            obs[a] += 1.0;
        }
        /* Merge neighbours until every bin expects at least MIN_EXPECTED.  */
        for (j = 0; j < nb; j++) {
            if (acc_e == 0.0 && acc_o == 0.0)
                acc_lo = lo[j];
            acc_e += expct[j];
            acc_o += obs[j];
            if (acc_e >= MIN_EXPECTED || j == nb - 1) {
                if (acc_e < MIN_EXPECTED && m > 0) {
                    r->expected[m - 1] += acc_e;
                    r->observed[m - 1] += acc_o;
                    r->bin_hi[m - 1] = hi[j];
                } else {
                    r->bin_lo[m] = acc_lo;
                    r->bin_hi[m] = hi[j];
                    r->expected[m] = acc_e;
                    r->observed[m] = acc_o;
                    m++;
                }
                acc_e = acc_o = 0.0;
            }
        }
        r->bins = m;
    }
    if (r->bins < 2)
        return -1;

    r->chi2 = 0.0;
    for (j = 0; j < r->bins; j++) {
        double d = r->observed[j] - r->expected[j];
        r->chi2 += d * d / r->expected[j];
    }
    r->dof = r->bins - 1;   /* p is given, not estimated */
    r->pvalue = gsl_cdf_chisq_Q(r->chi2, (double)r->dof);
    return 0;
}

static void print_gaps_bins(FILE *out, const struct gaps_result *r)
{
    for (int j = 0; j < r->bins; j++) {
        if (r->bin_hi[j])
            fprintf(out, "  gaps %lu..%lu: observed %.0f expected %.1f\n",
                    r->bin_lo[j], r->bin_hi[j], r->observed[j], r->expected[j]);
        else
            fprintf(out, "  gaps %lu..: observed %.0f expected %.1f\n",
                    r->bin_lo[j], r->observed[j], r->expected[j]);
    }
}

/* ------------------------------------------------------------------ */
/* Commands.                                                           */

static int usage(void)
{
    fprintf(stderr,
            "usage: stat-check binom VISITS SAMPLES P CONF\n"
            "       stat-check gaps P [ALPHA] < GAPS\n"
            "       stat-check selftest\n");
    return 2;
}

static int cmd_binom(int argc, char **argv)
{
    unsigned long n, k;
    double p, conf;
    struct binom_result r;

    if (argc != 4 || parse_count(argv[0], &n) != 0
        || parse_count(argv[1], &k) != 0 || parse_probability(argv[2], &p) != 0
        || parse_double(argv[3], &conf) != 0 || !(conf > 0.0 && conf < 1.0))
        return usage();
    if (k > n) {
        printf("binom: visits %lu samples %lu: more samples than visits\n", n, k);
        return 1;
    }
    r = binom_test(n, k, p, conf);
    printf("binom: visits %lu samples %lu p %.6g: expected %.1f, %g%% bounds "
           "[%lu, %lu]; P(X<=%lu) %.3g, P(X>=%lu) %.3g: %s\n",
           n, k, p, (double)n * p, conf * 100.0, r.lo, r.hi, k, r.le, k, r.ge,
           r.inside ? "inside" : "OUTSIDE");
    return r.inside ? 0 : 1;
}

static int cmd_gaps(int argc, char **argv)
{
    double p, alpha = 0.001;
    unsigned long *gaps = NULL;
    size_t n = 0, cap = 0;
    long long value;
    struct gaps_result r;
    int got;

    if (argc < 1 || argc > 2 || parse_probability(argv[0], &p) != 0
        || !(p > 0.0 && p < 1.0))
        return usage();
    if (argc == 2 && (parse_double(argv[1], &alpha) != 0
                      || !(alpha > 0.0 && alpha < 1.0)))
        return usage();
    while ((got = scanf("%lld", &value)) == 1) {
        if (value < 1) {
            fprintf(stderr, "stat-check gaps: gap %lld is not >= 1\n", value);
            free(gaps);
            return 2;
        }
        if (n == cap) {
            cap = cap ? 2 * cap : 1024;
            gaps = realloc(gaps, cap * sizeof *gaps);
            if (!gaps) {
                perror("stat-check");
                return 2;
            }
        }
        gaps[n++] = (unsigned long)value;
    }
    if (got != EOF) {
        fprintf(stderr, "stat-check gaps: input is not a list of integers\n");
        free(gaps);
        return 2;
    }
    if (gaps_test(gaps, n, p, &r) != 0) {
        printf("gaps: %zu gaps, mean %.1f: too few to test (need %d)\n",
               n, r.mean, MIN_GAPS);
        free(gaps);
        return 2;
    }
    printf("gaps: %zu gaps, mean %.1f (geometric: %.1f), chi2 %.2f, dof %d, "
           "p-value %.3g %s %.3g: %s\n", r.n, r.mean, 1.0 / p, r.chi2, r.dof,
           r.pvalue, r.pvalue < alpha ? "<" : ">=", alpha,
           r.pvalue < alpha ? "NOT GEOMETRIC" : "ok");
    if (r.pvalue < alpha)
        print_gaps_bins(stdout, &r);
    free(gaps);
    return r.pvalue < alpha ? 1 : 0;
}

/* ------------------------------------------------------------------ */
/* Self test.                                                          */

static int st_failed;

static void st_result(int ok, const char *what, const char *fmt, ...)
{
    va_list ap;

    printf("%s: stat-check selftest: %s -- ", ok ? "PASS" : "FAIL", what);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    if (!ok)
        st_failed = 1;
}

/* Gaps between the samples of a sequence of visits: the sampled visit
   indices (1-based) and their successive differences.  */
struct seq {
    unsigned long *gaps;
    size_t n, cap;
    unsigned long last;     /* visit index of the previous sample */
    unsigned long visits, samples;
};

static void seq_visit(struct seq *s, int sampled)
{
    s->visits++;
    if (!sampled)
        return;
    s->samples++;
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 1024;
        s->gaps = realloc(s->gaps, s->cap * sizeof *s->gaps);
        if (!s->gaps) {
            perror("stat-check");
            exit(2);
        }
    }
    s->gaps[s->n++] = s->visits - s->last;
    s->last = s->visits;
}

static void seq_free(struct seq *s)
{
    free(s->gaps);
    memset(s, 0, sizeof *s);
}

static void selftest_binom(gsl_rng *rng)
{
    const double conf = 0.999, alpha = 1.0 - conf, p = 0.01;
    const unsigned long n = 20000;
    unsigned long lo, hi;
    struct binom_result r;

    /* Bounds by their definition, and close to the normal approximation.  */
    binom_bounds(n, p, conf, &lo, &hi);
    {
        double z = gsl_cdf_ugaussian_Qinv(alpha / 2.0);
        double mu = (double)n * p, sd = sqrt((double)n * p * (1.0 - p));
        int ok = binom_le(lo, p, n) >= alpha / 2 && binom_le(lo - 1, p, n) < alpha / 2
                 && binom_ge(hi, p, n) >= alpha / 2 && binom_ge(hi + 1, p, n) < alpha / 2
                 && fabs((double)lo - (mu - z * sd)) < 6.0
                 && fabs((double)hi - (mu + z * sd)) < 6.0;
        st_result(ok, "binomial bounds by definition",
                  "Binomial(%lu, %g) at %g: [%lu, %lu], normal approx. [%.1f, %.1f]",
                  n, p, conf, lo, hi, mu - z * sd, mu + z * sd);
    }
    /* Exact size: at most alpha, and not much less at this mean.  */
    r = binom_test(n, 200, p, conf);
    st_result(r.size <= alpha && r.size >= alpha / 3, "binomial test size",
              "P(outside) = %.3g for nominal %g", r.size, alpha);
    /* Degenerate laws.  */
    binom_bounds(1000, 1.0, conf, &lo, &hi);
    st_result(lo == 1000 && hi == 1000, "binomial bounds p=1", "[%lu, %lu]", lo, hi);
    binom_bounds(1000, 0.0, conf, &lo, &hi);
    st_result(lo == 0 && hi == 0, "binomial bounds p=0", "[%lu, %lu]", lo, hi);
    binom_bounds(100, 0.01, conf, &lo, &hi);
    st_result(lo == 0 && hi >= 4 && hi <= 6, "binomial bounds small mean",
              "Binomial(100, 0.01): [%lu, %lu]", lo, hi);

    /* Coverage on simulated counts: rejections of a correct sampler are
       about size * trials.  */
    {
        const unsigned long trials = 100000;
        unsigned long rejected = 0, t;
        double want = r.size * (double)trials;
        for (t = 0; t < trials; t++) {
            unsigned long k = gsl_ran_binomial(rng, p, (unsigned)n);
            if (k < r.lo || k > r.hi)
                rejected++;
        }
        st_result(fabs((double)rejected - want) <= 5.0 * sqrt(want) + 1.0,
                  "binomial coverage on simulated counts",
                  "%lu of %lu rejected, expected %.1f", rejected, trials, want);
    }

    /* A Bernoulli(0.01) visit-by-visit generator passes; a 25% denser one
       fails at the scale of a pooled site (3 seeds x 200000 visits).  */
    {
        unsigned long big = 600000, k = 0, i;
        for (i = 0; i < big; i++)
            k += gsl_rng_uniform(rng) < p;
        r = binom_test(big, k, p, conf);
        st_result(r.inside, "Bernoulli(0.01) counts accepted",
                  "%lu of %lu, bounds [%lu, %lu]", k, big, r.lo, r.hi);
        k = 0;
        for (i = 0; i < big; i++)
            k += gsl_rng_uniform(rng) < 1.25 * p;
        r = binom_test(big, k, p, conf);
        st_result(!r.inside, "Bernoulli(0.0125) counts rejected",
                  "%lu of %lu, bounds [%lu, %lu]", k, big, r.lo, r.hi);
    }
}

static void selftest_gaps(gsl_rng *rng)
{
    const double p = 0.01, alpha = 0.001;
    struct gaps_result r;
    struct seq s = { 0 };
    unsigned long i;

    /* Bernoulli(0.01), visit by visit: geometric gaps.  */
    for (i = 0; i < 200000; i++)
        seq_visit(&s, gsl_rng_uniform(rng) < p);
    gaps_test(s.gaps, s.n, p, &r);
    st_result(r.n >= MIN_GAPS && r.pvalue >= alpha, "Bernoulli(0.01) gaps accepted",
              "%zu gaps, mean %.1f, chi2 %.1f, dof %d, p-value %.3g",
              r.n, r.mean, r.chi2, r.dof, r.pvalue);
    seq_free(&s);

    /* Calibration: p-values of correct data are uniform.  */
    {
        const int trials = 2000, ngaps = 600;
        unsigned long *g = malloc(ngaps * sizeof *g);
        int below_alpha = 0, below_5pc = 0, below_half = 0, t, j;
        if (!g) {
            perror("stat-check");
            exit(2);
        }
        for (t = 0; t < trials; t++) {
            for (j = 0; j < ngaps; j++)
                g[j] = gsl_ran_geometric(rng, p);
            gaps_test(g, ngaps, p, &r);
            below_alpha += r.pvalue < alpha;
            below_5pc += r.pvalue < 0.05;
            below_half += r.pvalue < 0.5;
        }
        free(g);
        st_result(below_alpha <= 8 && below_5pc >= 0.035 * trials
                  && below_5pc <= 0.065 * trials && below_half >= 0.45 * trials
                  && below_half <= 0.55 * trials,
                  "gaps p-values calibrated",
                  "of %d geometric samples of %d gaps: %d below %g, %d below 0.05, "
                  "%d below 0.5", trials, ngaps, below_alpha, alpha, below_5pc,
                  below_half);
    }

    /* A periodic counter: every 100th visit.  */
    for (i = 0; i < 200000; i++)
        seq_visit(&s, (i + 1) % 100 == 0);
    gaps_test(s.gaps, s.n, p, &r);
    st_result(r.pvalue < alpha, "periodic gaps rejected",
              "%zu gaps of 100, chi2 %.1f, p-value %.3g", r.n, r.chi2, r.pvalue);
    seq_free(&s);

    /* Right mean, wrong shape: gaps uniform on 1..199.  */
    for (i = 0; i < 2000; i++) {
        unsigned long g = 1 + gsl_rng_uniform_int(rng, 199);
        s.visits += g - 1;
        seq_visit(&s, 1);
    }
    gaps_test(s.gaps, s.n, p, &r);
    st_result(r.pvalue < alpha, "uniform gaps of mean 100 rejected",
              "%zu gaps, mean %.1f, chi2 %.1f, p-value %.3g", r.n, r.mean, r.chi2,
              r.pvalue);
    seq_free(&s);

    /* Geometric but never shorter than 10 (mean still about 100).  */
    for (i = 0; i < 2000; i++) {
        unsigned long g = 9 + gsl_ran_geometric(rng, 1.0 / 91.0);
        s.visits += g - 1;
        seq_visit(&s, 1);
    }
    gaps_test(s.gaps, s.n, p, &r);
    st_result(r.pvalue < alpha, "gaps with a floor of 10 rejected",
              "%zu gaps, mean %.1f, chi2 %.1f, p-value %.3g", r.n, r.mean, r.chi2,
              r.pvalue);
    seq_free(&s);

    /* Too few gaps cannot be tested.  */
    {
        unsigned long g[10] = { 100, 100, 100, 100, 100, 100, 100, 100, 100, 100 };
        st_result(gaps_test(g, 10, p, &r) != 0, "too few gaps refused", "10 gaps");
    }
}

/* The trap that Liblit et al. (PLDI 2003) warn of: two sites in one loop
   and a global counter modulo 100.
   The runner's three assertions (per-site bounds, per-site gaps, joint
   samples) must each catch it; with independent coins they must pass.  */
static void selftest_pair(gsl_rng *rng)
{
    const double p = 0.01, conf = 0.999, alpha = 1.0 - conf;
    const unsigned long iterations = 600000;
    int mode;

    for (mode = 0; mode < 3; mode++) {
        /* 0: Bernoulli coins; 1: counter modulo 100; 2: counter modulo 101. */
        const char *name = mode == 0 ? "Bernoulli" : mode == 1 ? "counter mod 100"
                                                               : "counter mod 101";
        unsigned long counter = 0, both = 0, it;
        struct seq a = { 0 }, b = { 0 };
        struct binom_result ra, rb, rj;
        struct gaps_result ga, gb;
        int ga_ok, gb_ok;

        for (it = 0; it < iterations; it++) {
            int sa, sb;
            if (mode == 0) {
                sa = gsl_rng_uniform(rng) < p;
                sb = gsl_rng_uniform(rng) < p;
            } else {
                unsigned long period = mode == 1 ? 100 : 101;
                sa = ++counter % period == 0;
                sb = ++counter % period == 0;
            }
            seq_visit(&a, sa);
            seq_visit(&b, sb);
            both += sa && sb;
        }
        ra = binom_test(a.visits, a.samples, p, conf);
        rb = binom_test(b.visits, b.samples, p, conf);
        rj = binom_test(iterations, both, p * p, conf);
        ga_ok = gaps_test(a.gaps, a.n, p, &ga) == 0 && ga.pvalue >= alpha;
        gb_ok = gaps_test(b.gaps, b.n, p, &gb) == 0 && gb.pvalue >= alpha;
        if (mode == 0) {
            st_result(ra.inside && rb.inside && ga_ok && gb_ok && rj.inside,
                      "two sites, Bernoulli coins accepted",
                      "samples %lu and %lu in [%lu, %lu], gap p-values %.3g and "
                      "%.3g, both sampled %lu in [%lu, %lu]",
                      a.samples, b.samples, ra.lo, ra.hi, ga.pvalue, gb.pvalue,
                      both, rj.lo, rj.hi);
        } else {
            int caught_bounds = !ra.inside || !rb.inside;
            int caught_gaps = !ga_ok || !gb_ok;
            int caught_joint = !rj.inside;
            /* Modulo 100: the bounds and gaps catch it; modulo 101 keeps
               every site's rate right, so the gaps and the joint count must
               catch it.  */
            int ok = mode == 1 ? caught_bounds && caught_gaps
                               : caught_gaps && caught_joint;
            st_result(ok, mode == 1 ? "two sites, counter mod 100 rejected"
                                    : "two sites, counter mod 101 rejected",
                      "%s: samples %lu and %lu (bounds [%lu, %lu]), gaps %s, "
                      "both sampled %lu (bounds [%lu, %lu])", name, a.samples,
                      b.samples, ra.lo, ra.hi, caught_gaps ? "rejected" : "accepted",
                      both, rj.lo, rj.hi);
        }
        seq_free(&a);
        seq_free(&b);
    }
}

static int cmd_selftest(void)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);

    if (!rng) {
        fprintf(stderr, "stat-check: cannot allocate a generator\n");
        return 2;
    }
    gsl_rng_set(rng, 20240601);
    selftest_binom(rng);
    selftest_gaps(rng);
    selftest_pair(rng);
    gsl_rng_free(rng);
    return st_failed ? 1 : 0;
}

int main(int argc, char **argv)
{
    /* Report GSL domain errors as bad input rather than aborting.  */
    gsl_set_error_handler_off();
    if (argc < 2)
        return usage();
    if (strcmp(argv[1], "binom") == 0)
        return cmd_binom(argc - 2, argv + 2);
    if (strcmp(argv[1], "gaps") == 0)
        return cmd_gaps(argc - 2, argv + 2);
    if (strcmp(argv[1], "selftest") == 0 && argc == 2)
        return cmd_selftest();
    return usage();
}
