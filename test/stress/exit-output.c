// What the program printed reaches its files before the exit-time profile
// write starts: a program killed during the write (here, one whose profile
// goes into a FIFO nobody reads, so the write blocks) keeps all of its
// buffered stdout, as it would without ActiveTime, where libc flushes it
// at exit. Without the flush it lost all five lines.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g %s -o eo
// RUN: mkfifo prof.fifo
// The script holds the FIFO open (so the runtime's open finds a reader),
// reads the profile's first bytes (the write has begun: the program's main
// has returned) and kills the program, whose write is blocked on the full
// pipe (the profile is hundreds of kilobytes, the pipe holds 64).
// RUN: bash -c 'exec 3<>prof.fifo; env ACTIVETIME_OPTIONS=output=prof.fifo ./eo > out.txt & pid=$!; head -c 1 <&3 > /dev/null; kill -9 $pid; wait $pid; echo "exit $?"' | FileCheck --check-prefix=KILLED %s
// KILLED: exit 137
// RUN: FileCheck --check-prefix=OUT %s < out.txt
// OUT-COUNT-5: line {{[0-9]}}
//
// A pipe whose reader has gone: the flush would raise SIGPIPE before the
// write; it is left to libc's flush after the write, as before: the
// profile is written and the program still ends by SIGPIPE (141), as
// without ActiveTime.
// RUN: bash -c '(env ACTIVETIME_OPTIONS=output=pipe.raw ./eo late; echo "exit $?" > status.txt) | true'
// RUN: FileCheck --check-prefix=PIPE %s < status.txt
// PIPE: exit 141
// RUN: %activetime report pipe.raw | FileCheck --check-prefix=REP %s
// REP: {{^ *3000 .* rec +exit-output.c}}
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile int Sink;

// 3000 nested calls, each a call path of its own: a profile of a few
// hundred kilobytes.
__attribute__((noinline)) static void rec(int Left) {
  if (Left > 1)
    rec(Left - 1);
  Sink += Left;
}

int main(int Argc, char **Argv) {
  rec(3000);
  // "late": long enough for the pipe's reader (true) to have left.
  if (Argc > 1 && !strcmp(Argv[1], "late"))
    sleep(1);
  for (int I = 0; I < 5; ++I)
    printf("line %d\n", I);
  return 0;
}
