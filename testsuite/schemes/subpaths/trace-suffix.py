#!/usr/bin/env python3
"""trace-suffix.py FULL LATE: the trace of the run at sparsity 100 (LATE) is
the end of the trace at sparsity 1 (FULL), shorter and not empty."""
import sys
full, late = (open(p, "rb").read() for p in sys.argv[1:3])
sys.exit(0 if 0 < len(late) < len(full) and full.endswith(late) else 1)
