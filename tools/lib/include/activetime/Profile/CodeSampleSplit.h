//===- activetime/Profile/CodeSampleSplit.h - Code sample ratios-*- C++ -*-===//
//
// Part of ActiveTime. A timed frame's self time holds the time of the
// counted functions it ran (they have no frame of their own). Its code
// samples say how that time divides: among the frame's own code (library
// and kernel time it called directly included) and each counted function
// the samples fell in. This is the one place those ratios are worked out;
// the time report (Aggregate.cpp) applies them to a frame's self-active
// time, the sampled views (Samples.cpp) to the on-CPU time the shadow-stack
// samples charged to the frame.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_PROFILE_CODESAMPLESPLIT_H
#define ACTIVETIME_PROFILE_CODESAMPLESPLIT_H

#include "activetime/Profile/Profile.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace activetime {
namespace profile {

/// Code samples of a timed frame (or of all frames of one function) by what
/// they fell in: the frame's own code (or code outside the program, which is
/// charged to it like every library call) and each counted function.
struct SampleSplit {
  uint64_t Own = 0;
  /// Of all, those on counted calls' counting instructions: an upper bound
  /// of what counting cost there (retirement waits there also for latency
  /// the program's own work would have hidden).
  uint64_t Counting = 0;
  llvm::SmallVector<std::pair<uint32_t, uint64_t>, 4> Callees; // process func id
  uint64_t total() const {
    uint64_t N = Own;
    for (const auto &C : Callees)
      N += C.second;
    return N;
  }
  void add(uint32_t Func, uint64_t N);
};

/// A frame's ratios are its own when it has at least this many samples, else
/// those of every frame of its function in the process (pooled).
constexpr uint64_t kMinFrameSamples = 8;

/// The variance (ns^2) of the share K/N of Ns estimated from N samples.
/// The rule-of-succession share (K+1)/(N+2) keeps it above 0 when every
/// sample (or the only one) fell on the same side.
double shareVariance(double Ns, uint64_t K, uint64_t N);

/// Adds a code sample of a frame of function \p Own to \p Sp: its own code
/// (code outside the program included) or another function; false for the
/// runtime (probe time, which the probes measured and removed).
bool addCodeSample(SampleSplit &Sp, const CodeSample &S, uint32_t Own);

/// One part of a frame's self time that its code samples put elsewhere.
struct SplitShare {
  uint32_t Func = 0;     // process-wide function id
  uint64_t Samples = 0;  // K of the ratios' total N
  /// raw::kNoNode: Func is a counted callee (its time has no frame), or,
  /// with Uncounted, a function that ran code outside its probes. Else
  /// Func was timed on every call of the thread and this is its timed node
  /// under the frame: the samples fell in its code outside its probes
  /// (prologue, epilogue), which ran while the frame was on top.
  uint32_t TimedChild = kNoNode;
  /// Func had no counted calls on the thread and has no timed node under
  /// the frame: the samples fell in its code outside its probes (prologue,
  /// epilogue, the counting path before the jump to its timed copy), which
  /// is timed nowhere. Not a counted callee's time: the time report moves
  /// it to the function as "[outside probes]".
  bool Uncounted = false;
};

/// Where a frame's ratios came from.
enum class RatioSource : uint8_t {
  None,   // its function had no code sample in the process: not split
  Own,    // the frame's own code samples (kMinFrameSamples or more)
  Pooled, // every frame of its function in the process
};

/// The code samples of one process's frames, pooled by function.
class ProcessCodeSamples {
public:
  explicit ProcessCodeSamples(const Process &P);
  /// Code samples (on frames) that fell in the runtime and are left out.
  uint64_t runtimeSamples() const { return Runtime; }
  /// The pooled ratios of \p Func's frames; null when it has none.
  const SampleSplit *pooled(uint32_t Func) const;

private:
  llvm::DenseMap<uint32_t, SampleSplit> Pooled;
  uint64_t Runtime = 0;
};

/// How each node of one thread divides its self time.
class ThreadCodeSamples {
public:
  ThreadCodeSamples(const ProcessCodeSamples &P, const Thread &T);
  /// The ratios node \p Node's self time divides by (its own or pooled,
  /// \p Source says which); none when there are none (RatioSource::None).
  /// Pooled ratios are those of every frame of the function: the samples
  /// in the code outside the probes of a function the frame neither called
  /// (no timed node under it) nor can have run counted say nothing of this
  /// frame, and count as its own code (a leaf would otherwise get a share
  /// of every function its function's other frames called).
  std::optional<SampleSplit> ratios(uint32_t Node,
                                    RatioSource *Source = nullptr) const;
  /// The parts of node \p Node's self time that its ratios put in other
  /// functions (the rest, ratios(Node)->Own of the total, stays).
  llvm::SmallVector<SplitShare, 4> shares(uint32_t Node) const;
  /// The thread's code samples on its nodes outside the runtime.
  uint64_t samplesUsed() const { return Used; }

private:
  /// Whether \p Node can have run code of \p Func: a counted function of
  /// the thread, or a timed child of the frame.
  bool canHaveRun(uint32_t Node, uint32_t Func) const;

  const ProcessCodeSamples &Proc;
  const Thread &T;
  std::vector<SampleSplit> Own; // per node
  /// The thread's functions that were only counted on some calls.
  llvm::DenseSet<uint32_t> Counted;
  llvm::DenseMap<uint64_t, uint32_t> TimedChild; // parent << 32 | func -> node
  uint64_t Used = 0;
};

/// The code samples a process took and what they cost: a thread samples
/// only once it has counted calls (the runtime opens its ring disabled).
struct SamplesTaken {
  uint64_t Samples = 0;
  unsigned SamplingThreads = 0; // threads with at least one sample
  unsigned Threads = 0;
  uint64_t CpuNs = 0;           // the threads' CPU time, where read
  double PaidNs = 0;            // Samples at the measured cost each
  static SamplesTaken of(const Process &P);
};

} // namespace profile
} // namespace activetime

#endif // ACTIVETIME_PROFILE_CODESAMPLESPLIT_H
