// A process that forks before its probe table is calibrated (at once, in
// main): the runtime thread that calibrates beside the program does not
// survive the fork, so the child calibrates its own table, a millisecond
// into its life, and both profiles say when their table came. Then a fork
// while the parent's calibration may be running (a few ms in): the child
// is not left waiting on a lock the parent's runtime thread held.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g %s -o ptf
// RUN: env ACTIVETIME_OPTIONS=output=ptf.%%p.raw ./ptf | FileCheck --check-prefix=OUT %s
// RUN: ls ptf.*.raw | count 3
// RUN: for f in ptf.*.raw; do %activetime report --header $f; done | FileCheck --check-prefix=HDR %s

// OUT: child 1 done
// OUT: child 2 done
// OUT: parent done

// HDR-COUNT-3: calibrated beside the program, done {{[0-9.]+ [mun]?s}} into the run

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))
volatile unsigned long sink;

NOINLINE void leaf(unsigned long i) { sink += i; }

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

NOINLINE void run(double Ms) {
  double end = now_ms() + Ms;
  unsigned long n = 0;
  while (now_ms() < end)
    for (int i = 0; i < 1000; ++i)
      leaf(n++);
}

static void child(int K) {
  pid_t p = fork();
  if (p == 0) {
    run(200);
    printf("child %d done\n", K);
    exit(0); // its own profile, written at exit
  }
  waitpid(p, 0, 0);
}

int main(void) {
  child(1);
  run(3); // the parent's calibration is under way about now
  child(2);
  run(200);
  puts("parent done");
  return 0;
}
