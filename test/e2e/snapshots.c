// A long-running program's snapshots, each in its own file (%n in output=):
// activetime_flush() twice, then the exit write: files 0, 1 and 2. The
// window between two of them (--since) holds what ran between the writes:
// the second phase's 300 calls of work, and main's call open across both
// writes. Every profile names the host it ran on.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O1 -g %s -o prog
// RUN: env ACTIVETIME_OPTIONS=output=%t/p.%%n.raw ./prog | FileCheck %s --check-prefix=OUT
// OUT: flushed 0 0
// RUN: ls p.*.raw | FileCheck %s --check-prefix=FILES
// FILES:      p.0.raw
// FILES-NEXT: p.1.raw
// FILES-NEXT: p.2.raw
// RUN: %activetime report --since=p.0.raw p.1.raw | FileCheck %s --check-prefix=WINDOW
// WINDOW: host:
// WINDOW: filters: --since=p.0.raw: the
// WINDOW-DAG: {{^ *}}300 {{.*}} work
// WINDOW-DAG: {{^ *}}1 {{.*}} main
// RUN: hostname > host.txt
// RUN: %activetime report --json p.2.raw | python3 -c "import json,sys; print(json.load(sys.stdin)['processes'][0]['host'] == open('host.txt').read().strip())" | FileCheck %s --check-prefix=HOST
// HOST: True
#include <activetime/activetime.h>
#include <stdio.h>

volatile unsigned long sink;

__attribute__((noinline)) static void work(int n) {
  for (int i = 0; i < n; ++i)
    sink += (unsigned long)i * 7;
}

int main(void) {
  for (int i = 0; i < 100; ++i)
    work(20000);
  int a = activetime_flush();
  for (int i = 0; i < 300; ++i)
    work(20000);
  int b = activetime_flush();
  for (int i = 0; i < 50; ++i)
    work(20000);
  printf("flushed %d %d\n", a, b);
  return 0;
}
