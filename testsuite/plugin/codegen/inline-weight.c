/* Small static functions with sites, which plain -O2 inlines everywhere
   (inline-weight.sh).  */
struct st { int pos, limit, count, flags; };
void grow (struct st *s, int n);
static int push (struct st *s, int n)
{
  int r = s->pos - n;
  int c = s->count + 1;
  int f = s->flags;
  if (r < s->limit) { grow (s, n); r = s->pos - n; }
  if (f > 2) c = c * 2;
  s->pos = r;
  s->count = c;
  return r;
}
int a (struct st *s) { return push (s, 8) + push (s, 16); }
int b (struct st *s, int k) { return push (s, k) * 3 + push (s, 4); }

struct value { long v; int tag; };
struct frame { struct value *base, *upvalues; int nup, kind; };
struct state { struct frame *frame; struct value *top, nil, registry; };
static struct value *slot (struct state *s, int idx)
{
  struct frame *f = s->frame;
  if (idx > 0) {
    struct value *o = f->base + idx;
    if (o >= s->top) return &s->nil;
    return o;
  }
  else if (idx > -100000)
    return s->top + idx;
  else if (idx == -100000)
    return &s->registry;
  else {
    idx = -100000 - idx;
    if (f->kind == 3)
      return idx <= f->nup ? &f->upvalues[idx - 1] : &s->nil;
    return &s->nil;
  }
}
int type_of (struct state *s, int i) { return slot (s, i)->tag; }
long value_of (struct state *s, int i) { return slot (s, i)->v; }
int is_nil (struct state *s, int i) { return slot (s, i) == &s->nil; }
void set_value (struct state *s, int i, long v) { slot (s, i)->v = v; }
void copy_value (struct state *s, int from, int to) { *slot (s, to) = *slot (s, from); }
int same (struct state *s, int a, int b) { return slot (s, a)->v == slot (s, b)->v; }
