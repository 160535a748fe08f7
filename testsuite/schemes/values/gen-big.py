#!/usr/bin/env python3
"""gen-big.py: on standard output, a unit with 1100 values sites
(big-hotlist.sh)."""
print("volatile int sink;\nint main (int argc, char **argv)\n{\n  int v = argc;")
for i in range(1100):
    print("  v = v * 3 + %d; sink = v;" % i)
print("  return v == 12345;\n}")
