//===- tiny.c - Callees far shorter than a probe, for the truth harness ---===//
//
// Part of ActiveTime (bench/truth). A parent calls a ~1 ns callee
// (x = x * 3 + 1 on a volatile global) in a loop, directly ("flat") or
// through a 4-deep chain of such functions ("deep4"). Built with and
// without the plugin; the build without it measures the parent's own CPU
// time (CLOCK_THREAD_CPUTIME_ID around the call), which is the truth the
// instrumented build's active time of the parent is judged against.
//
// Output: "truth <scenario> <tid> <parent> <ns> <calls>".
// Usage: tiny flat|deep4 [iterations, default 5000000]
//
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))

volatile uint64_t x;

NOINLINE void callee(void) { x = x * 3 + 1; }

NOINLINE void flat_parent(long n) {
  for (long i = 0; i < n; ++i)
    callee();
}

NOINLINE void chain4(void) { x = x * 3 + 1; }
NOINLINE void chain3(void) {
  x = x * 3 + 1;
  chain4();
}
NOINLINE void chain2(void) {
  x = x * 3 + 1;
  chain3();
}
NOINLINE void chain1(void) {
  x = x * 3 + 1;
  chain2();
}

NOINLINE void deep4_parent(long n) {
  for (long i = 0; i < n; ++i)
    chain1();
}

static uint64_t thread_cpu_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int main(int argc, char **argv) {
  const char *s = argc > 1 ? argv[1] : "";
  long n = argc > 2 ? atol(argv[2]) : 5000000;
  void (*parent)(long);
  const char *name;
  if (!strcmp(s, "flat")) {
    parent = flat_parent;
    name = "flat_parent";
  } else if (!strcmp(s, "deep4")) {
    parent = deep4_parent;
    name = "deep4_parent";
  } else {
    fprintf(stderr, "usage: %s flat|deep4 [iterations]\n", argv[0]);
    return 2;
  }
  uint64_t c0 = thread_cpu_ns();
  parent(n);
  uint64_t c1 = thread_cpu_ns();
  printf("truth %s %ld %s %llu %ld\n", s, (long)syscall(SYS_gettid), name,
         (unsigned long long)(c1 - c0), n);
  return 0;
}
