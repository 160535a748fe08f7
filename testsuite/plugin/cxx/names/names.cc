// Names as C++ programmers read them: a namespace, a class with a const
// method, a template instance, an overload and the standard library
// (run-names-tests.sh).
#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace geo {
struct Sq {
  double s;
  explicit Sq (double side) : s (side) {}
  double area () const
  {
    if (s < 0.0)
      return -1.0;
    return s * s;
  }
};
}

template <typename T>
T clampv (T v, T lo, T hi)
{
  if (v < lo)
    return lo;
  return v > hi ? hi : v;
}

// A class template instance with the standard library's default arguments.
template <typename C>
struct Box
{
  C items;
  int count () const
  {
    int n = 0;
    for (auto x : items)
      if (x > 1)
        n++;
    return n;
  }
};

int pick (int x) { return x > 2 ? 1 : 0; }
int pick (double x) { return x > 2.5 ? 1 : 0; }

static int total (const std::vector<int> &v, const std::string &label)
{
  int sum = 0;
  for (int x : v)
    if (x > 1)
      sum += x;
  return sum + (int) label.size ();
}

// The defaulted arguments go; a parameter of the same type stays.
static int spare (std::map<std::string, int> &m, std::allocator<int> &a)
{
  int *p = a.allocate (1);
  *p = m.size () > 1 ? 2 : 1;
  int r = *p;
  a.deallocate (p, 1);
  return r;
}

int main ()
{
  geo::Sq sq (3.0);
  std::vector<int> v = { 1, 2, 3 };
  double a = sq.area ();
  double c = clampv<double> (a, 0.0, 5.0);
  int t = total (v, "abc");
  Box<std::vector<int> > box = { v };
  std::map<std::string, int> m = { { "a", 1 } };
  std::allocator<int> alloc;
  t += spare (m, alloc);
  printf ("%g %g %d %d %d %d\n", a, c, pick (3), pick (1.0), t, box.count ());
  return 0;
}
