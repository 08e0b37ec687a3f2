// Counted calls across fork(): the child's profile counts only the calls it
// made itself. Before the fork the parent calls f 1000 times (only counted
// after its first timed calls) and g 5 times (all timed); the child then
// calls f 300 times and g 1000 times, the parent f 700 more times. The parent's
// profile has exactly 1700 calls of f and 5 of g; the child's exactly 300 of
// f, all counted (f stays counted on the forking thread, its count starts
// again from 0), and 1000 of g (a fresh node: timed until its first check,
// then counted). In both, every call is timed in a node or counted, once.
// Each profile is reported on its own.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g %s -o cf
// calibrate_at_start=1: the probe table (and so the counting threshold) is
// known from the first call; by default it comes a few ms into the run
// (probe-table-beside.c), after this short program has ended.
// RUN: env ACTIVETIME_OPTIONS=calibrate_at_start=1 ./cf | FileCheck --check-prefix=OUT %s
// RUN: ls activetime.cf.*.raw | count 2
// RUN: for f in activetime.cf.*.raw; do %activetime report --json $f | python3 %S/Inputs/counts.py; echo ---; done > counts.txt
// RUN: FileCheck --check-prefix=COUNTS %s < counts.txt
// RUN: not grep rel=bad counts.txt
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))
volatile long sink;

NOINLINE void f(long i) { sink += i; }
NOINLINE void g(long i) { sink -= i; }

int main(void) {
  for (long i = 0; i < 1000; ++i)
    f(i);
  for (long i = 0; i < 5; ++i)
    g(i);
  fflush(stdout);
  pid_t p = fork();
  if (p == 0) {
    for (long i = 0; i < 300; ++i)
      f(i);
    for (long i = 0; i < 1000; ++i)
      g(i);
    return 0;
  }
  int st = 0;
  waitpid(p, &st, 0);
  for (long i = 0; i < 700; ++i)
    f(i);
  printf("child %s\n", WIFEXITED(st) && WEXITSTATUS(st) == 0 ? "ok" : "failed");
  return 0;
}

// OUT: child ok

// Parent and child, in either order.
// COUNTS-DAG: f how=counted calls=1700 counted={{[0-9]+}} timed={{16|64|256}} nodes=1 maxnode={{[0-9]+}} rel=ok
// COUNTS-DAG: g how=timed calls=5 counted=0 timed=5 nodes=1 maxnode=5 rel=ok
// COUNTS-DAG: f how=counted calls=300 counted=300 timed=0 nodes=0 maxnode=0 rel=ok
// COUNTS-DAG: g how=counted calls=1000 counted={{[0-9]+}} timed={{16|64|256}} nodes=1 maxnode={{[0-9]+}} rel=ok
