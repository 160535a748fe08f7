/* The program whose reports, site tables and objects seed the fuzz corpus
   of sampler-report's readers: every scheme, a shared library (its units
   get an 'object' record), a fork child and a choice of endings.
   usage: prog N MODE; MODE is exit, signal, fork or demand.  */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sampler.h>

double lib_scale(double x, int n);
unsigned lib_sum(const unsigned *values, unsigned count);

struct item {
    int key;
    long weight;
    double ratio;
};

static int classify(int value)
{
    if (value < 0)
        return -1;
    return value > 10;
}

static long churn(struct item *items, int n)
{
    long total = 0;
    for (int i = 0; i < n; i++) {
        int kind = classify(items[i].key - 5);
        switch (items[i].key % 4) {
        case 0:
            total += items[i].weight;
            break;
        case 1:
            total -= kind;
            break;
        case 2:
            items[i].ratio = lib_scale(items[i].ratio, kind);
            break;
        default:
            total ^= (long) strlen("tab\there");
        }
        long before = total;
        total = total * 3 + items[i].key;
        if (total < before)
            total = before / 2;
    }
    return total;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 10;
    const char *mode = argc > 2 ? argv[2] : "exit";
    struct item *items = calloc((size_t) n + 1, sizeof *items);
    unsigned *values = calloc((size_t) n + 1, sizeof *values);
    if (!items || !values)
        return 3;
    for (int i = 0; i < n; i++) {
        items[i].key = (i * 7) % 23 - 4;
        items[i].weight = (long) i * i - 30;
        items[i].ratio = i % 5 == 0 ? -0.0 : 1.0 / (i - 3);
        values[i] = (unsigned) i * 2654435761u;
    }
    long total = churn(items, n);
    unsigned sum = lib_sum(values, (unsigned) n);
    if (strcmp(mode, "fork") == 0) {
        pid_t child = fork();
        if (child == 0) {
            churn(items, n / 2);
            exit(total > 0 ? 0 : 1);
        }
        int status;
        waitpid(child, &status, 0);
    } else if (strcmp(mode, "demand") == 0) {
        sampler_write_report();
    } else if (strcmp(mode, "signal") == 0) {
        fflush(stdout);
        raise(SIGSEGV);
    }
    printf("%ld %u\n", total, sum);
    free(items);
    free(values);
    return (int) (sum % 3);
}
