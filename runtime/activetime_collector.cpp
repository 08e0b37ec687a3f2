//===- activetime_collector.cpp - The runtime's collectors ------*- C++ -*-===//
//
// The registered collectors in order (see activetime_collector.h), and the
// slow path of the probes' poll.
//
//===----------------------------------------------------------------------===//

#include "activetime_collector.h"

#include "activetime_codesamples.h"
#include "activetime_thread.h"

namespace __activetime {

// The linker's brackets of the registrations (AT_REGISTER_COLLECTOR). Weak:
// a program that links none of the collectors' files (the flag parser's
// fuzzer) has no such section, and then registers nothing.
extern "C" {
extern const Collector *const __start_activetime_collectors[]
    __attribute__((weak, visibility("hidden")));
extern const Collector *const __stop_activetime_collectors[]
    __attribute__((weak, visibility("hidden")));
}

u32 CollectorsInOrder(const Collector *(&Out)[kMaxCollectors]) {
  u32 N = 0;
  for (const Collector *const *R = __start_activetime_collectors;
       R && R != __stop_activetime_collectors; ++R) {
    CHECK_LT(N, kMaxCollectors);
    // Insertion: a dozen entries, already in link order mostly.
    u32 I = N++;
    for (; I > 0 && Out[I - 1]->Order > (*R)->Order; --I)
      Out[I] = Out[I - 1];
    Out[I] = *R;
  }
  return N;
}

bool CollectorsRegistered() {
  return __start_activetime_collectors &&
         __start_activetime_collectors != __stop_activetime_collectors;
}

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
  } else {
    WatchLateReady(T, TS); // not yet: quiet until what it watches moves
    T.SampleTailSeen = *T.SampleHead;
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
  // First: a helper process's figures published here (the sample cost
  // among them) let this poll open the late rings.
  if (UNLIKELY(T.TablePending))
    PollMeasuredBeside();
  if (UNLIKELY(TS->PerfFromTick))
    PollLateRings(T, TS, Now);
  PollCodeSamples(T);
  PollSwitchSource(T, Now);
  // Last: a pending table caps the NextCheckTick the others set.
  if (UNLIKELY(T.TablePending))
    PollProbeTable(T, Now);
}

} // namespace __activetime
