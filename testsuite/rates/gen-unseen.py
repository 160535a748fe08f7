#!/usr/bin/env python3
"""gen-unseen.py: unseen.c on standard output, 200 cold branches called 50
times a run (k alternates 0 and 1) and one hot loop, for unseen.sh."""
print("#include <stdlib.h>\nvolatile int sink;\nstatic void cold (int k) {")
for i in range(200):
    print("    if (k == %d) sink++;" % i)
print("}\nint main (int argc, char **argv) {\n"
      "    int n = argc > 1 ? atoi (argv[1]) : 50;\n"
      "    for (int r = 0; r < n; r++) cold (r % 2);\n"
      "    for (long i = 0; i < 100000; i++) if (i % 7 == 0) sink++;\n"
      "    return 0;\n}")
