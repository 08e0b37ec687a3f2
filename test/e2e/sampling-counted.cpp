// Counted functions in the sampled views (sample=1): mix is short (some
// 20 ns a call), so after its first timed calls it is only counted and has
// no frame on the shadow stack; the sampler finds its caller parent on top.
// Two threads run parent, which spends most of its CPU time in mix. The
// samples' on-CPU time of parent's frames is divided by their code samples
// as the time report divides parent's self time: mix appears as a
// "[counted]" frame in `report --samples` (its tables and the header's
// estimate), in the folded export (short names) and in the JSON export,
// with a share of the on-CPU sampled time that agrees with its share in the
// time report. Checked loosely, whatever the machine and its load (code
// samples and on-CPU samples are both taken in CPU time): both shares above
// 50% and within 15 points of each other.
// REQUIRES: perf-events
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cxx -O2 -g %s -o sc -lpthread
// calibrate_at_start=1: the probe table (and so the counting threshold) is
// known from the first call; by default it comes a few ms into the run
// (probe-table-beside.c).
// RUN: env ACTIVETIME_OPTIONS=output=s.raw:sample=1:sample_interval_us=1000:calibrate_at_start=1 ./sc | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --samples s.raw | FileCheck %s
// RUN: %activetime export --format=folded --off-cpu=exclude s.raw | FileCheck --check-prefix=FOLDED %s
// RUN: %activetime export --format=json -o s.json s.raw
// RUN: python3 %S/Inputs/sampled_share.py 'mix(...)' < s.json | FileCheck --check-prefix=SHARE %s
#include <cstdio>
#include <thread>

#define NOINLINE __attribute__((noinline))

// About 12 dependent multiply-rotate rounds.
NOINLINE unsigned mix(unsigned h, unsigned x) {
  for (unsigned r = 0; r < 12; ++r) {
    h ^= x + r;
    h *= 0x9e3779b1u;
    h = (h << 13) | (h >> 19);
    __asm__ volatile("" : "+r"(h));
  }
  return h;
}

NOINLINE unsigned parent(unsigned n) {
  unsigned h = 1;
  for (unsigned i = 0; i < n; ++i) {
    h = mix(h, i);
    for (unsigned k = 0; k < 2; ++k) { // parent's own work
      h += (h >> 7) * 2654435761u;
      __asm__ volatile("" : "+r"(h));
    }
  }
  return h;
}

int main() {
  unsigned A = 0, B = 0;
  std::thread T1([&] { A = parent(10000000); });
  std::thread T2([&] { B = parent(10000000); });
  T1.join();
  T2.join();
  std::printf("done %u\n", (A ^ B) & 1);
  return 0;
}

// OUT: done

// CHECK: Counted functions: no frame of their own, so the sampler charged their time to their nearest timed caller; its code samples split it off again, as in the time report
// CHECK-NEXT: estimated: {{.*}} moved to counted functions, +-{{.*}} (95%, from the code samples' ratios)
// CHECK: Per function (self:
// CHECK: {{ mix\(...\) \[counted\]$}}
// CHECK: Per call path
// CHECK: {{ > parent\(...\) > mix\(...\) \[counted\]$}}

// FOLDED: {{;parent\(...\);mix\(...\) \[counted\] [1-9][0-9]*$}}

// SHARE: mix(...) time=above50 sampled=above50 counted=yes close=yes
