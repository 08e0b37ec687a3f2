// Code samples only where they pay: they split a timed frame's self time
// between its own code and the counted functions it ran, so a thread
// samples only once it has switched a function to counting. A program whose
// calls all stay timed (each some milliseconds) takes no samples at all and
// pays nothing for them; the same program with a short function called in
// a loop samples its thread once that function is counted. The header says
// how many samples were taken, on how many threads, and what they cost.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g %s -o cs
// RUN: env ACTIVETIME_OPTIONS=output=long.raw:calibrate_at_start=1 ./cs long | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --header long.raw | FileCheck --check-prefix=LONG %s
// RUN: env ACTIVETIME_OPTIONS=output=short.raw:calibrate_at_start=1 ./cs short | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --header short.raw | FileCheck --check-prefix=SHORT %s

// OUT: done

// (A machine too busy to measure a sample's cost says so on the first line
// and gives no cost on the second.)
// LONG:      code samples: every {{.*}} of a thread's CPU time,
// LONG-NEXT: 0 samples on 0 of 1 thread (a thread samples once it has counted calls){{(: 0 ns in all, 0.0% of the threads' CPU time)?$}}

// SHORT:      code samples: every {{.*}} of a thread's CPU time,
// SHORT-NEXT: {{[1-9][0-9]*}} samples on 1 of 1 thread (a thread samples once it has counted calls){{(: [0-9.]+ [mun]?s in all, [0-9.]+% of the threads' CPU time)?$}}

#include <stdio.h>
#include <string.h>
#include <time.h>

#define NOINLINE __attribute__((noinline))
volatile unsigned long sink;

static double cpu_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

// About Ms milliseconds of CPU in one call: always timed.
NOINLINE void spin(double Ms) {
  double end = cpu_ms() + Ms;
  while (cpu_ms() < end)
    for (int i = 0; i < 1000; ++i)
      sink += i;
}

// A few nanoseconds a call: counted after its first checks.
NOINLINE void leaf(unsigned long i) { sink += i; }

NOINLINE void loop(double Ms) {
  double end = cpu_ms() + Ms;
  unsigned long n = 0;
  while (cpu_ms() < end)
    for (int i = 0; i < 1000; ++i)
      leaf(n++);
}

int main(int argc, char **argv) {
  int shortcalls = argc > 1 && !strcmp(argv[1], "short");
  for (int r = 0; r < 30; ++r)
    shortcalls ? loop(10) : spin(10);
  puts("done");
  return 0;
}
