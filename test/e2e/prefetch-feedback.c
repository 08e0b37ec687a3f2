// The stride feedback loop end to end: profile a walk over list nodes laid
// out at a constant stride, export prefetch hints, rebuild with them (a plain
// clang build with the pass plugin: prefetches, no probes), same output.
// Rebuilding after the source changed reports the hints as stale.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g -mllvm -activetime-strides %s -o prof
// RUN: ./prof > prof.out
// RUN: %activetime report --strides activetime.prof.*.raw | FileCheck %s --check-prefix=REPORT
// RUN: %activetime export --format=prefetch --min-span=0 -o hints.json activetime.prof.*.raw
// RUN: FileCheck %s --check-prefix=HINTS < hints.json
// RUN: %clang -O2 -g -fpass-plugin=%pass_plugin -fplugin=%pass_plugin -mllvm -activetime-prefetch-use=hints.json %s -S -emit-llvm -o fb.ll 2> fb.err
// RUN: count 0 < fb.err
// RUN: FileCheck %s --check-prefix=IR < fb.ll
// RUN: %clang -O2 -g -fpass-plugin=%pass_plugin -fplugin=%pass_plugin -mllvm -activetime-prefetch-use=hints.json %s -o fb
// RUN: ./fb > fb.out && cmp prof.out fb.out
// The same source with the walk moved down a line: the hint's key no longer
// exists, so it is reported and nothing is prefetched.
// RUN: mkdir moved && sed 's/^NOINLINE long walk/\nNOINLINE long walk/' %s > moved/prefetch-feedback.c
// RUN: %clang -O2 -g -fpass-plugin=%pass_plugin -fplugin=%pass_plugin -mllvm -activetime-prefetch-use=hints.json moved/prefetch-feedback.c -S -emit-llvm -o moved.ll 2>&1 | FileCheck %s --check-prefix=STALE
// RUN: not grep -q llvm.prefetch moved.ll

// The walk is on line 37.
// REPORT: prefetch-feedback.c:37:{{[0-9]+}} walk load 8 256 32 constant {{.*}} dynamic
// HINTS: "class": "constant",
// HINTS: "function": "walk",
// HINTS: "stride": 256,
// IR-LABEL: define {{.*}} @walk(
// IR: call void @llvm.prefetch.p0(ptr %{{.*}}, i32 0, i32 3, i32 1)
// IR-NOT: __activetime
// STALE: moved/prefetch-feedback.c: warning: activetime: stale prefetch hint for walk at {{.*}}prefetch-feedback.c:37:{{[0-9]+}} (key 0x{{[0-9a-f]+}}): no such site in this compile; ignored
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))
struct Node { struct Node *next; long v; char pad[240]; }; // 256 bytes

NOINLINE long walk(struct Node *p) { long s = 0; while (p) { s += p->v; p = p->next; } return s; }

int main(void) {
  int n = 4096;
  struct Node *nodes = calloc(n, sizeof(struct Node));
  for (int i = 0; i < n; ++i) {
    nodes[i].v = i % 13;
    nodes[i].next = i + 1 < n ? &nodes[i + 1] : NULL;
  }
  long t = 0;
  for (int r = 0; r < 20; ++r)
    t += walk(nodes) + r;
  printf("%ld\n", t);
  return 0;
}

// The feedback build says where it prefetched and how the profile chose
// the distance (the hint file's iteration time, and the miss latency that
// export measured on this machine).
// RUN: %clang -O2 -g -fpass-plugin=%pass_plugin -fplugin=%pass_plugin -mllvm -activetime-prefetch-use=hints.json -mllvm -activetime-print-decisions %s -S -emit-llvm -o /dev/null 2>&1 | FileCheck %s --check-prefix=DECIDE
// DECIDE: activetime: prefetch in walk at {{.*}}prefetch-feedback.c:{{[0-9]+}}:{{[0-9]+}}: {{-?[0-9]+}} bytes ahead = {{[0-9]+}} iterations of stride {{-?[0-9]+}}: a profiled iteration of {{[0-9.]+}} ns without the miss, {{[0-9]+}} of them to cover the {{[0-9]+}} ns miss latency (measured by `activetime export` on its machine)
