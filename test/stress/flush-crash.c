// flush_on_crash=1:flush_wait_ms=600000: a program that crashes (SIGSEGV, abort()) keeps its
// profile, written by the runtime's flusher thread while the crashing
// thread waits, and still dies of its signal. Without the flag it has none.
// ASan and TSan install their own SIGSEGV/SIGABRT handling first; the
// runtime chains it, so there the exit status is theirs. The wait for the
// write is unbounded here (flush_wait_ms): a loaded machine is slow, not
// wrong.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g %s -o fc
// RUN: sh -c 'ACTIVETIME_OPTIONS=output=none.raw ./fc segv; echo "exit $?"' 2>/dev/null | FileCheck --check-prefix=CRASH %s
// RUN: not ls none.raw
// RUN: sh -c 'ACTIVETIME_OPTIONS=flush_on_crash=1:flush_wait_ms=600000:output=segv.raw ./fc segv; echo "exit $?"' 2>/dev/null | FileCheck --check-prefix=CRASH %s
// RUN: sh -c 'ACTIVETIME_OPTIONS=flush_on_crash=1:flush_wait_ms=600000:output=abort.raw ./fc abort; echo "exit $?"' 2>/dev/null | FileCheck --check-prefix=CRASH %s
// CRASH: crashing
// CRASH-NOT: exit 0
// CRASH: exit {{[1-9][0-9]*}}
// RUN: %activetime report --top 0 segv.raw | FileCheck --check-prefix=REP %s
// RUN: %activetime report --top 0 abort.raw | FileCheck --check-prefix=REP %s
// REP-DAG: {{^ *100000 .* work +flush-crash.c}}
// REP-DAG: {{^ *1 .* crash +flush-crash.c}}
//
// The signal's own status where no sanitizer handles it first.
// RUN: %if !sanitizer %{ sh -c 'ACTIVETIME_OPTIONS=flush_on_crash=1:flush_wait_ms=600000:output=s2.raw ./fc segv; echo "exit $?"' 2>/dev/null | FileCheck --check-prefix=SEGV %s %}
// RUN: %if !sanitizer %{ sh -c 'ACTIVETIME_OPTIONS=flush_on_crash=1:flush_wait_ms=600000:output=a2.raw ./fc abort; echo "exit $?"' 2>/dev/null | FileCheck --check-prefix=ABRT %s %}
// SEGV: exit 139
// ABRT: exit 134
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define NOINLINE __attribute__((noinline))
static volatile long sink;

NOINLINE void work(long i) { sink += i; }
NOINLINE void crash(const char *How) {
  printf("crashing\n");
  fflush(stdout);
  if (!strcmp(How, "abort"))
    abort();
  // A fault no sanitizer sees coming (UBSan would stop at a null store).
  volatile char *P = mmap(0, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  *P = 1;
}

int main(int argc, char **argv) {
  for (long i = 0; i < 100000; ++i)
    work(i);
  crash(argc > 1 ? argv[1] : "segv");
  return 0;
}
