// Code samples split a timed frame's self time with the counted functions it
// ran: parent (timed, called once) spends about 85% of its CPU time in mix, a
// short function called 10 million times and so only counted after its first
// timed calls, and the rest in its own loop. With code samples (default)
// mix's self-active time, from the samples, is the larger share (checked
// against a generous 50%, whatever the load of the machine: samples are
// taken per CPU time) and mix has code samples; the header and the
// provenance block say code samples were taken. With code_samples=0 the
// header says they are off and mix's time stays in parent (mix keeps the
// self time of its few timed calls only: under 1% of the two).
// REQUIRES: perf-events
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g %s -o cs
// calibrate_at_start=1: the probe table (and so the counting threshold) is
// known from the first call; by default it comes a few ms into the run
// (probe-table-beside.c).
// RUN: env ACTIVETIME_OPTIONS=output=on.raw:calibrate_at_start=1 ./cs | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --json on.raw | python3 %S/Inputs/split.py mix parent | FileCheck --check-prefix=ON %s
// RUN: %activetime report on.raw | FileCheck --check-prefix=ON-TEXT %s
// RUN: %activetime report --tree on.raw | FileCheck --check-prefix=ON-TREE %s
// RUN: env ACTIVETIME_OPTIONS=output=off.raw:code_samples=0:calibrate_at_start=1 ./cs | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --json off.raw | python3 %S/Inputs/split.py mix parent | FileCheck --check-prefix=OFF %s
// RUN: %activetime report off.raw | FileCheck --check-prefix=OFF-TEXT %s
// RUN: %activetime report --json off.raw | FileCheck --check-prefix=OFF-JSON %s
#include <stdio.h>

#define NOINLINE __attribute__((noinline))
volatile unsigned sink;

// About 12 dependent multiply-rotate rounds: some 20 ns a call.
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

int main(void) {
  sink = parent(10000000);
  printf("done\n");
  return 0;
}

// OUT: done

// ON:      mix how=counted samples=yes sampled=yes
// ON-NEXT: share={{[0-9.]+}} above50=yes below1=no
// ON-NEXT: provenance samples=yes
// ON-TEXT: code samples: every {{[0-9.]+ [num]?s}} of a thread's CPU time
// ON-TEXT: self-active time:
// ON-TEXT: counted: {{.*}} in {{[0-9]+}} counted calls, split off their timed callers by {{[1-9][0-9]*}} code samples
// ON-TEXT: {{^ +10000000 +- +- +- +[0-9.]+ ms +[0-9.]+ [num]?s +[0-9.]+% +- +- +- +- +counted +mix +code-samples.c:}}
// The counted callee's time in the tree: a "[counted]" child of parent.
// ON-TREE:      {{^ +[0-9.]+ [mun]?s +[0-9.]+ [mun]?s!? +[0-9.]+ [mun]?s +[0-9.]+% +[0-9.]+ [mun]?s!? +[0-9.]+ [mun]?s +[0-9.]+ [mun]?s +[0-9.]+ [mun]?s +1 +parent$}}
// ON-TREE-NEXT: {{^ +- +[0-9.]+ ms +[0-9.]+ [mun]?s +[0-9.]+% +[0-9.]+ ms +[0-9.]+ [mun]?s +- +- +- +mix \[counted\]$}}

// OFF:      mix how=counted samples=no sampled=no
// OFF-NEXT: share={{[0-9.]+}} above50=no below1=yes
// OFF-NEXT: provenance samples=no
// OFF-TEXT: code samples: off (ACTIVETIME_OPTIONS=code_samples=0 or mode=trace): a timed function's self time includes its counted callees'
// OFF-JSON: "state": "off"
