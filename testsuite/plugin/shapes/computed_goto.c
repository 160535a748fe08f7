/* Computed gotos: cloned, with a check at the top of each target (after
   its label), where the slow copy's regions end: it cannot jump to a
   copy.  op_loop's site is on one arm only, so its check weighs 1, and
   op_end, with no site ahead, drops its check.  At -O2 the targets'
   checks cut the loop through the dispatch, which needs no loop check.  */
void check (int) __attribute__ ((sampled));
int computed_goto (const unsigned char *code, int n)
{
  static void *const table[] = { &&op_add, &&op_sub, &&op_loop, &&op_end };
  int acc = 0, pc = 0, k = n;
  goto *table[code[pc++]];
op_add:
  acc += 3;
  check (acc > 10);
  check (acc);
  goto *table[code[pc++]];
op_sub:
  acc -= 1;
  check (acc);
  goto *table[code[pc++]];
op_loop:
  if (--k > 0)
    {
      pc = 0;
      check (k);
    }
  goto *table[code[pc++]];
op_end:
  return acc;
}

/* TEST: shape $NAME $opt
   FOR: opt in -O0 -O2 "-O3 -g"
   RUN: $SRCDIR/check-dump.sh "$opt"  */
