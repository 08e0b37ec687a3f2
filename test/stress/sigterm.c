// A process killed by SIGTERM loses its profile (docs/troubleshooting.md: the
// runtime installs no handler of its own; handle the signal and call exit(),
// or activetime_flush(), to keep one) but never leaves a torn one: any file
// under the profile's name is complete. A handler that calls exit() keeps it.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g %s -o term
// RUN: sh -c "./term kill; test \$? -eq 143"
// RUN: not ls activetime.term.*.raw
// exit() from a handler is not async-signal-safe (the profile writer runs
// in it); the documented pattern is safe here because the signal arrives
// while main is in kill()/pause(). ThreadSanitizer would report the
// allocations inside exit(): that check alone is off for this run.
// RUN: env TSAN_OPTIONS="$TSAN_OPTIONS:report_signal_unsafe=0" ./term handle | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --top 0 activetime.term.*.raw | FileCheck --check-prefix=REP %s
// OUT: handled SIGTERM
// REP: 100000 {{.*}} leaf
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))
static volatile long sink;

NOINLINE void leaf(long i) { sink += i; }
static void on_term(int s) {
  // write(), not printf(): stdio is not async-signal-safe.
  static const char Msg[] = "handled SIGTERM\n";
  (void)!write(1, Msg, sizeof(Msg) - 1);
  exit(0);
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "handle"))
    signal(SIGTERM, on_term);
  for (long i = 0; i < 100000; ++i)
    leaf(i);
  kill(getpid(), SIGTERM);
  pause();
  return 0;
}
