// fork(): parent and child each write their own profile; the child's holds
// only what ran after the fork.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g %s -o fork && env ACTIVETIME_OPTIONS=timing_ratio=0 ./fork | FileCheck --check-prefix=OUT %s
// RUN: ls activetime.fork.*.raw | count 2
// Both profiles together (every call timed, for the exact tree): before()
// ran 4 times in the parent only; the child's profile holds only what ran
// after the fork.
// RUN: %activetime report --json activetime.fork.*.raw | python3 %S/../Inputs/callpaths.py | FileCheck --check-prefix=TREE %s
// RUN: %activetime report activetime.fork.*.raw | FileCheck --check-prefix=PROCS %s
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))
volatile int sink;

NOINLINE void before(void) { sink += 1; }
NOINLINE void in_child(void) { sink += 2; }
NOINLINE void in_parent(void) { sink += 3; }

int main(void) {
  for (int i = 0; i < 4; ++i)
    before();
  fflush(stdout);
  pid_t p = fork();
  if (p == 0) {
    for (int i = 0; i < 3; ++i)
      in_child();
    return 0;
  }
  waitpid(p, 0, 0);
  for (int i = 0; i < 5; ++i)
    in_parent();
  printf("parent done\n");
  return 0;
}

// OUT: parent done
// TREE:      2 main{{$}}
// TREE-NEXT: 4 main > before{{$}}
// TREE-NEXT: 3 main > in_child{{$}}
// TREE-NEXT: 5 main > in_parent{{$}}
// TREE-NOT: {{.}}
// PROCS: 2 processes
// PROCS-DAG: process [[PARENT:[0-9]+]] (parent
// PROCS-DAG: process {{[0-9]+}} (parent [[PARENT]])
