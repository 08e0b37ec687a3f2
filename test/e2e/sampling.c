// Sampling (seeds 002, 003): compute_A computes, block_B blocks in libc's
// usleep (not instrumented). The sampler reads the shadow stacks: A's samples
// are on-CPU, B's off-CPU, charged to B itself -- the caller's frame of the
// uninstrumented sleep, which the thread left the CPU in.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g %s -o sampling
// RUN: env ACTIVETIME_OPTIONS=output=s.raw:sample=1:sample_interval_us=500 ./sampling
// RUN: %activetime export --format=folded --value=samples s.raw | python3 %S/../Inputs/folded.py | FileCheck %s
// RUN: %activetime report --samples s.raw | FileCheck --check-prefix=REPORT %s
// /proc fallback when there is no perf ring, said so in the report.
// RUN: env ACTIVETIME_OPTIONS=output=c.raw:sample=1:sample_interval_us=500:switch_source=none ./sampling
// RUN: %activetime export --format=folded --value=samples c.raw | python3 %S/../Inputs/folded.py | FileCheck --check-prefix=PROCFOLD %s
// RUN: %activetime report --samples c.raw | FileCheck --check-prefix=PROC %s
// Fixed period, and bad values rejected.
// RUN: env ACTIVETIME_OPTIONS=output=f.raw:sample=1:sample_interval_us=500:sample_random=0 ./sampling
// RUN: %activetime report --samples f.raw | FileCheck --check-prefix=FIXED %s
// RUN: env ACTIVETIME_OPTIONS=sample=1:sample_interval_us=0 ./sampling 2>&1 | FileCheck --check-prefix=BAD %s
#include <time.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))
volatile unsigned long sink;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

NOINLINE void compute_A(void) {
  double end = now() + 0.004;
  while (now() < end)
    for (int i = 0; i < 100; ++i)
      sink += i;
}

NOINLINE void block_B(void) { usleep(4000); }

int main(void) {
  for (int i = 0; i < 40; ++i) {
    compute_A();
    block_B();
  }
  return 0;
}

// CHECK: frames: block_B compute_A main{{$}}
// CHECK-NEXT: A on-CPU samples > 0: True
// CHECK-NEXT: B off-CPU samples > 0: True
// CHECK-NEXT: B mostly off-CPU: True
// CHECK-NEXT: blocked time in B, not A: True

// REPORT: interval 500.000 us mean (exponentially distributed)
// REPORT: Snapshots: {{[0-9]+}} torn reads retried, {{[0-9]+}} discarded, 0 lost to a full buffer
// REPORT: Sampler thread CPU: {{.*}}% of one CPU
// REPORT: Off-CPU summary (a period off CPU
// REPORT: main > block_B
// REPORT: samples recorded an off-CPU period

// /proc shows a thread that waits for a CPU after its sleep as running: on a
// loaded machine B is then not "mostly" off-CPU, so that check is left out.
// PROCFOLD: frames: block_B compute_A main{{$}}
// PROCFOLD-NEXT: A on-CPU samples > 0: True
// PROCFOLD-NEXT: B off-CPU samples > 0: True
// PROCFOLD: blocked time in B, not A: True

// PROC: Note: on/off-CPU of {{[1-9][0-9]*}} samples read from /proc/<tid>/stat

// FIXED: interval 500.000 us mean (FIXED period)

// BAD: ActiveTime: ERROR: invalid value '0' for flag sample_interval_us in ACTIVETIME_OPTIONS: expected an integer >= 1; the program runs without profiling
