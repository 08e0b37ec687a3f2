// Fenced probes (probe_fence=1): the exported probes fence the tick read and
// their own work, the profile records it, and the report says which kind of
// probes produced its corrections. Either way each probe measures its own
// cost, so neither kind marks short functions' figures as approximate any
// more.
// REQUIRES: x86_64
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g %s -o fence
// RUN: llvm-objdump -d --no-show-raw-insn --disassemble-symbols=__activetime_func_enter,__activetime_func_exit fence | FileCheck --check-prefix=ASM %s
// calibrate_at_start=1: the probe table (and so the counting threshold) is
// known from the first call; by default it comes a few ms into the run
// (probe-table-beside.c), after this short program has ended.
// RUN: env ACTIVETIME_OPTIONS=calibrate_at_start=1 ./fence
// RUN: %activetime report --header activetime.fence.*.raw | FileCheck --check-prefix=UNFENCED %s
// RUN: %activetime report --json activetime.fence.*.raw | FileCheck --check-prefix=UNFENCED-JSON %s
// RUN: rm activetime.fence.*.raw
// RUN: env ACTIVETIME_OPTIONS=probe_fence=1:calibrate_at_start=1 ./fence
// RUN: %activetime report --header activetime.fence.*.raw | FileCheck --check-prefix=FENCED %s
// RUN: %activetime report --json activetime.fence.*.raw | FileCheck --check-prefix=FENCED-JSON %s

// The fence before the tick read and the one after the probe's work.
// ASM-LABEL: <__activetime_func_enter>:
// ASM:       lfence
// ASM-NEXT:  rdtsc
// ASM:       lfence
// ASM-LABEL: <__activetime_func_exit>:
// ASM:       lfence
// ASM-NEXT:  rdtsc
// ASM:       lfence

// FENCED:     calibrated at start-up: {{[0-9]+}} batches, spread {{.*}}, fenced probes
// FENCED-NOT: APPROXIMATE
// FENCED-JSON: "fenced": true

// UNFENCED:      calibrated at start-up: {{[0-9]+}} batches, spread {{.*}}, unfenced probes
// UNFENCED-NOT:  APPROXIMATE
// UNFENCED-JSON: "fenced": false

static volatile int sink;

__attribute__((noinline)) void leaf(int i) { sink += i; }

int main(void) {
  for (int i = 0; i < 1000; ++i)
    leaf(i);
  return 0;
}
