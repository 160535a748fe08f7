// C++ calls for the returns scheme: iterator and smart-pointer operators
// and the standard library's comparisons are no sites (their sign says
// nothing); calls returning integers, the user's own comparison operator
// and a pointer to a scalar are.
#include <map>
#include <memory>
#include <string>
#include <vector>

struct Point
{
  int x, y;
};

bool operator< (const Point &a, const Point &b);
int weigh (const Point &p);
Point *find_point (int key);
const int *find_count (int key);

int
total (const std::vector<Point> &points, const std::map<std::string, int> &m,
       const std::unique_ptr<Point> &best)
{
  int sum = 0;
  for (auto it = points.begin (); it != points.end (); ++it)
    sum += weigh (*it);
  for (const auto &entry : m)
    if (entry.first.compare ("x") == 0)
      sum += entry.second;
  if (best && *best < points.front ())
    sum++;
  if (Point *p = find_point (sum))
    sum += p->y;
  if (const int *c = find_count (sum))
    sum += *c;
  return sum + best->x;
}

/* CHECKS: $SRCDIR/check-table.sh -fplugin-arg-sampler-schemes=returns  */
