// flush_on_signal=1: a SIGTERM that arrives while the program exits -- after
// the runtime's flusher has stopped, during or after the exit-time write --
// still ends the program with the signal's status (143), as it would
// without ActiveTime; the profile written at exit is complete.
// "after": a destructor (run by _dl_fini, after the runtime's atexit write)
// raises SIGTERM: the runtime's handler must take the signal's course at
// once. "during": the last atexit handler before the runtime's has a thread
// send SIGTERM while the main thread goes on into the exit-time write: the
// handler either waits for a flush (flusher still up) or defers the signal
// to the end of the exit write; both end with status 143.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g %s -o te -lpthread
// RUN: env ACTIVETIME_OPTIONS=flush_on_signal=1 sh -c "./te after > out.txt; echo status \$?" | FileCheck --check-prefix=STATUS %s
// RUN: FileCheck --check-prefix=OUT %s < out.txt
// RUN: %activetime report --top 0 activetime.te.*.raw | FileCheck --check-prefix=REP %s
// RUN: rm activetime.te.*.raw
// RUN: env ACTIVETIME_OPTIONS=flush_on_signal=1 sh -c "./te during > out.txt; echo status \$?" | FileCheck --check-prefix=STATUS %s
// RUN: FileCheck --check-prefix=OUT %s < out.txt
// RUN: %activetime report --top 0 activetime.te.*.raw | FileCheck --check-prefix=REP %s
// Without the option the runtime installs no handler: the same status.
// RUN: sh -c "./te after > /dev/null; echo status \$?" | FileCheck --check-prefix=STATUS %s
// STATUS: status 143
// OUT: worked 100000
// REP: 100000 {{.*}} leaf
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))
static volatile long sink;
static int after;

NOINLINE void leaf(long i) { sink += i; }

__attribute__((destructor)) static void term_after_write(void) {
  if (after)
    raise(SIGTERM);
}

static volatile int sending;

static void *sender(void *arg) {
  sending = 1;
  kill(getpid(), SIGTERM);
  for (;;)
    pause();
  return arg;
}

// Runs before the runtime's exit-time write (registered later than it).
static void term_during_exit(void) {
  sigset_t Term;
  sigemptyset(&Term);
  sigaddset(&Term, SIGTERM);
  pthread_t t;
  pthread_create(&t, 0, sender, 0); // inherits the mask: SIGTERM open
  // The main thread goes on into the write with SIGTERM blocked, so the
  // signal lands on the sender (or a thread that does not block it).
  pthread_sigmask(SIG_BLOCK, &Term, 0);
  // Not on into the write before the sender is sending: a fast write (a
  // small profile) and exit could otherwise end the process before the
  // signal is sent at all, with status 0, as they would without ActiveTime.
  // The kill lands within microseconds of the flag: 20 ms is the margin
  // for a loaded machine.
  while (!sending)
    sched_yield();
  usleep(20000);
}

int main(int argc, char **argv) {
  for (long i = 0; i < 100000; ++i)
    leaf(i);
  after = argc > 1 && !strcmp(argv[1], "after");
  if (argc > 1 && !strcmp(argv[1], "during"))
    atexit(term_during_exit);
  printf("worked 100000\n");
  fflush(stdout); // a signal during exit ends the program before stdio's flush
  return 0;
}
