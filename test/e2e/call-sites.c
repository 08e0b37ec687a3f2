// Call-site edges and the sample-profile export (PGO input). With every call
// timed (timing_ratio=0) each call instruction's calls are exact: work is
// called from two lines, an indirect call reaches add1 and sub1 (4:1), and
// the counts of two merged runs are the sums of the runs'. The sample
// profile has those counts at the call lines' offsets from main's start
// line, reads back through llvm-profdata, and clang applies every record of
// it to this file with no warning.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g -fdebug-info-for-profiling %s -o sites
// RUN: env ACTIVETIME_OPTIONS=output=a.raw:timing_ratio=0 ./sites 1000
// RUN: env ACTIVETIME_OPTIONS=output=b.raw:timing_ratio=0 ./sites 1000
// RUN: %activetime report --call-sites --top 0 a.raw | FileCheck --check-prefix=SITES %s
// RUN: %activetime report --call-sites --json a.raw | python3 -c "import json,sys; d=json.load(sys.stdin); print(sorted((s['callee'], s['line'], s['calls'], s['targets_at_site']) for s in d['call_sites'] if s['caller']))" | FileCheck --check-prefix=JSON %s
// RUN: %activetime merge -o m.raw a.raw b.raw
// RUN: %activetime export --format=sample-profile --allow-call-counts --sample-profile-format=text -o m.txt m.raw
// RUN: FileCheck --check-prefix=PROF --input-file=m.txt %s
// RUN: %activetime export --format=sample-profile --allow-call-counts -o m.prof m.raw
// RUN: llvm-profdata show --sample m.prof | FileCheck --check-prefix=SHOW %s
// RUN: %clang %san_flags -O2 -g -fdebug-info-for-profiling -fprofile-sample-use=m.prof -Werror -mllvm -sample-profile-check-record-coverage=100 -c %s -o pgo.o
// Counted calls (the table from the first call, calibrate_at_start): tiny's
// calls are placed at its call site by its code samples (or timed calls).
// RUN: env ACTIVETIME_OPTIONS=output=c.raw:calibrate_at_start=1 ./sites 20000
// RUN: %activetime report --call-sites --top 0 c.raw | FileCheck --check-prefix=COUNTED %s

#include <stdio.h>
#include <stdlib.h>

volatile unsigned long sink; // unsigned: wraps, no overflow (UBSan)

__attribute__((noinline)) long tiny(long x) {
  return x * 3 + 1;
}

__attribute__((noinline)) long work(long n) {
  long s = 0;
  for (long i = 0; i < n; ++i)
    s += i ^ (s >> 3);
  return s;
}

__attribute__((noinline)) long add1(long x) {
  long s = x;
  for (int i = 0; i < 20; ++i)
    s += sink + i;
  return s;
}

__attribute__((noinline)) long sub1(long x) {
  long s = x;
  for (int i = 0; i < 20; ++i)
    s -= sink + i;
  return s;
}

long (*volatile ops[2])(long) = {add1, sub1};

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1000;
  for (long i = 0; i < n; ++i) {
    sink += work(100 + (i & 1));
    if (i % 4 == 0)
      sink += work(50 + (i & 1));
    sink += ops[i % 5 == 0](i);
    sink += tiny(i);
  }
  printf("%lu\n", sink);
  return 0;
}

// SITES: call sites (per caller and source position of the call; timed: calls through the entry probe, exact; ~counted: {{.*}}):
// SITES-DAG: {{^}}  work  (1250 calls)
// SITES-DAG: {{^}} 1000 - main call-sites.c:60
// SITES-DAG: {{^}} 250 - main call-sites.c:62
// SITES-DAG: {{^}} 800 - main call-sites.c:63 [80.0% of this call's 2 targets' calls]
// SITES-DAG: {{^}} 200 - main call-sites.c:63 [20.0% of this call's 2 targets' calls]
// SITES-DAG: {{^}} 1000 - main call-sites.c:64
// SITES-DAG: {{^}} 1 - <thread root>

// JSON: [('add1', 63, 800, 2), ('sub1', 63, 200, 2), ('tiny', 64, 1000, 1), ('work', 60, 1000, 1), ('work', 62, 250, 1)]

// main starts at line 57: call lines 60, 62, 63, 64 are offsets 3, 5, 6, 7
// (discriminators differ between builds, e.g. with sanitizers).
// PROF-DAG: {{^}}main:{{[0-9]+}}:2
// PROF-DAG: {{^}} 3{{(\.[0-9]+)?}}: 2000 work:2000
// PROF-DAG: {{^}} 5{{(\.[0-9]+)?}}: 500 work:500
// PROF-DAG: {{^}} 6{{(\.[0-9]+)?}}: 2000 add1:1600 sub1:400
// PROF-DAG: {{^}} 7{{(\.[0-9]+)?}}: 2000 tiny:2000
// PROF-DAG: {{^}}work:{{[0-9]+}}:2500
// PROF-DAG: {{^}}add1:{{[0-9]+}}:1600
// PROF-DAG: {{^}}sub1:{{[0-9]+}}:400
// PROF-DAG: {{^}}tiny:{{[0-9]+}}:2000

// SHOW-DAG: Function: main: {{[0-9]+}}, 2,
// SHOW-DAG: 6{{(\.[0-9]+)?}}: 2000, calls: add1:1600 sub1:400
// SHOW-DAG: 3{{(\.[0-9]+)?}}: 2000, calls: work:2000
// SHOW-DAG: Function: work: {{[0-9]+}}, 2500,

// COUNTED: tiny  (20000 calls: {{[0-9]+}} timed, {{[0-9]+}} counted)
// COUNTED-NEXT: timed ~counted caller call site
// COUNTED-NEXT: {{^ +[0-9]+ +~[0-9]+ +main +call-sites.c:64$}}
// COUNTED-NEXT: counted calls: {{[0-9]+}} {{placed by code samples|by the timed calls. sites}}{{.*}}
