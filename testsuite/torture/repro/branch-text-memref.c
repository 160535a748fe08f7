/* Reproducer: ICE (segfault) printing a branch predicate whose operand is a
   load through a pointer.  From the torture tests cmpdi-1, pr43008,
   pr57321, 20030405-1 and many more (any `if (*p ...)').

   Command:
     build/bin/sampler-gcc -O0 -fplugin-arg-sampler-schemes=branches \
       -c testsuite/torture/repro/branch-text-memref.c
   Observed:
     branch-text-memref.c:18:1: internal compiler error: Segmentation fault
       in dump_generic_node <- print_generic_expr_to_str
       <- expression_text plugin/sites.cc:138 <- branch_site sites.cc:281
   Expected: compiles; the predicate reads "*x < 97".  */
int f (char *x)
{
  if (*x < 'a')
    return 1;
  return 0;
}
