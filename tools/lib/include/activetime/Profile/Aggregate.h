//===- activetime/Profile/Aggregate.h - Profile aggregation -----*- C++ -*-===//
//
// Part of ActiveTime. Turns the per-thread calling-context trees of a
// Profile into what reports show: flat per-function statistics, one call
// tree merged over all threads and processes, and per-thread summaries.
// All times are nanoseconds (double), converted with each process's own
// tick rate before anything is summed across processes.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_PROFILE_AGGREGATE_H
#define ACTIVETIME_PROFILE_AGGREGATE_H

#include "activetime/Profile/Flags.h"
#include "activetime/Profile/Profile.h"
#include "activetime/Profile/ThreadIds.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>
#include <string>
#include <vector>

namespace activetime {
namespace profile {

/// A function as reports identify it: by linkage name, plus the module name
/// for local-linkage functions (two files may each have a static `helper`,
/// while an inline C++ function appears in the table of every module that
/// uses it and is still one function).
struct FunctionInfo {
  std::string Name;   // linkage name
  std::string Module; // module name; set only when Local
  bool Local = false;
  std::string File;   // first non-empty source file seen
  uint32_t Line = 0;
};

/// The parts of one figure's uncertainty besides the code-sample split
/// (Stats::SelfVar), each summed over the probe pairs, tick readings and
/// code samples inside the figure (docs/user-guide.md, "What +-95%
/// includes"):
///  - ResidualNs: the probes' residual cost, at most probeResidual ns per
///    timed call whose probe pair is inside (a bound, added in full);
///  - QuantVarNs2 / QuantMaxNs: the tick counter's step S. Every timed
///    interval is a difference of two readings, each rounded to a step, so
///    off by less than S, uniformly (variance S^2/6, independent between
///    readings); M such differences: variance M S^2/6 (QuantVarNs2), never
///    more than M S (QuantMaxNs, every rounding the same way);
///  - SampleCostNs: code samples charged to the figure's frames times the
///    uncertainty of one sample's cost (kSampleCostUncertainty of the
///    start-up estimate each), added in full.
struct ErrorParts {
  double ResidualNs = 0;
  double QuantVarNs2 = 0;
  double QuantMaxNs = 0;
  double SampleCostNs = 0;
  void add(const ErrorParts &E);
  /// The parts of a share \p F (0..1) of the figure: each bound times F,
  /// each variance times F^2.
  ErrorParts scaled(double F) const;
};

/// How far the cost removed for one code sample from a frame may be from
/// what the sample cost that frame, as a fraction of the start-up estimate
/// removed per sample. The cost of an interrupt varies by tens of percent
/// around the estimate (what the interrupted code had in its caches), and
/// a sample is charged to the frames open when the ring is drained, which
/// need not be the frames it interrupted: a thread's first probe drains
/// the samples taken since the thread started, so a frame can lose a
/// whole estimate per sample it never paid for (measured: thread entry
/// frames of a 4-thread C++ program at -1.0 estimate with one sample).
/// One whole estimate per sample bounds both.
constexpr double kSampleCostUncertainty = 1.0;

/// Figures of a node, a merged tree node or a function. Inclusive figures
/// (Elapsed, Active, Overhead, OffCpu, switch counts) of flat stats count
/// recursion once (only nodes without an ancestor of the same function);
/// self figures are plain sums. Active = Elapsed - Overhead - OffCpu and
/// may be slightly negative for tiny frames (overhead is an estimate).
struct Stats {
  uint64_t Calls = 0;
  double Elapsed = 0;     // ns, inclusive elapsed
  double SelfElapsed = 0; // ns, elapsed minus the callees' elapsed
  double Active = 0;      // ns, inclusive active
  double SelfActive = 0;  // ns, active minus the callees' active
  double Overhead = 0;    // ns, probe overhead inside the calls
  double SelfOverhead = 0; // ns, overhead minus the callees' overhead
  double OffCpu = 0;      // ns, switched-out time inside the calls
  uint64_t Voluntary = 0, Involuntary = 0; // switches inside the calls
  double Min = 0;  // ns, shortest single call (active); 0 when Calls == 0
  double Max = 0;  // ns, longest single call (active)
  // Timed or counted. Calls that were only counted (their time is not in
  // the inclusive figures, min or max, which describe the timed calls); the
  // part of SelfActive that code samples attributed to this function inside
  // its timed callers' self time, and the samples behind it; the variance
  // (ns^2) of SelfActive from that sampling (of the part moved here, or of
  // the part a timed frame kept); the timed calls whose probes' unmeasured
  // cost lands in SelfActive (the calls themselves and their timed callees).
  uint64_t CountedCalls = 0;
  double Sampled = 0;
  uint64_t Samples = 0;
  double SelfVar = 0;
  uint64_t SelfProbePairs = 0;
  // The rest of the uncertainty of SelfActive and of Active (ErrorParts).
  ErrorParts SelfErr, ActiveErr;

  /// Every call was timed: the inclusive figures describe all of them.
  bool allTimed() const { return CountedCalls == 0; }
  void addMinMax(double NodeMin, double NodeMax);
};

struct FunctionStats {
  uint32_t Func = 0; // index into Aggregate::Functions
  Stats S;
  double Share = 0;  // S.SelfActive / total self-active time of the scope
};

/// Orders of the flat and per-thread tables (`report --sort`).
enum class SortKey {
  Calls, Elapsed, Active, SelfActive, SelfElapsed, Overhead, OffCpu, Min, Max,
  Name
};

/// Largest first (Name: alphabetical); ties by self-active time, then name.
void sortFunctions(std::vector<FunctionStats> &V,
                   const std::vector<FunctionInfo> &Functions, SortKey Key);

struct TreeNode {
  uint32_t Func = UINT32_MAX; // UINT32_MAX for the synthetic root
  uint32_t Parent = UINT32_MAX;
  uint32_t Depth = 0;         // root 0, its children 1, ...
  // A counted function's time inside this node's parent (a timed frame),
  // from code samples: a leaf with only S.SelfActive (= S.Active, S.Sampled)
  // set; its callers between it and the parent were counted too.
  bool Counted = false;
  /// With Counted: the function had no counted calls on the thread and no
  /// timed node under the parent, yet the parent's samples fell in its
  /// code: its code outside its probes (prologue, epilogue, the counting
  /// path before the jump to its timed copy), timed nowhere.
  bool OutsideProbes = false;
  Stats S;
  std::vector<uint32_t> Children; // sorted by active time, descending
  /// AggregateOptions::TreePerThread only: the call instruction the node's
  /// calls came from (Node::Site; Func kNoFunc when unknown or outside).
  CallerCode Site;
};

struct ThreadSummary {
  uint32_t Process = 0; // index into Profile::Processes
  uint64_t Tid = 0;
  uint32_t TidOrder = 0; // Thread::TidOrder
  /// How reports name the thread: "1234", or "1234#2" (ThreadIds.h).
  std::string label() const { return threadLabel(Tid, TidOrder); }
  std::string Name;
  ThreadFlags Flags;
  uint64_t FoldedThreads = 0; // Thread::FoldedThreads
  double WallNs = 0;
  uint64_t OpenFrames = 0, UnmatchedExits = 0, UnwoundFrames = 0,
           DroppedEvents = 0;
  profile::SwitchSource SwitchSource = profile::SwitchSource::None;
  double SwitchResolutionNs = 0;
  double OffCpuNs = 0;         // whole thread
  uint64_t VoluntarySwitches = 0, InvoluntarySwitches = 0,
           LostSwitchRecords = 0;
  double TotalSelfActive = 0;
  double TotalSelfElapsed = 0;
  /// The thread's own CPU clock over its profiled span (raw v10), ns; < 0
  /// when it was not read. The probes' and code samples' cost is in it, so
  /// TotalSelfActive can only exceed it by its own uncertainty, the 95%
  /// bound TotalSelfActiveErrNs: halfWidth95 of the thread's functions'
  /// self-active error parts and split variances added up.
  double CpuNs = -1;
  double TotalSelfActiveErrNs = 0;
  bool exceedsCpu() const {
    return CpuNs >= 0 && TotalSelfActive > CpuNs + TotalSelfActiveErrNs;
  }
  std::vector<FunctionStats> Functions; // sorted like Aggregate::Flat
};

/// How the self times were obtained, over the whole profile.
struct Provenance {
  uint64_t TimedCalls = 0;    // calls timed by the probes
  uint64_t CountedCalls = 0;  // calls only counted
  uint64_t CodeSamples = 0;   // code samples used to split self time
  uint64_t RuntimeSamples = 0; // of the samples, in the probes (excluded)
  uint64_t LostCodeSamples = 0;
  double SampledNs = 0;       // self time moved to counted functions
  // Self time moved from timed frames to timed callees whose code outside
  // their probes (prologue, epilogue) the frames' code samples fell in
  // (to a timed node under the frame, or, without one, to the function).
  double OutsideProbesNs = 0;
  // Code samples whose interrupt cost was removed from timed frames (those
  // recorded against a node), and the uncertainty that leaves in the
  // times: samples x kSampleCostUncertainty x the cost of one.
  uint64_t ChargedSamples = 0;
  double SampleCostUncertaintyNs = 0;
  // Self time whose samples fell on counting instructions: counting cost
  // at most that (not removed; see SampleSplit in Aggregate.cpp).
  double CountingBoundNs = 0;
  double SampledSigmaNs = 0;  // its standard error from the sampling
  // How far the probes' cost removed from one timed call may be off
  // (the largest over the processes), ns; and over all timed calls.
  double ProbeResidualNs = 0;
  double TimedResidualNs = 0;
  // Self time of timed frames whose function had no code sample at all:
  // whatever counted callees ran there stayed in it.
  double UnsampledSelfNs = 0;
};

/// Aggregate::TreeIndex of a thread's node that is in no tree node.
constexpr uint32_t kNotInTree = UINT32_MAX;

struct Aggregate {
  std::vector<FunctionInfo> Functions;
  /// AggregateOptions::TreePerThread only: thread I's tree nodes are
  /// Tree[ThreadTreeBegin[I] .. ThreadTreeBegin[I + 1]) (or to the end).
  std::vector<uint32_t> ThreadTreeBegin;
  /// Per process: its function ids (Process::Functions) to Functions ids.
  std::vector<std::vector<uint32_t>> FunctionIds;
  /// Per process, per thread: the Tree node each of the thread's nodes went
  /// into, or kNotInTree for a node without calls and everything under it
  /// (they describe no time). Every view that follows a thread's node into
  /// the tree reads it here, so none repeats the tree's rule.
  std::vector<std::vector<std::vector<uint32_t>>> TreeIndex;
  Provenance How;
  /// Every function that has a node, by self-active time descending (ties:
  /// name).
  std::vector<FunctionStats> Flat;
  double TotalSelfActive = 0;
  double TotalSelfElapsed = 0;
  /// Merged call tree; Tree[0] is a synthetic root whose children are the
  /// roots of all threads. A node's index is greater than its parent's.
  std::vector<TreeNode> Tree;
  std::vector<ThreadSummary> Threads;
};

struct AggregateOptions {
  /// One call tree per thread instead of one merged tree (the roots of all
  /// threads' trees are children of Tree[0]), whose nodes also tell calls
  /// from different call instructions apart (TreeNode::Site): what a
  /// per-thread export with call-site lines needs. The flat stats and the
  /// thread summaries are the same either way.
  bool TreePerThread = false;
};

/// Aggregates \p P. Iterative throughout: call trees may be very deep.
Aggregate aggregate(const Profile &P, const AggregateOptions &O = {});

/// Visits \p T's nodes depth first (a node before its children, children
/// in node order), without recursion, so any depth is fine. \p Outermost:
/// no call of the node's function (an Aggregate id through \p Global, the
/// process's function ids) is open above it, so its inclusive time is in no
/// ancestor's: recursion counts once. \p Open is scratch, a counter per
/// Aggregate function, all zero before and after.
void walkOutermost(const Thread &T, llvm::ArrayRef<uint32_t> Global,
                   std::vector<uint32_t> &Open,
                   llvm::function_ref<void(uint32_t Node, bool Outermost)>
                       Visit);

/// A figure as reports print it: its measured value clamped into the range
/// it can have, with the 95% half-width of the measured value.
struct Figure {
  double Shown = 0;
  double Measured = 0;
  double Error = 0;
  bool Clamped = false; // Shown != Measured
};

/// The active figures of \p S as printed. Active (inclusive), where the
/// row has it (every call timed, not a counted node), lies in
/// [0, Elapsed]; SelfActive in [0, Active as printed] (a counted node's
/// active time is its self time; a function with counted calls has no
/// inclusive figure, and its self time is only bounded below by 0).
/// Each Error is the figure's 95% half-width: 1.96 standard deviations of
/// its statistical parts (the code-sample split, SelfVar, and the tick
/// rounding, capped at its bound) plus its bounds (probe residual,
/// code-sample cost) in full.
struct ActiveFigures {
  bool HasActive = false;
  Figure Active, Self;
};
ActiveFigures activeFigures(const Stats &S, bool CountedNode = false);
/// The 95% half-width of a figure with parts \p E and sampling variance
/// \p SampleVar (ns^2).
double halfWidth95(const ErrorParts &E, double SampleVar);

/// What aggregate() adds for one node as its inclusive figures: active and
/// elapsed time with the node's code outside its probes that code samples
/// found, and their error parts.
struct NodeInclusive {
  double ActiveNs = 0, ElapsedNs = 0;
  ErrorParts Err;
};
/// Those of every node of \p P: [process][thread][node].
std::vector<std::vector<std::vector<NodeInclusive>>>
nodeInclusive(const Profile &P);

/// \p V (with its 95% half-width \p Err) clamped into [Low, High].
Figure clampFigure(double V, double Err, double Low, double High);


/// Ticks of \p P converted to nanoseconds.
double ticksToNs(const Process &P, uint64_t Ticks);
double signedTicksToNs(const Process &P, int64_t Ticks);
/// Ticks * 256 (the overhead table's fixed point) converted to nanoseconds.
double ticks256ToNs(const Process &P, uint64_t Ticks256);
/// Nanoseconds from \p P's start to \p Tick (0 for a tick before it).
double nsIntoRun(const Process &P, uint64_t Tick);

} // namespace profile
} // namespace activetime

#endif // ACTIVETIME_PROFILE_AGGREGATE_H
