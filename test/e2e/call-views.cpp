// --call-sites and --callers on real C++: tail calls, recursion, std::thread
// entry points, two calls of one function on one line of an inlined helper,
// and small functions with timed copies. Both views print the one placement
// of calls at sites: the same rows, no two with the same caller and printed
// location, timed calls adding up to each function's (every call timed
// with timing_ratio=0, so the counts are exact); and the timed copies'
// suffix appears in no view or export.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cxx -O2 -g %s -o views -lpthread
// RUN: env ACTIVETIME_OPTIONS=output=t.raw:timing_ratio=0 ./views | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --json --call-sites --callers t.raw | python3 %S/Inputs/call-views-agree.py | FileCheck --check-prefix=AGREE %s
// RUN: env ACTIVETIME_OPTIONS=output=c.raw ./views | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --json --call-sites --callers c.raw | python3 %S/Inputs/call-views-agree.py | FileCheck --check-prefix=AGREE %s
// RUN: %activetime report --call-sites --callers --tree --top 0 t.raw > t.txt
// RUN: %activetime report --call-sites --callers --tree --top 0 c.raw > c.txt
// RUN: %activetime export --format=pprof -o t.pb.gz t.raw
// RUN: %activetime export --format=json -o t.json t.raw
// RUN: %activetime export --format=symbol-order -o t.order t.raw
// RUN: %activetime export --format=sample-profile --allow-call-counts --sample-profile-format=text -o t.prof t.raw 2>/dev/null
// RUN: zcat t.pb.gz > t.pb
// RUN: not grep -a activetime.timed t.txt c.txt t.pb t.json t.order t.prof
// The two calls of mid on the line of both() are told apart by column.
// RUN: FileCheck --check-prefix=COLUMNS %s < t.txt

// OUT: done
// AGREE:      views agree
// AGREE-NEXT: no duplicate rows
// AGREE-NEXT: timed calls add up
// COLUMNS: call-views.cpp:[[#BOTH:]]:{{[0-9]+}} (in both(...), inlined at call-views.cpp:
// COLUMNS: call-views.cpp:[[#BOTH]]:{{[0-9]+}} (in both(...), inlined at call-views.cpp:

#include <cstdio>
#include <thread>
#include <vector>

__attribute__((noinline)) unsigned hot(unsigned x) {
  return x * 2654435761u + (x >> 3);
}
__attribute__((noinline)) unsigned mid(unsigned x) {
  unsigned s = 0;
  for (unsigned i = 0; i < 50; ++i)
    s += hot(x + i);
  return s;
}
__attribute__((noinline)) unsigned leaf2(unsigned x) { return hot(x) ^ 7; }
__attribute__((noinline)) unsigned tailer(unsigned x) {
  if (x & 1)
    return mid(x); // a tail call
  return leaf2(x); // a tail call
}
__attribute__((noinline)) unsigned rec(unsigned n, unsigned x) {
  if (n == 0)
    return mid(x);
  return rec(n - 1, x + 1) + 1;
}
static inline unsigned both(unsigned x) { return mid(x) + mid(x + 1); }

__attribute__((noinline)) void worker(int id, unsigned *out) {
  unsigned s = 0;
  for (int i = 0; i < 2000; ++i) {
    s += tailer(i + id);
    if (i % 100 == 0)
      s += rec(5, i);
    if (i % 50 == 0)
      s += both(i);
  }
  *out = s;
}

int main() {
  std::vector<std::thread> ts;
  unsigned out[3];
  for (int i = 0; i < 3; ++i)
    ts.emplace_back(worker, i, &out[i]);
  for (auto &t : ts)
    t.join();
  std::printf("%u\ndone\n", out[0] + out[1] + out[2]);
}
