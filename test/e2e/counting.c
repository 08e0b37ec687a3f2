// Timed or counted calls, default options. A short leaf called 100000 times
// from a timed parent is timed for its first calls on the thread (16, up to
// the first timing check; a code sample taken in those calls can put the
// switch off to the next check, at 64 or 256 calls) and only counted after
// that: its flat call count stays exact, its row says "counted" with "-" for
// the per-call figures, and every call is accounted for exactly once (flat
// calls == counted calls + the calls of its timed tree nodes). A long
// function (some half a millisecond a call, far over any timing threshold,
// called 20 times so that the check at 16 calls runs) stays timed with
// exact calls and no counted ones. With timing_ratio=0 every call is timed:
// the leaf's 100000 calls are all in the tree.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g %s -o counting
// calibrate_at_start=1: the probe table (and so the counting threshold) is
// known from the first call; by default it comes a few ms into the run
// (probe-table-beside.c), after this short program has ended.
// RUN: env ACTIVETIME_OPTIONS=output=default.raw:calibrate_at_start=1 ./counting | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --json default.raw > default.json
// RUN: python3 %S/Inputs/counts.py < default.json | FileCheck --check-prefix=DEFAULT %s
// RUN: %activetime report --top 0 default.raw | FileCheck --check-prefix=TEXT %s
// RUN: python3 -c "import json,sys; p=json.load(sys.stdin)['provenance']; print('counted', p['counted_calls'], 'timed', p['timed_calls'])" < default.json | FileCheck --check-prefix=PROV %s
// RUN: env ACTIVETIME_OPTIONS=output=timed.raw:timing_ratio=0 ./counting | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --json timed.raw | python3 %S/Inputs/counts.py | FileCheck --check-prefix=TIMED %s
// RUN: %activetime report --header timed.raw | FileCheck --check-prefix=TIMED-HDR %s

// TEXT:      timing: a function's calls are timed while they last {{.*}} or more on average
// TEXT:      note: how:
// Timed rows have every figure (and none negative: no '-'); the counted row
// has its exact calls, its self-active time and its uncertainty, and "-"
// for the per-call figures.
#include <stdio.h>

#define NOINLINE __attribute__((noinline))
volatile unsigned long sink;

// A few nanoseconds a call (without a code sample its self time, its timed calls' less their residual, may print clamped: '!').
// TEXT-DAG:  {{^ +100000 +- +- +- +[0-9.]+ [num]?s!? +[0-9.]+ [num]?s +[0-9.]+% +- +- +- +- +counted +leaf +counting.c:}}[[#@LINE+1]]{{$}}
NOINLINE void leaf(unsigned long i) { sink += i; }

// TEXT-DAG:  {{^ +1 [^-]+ timed +parent +counting.c:}}[[#@LINE+1]]{{$}}
NOINLINE void parent(void) {
  for (unsigned long i = 0; i < 100000; ++i)
    leaf(i);
}

// Some 0.5 ms of CPU a call (a million volatile stores).
// TEXT-DAG:  {{^ +20 [^-]+ timed +longfn +counting.c:}}[[#@LINE+1]]{{$}}
NOINLINE void longfn(void) {
  for (unsigned long i = 0; i < 1000000; ++i)
    sink += i;
}

int main(void) {
  parent();
  for (int i = 0; i < 20; ++i)
    longfn();
  printf("sink=%lu\n", sink);
  return 0;
}

// OUT: sink=

// DEFAULT:      leaf how=counted calls=100000 counted={{99984|99936|99744}} timed={{16|64|256}} nodes=1 maxnode={{16|64|256}} rel=ok
// DEFAULT-NEXT: longfn how=timed calls=20 counted=0 timed=20 nodes=1 maxnode=20 rel=ok
// DEFAULT-NEXT: main how=timed calls=1 counted=0 timed=1 nodes=1 maxnode=1 rel=ok
// DEFAULT-NEXT: parent how=timed calls=1 counted=0 timed=1 nodes=1 maxnode=1 rel=ok

// The provenance counts the leaf's counted calls (100000 - T) and the 22 + T
// timed calls, T the leaf's timed calls (16, 64 or 256).
// PROV: counted {{99984|99936|99744}} timed {{(38|86|278)$}}


// TIMED:      leaf how=timed calls=100000 counted=0 timed=100000 nodes=1 maxnode=100000 rel=ok
// TIMED-NEXT: longfn how=timed calls=20 counted=0 timed=20 nodes=1 maxnode=20 rel=ok
// TIMED-NEXT: main how=timed calls=1 counted=0 timed=1 nodes=1 maxnode=1 rel=ok
// TIMED-NEXT: parent how=timed calls=1 counted=0 timed=1 nodes=1 maxnode=1 rel=ok
// TIMED-HDR:  timing: every call timed
