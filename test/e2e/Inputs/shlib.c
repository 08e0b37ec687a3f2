// An instrumented shared library, linked directly or dlopen'ed.
#define NOINLINE __attribute__((noinline))
volatile int lib_sink;
NOINLINE void lib_leaf(int i) { lib_sink += i; }
NOINLINE int lib_entry(int n) {
  for (int i = 0; i < n; ++i)
    lib_leaf(i);
  return n;
}
