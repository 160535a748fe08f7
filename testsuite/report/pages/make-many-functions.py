#!/usr/bin/env python3
"""make-many-functions.py N: a C program of N small functions, each with a
few branches, a loop and an assignment, all called from main with the
number of rounds its first argument gives; it exits with status 1 when its
second argument is "fail".  run-page-tests.sh builds it with the paths and
values schemes to check that the HTML pages of a large program stay
small."""
import sys


def main():
    if len(sys.argv) != 2 or not sys.argv[1].isdigit() or int(sys.argv[1]) < 1:
        sys.exit("usage: make-many-functions.py N (a whole number above 0)")
    n = int(sys.argv[1])
    out = ["#include <stdlib.h>", "#include <string.h>", ""]
    for i in range(n):
        out += [
            f"__attribute__((noinline)) int f{i}(int x)",
            "{",
            f"    int y = x * {i % 7 + 1};",
            "    if (x & 1)",
            f"        y += {i};",
            "    else",
            f"        y -= {i % 13};",
            f"    if (y > {i % 50})",
            "        y ^= 3;",
            "    for (int k = 0; k < (x & 3); k++)",
            "        y += k;",
            "    return y;",
            "}",
            "",
        ]
    out += [
        "int main(int argc, char **argv)",
        "{",
        "    int rounds = argc > 1 ? atoi(argv[1]) : 1;",
        "    long sum = 0;",
        "    for (int r = 0; r < rounds; r++) {",
    ]
    out += [f"        sum += f{i}(r);" for i in range(n)]
    out += [
        "    }",
        "    return argc > 2 && strcmp(argv[2], \"fail\") == 0 ? 1 : (int) (sum & 0);",
        "}",
    ]
    print("\n".join(out))


if __name__ == "__main__":
    main()
