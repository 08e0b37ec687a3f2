// An instrumented shared library that shlib-counts.c dlopen's and dlclose's
// (names of its own: the linked library's would interpose its calls).
#define NOINLINE __attribute__((noinline))
volatile int dl_sink;
NOINLINE void dl_leaf(int i) { dl_sink += i; }
NOINLINE int dl_entry(int n) {
  for (int i = 0; i < n; ++i)
    dl_leaf(i);
  return n;
}
