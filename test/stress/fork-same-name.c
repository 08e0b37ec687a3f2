// An output name without %p: a forked child would overwrite its parent's
// profile, so the child's name gets its pid before the extension. Three
// processes, three profiles.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g %s -o fk
// RUN: env ACTIVETIME_OPTIONS=output=p.raw:verbosity=1 ./fk 2>&1 | FileCheck --check-prefix=OUT %s
// OUT-DAG: ActiveTime: wrote profile p.{{[0-9]+}}.raw
// OUT-DAG: ActiveTime: wrote profile p.{{[0-9]+}}.raw
// OUT-DAG: ActiveTime: wrote profile p.raw
// RUN: ls p.*.raw | count 2
// RUN: %activetime report --top 0 p.raw p.*.raw | FileCheck --check-prefix=REP %s
// REP: ActiveTime profile: 3 processes, 3 threads
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))
static volatile long sink;

NOINLINE void work(long i) { sink += i; }

int main(void) {
  for (int c = 0; c < 2; ++c) {
    pid_t p = fork();
    if (p == 0) {
      for (long i = 0; i < 1000; ++i)
        work(i);
      return 0;
    }
    waitpid(p, 0, 0);
  }
  for (long i = 0; i < 1000; ++i)
    work(i);
  return 0;
}
