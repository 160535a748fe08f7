/* Computed gotos: a threaded bytecode interpreter, the dispatch of Lua's
   and CPython's.  Every handler ends in `goto *table[op]', whose edges
   are abnormal: the plugin ends the slow copy's region there and checks
   at the top of each target.  The handlers keep values across dispatches
   (pc, stack pointer, accumulator), one falls through into the next, one
   has a loop of its own, one calls an instrumented function, and one
   target is also the head of a loop entered by an ordinary goto.  */
#define SITES(X) X(push) X(add) X(square_step) X(odd) X(even) X(fall) \
    X(call) X(helper) X(again) X(head) X(halt)
#include "harness.h"

enum { OP_PUSH, OP_ADD, OP_SQUARE, OP_TEST, OP_FALL, OP_CALL, OP_AGAIN, OP_HALT };

static unsigned long helper(unsigned long x)
{
    VISIT(helper);
    check(SITE_helper, 1);
    return x * 2654435761UL + 1;
}

static unsigned long run(const unsigned char *code, int rounds)
{
    static void *const table[] = { &&op_push, &&op_add, &&op_square,
                                   &&op_test, &&op_fall, &&op_call,
                                   &&op_again, &&op_halt };
    unsigned long stack[64], acc = 1;
    int sp = 0, pc = 0;

#define DISPATCH() goto *table[code[pc++]]
    DISPATCH();
op_push:
    VISIT(push);
    check(SITE_push, sp < 64);
    stack[sp++] = acc + (unsigned long)pc;
    DISPATCH();
op_add:
    VISIT(add);
    check(SITE_add, sp >= 2);
    sp--;
    stack[sp - 1] += stack[sp];
    DISPATCH();
op_square:
    for (int i = 0; i < (int)(stack[sp - 1] & 3) + 1; i++) {
        VISIT(square_step);
        check(SITE_square_step, i < 4);
        acc = acc * acc + stack[sp - 1];
    }
    DISPATCH();
op_test:
    if (acc & 1) {
        VISIT(odd);
        check(SITE_odd, acc % 2 == 1);
        acc >>= 1;
    } else {
        VISIT(even);
        check(SITE_even, acc % 2 == 0);
        acc += 7;
    }
    DISPATCH();
op_fall:
    VISIT(fall);
    check(SITE_fall, 1);
    acc ^= acc >> 13;
    /* Falls through into the next handler: a target reached both ways.  */
op_call:
    VISIT(call);
    check(SITE_call, 1);
    acc = helper(acc);
    DISPATCH();
op_again:
    VISIT(again);
    check(SITE_again, rounds > 0);
    if (--rounds > 0) {
        pc = 0;
        sp = 0;
        goto head;
    }
    DISPATCH();
op_halt:
    VISIT(halt);
    check(SITE_halt, 1);
    return acc + stack[0];
head:
    /* A loop head that is no target: entered by the goto above only, it
       dispatches straight on.  */
    VISIT(head);
    check(SITE_head, pc == 0);
    DISPATCH();
#undef DISPATCH
}

int main(void)
{
    static const unsigned char code[] = {
        OP_PUSH, OP_PUSH, OP_ADD, OP_SQUARE, OP_TEST, OP_FALL, OP_PUSH,
        OP_TEST, OP_CALL, OP_SQUARE, OP_ADD, OP_TEST, OP_AGAIN, OP_HALT
    };
    unsigned long sum = 0;

    for (int i = 0; i < 25000; i++)
        sum += run(code, 2 + i % 3);
    printf("sum %lu\n", sum);
    return 0;
}

/* CHECKS: bash $SRCDIR/check-program.sh  */
