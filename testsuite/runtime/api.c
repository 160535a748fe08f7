/* sampler.h: sampler_dump, sampler_reset, sampler_set_sparsity.
   Run at SAMPLER_SPARSITY=1; prints what each call returned.

   phase_a() 1000 times; sampler_dump();
   phase_b() 500 times; sampler_reset();
   sampler_set_sparsity(1000000000); phase_c() 100000 times;
   sampler_set_sparsity(1); phase_d() 1000 times; exits with 0.
   sampler_set_sparsity(0) and (1000000001) fail with EINVAL.  The phases'
   functions count the calls that ran ("done": sampled calls only).  */
#include <errno.h>
#include <stdio.h>

#include <sampler.h>

static unsigned long done;

void phase_a(void) SAMPLER_SAMPLED;
void phase_b(void) SAMPLER_SAMPLED;
void phase_c(void) SAMPLER_SAMPLED;
void phase_d(void) SAMPLER_SAMPLED;
void phase_a(void) { done++; }
void phase_b(void) { done++; }
void phase_c(void) { done++; }
void phase_d(void) { done++; }

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
    printf("sparsity 1000000000: %d\n", sampler_set_sparsity(1000000000));
    printf("now %ld\n", sampler_sparsity());
    for (int i = 0; i < 100000; i++)
        phase_c();
    printf("sparsity 1: %d\n", sampler_set_sparsity(1));
    for (int i = 0; i < 1000; i++)
        phase_d();
    printf("done %lu\n", done);
    return 0;
}
