// Indirect prefetch feedback end to end: a gather a[idx[i]] over an array
// far beyond the L2 cache, idx a random permutation, is irregular, hot and
// stalled, so the hint file asks for an indirect prefetch; the pass finds
// its index load idx[i] (step 4) and prefetches a[idx[i + k]] with the index
// clamped to the loop's last one. A list walk in random order is irregular
// and stalled too, but its address comes from a phi (a pointer chase): the
// pass says so and leaves it. Same output as the profiled build.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g -mllvm -activetime-strides %s -o prof
// RUN: ./prof > prof.out
// Without --latency-ns, export measures the machine's latency itself.
// RUN: %activetime export --format=prefetch -o hints.json activetime.prof.*.raw
// RUN: python3 -c "import json,sys; d=json.load(open('hints.json')); l=d['latency']; print('latency', l['source'], d['latency_ns'] > 0, l['buffer_bytes'])" | FileCheck %s --check-prefix=MEASURED
// Which loads get an indirect hint depends on the latency (a stall of 5% of
// it): the gather's iterations overlap their misses, so its mean step is
// only some 10 ns over its shortest, near 5% of a real latency (200 ns
// here), and a loaded machine's run can fall under it. A given 50 ns makes
// the hints the same on any machine (StridesTest checks the thresholds).
// RUN: %activetime export --format=prefetch --latency-ns=50 -o hints50.json activetime.prof.*.raw
// RUN: FileCheck %s --check-prefix=GIVEN < hints50.json
// RUN: python3 -c "import json,sys; d=json.load(open('hints50.json')); [print('hint', h['function'], h['kind'], h['line'], h['distance_iterations'] >= 1) for h in d['hints']]" | FileCheck %s --check-prefix=HINTS
// RUN: %clang -O2 -g -fpass-plugin=%pass_plugin -fplugin=%pass_plugin -mllvm -activetime-prefetch-use=hints50.json -mllvm -activetime-print-decisions -fno-discard-value-names %s -S -emit-llvm -o fb.ll 2> fb.err
// RUN: FileCheck %s --check-prefix=DECIDE < fb.err
// RUN: FileCheck %s --check-prefix=IR < fb.ll
// RUN: %clang -O2 -g -fpass-plugin=%pass_plugin -fplugin=%pass_plugin -mllvm -activetime-prefetch-use=hints50.json %s -o fb
// RUN: ./fb > fb.out && cmp prof.out fb.out

// MEASURED: latency measured True 134217728
// GIVEN: "latency": {
// GIVEN-NEXT: "source": "--latency-ns"
// GIVEN: "latency_ns": 50,

// IR-LABEL: define {{.*}} @gather(
// IR: br i1 %activetime.indirect.long
// IR: %activetime.indirect.ahead = getelementptr i8, ptr %{{.*}}, i64 [[#]]
// IR-NEXT: icmp ugt ptr %activetime.indirect.ahead, %{{.*}}
// IR-NEXT: select i1
// IR-NEXT: %activetime.indirect.index = load i32, ptr
// IR: call void @llvm.prefetch.p0(ptr %{{.*}}, i32 0, i32 3, i32 1)
// IR-LABEL: define {{.*}} @chase(
// IR-NOT: llvm.prefetch
// IR: ret
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))
#define N (1 << 22) // 32 MiB of longs

struct Node { struct Node *next; long v; };

// The distance: from the loop's shortest step, or, where the probes and
// their gap leave none of it (a machine with slow tick reads), the hint
// file's look-ahead.
// HINTS-DAG: hint gather indirect [[#@LINE+5]] True
// DECIDE-DAG: activetime: indirect prefetch in gather at {{.*}}prefetch-indirect.c:[[#@LINE+4]]:{{[0-9]+}}: through the index load at {{.*}}prefetch-indirect.c:[[#@LINE+4]]:{{[0-9]+}} (step 4 bytes), [[#]] iterations ahead when the loop runs at least twice that, clamped to the loop's last index: {{(the shortest profiled iteration took [0-9.]+ ns, [0-9]+ of them cover the 50 ns miss latency \(given to `activetime export` by --latency-ns\)|the hint file's look-ahead \(its profile could not measure the loop's work\))$}}
NOINLINE long gather(const long *a, const int *idx, int n) {
  long s = 0;
#pragma clang loop unroll(disable)
  for (int i = 0; i < n; ++i) s += a[idx[i]];
  return s;
}

// HINTS-DAG: hint chase indirect [[#@LINE+4]] True
// DECIDE-DAG: activetime: no indirect prefetch in chase at {{.*}}prefetch-indirect.c:[[#@LINE+3]]:{{[0-9]+}}: the address depends on a phi of the loop (a pointer chase, or the induction variable itself)
NOINLINE long chase(const struct Node *p) {
  long s = 0;
  while (p) { s += p->v; p = p->next; }
  return s;
}

static unsigned long long rng = 88172645463325252ull;
static unsigned next_rand(void) {
  rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
  return (unsigned)(rng >> 11);
}

int main(void) {
  long *a = malloc(N * sizeof *a);
  int *idx = malloc(N * sizeof *idx);
  for (int i = 0; i < N; ++i) { a[i] = i % 7; idx[i] = i; }
  for (int i = N - 1; i > 0; --i) {
    int j = next_rand() % (i + 1), t = idx[i];
    idx[i] = idx[j]; idx[j] = t;
  }
  // The nodes in the order of a full-period congruential walk.
  int m = N / 4;
  struct Node *nodes = malloc(m * sizeof *nodes);
  unsigned x = 0;
  for (int k = 0; k < m; ++k) {
    unsigned y = (x * 1664525u + 1013904223u) & (m - 1);
    nodes[x].v = k % 5;
    nodes[x].next = k + 1 < m ? &nodes[y] : NULL;
    x = y;
  }
  long t = 0;
  for (int r = 0; r < 3; ++r) t += gather(a, idx, N) + chase(nodes);
  printf("%ld\n", t);
  return 0;
}
