// Over a file-size limit (ulimit -f) the profile write fails with EFBIG
// instead of SIGXFSZ killing the program: the program ends as it would
// without the profiler, its output intact, and no temporary file is left.
// TSan's own runtime dies of SIGXFSZ at start-up under ulimit -f 0.
// UNSUPPORTED: tsan
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O1 -g %s -o ol
// RUN: bash -c 'ulimit -f 0; ACTIVETIME_OPTIONS=output=big.raw ./ol; echo "exit $?"' 2>&1 | FileCheck %s
// RUN: not ls big.raw big.raw.tmp.*
// CHECK: done
// CHECK: ActiveTime: ERROR: cannot write profile 'big.raw': write failed: File too large
// CHECK: exit 7
#include <stdio.h>

__attribute__((noinline)) int work(int x) { return x * 2 + 1; }

int main(void) {
  volatile int s = 0;
  for (int i = 0; i < 100; ++i)
    s += work(i);
  printf("done\n");
  fflush(stdout);
  return 7;
}
