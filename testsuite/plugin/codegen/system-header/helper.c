/* A callee with sites of its own, declared in a system header (caller.c).  */
int seen;
int helper (int x)
{
  if (x > 5)
    {
      if (x > 7)
        seen++;
      if (x > 9)
        seen++;
    }
  return seen;
}
