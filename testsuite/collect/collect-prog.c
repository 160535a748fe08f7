/* A program of a release, for testsuite/collect: branches, returns,
   values and paths, and a failure that a predicate explains.

     collect-prog N [TEXT]

   reads nothing, counts the characters of TEXT (default "plain"); a
   quote, a '<' or an '&' in TEXT are counted apart, so that the
   predicates of those comparisons carry SQL's and HTML's metacharacters.
   With N a multiple of 4 it exits with status 3 (the failure), else 0.  */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int classify(int c)
{
    if (c == '\'' || c == '"')
        return 1;
    if (c == '<' || c == '&')
        return 2;
    return 0;
}

static long weigh(const char *text, int n)
{
    long weight = 0;
    for (const char *p = text; *p; p++) {
        int kind = classify((unsigned char) *p);
        weight += kind == 0 ? 1 : 10 * kind;
    }
    for (int i = 0; i < n % 50; i++)
        weight += i % 3 == 0 ? 2 : 1;
    return weight;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1;
    const char *text = argc > 2 ? argv[2] : "plain";
    long weight = weigh(text, n);
    int failing = n % 4 == 0;
    if (failing && weight > 0)
        weight = -weight;
    printf("%ld\n", weight);
    return failing ? 3 : 0;
}
