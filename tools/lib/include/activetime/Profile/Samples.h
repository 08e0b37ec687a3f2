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
// A counted function has no frame on the shadow stack: while it runs, the
// sampler sees its nearest timed caller. So the on-CPU time charged to a
// timed frame is divided as the time report divides the frame's self time,
// by the frame's code samples (CodeSampleSplit.h): its own code keeps its
// share, each counted function it ran gets a synthetic frame above it
// (SampleFrame::Counted) with the rest, and the share of a timed callee's
// code outside its probes goes to that callee's frame (or, the callee
// having no counted calls on the thread and no timed node under the frame,
// to a synthetic "[outside probes]" frame of it, SampleFrame::OutsideProbes,
// as the time report's tree has it). Off-CPU time stays
// with the frame the thread left the CPU in: code samples are taken on CPU
// only, so nothing says which counted function, if any, the thread waited
// in (the time report, too, keeps switched-out time in the timed frames).
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_PROFILE_SAMPLES_H
#define ACTIVETIME_PROFILE_SAMPLES_H

#include "activetime/Profile/Aggregate.h"
#include "activetime/Profile/Profile.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"

#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace activetime {
namespace profile {

/// The name of the "frame" of samples taken outside any instrumented
/// function (shadow stack empty) ...
extern const char kOutsideFrame[];
/// ... and its function id in a SampleFrame.
constexpr uint32_t kOutsideFunc = UINT32_MAX;

/// One frame of a sampled call path.
struct SampleFrame {
  uint32_t Func = kOutsideFunc; // Aggregate::Functions index, or kOutsideFunc
  /// A counted function's synthetic frame: its on-CPU time inside the timed
  /// frame below it, estimated from that frame's code samples (the time
  /// report's "[counted]" child). Only ever a path's leaf.
  bool Counted = false;
  /// A function's code outside its probes inside the timed frame below it,
  /// where it had no counted calls on the thread and no timed node under
  /// that frame (the time report's "[outside probes]" child): on-CPU time
  /// estimated from the frame's code samples, not a counted function's.
  /// Only ever a path's leaf.
  bool OutsideProbes = false;
  friend bool operator<(const SampleFrame &A, const SampleFrame &B) {
    return std::tie(A.Func, A.Counted, A.OutsideProbes) <
           std::tie(B.Func, B.Counted, B.OutsideProbes);
  }
  friend bool operator==(const SampleFrame &A, const SampleFrame &B) {
    return A.Func == B.Func && A.Counted == B.Counted &&
           A.OutsideProbes == B.OutsideProbes;
  }
};

/// A call path of the samples, outermost first.
using SamplePath = std::vector<SampleFrame>;

struct SampleFigures {
  double OnNs = 0;       // on-CPU weight charged here
  double OffNs = 0;      // off-CPU weight charged here
  /// Samples charged here, wholly or in part: an on-CPU sample of a frame
  /// split by code samples counts for the frame and for every frame that
  /// got a part of it.
  uint64_t OnSamples = 0;
  uint64_t OffSamples = 0;
  uint64_t PriorFrame = 0; // off-CPU samples charged via the prior sample
  uint64_t Preempted = 0;  // off-CPU samples of a runnable (preempted) thread
  double PreemptedNs = 0;  // their weight (part of OffNs)
  /// On-CPU samples' worth charged here (OnSamples less the parts a split
  /// gave other frames): what a flame graph of sample counts adds up.
  double OnSampleShare = 0;
  /// The variance (ns^2) of OnNs from the code samples' ratios of the
  /// splits behind it; 0 where no split is.
  double OnVarNs2 = 0;
  /// Includes a counted function's synthetic frames (estimated time).
  bool Counted = false;
  double totalNs() const { return OnNs + OffNs; }
  uint64_t samples() const { return OnSamples + OffSamples; }
  SampleFigures &operator+=(const SampleFigures &O);
};

/// How the on-CPU time charged to timed frames was divided by their code
/// samples, over all sampled processes. A frame is a (thread, node) with
/// on-CPU samples.
struct SampledSplit {
  double SplitOnNs = 0;    // of frames with code-sample ratios
  double CountedOnNs = 0;  // of that, given to counted functions' frames
  double CountedVarNs2 = 0; // the variance of CountedOnNs
  /// Given to functions whose code outside their probes (prologue,
  /// epilogue) the frames' code samples fell in: to their timed frames
  /// under the frame, or to "[outside probes]" frames (SampleFrame).
  double OutsideProbesOnNs = 0;
  /// Of frames whose function had no code sample in the process: not split
  /// (counted functions they ran stay in them).
  double UnsplitOnNs = 0;
  uint64_t OwnFrames = 0;    // split by the frame's own code samples
  uint64_t PooledFrames = 0; // by those of every frame of its function
  uint64_t UnsplitFrames = 0;
  /// Sampled processes that took no code samples (code_samples=0, perf
  /// refused, mode=trace).
  unsigned ProcessesWithoutCodeSamples = 0;
};

/// The sampled call paths ({kOutsideFunc} outside) with the figures of the
/// samples whose charged frame (or the part of it a split gave) is a path's
/// leaf. The paths are stored as one tree of frames: a path is a node, its
/// frames those from the root down to it, so paths that share a prefix share
/// its storage (the paths of a deep recursion take memory linear in its
/// depth, not in its square), and an export that follows a path walks it
/// rather than copying it.
class SamplePaths {
public:
  /// The empty path: the root, no frame.
  static constexpr uint32_t kRoot = 0;
  struct Node {
    uint32_t Parent = UINT32_MAX;
    uint32_t Depth = 0; // frames on the path
    SampleFrame Frame;
  };
  /// A path that has figures.
  struct Entry {
    uint32_t Node;
    SampleFigures F;
  };

  SamplePaths() : Nodes(1) {}
  /// The path of \p Parent extended by \p F (made on first use).
  uint32_t child(uint32_t Parent, const SampleFrame &F);
  /// Adds \p F to the figures of path \p N.
  void add(uint32_t N, const SampleFigures &F);
  /// Puts the paths with figures in path order: outermost frames compared
  /// first, a path before its extensions (as std::map<SamplePath> orders
  /// them). After the last add().
  void finish();

  const Node &node(uint32_t N) const { return Nodes[N]; }
  size_t numNodes() const { return Nodes.size(); }
  /// The frames of path \p N, outermost first (O(depth)).
  SamplePath path(uint32_t N) const;
  /// For every node, its ancestor \p Depth frames deep (itself when it is
  /// not deeper): where the outermost frames of a cut path end, for all
  /// paths at once.
  std::vector<uint32_t> ancestorsAt(uint32_t Depth) const;

  /// The paths with figures, in path order (after finish()).
  const std::vector<Entry> &entries() const { return Entries; }
  std::vector<Entry>::const_iterator begin() const { return Entries.begin(); }
  std::vector<Entry>::const_iterator end() const { return Entries.end(); }
  size_t size() const { return Entries.size(); }
  /// The figures of the path \p P (it must have some), whether it has.
  const SampleFigures &at(const SamplePath &P) const;
  size_t count(const SamplePath &P) const;

  /// The children of every node: those of node N are
  /// Kids[First[N] .. First[N + 1]), in node order.
  void children(std::vector<uint32_t> &First,
                std::vector<uint32_t> &Kids) const;

private:
  static uint64_t key(const SampleFrame &F);
  uint32_t find(const SamplePath &P) const; // UINT32_MAX: none

  std::vector<Node> Nodes; // parents before children
  llvm::DenseMap<std::pair<uint32_t, uint64_t>, uint32_t> Children;
  std::vector<Entry> Entries;
  llvm::DenseMap<uint32_t, uint32_t> EntryOf; // node -> Entries index
};

struct SampleSummary {
  SamplePaths Paths;
  /// Function -> figures where it is the charged frame (self) ...
  std::map<uint32_t, SampleFigures> Self;
  /// ... and where it is anywhere on the path (once per sample).
  std::map<uint32_t, SampleFigures> Total;
  SampleFigures All;
  SampledSplit Split;
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
/// process's tick rate), functions identified as in \p A, aggregate(P).
/// Processes without samples contribute nothing.
SampleSummary summarizeSamples(const Profile &P, const Aggregate &A);

/// The call path of node \p Node of thread \p T (outermost first, timed
/// frames only), its functions mapped through \p Global (the process's
/// Aggregate::FunctionIds); {kOutsideFunc} for raw::kNoNode. O(depth): the
/// views follow SamplePaths instead.
SamplePath samplePath(const Thread &T, uint32_t Node,
                      llvm::ArrayRef<uint32_t> Global);

} // namespace profile
} // namespace activetime

#endif // ACTIVETIME_PROFILE_SAMPLES_H
