/* Sampled visits: what every scheme's sample function shares (sample.h),
   and the entry points that belong to no one scheme: __sampler_count,
   which counts a visit in one counter (checks, function entries, a
   switch's arm), and __sampler_skip.  Each scheme's own sample functions
   are in runtime/schemes/<scheme>.c.  Keeping the observation and the
   countdown's update out of line keeps the slow copy small.  */
#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include "sample.h"

SAMPLER_PRESERVING __attribute__((noinline)) long
sampler_started_out_of_line_preserving(long c)
{
    return started_preserving(c);
}

SAMPLER_EXPORT SAMPLER_PRESERVING void __sampler_count(unsigned long long *counters,
                                                       unsigned long index)
{
    UNLESS_FIRST_VISIT_OF_THREAD(sampler_started_out_of_line_preserving);
    bump(counters, index);
    SAMPLER_SET_COUNTDOWN(sampler_countdown_next_preserving());
}

SAMPLER_EXPORT SAMPLER_PRESERVING void __sampler_skip(void)
{
    long c = started_preserving(SAMPLER_COUNTDOWN_SEEN());
    while (c <= 0)
        c += sampler_countdown_next_preserving();
    SAMPLER_SET_COUNTDOWN(c);
}

#if defined(__x86_64__)
/* How sampler_call_saving_vectors saves the state: 0 not known yet, 1
   fxsave (x87 and SSE), 2 xsave (also AVX and AVX-512, when the system
   has enabled them).  */
int sampler_vector_save_kind __attribute__((visibility("hidden")));

SAMPLER_PRESERVING __attribute__((used)) static void find_vector_save_kind(void)
{
    unsigned eax, ebx, ecx, edx;

    if (__get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_OSXSAVE))
        sampler_vector_save_kind = 2;
    else
        sampler_vector_save_kind = 1;
}

/* The save area: 4096 bytes, 64-aligned, is more than xsave needs for
   x87, SSE, AVX and AVX-512 (mask 0xe7); the header (bytes 512 to 575)
   must be zero before xsave.  */
__asm__(
    "	.text\n"
    "	.p2align 4\n"
    "	.globl sampler_call_saving_vectors\n"
    "	.hidden sampler_call_saving_vectors\n"
    "	.type sampler_call_saving_vectors, @function\n"
    "sampler_call_saving_vectors:\n"
    "	.cfi_startproc\n"
    "	pushq %rbp\n"
    "	.cfi_def_cfa_offset 16\n"
    "	.cfi_offset %rbp, -16\n"
    "	movq %rsp, %rbp\n"
    "	.cfi_def_cfa_register %rbp\n"
    "	pushq %rbx\n"
    "	.cfi_offset %rbx, -24\n"
    "	pushq %r12\n"
    "	.cfi_offset %r12, -32\n"
    "	movq %rdi, %rbx\n"
    "	subq $4160, %rsp\n"
    "	andq $-64, %rsp\n"
    "	cmpl $0, sampler_vector_save_kind(%rip)\n"
    "	jne 1f\n"
    "	call find_vector_save_kind\n"
    "1:	movl sampler_vector_save_kind(%rip), %r12d\n"
    "	cmpl $2, %r12d\n"
    "	jne 2f\n"
    "	xorl %eax, %eax\n"
    "	movq %rax, 512(%rsp)\n"
    "	movq %rax, 520(%rsp)\n"
    "	movq %rax, 528(%rsp)\n"
    "	movq %rax, 536(%rsp)\n"
    "	movq %rax, 544(%rsp)\n"
    "	movq %rax, 552(%rsp)\n"
    "	movq %rax, 560(%rsp)\n"
    "	movq %rax, 568(%rsp)\n"
    "	movl $0xe7, %eax\n"
    "	xorl %edx, %edx\n"
    "	xsave64 (%rsp)\n"
    "	jmp 3f\n"
    "2:	fxsave64 (%rsp)\n"
    "3:	call *%rbx\n"
    "	movq %rax, %rbx\n"
    "	cmpl $2, %r12d\n"
    "	jne 4f\n"
    "	movl $0xe7, %eax\n"
    "	xorl %edx, %edx\n"
    "	xrstor64 (%rsp)\n"
    "	jmp 5f\n"
    "4:	fxrstor64 (%rsp)\n"
    "5:	movq %rbx, %rax\n"
    "	leaq -16(%rbp), %rsp\n"
    "	popq %r12\n"
    "	popq %rbx\n"
    "	popq %rbp\n"
    "	.cfi_def_cfa %rsp, 8\n"
    "	ret\n"
    "	.cfi_endproc\n"
    "	.size sampler_call_saving_vectors, .-sampler_call_saving_vectors\n");
#endif
