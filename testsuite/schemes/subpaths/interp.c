/* A synthetic interpreter: a switch-dispatched loop over a fixed program
   whose opcode mix (and so its hot subpaths) is known; run with its
   number of passes over the program (argv[1], default 20000).  */
#include <stdio.h>
#include <stdlib.h>

enum op { PUSH, ADD, SUB, DUP, JNZ, HALT };

static const unsigned char program[] = {
    PUSH, 5,           /* the counter */
    PUSH, 3, ADD,      /* 2: the loop's body takes 1 off it */
    PUSH, 2, SUB,
    PUSH, 2, SUB,
    DUP, JNZ, 2,
    HALT,
};

static long run(void)
{
    long stack[64];
    int sp = 0;
    unsigned pc = 0;
    long steps = 0;
    for (;;) {
        unsigned char op = program[pc++];
        steps++;
        switch (op) {
        case PUSH:
            stack[sp++] = program[pc++];
            break;
        case ADD:
            sp--;
            stack[sp - 1] += stack[sp];
            break;
        case SUB:
            sp--;
            stack[sp - 1] -= stack[sp];
            break;
        case DUP:
            stack[sp] = stack[sp - 1];
            sp++;
            break;
        case JNZ:
            if (stack[--sp] != 0)
                pc = program[pc];
            else
                pc++;
            break;
        default:
            return steps + stack[0];
        }
    }
}

int main(int argc, char **argv)
{
    int passes = argc > 1 ? atoi(argv[1]) : 20000;
    long total = 0;
    for (int i = 0; i < passes; i++)
        total += run();
    printf("%ld\n", total);
    return 0;
}
