// A single-threaded program stays single-threaded under the runtime: what is
// measured beside it (the probe table, a code sample's cost) runs in a
// helper process, and glibc's own flag (__libc_single_threaded, which keeps
// malloc and stdio on their lock-free paths) is still set when main ends.
// The helper is invisible to the program: wait() finds no child and no
// SIGCHLD arrives. The profile has the calibrated table and, with code
// samples on, the measured sample cost.
//
// Once the thread counts calls (work, timed, calls step, short: counted),
// its code samples need a reader between its probes: by default the
// runtime's drainer thread, which makes the program multi-threaded, and
// the profile says when. Built with -mllvm -activetime-sample-poll, the
// counted calls' entries read them (abi.h, "The sample poll") and the
// program stays single-threaded, until a stretch without instrumented calls
// outlasts the sample ring (the "spin" run: 300 ms in a function that is
// not instrumented, the ring holding a few ms of samples): from then on
// the drainer reads it too.
// measure_in_process=0 (runtime threads from the start) is the control: the
// flag is cleared there, so the test can fail.
//
// ThreadSanitizer's runtime has threads of its own, and the runtime
// measures on threads there (no helper process).
// UNSUPPORTED: tsan
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g %s -o st
// RUN: %at_cc -O2 -g -mllvm -activetime-sample-poll %s -o stpoll
// RUN: env ACTIVETIME_OPTIONS=output=cs0.raw:code_samples=0 ./st | FileCheck --check-prefix=SINGLE %s
// RUN: %activetime report --header cs0.raw | FileCheck --check-prefix=TABLE %s
// RUN: env ACTIVETIME_OPTIONS=output=def.raw ./st | FileCheck --check-prefix=THREADS %s
// RUN: %activetime report --header def.raw | FileCheck --check-prefixes=TABLE,COST %s
// RUN: %activetime report --header def.raw | FileCheck --check-prefixes=MT,SAMPLED %s
// RUN: env ACTIVETIME_OPTIONS=output=poll.raw ./stpoll | FileCheck --check-prefix=SINGLE %s
// RUN: %activetime report --header poll.raw | FileCheck --check-prefixes=TABLE,COST %s
// RUN: %activetime report --header poll.raw | FileCheck --check-prefixes=NOT-MT,SAMPLED %s
// RUN: env ACTIVETIME_OPTIONS=output=spin.raw ./stpoll spin | FileCheck --check-prefix=THREADS %s
// RUN: %activetime report --header spin.raw | FileCheck --check-prefix=MT %s
// RUN: %activetime report --header cs0.raw | FileCheck --check-prefix=NOT-MT %s
// RUN: %activetime report --json cs0.raw | FileCheck --check-prefix=NOT-MT-JSON %s
// RUN: env ACTIVETIME_OPTIONS=output=thr.raw:code_samples=0:measure_in_process=0 ./st | FileCheck --check-prefix=THREADS %s
// RUN: %activetime report --header thr.raw | FileCheck --check-prefix=TABLE %s
// RUN: %activetime report --header thr.raw | FileCheck --check-prefix=MT %s
// RUN: %activetime report --json thr.raw | FileCheck --check-prefix=MT-JSON %s

// SINGLE: single-threaded=1 wait=ECHILD sigchld=0
// THREADS: single-threaded=0 wait=ECHILD sigchld=0

// TABLE: probe cost:
// TABLE-NEXT: calibrated beside the program, done {{[0-9.]+ [mun]?s}} into the run
// The profile says when the runtime's thread made the program
// multi-threaded (at start-up here), and nothing when it did not.
// MT: threads: 1
// MT-NEXT: MULTI-THREADED BY THE RUNTIME {{[0-9.]+ [mun]?s}} into the run: its own thread was the program's second
// NOT-MT-NOT: MULTI-THREADED
// SAMPLED: {{[1-9][0-9]*}} samples on 1 of 1 thread
// MT-JSON: "threaded_by_runtime_ns": {{[0-9.e+]+}},
// NOT-MT-JSON: "threaded_by_runtime_ns": null,

// With code samples on, the helper measured a sample's cost too; on a
// machine too busy for 4 undisturbed pairs in 100 ms (a parallel test run)
// it says so instead (CSF_CostUnmeasured), as the runtime thread did.
// COST: code samples: every {{[0-9.]+ [num]?s}} of a thread's CPU time, {{([0-9.]+ [num]?s each \(removed as probe cost\)|cost NOT MEASURED \(the machine was busy when it was\))}}

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <sys/single_threaded.h>
#include <sys/wait.h>
#include <time.h>

static volatile sig_atomic_t sigchld;
__attribute__((activetime_no_instrument)) static void onChild(int Sig) {
  (void)Sig;
  sigchld++;
}

__attribute__((activetime_no_instrument)) static double cpuMs(void) {
  struct timespec T;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &T);
  return T.tv_sec * 1e3 + T.tv_nsec / 1e6;
}

// A few ns a call: counted after its first timed calls.
__attribute__((noinline)) unsigned long step(unsigned long X) {
  X ^= X >> 29;
  return X * 0xbf58476d1ce4e5b9ul;
}

// ~50 us a call: timed all along (never counted).
__attribute__((noinline)) unsigned long work(unsigned long X) {
  for (int I = 0; I < 10000; ++I)
    X = step(X);
  return X;
}

// No instrumented call for Ms of CPU time.
__attribute__((activetime_no_instrument, noinline)) static unsigned long
spin(unsigned long X, double Ms) {
  double Start = cpuMs();
  while (cpuMs() - Start < Ms)
    for (int I = 0; I < 1000; ++I)
      X = X * 6364136223846793005ul + 1;
  return X;
}

// The spin inside a timed frame, whose return polls.
__attribute__((noinline)) unsigned long stretch(unsigned long X) {
  return spin(X, 300);
}

int main(int argc, char **argv) {
  signal(SIGCHLD, onChild);
  unsigned long X = 1;
  double Start = cpuMs();
  while (cpuMs() - Start < 200)
    X = work(X);
  if (argc > 1) {
    X = stretch(X);
    X = work(X);
  }
  errno = 0;
  int W = wait(NULL);
  printf("single-threaded=%d wait=%s sigchld=%d\n", __libc_single_threaded,
         W < 0 && errno == ECHILD ? "ECHILD" : "child", (int)sigchld);
  return X == 42;
}
