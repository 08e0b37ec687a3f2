// A timer signal every 100 us whose handler is instrumented and calls
// instrumented code, interrupting instrumented code (including the probes):
// no crash, output unchanged; events of a handler that interrupted a probe
// are dropped and counted, never corrupt the shadow stack.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g %s -o sig
// RUN: env ACTIVETIME_OPTIONS=sample=1:sample_interval_us=500 ./sig | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --top 0 activetime.sig.*.raw | FileCheck --check-prefix=REP %s
// OUT: work 2000000 handled yes
// REP: ActiveTime profile: 1 process
// REP-DAG: 2000000 {{.*}} work
// REP-DAG: {{.*}} on_alarm
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

#define NOINLINE __attribute__((noinline))
static volatile long sink;
static volatile sig_atomic_t handled;

NOINLINE void in_handler(int s) { sink += s; }
NOINLINE void on_alarm(int s) {
  in_handler(s);
  handled = handled + 1;
}
NOINLINE void work(long i) { sink += i; }

int main(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = on_alarm;
  sigaction(SIGALRM, &sa, 0);
  struct itimerval it = {{0, 100}, {0, 100}};
  setitimer(ITIMER_REAL, &it, 0);
  long n = 0;
  for (; n < 2000000; ++n)
    work(n);
  struct itimerval off = {{0, 0}, {0, 0}};
  setitimer(ITIMER_REAL, &off, 0);
  printf("work %ld handled %s\n", n, handled > 0 ? "yes" : "no");
  return 0;
}
