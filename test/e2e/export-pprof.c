// export --format=pprof of a real run: every call timed (timing_ratio=0), so
// the calls are exact; work is called from two lines of main, and the pprof
// profile has one sample per call instruction's context with the line of
// the call in main's frame (from the return addresses and the debug info),
// the leaf at its function's first line, the build id of the binary, and
// per function the same self and inclusive figures as report --json.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g %s -o prog
// RUN: env ACTIVETIME_OPTIONS=output=p.raw:timing_ratio=0 ./prog 300
// RUN: %activetime export --format=pprof -o p.pb.gz p.raw
// RUN: %activetime report --json p.raw > p.json
// RUN: %pprof_pb2=%t %pprof_proto
// RUN: %pprof_check %t p.pb.gz --report p.json | FileCheck %s
// RUN: gzip -dc p.pb.gz | %pprof_decode | FileCheck --check-prefix=PROTO %s
// PROTO: string_table: "thread"
// PROTO: time_nanos: {{[1-9][0-9]+}}
// PROTO: duration_nanos: {{[1-9][0-9]*}}

#include <stdlib.h>

volatile unsigned long sink; // unsigned: wraps, no overflow (UBSan)

__attribute__((noinline)) unsigned long leaf(unsigned long x) {
  // CHECK-DAG: function: leaf system_name=leaf file={{.*}}export-pprof.c start_line=[[#LEAF_START:@LINE-1]]
  unsigned long s = x;
  for (int i = 0; i < 200; ++i)
    s += sink ^ (unsigned long)i;
  return s;
}

__attribute__((noinline)) unsigned long work(unsigned long n) {
  unsigned long s = 0;
  for (unsigned long i = 0; i < n; ++i)
    s += leaf(i);
  // CHECK-DAG: sample: main:{{[0-9]+}};work:[[#@LINE-1]];leaf:[[#LEAF_START]] values={{-?[0-9]+}},3000,{{[0-9]+}},{{[0-9]+}} thread={{[0-9]+}} pid={{[0-9]+}} host={{[^ ]+}} thread_name=prog
  // CHECK-DAG: sample: main:{{[0-9]+}};work:[[#@LINE-2]];leaf:[[#LEAF_START]] values={{-?[0-9]+}},2000,
  return s;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 300;
  for (int i = 0; i < n; ++i) {
    sink += work(10);
    // CHECK-DAG: sample: main:[[#@LINE-1]];work:[[#WORK_START:]] values={{-?[0-9]+}},300,
    if (i % 3 == 0)
      sink += work(20);
    // CHECK-DAG: sample: main:[[#@LINE-1]];work:[[#WORK_START]] values={{-?[0-9]+}},100,
  }
  return 0;
}
// CHECK-DAG: mapping 1: {{.*}}prog build_id={{[0-9a-f]+}}
// CHECK-DAG: sample: main:[[#]] values={{-?[0-9]+}},1,
// CHECK: pprof check: 3 functions agree with the report
