// Recursion 1,000,000 deep: the shadow stack and the call tree grow without limit.
// ThreadSanitizer keeps its own per-thread call stack of 64K frames for the
// instrumented functions (the runtime's included) and crashes beyond it.
// UNSUPPORTED: tsan
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g %s -o rec -lpthread && ./rec | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --top 0 activetime.rec.*.raw | FileCheck --check-prefix=FLAT %s
// RUN: %activetime report --tree --max-depth 3 activetime.rec.*.raw | FileCheck --strict-whitespace --check-prefix=TREE %s
#include <pthread.h>
#include <stdio.h>

#define NOINLINE __attribute__((noinline))
volatile long sink;

NOINLINE long down(long n) {
  if (n == 0)
    return 0;
  long r = down(n - 1) + 1;
  sink = r;            // not a tail call
  return r;
}

static void *run(void *arg) { return (void *)down((long)arg); }

int main(void) {
  pthread_attr_t a;
  pthread_attr_init(&a);
  pthread_attr_setstacksize(&a, (size_t)1 << 30); // room for 1M real frames
  pthread_t t;
  void *res;
  pthread_create(&t, &a, run, (void *)999999L);
  pthread_join(t, &res);
  printf("depth=%ld\n", (long)res + 1);
  return 0;
}

// OUT: depth=1000000
// The inclusive time of down() counts the outermost call only: it cannot
// exceed run()'s, which contains it.
// FLAT: {{^ +}}1000000 {{.*}} down {{ *}}recursion.c:
// FLAT-NOT: unwound
// TREE: {{ }}1  run{{$}}
// TREE-NEXT: {{ }}1    down{{$}}
// TREE-NEXT: {{ }}1      down{{$}}
// TREE-NEXT: {{^ +}}... 999998 more levels{{$}}
