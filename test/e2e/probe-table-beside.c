// The probe table is calibrated beside the program, not before main
// (default options). A program that runs a few hundred milliseconds has it:
// the header says how far into the run it was done, the counting threshold
// is set, and a short leaf called all along is switched to counting once the
// table is known, with every call accounted for exactly once (timed in a
// node or only counted). A process that ends at once has no table yet
// (most runs: the calibration starts a millisecond in) and its header says
// so, or, on a machine slow enough to give the runtime's thread those
// milliseconds, says when it was done; either way it has no tick step yet
// or a measured one, and the program's output is its own.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g %s -o beside
// RUN: env ACTIVETIME_OPTIONS=output=long.raw ./beside 300 | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --header long.raw | FileCheck --check-prefix=LONG %s
// RUN: %activetime report --json long.raw | python3 %S/Inputs/counts.py | FileCheck --check-prefix=COUNTS %s
// RUN: %activetime report --json long.raw | FileCheck --check-prefix=LONG-JSON %s
// RUN: env ACTIVETIME_OPTIONS=output=short.raw ./beside 0 | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --header short.raw | FileCheck --check-prefix=SHORT %s

// OUT: done

// LONG:      timing: a function's calls are timed while they last {{[0-9.]+ [num]?s}} or more on average
// LONG-NEXT: probe cost:
// LONG-NEXT: calibrated beside the program, done {{[0-9.]+ [mun]?s}} into the run (timed calls before then left those parts in their callers' times, within the error bounds): 31 batches

// The leaf's calls: timed in its node until the table came and its next
// check, counted after; together exactly its flat calls.
// COUNTS: leaf how=counted calls={{[0-9]+}} counted={{[1-9][0-9]*}} timed={{[0-9]+}} nodes=1 maxnode={{[0-9]+}} rel=ok

// LONG-JSON: "source": "calibrated",
// LONG-JSON: "ready_ns":

// SHORT: tick step:
// SHORT: probe cost:
// SHORT-NEXT: {{NOT CALIBRATED: the process ended before the calibration beside it was done|calibrated beside the program, done}}

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define NOINLINE __attribute__((noinline))
volatile unsigned long sink;

NOINLINE void leaf(unsigned long i) { sink += i; }

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

// Calls the leaf in rounds until Ms milliseconds have passed.
NOINLINE unsigned long run(double Ms) {
  unsigned long n = 0;
  double end = now_ms() + Ms;
  do {
    for (int i = 0; i < 1000; ++i)
      leaf(n++);
  } while (now_ms() < end);
  return n;
}

int main(int argc, char **argv) {
  double ms = argc > 1 ? atof(argv[1]) : 0;
  if (ms > 0)
    run(ms);
  puts("done");
  return 0;
}
