// flush_on_signal=1:flush_wait_ms=600000: a program stopped by SIGTERM, SIGINT or SIGHUP keeps
// its profile and still ends as the signal ends it (status 128+N); a handler
// installed before the runtime started is chained (it runs after the write,
// once per signal); a signal the program ignores at start-up stays ignored.
// Without the flag nothing changes (sigterm.c).
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g %s -o fs -lpthread
// RUN: for s in 15 2 1; do env ACTIVETIME_OPTIONS=flush_on_signal=1:flush_wait_ms=600000:output=stop$s.raw timeout 60 ./fs stop $s; echo "stop $s exit $?"; done | FileCheck --check-prefix=STOP %s
// STOP: stop 15 exit 143
// STOP: stop 2 exit 130
// STOP: stop 1 exit 129
// RUN: for s in 15 2 1; do %activetime report --top 0 stop$s.raw; done | FileCheck --check-prefix=REP %s
// REP-COUNT-3: {{^ *[1-9][0-9]* .* work +flush-signals.c}}
//
// Threads stopped wherever they are, often inside a probe (its handler must
// not wait there: the write is deferred until the probe is done), and
// timeout(1)'s two copies of SIGTERM (to the child, then to its group):
// every run leaves a readable profile with all four threads. ThreadSanitizer
// delays an asynchronous signal until the thread's next libc call, which
// these loops never make (nor does it without ActiveTime, for a handler of
// the program's own): not run under it.
// RUN: %if !tsan %{ for k in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19; do env ACTIVETIME_OPTIONS=flush_on_signal=1:flush_wait_ms=600000:output=t$k.raw timeout 60 ./fs threads 15; echo "threads exit $?"; done | FileCheck --check-prefix=THREADS %s %}
// THREADS-COUNT-20: threads exit 143
// RUN: %if !tsan %{ for k in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19; do %activetime report --top 0 t$k.raw || echo "unreadable t$k.raw"; done | FileCheck --check-prefix=TREP %s %}
// TREP-NOT: unreadable
// TREP-COUNT-20: 1 process, 4 threads
// RUN: %if !tsan %{ for k in 0 1 2 3 4; do env ACTIVETIME_OPTIONS=flush_on_signal=1:flush_wait_ms=600000:output=to$k.raw timeout -s TERM 1 ./fs spin 0; echo "timeout exit $?"; done | FileCheck --check-prefix=TIMEOUT %s %}
// (A second: a start-up slowed by a loaded machine must not outlast it.)
// TIMEOUT-COUNT-5: timeout exit 124
// RUN: %if !tsan %{ for k in 0 1 2 3 4; do %activetime report --top 0 to$k.raw | grep -c "work *flush-signals.c"; done | FileCheck --check-prefix=TOREP %s %}
// TOREP-COUNT-5: 1
//
// A program handler that exits: called after the write, with the signal.
// RUN: env ACTIVETIME_OPTIONS=flush_on_signal=1:flush_wait_ms=600000:output=chain.raw timeout 60 ./fs chain 15 > chain.out; echo "exit $?" >> chain.out
// RUN: FileCheck --check-prefix=CHAIN %s < chain.out
// CHAIN: program handler 15
// CHAIN-NEXT: exit 3
// RUN: %activetime report --top 0 chain.raw | FileCheck --check-prefix=REP1 %s
// REP1: {{^ *[1-9][0-9]* .* work +flush-signals.c}}
//
// A handler that returns (SIGHUP: reload): a snapshot per signal, the
// handler once per signal, and the program goes on to its own exit.
// RUN: env ACTIVETIME_OPTIONS=flush_on_signal=1:flush_wait_ms=600000:output=hup.raw:verbosity=1 timeout 60 ./fs hup 1 > hup.out 2>&1; echo "exit $?" >> hup.out
// RUN: FileCheck --check-prefix=HUP %s < hup.out
// HUP: ActiveTime: wrote profile hup.raw
// HUP: program handler 1
// HUP: ActiveTime: wrote profile hup.raw
// HUP: program handler 1
// HUP: handled 2
// HUP: ActiveTime: wrote profile hup.raw
// HUP-NEXT: exit 0
// RUN: %activetime report --top 0 hup.raw | FileCheck --check-prefix=REP1 %s
//
// Ignored at start-up (nohup): still ignored, no snapshot.
// RUN: env ACTIVETIME_OPTIONS=flush_on_signal=1:flush_wait_ms=600000:output=ign.raw:verbosity=1 timeout 60 ./fs ignore 1 > ign.out 2>&1; echo "exit $?" >> ign.out
// RUN: FileCheck --check-prefix=IGN %s < ign.out
// IGN: survived
// IGN-NEXT: ActiveTime: wrote profile ign.raw
// IGN-NEXT: exit 0
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))
static _Thread_local volatile long sink; // the threads share no data (TSan)
static volatile sig_atomic_t handled;
static int started;

NOINLINE void work(long i) { sink += i; }
NOINLINE void *worker(void *arg) {
  __atomic_fetch_add(&started, 1, __ATOMIC_RELEASE);
  for (long i = 0;; ++i)
    work(i);
  return arg;
}

// SIGTERM to one worker, most of whose time is in probes.
static void stop_a_worker(int Sig) {
  pthread_t t[3];
  for (int k = 0; k < 3; ++k)
    pthread_create(&t[k], 0, worker, 0);
  while (__atomic_load_n(&started, __ATOMIC_ACQUIRE) < 3)
    work(0);
  pthread_kill(t[getpid() % 3], Sig);
}

static void say(const char *Msg, int Sig) {
  char Buf[64];
  int N = snprintf(Buf, sizeof(Buf), "%s %d\n", Msg, Sig);
  (void)!write(1, Buf, N);
}
static void exiting_handler(int Sig) {
  say("program handler", Sig);
  _exit(3);
}
static void returning_handler(int Sig) {
  say("program handler", Sig);
  handled = handled + 1;
}

// Before the runtime starts (it starts with the first instrumented
// module's constructor, or its first probe: this function has none): the
// handlers a program has when ActiveTime comes.
__attribute__((no_instrument_function)) static void before_runtime(int argc, char **argv, char **envp) {
  if (argc < 3)
    return;
  int Sig = atoi(argv[2]);
  if (!strcmp(argv[1], "chain"))
    signal(Sig, exiting_handler);
  else if (!strcmp(argv[1], "hup"))
    signal(Sig, returning_handler);
  else if (!strcmp(argv[1], "ignore"))
    signal(Sig, SIG_IGN);
}
__attribute__((section(".preinit_array"), used)) static void (*preinit)(
    int, char **, char **) = before_runtime;

int main(int argc, char **argv) {
  if (argc < 3)
    return 2;
  int Sig = atoi(argv[2]);
  for (long i = 0; i < 100000; ++i)
    work(i);
  if (!strcmp(argv[1], "hup")) {
    for (int k = 1; k <= 2; ++k) {
      kill(getpid(), Sig);
      for (long i = 0; handled < k; ++i) // until the chained delivery
        work(i);
    }
    printf("handled %d\n", (int)handled);
    fflush(stdout);
    return 0;
  }
  if (!strcmp(argv[1], "threads"))
    stop_a_worker(Sig);
  else if (strcmp(argv[1], "spin"))
    kill(getpid(), Sig);
  if (!strcmp(argv[1], "ignore")) {
    printf("survived\n");
    fflush(stdout);
    return 0;
  }
  for (long i = 0;; ++i) // the signal ends the program after the write
    work(i);
}
