/* Sites of the indirect-calls scheme: every call through a function
   pointer, whatever the pointer's shape, and no direct call.  */
struct ops
{
  int (*compare) (const void *, const void *);
  void (*log) (const char *);
};

typedef int (*handler) (int);

extern int direct (int);
extern handler handlers[4];

int
dispatch (const struct ops *ops, handler h, int k, const void *a,
	  const void *b)
{
  int r = direct (k);		/* a direct call: no site */
  r += h (k);			/* through a parameter */
  r += (*h) (r);		/* the same, dereferenced */
  r += handlers[k & 3] (r);	/* through an array element */
  if (ops->compare (a, b) < 0)	/* through a struct member */
    ops->log ("less");		/* without a result */
  r += (k ? h : direct) (r);	/* a choice of the two */
  return r;
}

/* CHECKS: $SRCDIR/check-table.sh -fplugin-arg-sampler-schemes=indirect-calls -fplugin-arg-sampler-hotlist=2  */
