/* harness.h: bookkeeping for the sampler run tests (see run-tests.sh).

   A test program lists its sites, then includes this header:

       #define SITES(X) X(loop) X(tail)
       #define PAIRS(X) X(loop, tail)      (optional: see below)
       #include "harness.h"

   and at each call of a sampled function writes

       VISIT(loop);
       check(SITE_loop, ok);

   VISIT counts the visit itself, outside the sampled call, so the number of
   visits is exact whether or not the call runs.  It is a plain increment of a
   global counter: no call, no branch.  The sampled functions (check() here,
   or the program's own) call h_sample(SITE_x, ok) when they run; ok == 0 is
   counted as a failed check (a test's checks always hold, so a failure means
   an argument reached the sampled call wrong).

   At exit (atexit, so also after exit() from anywhere) the harness writes to
   the file named by SAMPLER_TEST_OUT (stderr if unset), one line per site:

       site NAME visits V samples S fails F bad B

   B counts samples taken with no VISIT since the previous sample of the
   site (a visit sampled twice, or a call that was never counted).  When
   SAMPLER_TEST_RECORD is set (non-empty, not "0") the harness also remembers
   the visit index (1-based) of every sample and writes

       gaps NAME g1 g2 ...                 g1 = index of the first sample,
                                           gk = index_k - index_(k-1)
       pair A B visits VA VB both K        K = visit indices sampled at both

   PAIRS lists sites visited in lockstep (the i-th visit of A and of B in the
   same iteration), for which K counts iterations where both were sampled.

   Built without the plugin (__SAMPLER__ undefined) SAMPLED is empty and
   every sampled call runs: samples == visits.  Built with
   -DSAMPLER_TEST_MOCK=1 (or 2) h_sample itself decides, per call, whether
   the call "ran": 1 is a Bernoulli coin of probability 1/SAMPLER_SPARSITY
   seeded by SAMPLER_SEED, 2 is a global counter modulo SAMPLER_SPARSITY
   (the periodic trap of Liblit et al., PLDI 2003).  That is only for
   testing the test suite (testsuite/tools/mock/bin/sampler-gcc).  */
#ifndef SAMPLER_TEST_HARNESS_H
#define SAMPLER_TEST_HARNESS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __SAMPLER__
#define SAMPLED __attribute__((sampled))
#else
#define SAMPLED
#endif

#ifndef SITES
#error "define SITES(X) before including harness.h"
#endif

#define H_SITE_ENUM_(name) SITE_##name,
enum { SITES(H_SITE_ENUM_) H_NSITES };
#undef H_SITE_ENUM_

#define H_SITE_NAME_(name) #name,
static const char *const h_site_names[H_NSITES] = { SITES(H_SITE_NAME_) };
#undef H_SITE_NAME_

struct h_site {
    unsigned long visits;   /* VISIT()s */
    unsigned long samples;  /* sampled calls that ran */
    unsigned long fails;    /* ... with ok == 0 */
    unsigned long bad;      /* ... with no VISIT since the previous sample */
    unsigned long last;     /* visit index of the previous sample */
    unsigned long *at;      /* visit index of each sample, when recording */
    size_t n, cap;
};

static struct h_site h_sites[H_NSITES];
static int h_recording;

#define VISIT(name) ((void)h_sites[SITE_##name].visits++)

#ifdef SAMPLER_TEST_MOCK
static unsigned long long h_mock_state, h_mock_sparsity;
#if SAMPLER_TEST_MOCK == 2
static unsigned long long h_mock_count;
#endif

/* Whether this sampled call runs.  */
static int h_mock_runs(void)
{
    if (h_mock_sparsity == 0)
        return 0;
#if SAMPLER_TEST_MOCK == 2
    return ++h_mock_count % h_mock_sparsity == 0;
#else
    /* splitmix64 */
    unsigned long long z = (h_mock_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return z % h_mock_sparsity == 0;
#endif
}
#endif

/* Records that the sampled call for SITE ran.  */
static void h_sample(int site, int ok)
{
    struct h_site *s;

    if (site < 0 || site >= H_NSITES) {
        fprintf(stderr, "harness: bad site number %d\n", site);
        abort();
    }
#ifdef SAMPLER_TEST_MOCK
    if (!h_mock_runs())
        return;
#endif
    s = &h_sites[site];
    s->samples++;
    if (!ok)
        s->fails++;
    if (s->visits == s->last)
        s->bad++;
    s->last = s->visits;
    if (h_recording) {
        if (s->n == s->cap) {
            s->cap = s->cap ? 2 * s->cap : 256;
            s->at = realloc(s->at, s->cap * sizeof *s->at);
            if (!s->at) {
                fprintf(stderr, "harness: out of memory\n");
                abort();
            }
        }
        s->at[s->n++] = s->visits;
    }
}

#ifdef PAIRS
#define H_PAIR_(a, b) { SITE_##a, SITE_##b },
static const int h_pairs[][2] = { PAIRS(H_PAIR_) };
#undef H_PAIR_
static const size_t h_npairs = sizeof h_pairs / sizeof h_pairs[0];
#else
static const int h_pairs[1][2] = { { 0, 0 } };
static const size_t h_npairs = 0;
#endif

static void h_dump(void)
{
    const char *path = getenv("SAMPLER_TEST_OUT");
    FILE *out = path && *path ? fopen(path, "w") : stderr;
    size_t i, j;

    if (!out) {
        perror(path);
        return;
    }
    for (i = 0; i < H_NSITES; i++)
        fprintf(out, "site %s visits %lu samples %lu fails %lu bad %lu\n",
                h_site_names[i], h_sites[i].visits, h_sites[i].samples,
                h_sites[i].fails, h_sites[i].bad);
    if (h_recording) {
        for (i = 0; i < H_NSITES; i++) {
            unsigned long prev = 0;
            fprintf(out, "gaps %s", h_site_names[i]);
            for (j = 0; j < h_sites[i].n; j++) {
                fprintf(out, " %lu", h_sites[i].at[j] - prev);
                prev = h_sites[i].at[j];
            }
            fputc('\n', out);
        }
        for (i = 0; i < h_npairs; i++) {
            const struct h_site *a = &h_sites[h_pairs[i][0]];
            const struct h_site *b = &h_sites[h_pairs[i][1]];
            size_t x = 0, y = 0;
            unsigned long both = 0;
            while (x < a->n && y < b->n) {
                if (a->at[x] < b->at[y])
                    x++;
                else if (a->at[x] > b->at[y])
                    y++;
                else {
                    both++;
                    x++;
                    y++;
                }
            }
            fprintf(out, "pair %s %s visits %lu %lu both %lu\n",
                    h_site_names[h_pairs[i][0]], h_site_names[h_pairs[i][1]],
                    a->visits, b->visits, both);
        }
    }
    if (out != stderr)
        fclose(out);
    else
        fflush(out);
}

static void h_init(void) __attribute__((constructor));
static void h_init(void)
{
    const char *record = getenv("SAMPLER_TEST_RECORD");

    h_recording = record && *record && strcmp(record, "0") != 0;
#ifdef SAMPLER_TEST_MOCK
    {
        const char *sparsity = getenv("SAMPLER_SPARSITY");
        const char *seed = getenv("SAMPLER_SEED");
        h_mock_sparsity = sparsity ? strtoull(sparsity, NULL, 10) : 0;
        h_mock_state = seed ? strtoull(seed, NULL, 10) : 0;
    }
#endif
    if (atexit(h_dump) != 0) {
        fprintf(stderr, "harness: atexit failed\n");
        abort();
    }
}

/* The usual sampled function.  */
SAMPLED void check(int site, int ok);
void check(int site, int ok)
{
    h_sample(site, ok);
}

#endif
