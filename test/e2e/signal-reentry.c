// Probes re-entered from a signal handler: an instrumented handler fires
// every 50 us while the main thread runs instrumented calls. A handler that
// interrupts a probe has its own probe events dropped (counted); one that
// interrupts user code is recorded under the interrupted frame. Either way
// every call is counted (the handler's calls are the signals delivered),
// no exit is unmatched, and a handler drops at most 4 events (enter+exit of
// on_signal and of handler_leaf, while they are timed). Exercises the
// probes' fast path bailing out to the general path and back.
// ThreadSanitizer defers asynchronous signals to the thread's next
// intercepted call, and the loop of counted calls makes none: the handler
// would never run.
// UNSUPPORTED: tsan
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g %s -o sig
// RUN: env ACTIVETIME_OPTIONS=output=sig.raw ./sig > out.txt
// RUN: %activetime report --json sig.raw > sig.json
// RUN: python3 %S/../Inputs/signal_reentry.py out.txt sig.json | FileCheck %s
// RUN: %activetime report sig.raw | FileCheck --check-prefix=REPORT %s
#include <signal.h>
#include <stdio.h>
#include <sys/time.h>

#define NOINLINE __attribute__((noinline))
static volatile sig_atomic_t signals;
volatile unsigned long sink;

NOINLINE void handler_leaf(void) { sink += 3; }

NOINLINE void on_signal(int Sig) {
  (void)Sig;
  ++signals;
  handler_leaf();
}

NOINLINE void work(unsigned long I) { sink += I; }

int main(void) {
  struct sigaction Sa = {0};
  Sa.sa_handler = on_signal;
  sigaction(SIGALRM, &Sa, 0);
  struct itimerval It = {{0, 50}, {0, 50}};
  setitimer(ITIMER_REAL, &It, 0);
  unsigned long Calls = 0;
  while (signals < 2000) {
    for (int I = 0; I < 1000; ++I)
      work(I);
    Calls += 1000;
  }
  struct itimerval Off = {{0, 0}, {0, 0}};
  setitimer(ITIMER_REAL, &Off, 0);
  printf("work %lu signals %d\n", Calls, (int)signals);
  return 0;
}

// CHECK: work calls match: True
// CHECK-NEXT: handler calls == signals: True
// CHECK-NEXT: dropped events within 4 per signal: True
// CHECK-NEXT: some handler calls recorded: True
// CHECK-NEXT: unmatched exits: 0

// REPORT-NOT: unmatched exits:
// REPORT: on_signal
