#!/usr/bin/env python3
"""gen-block.py: block.c on standard output, one straight-line block of 300
assignments (301 bounds sites with x's start), for heavy.sh."""
print("#include <stdio.h>\n#include <stdlib.h>\nint main(int argc, char **argv) {\n"
      "    unsigned long x = argc > 1 ? strtoul(argv[1], 0, 10) : 1;")
for k in range(1, 301):
    print("    x = x * 33 + %d;" % k)
print("    printf(\"%lu\\n\", x);\n    return 0;\n}")
