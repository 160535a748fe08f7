/* sampler.h: sampler_dump, sampler_reset, sampler_set_sparsity.
   Run at SAMPLER_SPARSITY=1; prints what each call returned.

   phase_a() 1000 times; sampler_dump();
   phase_b() 500 times; sampler_reset();
   a thread calls phase_e() 10 times (its bank of countdowns is drawn at
   sparsity 1), then waits;
   sampler_set_sparsity(1000000000); the thread calls phase_f() 1000 times
   and ends: the countdown it holds (1) samples the first call, then its
   bank must be redrawn at the new sparsity; phase_c() 100000 times;
   sampler_set_sparsity(1); phase_d() 1000 times; exits with 0.
   sampler_set_sparsity(0) and (1000000001) fail with EINVAL.  The phases'
   functions count the calls that ran ("done": sampled calls only).  */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>

#include <sampler.h>

static unsigned long done;

void phase_a(void) SAMPLER_SAMPLED;
void phase_b(void) SAMPLER_SAMPLED;
void phase_c(void) SAMPLER_SAMPLED;
void phase_d(void) SAMPLER_SAMPLED;
void phase_e(void) SAMPLER_SAMPLED;
void phase_f(void) SAMPLER_SAMPLED;
void phase_a(void) { done++; }
void phase_b(void) { done++; }
void phase_c(void) { done++; }
void phase_d(void) { done++; }
void phase_e(void) { __atomic_fetch_add(&done, 1, __ATOMIC_RELAXED); }
void phase_f(void) { __atomic_fetch_add(&done, 1, __ATOMIC_RELAXED); }

static pthread_barrier_t barrier;

static void *other_thread(void *unused)
{
    (void)unused;
    for (int i = 0; i < 10; i++)
        phase_e();
    pthread_barrier_wait(&barrier);
    pthread_barrier_wait(&barrier);
    for (int i = 0; i < 1000; i++)
        phase_f();
    return NULL;
}

int main(void)
{
    for (int i = 0; i < 1000; i++)
        phase_a();
    printf("dump %d\n", sampler_dump());
    for (int i = 0; i < 500; i++)
        phase_b();
    printf("reset %d\n", sampler_reset());
    int result = sampler_set_sparsity(0);
    printf("sparsity 0: %d %s\n", result, errno == EINVAL ? "EINVAL" : "?");
    errno = 0;
    result = sampler_set_sparsity(1000000001);
    printf("sparsity 1000000001: %d %s\n", result, errno == EINVAL ? "EINVAL" : "?");
    pthread_t thread;
    pthread_barrier_init(&barrier, NULL, 2);
    pthread_create(&thread, NULL, other_thread, NULL);
    pthread_barrier_wait(&barrier);
    printf("sparsity 1000000000: %d\n", sampler_set_sparsity(1000000000));
    pthread_barrier_wait(&barrier);
    pthread_join(thread, NULL);
    printf("now %ld\n", sampler_sparsity());
    for (int i = 0; i < 100000; i++)
        phase_c();
    printf("sparsity 1: %d\n", sampler_set_sparsity(1));
    for (int i = 0; i < 1000; i++)
        phase_d();
    printf("done %lu\n", done);
    return 0;
}
