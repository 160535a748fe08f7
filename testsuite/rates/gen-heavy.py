#!/usr/bin/env python3
"""gen-heavy.py DIR: heavy.c, 600 rare branches in one function around a
hot loop's branch, and heavy.rates, giving the rare ones the largest weight
(2^20) and the hot one the unit (4096), into DIR (heavy.sh)."""
import os, sys
out = sys.argv[1]
with open(os.path.join(out, "heavy.c"), "w") as f:
    f.write("#include <stdio.h>\n#include <stdlib.h>\n"
            "int main(int argc, char **argv) {\n"
            "    long n = argc > 1 ? atol(argv[1]) : 100000, rare = 0, hot = 0;\n"
            "    for (long i = 0; i < n; i++) {\n"
            "        if (i % 7 == 0) hot++;\n"
            "        if (i == n / 2) {\n")
    for k in range(1, 601):
        f.write("            if (hot %% 601 == %d) rare += %d;\n" % (k, k))
    f.write("        }\n    }\n    printf(\"%ld %ld\\n\", hot, rare);\n    return 0;\n}\n")
with open(os.path.join(out, "heavy.rates"), "w") as f:
    f.write("sampler-rates\t1\nunit\t4096\n")
    for k in range(1, 601):
        f.write("site\t1048576\theavy.c\theavy.c\t%d\tmain\tbranches\thot %% 601 == %d\n" % (k + 7, k))
    f.write("site\t4096\theavy.c\theavy.c\t6\tmain\tbranches\ti % 7 == 0\n")
