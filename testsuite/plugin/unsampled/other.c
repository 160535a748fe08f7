__attribute__((noinline)) void probe(const char *what);

int other_unit(int x)
{
    probe("other");
    return x > 1 ? 2 * x : x;
}
