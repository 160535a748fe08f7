#!/bin/bash
# sizes.c at sparsity 1, -O0 and -O2 (the sizes scheme: memcpy, memset,
# malloc, calloc, strncmp, __builtin_memmove; constant sizes are no
# sites): every value's visits as sizes.expected.
# CHECKS: bash $SRC
. "$TESTSUITE/schemes/values/lib.sh"
exact_values sizes

finish
