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
// The thread has lived perf_after_us: its perf rings open now.
void OpenLateRings(ThreadTls &T, ThreadState *TS, u64 Now) {
  TS->PerfFromTick = 0;
  OpenLateSwitchSource(T, TS, Now);
  OpenThreadCodeSamples(T, TS);
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
  PollCodeSamples(T);
  PollSwitchSource(T, Now);
  if (UNLIKELY(TS->PerfFromTick) && Now >= TS->PerfFromTick)
    OpenLateRings(T, TS, Now);
}

} // namespace __activetime
