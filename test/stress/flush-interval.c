// flush_interval_s=1: a long-running program's profile appears while it
// runs, replaced by a fresh complete snapshot every second (never a torn
// file: each one is renamed into place whole), and the exit writes the
// last one. The program takes the first snapshot away itself.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g %s -o fi
// RUN: env ACTIVETIME_OPTIONS=flush_interval_s=1:output=live.raw ./fi | FileCheck --check-prefix=OUT %s
// OUT: snapshot taken while running
// OUT-NEXT: done
// RUN: %activetime report --top 0 snap.raw | FileCheck --check-prefix=REP %s
// RUN: %activetime report --top 0 live.raw | FileCheck --check-prefix=REP %s
// REP: ActiveTime profile: 1 process, 1 thread
// REP: {{^ *[1-9][0-9]* .* work +flush-interval.c}}
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>

#define NOINLINE __attribute__((noinline))
static volatile long sink;

NOINLINE void work(long i) { sink += i; }

int main(void) {
  struct stat st;
  time_t give_up = time(0) + 60;
  long i = 0;
  while (stat("live.raw", &st) != 0 && time(0) < give_up)
    for (long k = 0; k < 1000; ++k)
      work(i++);
  if (rename("live.raw", "snap.raw") == 0)
    printf("snapshot taken while running\n");
  for (long k = 0; k < 1000; ++k)
    work(k);
  printf("done\n");
  return 0;
}
