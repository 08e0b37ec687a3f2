//===- activetime_collector.cpp - The runtime's collectors ------*- C++ -*-===//
//
// The table of collectors (see activetime_collector.h), and the slow path of
// the probes' poll.
//
//===----------------------------------------------------------------------===//

#include "activetime_collector.h"

#include "activetime_codesamples.h"
#include "activetime_thread.h"

namespace __activetime {

const Collector *const kCollectors[] = {
#define AT_COLLECTOR(Name) &k##Name##Collector,
#include "activetime_collectors.def"
};
const u32 kNumCollectors = sizeof(kCollectors) / sizeof(kCollectors[0]);

namespace {
// A thread whose perf rings open late (perf_after_us): it adopts those the
// drainer opened for it, or opens them itself when it has to
// (activetime_codesamples.h). Either way before the polls below, which
// then drain what the new rings hold.
void PollLateRings(ThreadTls &T, ThreadState *TS, u64 Now) {
  if (__atomic_load_n(&TS->LateReady, __ATOMIC_ACQUIRE)) {
    AdoptLateRings(T, TS);
  } else if (Now >= TS->PerfFromTick && ClaimLateRingsForThread(TS, Now)) {
    __atomic_store_n(&TS->PerfFromTick, 0, __ATOMIC_RELAXED);
    OpenLateSwitchSource(T, TS);
    OpenThreadCodeSamples(T, TS);
  }
}
} // namespace

// The code samples first: their interrupts are charged to the frames open
// now. The switch source's records, read after the drain, then include a
// switch inside it, which the pending rule gives to the frames open after
// this probe (activetime_switch.h).
void PollSlow(ThreadTls &T, u64 Now) {
  ThreadState *TS = T.TS;
  if (!TS)
    return;
  if (UNLIKELY(TS->PerfFromTick))
    PollLateRings(T, TS, Now);
  PollCodeSamples(T);
  PollSwitchSource(T, Now);
}

} // namespace __activetime
