//===- activetime_sampler.h - Shadow-stack sampler --------------*- C++ -*-===//
//
// sample=1 (shadow-stack sampling): a runtime thread wakes at exponentially
// distributed intervals and reads, without stopping or signalling them, the
// shadow stack (each thread's call-stack work area) of every live thread plus
// whether it is on a CPU (its perf switch ring, else /proc). It never
// unwinds, never takes a lock a probe takes, and is itself not instrumented.
//
// Consistency: ThreadTls::Seq is odd while the owner mutates its stack; the
// sampler reads Seq, the stack top, then Seq again and retries on a change
// (counted), discards an on-CPU snapshot still torn after the retries
// (counted) and, for a thread off CPU inside a probe, charges its prior
// on-CPU sample's frame (off-CPU time is charged to the frame that was on
// the CPU before it; flagged).
//
// Lifetime: registry entries are never freed; a thread's TLS block, stacks
// and ring are, at thread finish, only after SamplerWaitThreadLeaving saw
// the sampler not holding the entry (a two-flag handshake, no lock).
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_SAMPLER_H
#define ACTIVETIME_SAMPLER_H

#include "activetime/raw_format.h"
#include "activetime_internal.h"

namespace __activetime {

struct ThreadState;

// Starts the sampler thread if sample=1 (runtime init).
void StartSampler();
// Stops and joins it (exit-time writer). Idempotent.
void StopSampler();
// Fork child: the sampler thread did not survive; forget the parent's
// samples and start a new sampler for the child's own profile.
void SamplerAfterForkChild();
// Thread finish: returns once the sampler does not and will not read TS.
void SamplerWaitThreadLeaving(ThreadState *TS);

// The writer's view: samples so far (Thread = registry ordinal, Node = call
// tree index with 0 = root) and the section header's counters.
struct SamplerView {
  const activetime::raw::SampleRecord *Samples;
  u64 NumSamples;
  activetime::raw::SamplesRecord Header; // NumSamples/Unmapped filled later
};
// False if the sampler never ran in this process.
bool GetSamplerView(SamplerView *V, u64 EndTick, u64 TickRate);

// Exponential variate with the given mean (>= 1), from a xorshift64* state.
u64 NextExponential(u64 *State, u64 Mean);
// Natural log of X in (0, 1] without libm.
double LogUnit(double X);

struct ThreadTls;
// Testing: one seqlock read of T's stack top (what a sweep does).
bool SnapshotForTesting(ThreadTls *T, u32 *Node, u32 *Depth);

} // namespace __activetime

#endif // ACTIVETIME_SAMPLER_H
