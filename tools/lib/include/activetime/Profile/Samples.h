//===- activetime/Profile/Samples.h - Sample attribution --------*- C++ -*-===//
//
// Part of ActiveTime. Turns the samples section (sample=1) into per-activity
// figures, off-CPU time charged to the prior on-CPU frame: an on-CPU sample
// charges its weight to its own frame, an off-CPU sample to the frame the
// thread was in when it left the CPU. The sampler reads that frame from the
// shadow stack of the descheduled thread (which cannot push or pop while off
// CPU); when the stack was mid-update it recorded the thread's prior on-CPU
// sample's frame instead (raw::SF_PriorFrame).
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_PROFILE_SAMPLES_H
#define ACTIVETIME_PROFILE_SAMPLES_H

#include "activetime/Profile/Profile.h"

#include <map>
#include <string>
#include <vector>

namespace activetime {
namespace profile {

/// The name of the "frame" of samples taken outside any instrumented
/// function (shadow stack empty).
extern const char kOutsideFrame[];

struct SampleFigures {
  double OnNs = 0;       // on-CPU weight charged here
  double OffNs = 0;      // off-CPU weight charged here
  uint64_t OnSamples = 0;
  uint64_t OffSamples = 0;
  uint64_t PriorFrame = 0; // off-CPU samples charged via the prior sample
  uint64_t Preempted = 0;  // off-CPU samples of a runnable (preempted) thread
  double totalNs() const { return OnNs + OffNs; }
  uint64_t samples() const { return OnSamples + OffSamples; }
};

struct SampleSummary {
  /// Call path (linkage names, outermost first; {kOutsideFrame} outside) ->
  /// figures of the samples whose charged frame is that path's leaf.
  std::map<std::vector<std::string>, SampleFigures> Paths;
  /// Function -> figures where it is the charged frame (self) ...
  std::map<std::string, SampleFigures> Self;
  /// ... and where it is anywhere on the path (once per sample).
  std::map<std::string, SampleFigures> Total;
  SampleFigures All;
  uint64_t Processes = 0;      // processes with a samples section
  double IntervalNs = 0;       // mean interval (of the first such process)
  bool Randomized = false;     // of the first such process
  unsigned Realtime = 0;       // processes whose sampler ran SCHED_FIFO
  double WakeLateNs = 0;       // summed wake-up latency of all sweeps
  uint64_t Sweeps = 0, Dropped = 0, TornRetries = 0, TornDiscarded = 0;
  uint64_t Unmapped = 0, ProcStateSamples = 0;
  double SamplerCpuNs = 0;     // sum over processes
  double SampledWallNs = 0;    // sum of (sampler end - start)
};

/// Aggregates the samples of every process of \p P (ticks -> ns with each
/// process's tick rate). Processes without samples contribute nothing.
SampleSummary summarizeSamples(const Profile &P);

/// The call path of node \p Node of thread \p T (linkage names, outermost
/// first); {kOutsideFrame} for raw::kNoNode.
std::vector<std::string> samplePath(const Process &P, const Thread &T,
                                    uint32_t Node);

} // namespace profile
} // namespace activetime

#endif // ACTIVETIME_PROFILE_SAMPLES_H
