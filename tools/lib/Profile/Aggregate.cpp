//===- Aggregate.cpp - Profile aggregation ----------------------------------===//
//
// Part of ActiveTime. See Aggregate.h.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/Aggregate.h"
#include "activetime/Profile/CodeSampleSplit.h"
#include "activetime/abi.h"
#include "activetime/raw_format.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <tuple>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;

double profile::ticksToNs(const Process &P, uint64_t Ticks) {
  // Split into whole seconds and remainder so large tick counts keep their
  // precision for tick rates that are not a divisor of 1e9.
  uint64_t Sec = Ticks / P.TickRate, Rem = Ticks % P.TickRate;
  return double(Sec) * 1e9 + double(Rem) * 1e9 / double(P.TickRate);
}

double profile::signedTicksToNs(const Process &P, int64_t Ticks) {
  return Ticks < 0 ? -ticksToNs(P, uint64_t(0) - uint64_t(Ticks))
                   : ticksToNs(P, uint64_t(Ticks));
}

double profile::ticks256ToNs(const Process &P, uint64_t Ticks256) {
  return ticksToNs(P, Ticks256 >> 8) +
         double(Ticks256 & 255) / 256.0 * 1e9 / double(P.TickRate);
}

double profile::nsIntoRun(const Process &P, uint64_t Tick) {
  return ticksToNs(P, Tick > P.StartTick ? Tick - P.StartTick : 0);
}

static double keyOf(const Stats &S, SortKey K) {
  switch (K) {
  case SortKey::Calls:
    return double(S.Calls);
  case SortKey::Elapsed:
    return S.Elapsed;
  case SortKey::Active:
    return S.Active;
  case SortKey::SelfActive:
  case SortKey::Name:
    return S.SelfActive;
  case SortKey::SelfElapsed:
    return S.SelfElapsed;
  case SortKey::Overhead:
    return S.Overhead;
  case SortKey::OffCpu:
    return S.OffCpu;
  case SortKey::Min:
    return S.Min;
  case SortKey::Max:
    return S.Max;
  }
  return 0;
}

void profile::sortFunctions(std::vector<FunctionStats> &V,
                            const std::vector<FunctionInfo> &Fns,
                            SortKey Key) {
  llvm::sort(V, [&](const FunctionStats &A, const FunctionStats &B) {
    const FunctionInfo &FA = Fns[A.Func], &FB = Fns[B.Func];
    if (Key == SortKey::Name && FA.Name != FB.Name)
      return FA.Name < FB.Name;
    double KA = keyOf(A.S, Key), KB = keyOf(B.S, Key);
    if (KA != KB)
      return KA > KB;
    if (A.S.SelfActive != B.S.SelfActive)
      return A.S.SelfActive > B.S.SelfActive;
    if (FA.Name != FB.Name)
      return FA.Name < FB.Name;
    return A.Func < B.Func;
  });
}

void Stats::addMinMax(double NodeMin, double NodeMax) {
  if (Calls == 0) {
    Min = NodeMin;
    Max = NodeMax;
    return;
  }
  Min = std::min(Min, NodeMin);
  Max = std::max(Max, NodeMax);
}

namespace {

// The key bits of a counted function's synthetic node in the merged tree,
// and of a function's code outside its probes (TreeNode::OutsideProbes).
constexpr uint32_t kCountedChild = 1u << 31;
constexpr uint32_t kOutsideChild = 1u << 30;

/// Self time moved from a timed frame to a function whose code its
/// samples fell in: a counted function it ran, or (Uncounted) a function
/// without counted calls on the thread and without a timed node under the
/// frame, whose code ran outside its probes.
struct MovedTime {
  uint32_t Func;  // process-wide function id
  double Ticks;
  double VarNs2;  // variance of the estimate from the sampling, ns^2
  uint64_t Samples;
  ErrorParts Err; // the frame's other error parts, in the same share
  bool Uncounted;
};

/// A fractional number of ticks (a share of a split) in nanoseconds.
double fracTicksToNs(const Process &P, double Ticks) {
  return Ticks * 1e9 / double(P.TickRate);
}

/// Per process: what one timed call, one tick reading and one code sample
/// contribute to a figure's uncertainty (ErrorParts).
struct ProcessErrors {
  double ResidualNs = 0; // per timed call (probe pair)
  double StepNs = 0;     // the tick counter's step
  double SampleCostNs = 0; // per code sample charged
};

/// How far one timed call's removed probe cost may be off, in ticks.
double probeResidualTicks(const OverheadTable &O);

ProcessErrors processErrors(const Process &P) {
  ProcessErrors E;
  E.ResidualNs = probeResidualTicks(P.Overhead) * 1e9 / double(P.TickRate);
  // Not measured (0): the counter is taken to move every tick.
  E.StepNs = P.TickStep256 ? ticks256ToNs(P, P.TickStep256)
                           : 1e9 / double(P.TickRate);
  // A cost that was not measured was not removed either: the interrupts
  // stay in the times, as the report says, with nothing uncertain about a
  // removal.
  if (!(P.CodeSampleFlags & raw::CSF_CostUnmeasured))
    E.SampleCostNs =
        kSampleCostUncertainty * ticks256ToNs(P, P.CodeSampleCost256);
  return E;
}

/// The error parts of a figure holding \p Pairs timed calls' probe pairs
/// (two tick differences each: the call's elapsed time and the probe
/// interval charged to it) and \p Samples charged code samples.
ErrorParts errorParts(const ProcessErrors &PE, uint64_t Pairs,
                      uint64_t Samples) {
  ErrorParts E;
  double M = 2 * double(Pairs);
  E.ResidualNs = double(Pairs) * PE.ResidualNs;
  E.QuantVarNs2 = M * PE.StepNs * PE.StepNs / 6;
  E.QuantMaxNs = M * PE.StepNs;
  E.SampleCostNs = double(Samples) * PE.SampleCostNs;
  return E;
}

/// How far one timed call's removed probe cost may be off, in ticks: the
/// parts outside the probes' tick reads are calibrated, not measured (all
/// of them may be wrong), and in the calibration loop the measured parts
/// overlapped the code around them by the difference between what they
/// measured and what the pair really added.
double probeResidualTicks(const OverheadTable &O) {
  double Outside = double(O.Enter256 + O.Exit256) / 256;
  if (!O.Measured)
    return Outside;
  double Measured = double(O.MeasuredEnter256 + O.MeasuredExit256) / 256;
  double Pair = double(O.Pair256) / 256;
  return Outside + (Measured > Pair ? Measured - Pair : Pair - Measured);
}

/// What a thread's nodes add to the tree and the flat stats beyond the
/// nodes themselves, per node (Aggregator::nodeFigures).
struct NodeFigures {
  // Ticks, after the code-sample split; fractional, so that the parts of a
  // split add up to the whole (self times then sum to inclusive ones).
  std::vector<double> SelfActive;
  std::vector<int64_t> SelfOverhead; // ticks, clamped at 0
  std::vector<uint64_t> SelfPairs;   // probe pairs in the self time
  std::vector<std::vector<MovedTime>> Moved; // self time of counted callees
  std::vector<double> KeptVar;       // variance of the self time kept
  std::vector<double> Outside;       // the node's code outside its probes
  // Ticks of the node's self time moved to its callees' code outside their
  // probes: they leave its self elapsed time too.
  std::vector<double> GivenAway;
  std::vector<ErrorParts> SelfErr, InclErr; // after the split
};

class Aggregator {
public:
  Aggregator(const Profile &P, const AggregateOptions &O)
      : Prof(P), Opts(O) {}
  Aggregate run();
  std::vector<std::vector<std::vector<NodeInclusive>>> inclusive();

private:
  std::vector<uint32_t> mapFunctions(const Process &P);
  void splitBySamples(const Process &P, const Thread &T, NodeFigures &F);
  void nodeErrors(const Process &P, const Thread &T, NodeFigures &F);
  /// One thread's nodes into the merged tree, its summary and the flat
  /// stats.
  void addThread(uint32_t ProcIdx, const Process &P, const Thread &T,
                 ArrayRef<uint32_t> Global);
  NodeFigures nodeFigures(const Process &P, const Thread &T);
  void reserveTree(const Thread &T, const NodeFigures &F);
  void addToTree(const Process &P, const Thread &T, ArrayRef<uint32_t> Global,
                 const NodeFigures &F);
  void addToThreadFlat(const Process &P, const Thread &T,
                       ArrayRef<uint32_t> Global, const NodeFigures &F);
  void finishThread(uint32_t ProcIdx, const Process &P, const Thread &T);
  void addSampledAndCounts(const Process &P, const Thread &T,
                           ArrayRef<uint32_t> Global,
                           ArrayRef<std::vector<MovedTime>> Moved);
  Stats &touch(uint32_t G);
  uint32_t treeChild(uint32_t Parent, uint32_t Func);
  uint32_t treeChildAt(uint32_t Parent, uint32_t Func, const Node &Nd);
  void sortAll(std::vector<FunctionStats> &V) const;

  const Profile &Prof;
  const AggregateOptions Opts;
  Aggregate Out;
  StringMap<uint32_t> FuncIds;
  // Per output function: whether its location came from a called entry.
  std::vector<bool> LocationFromCall;
  DenseMap<uint64_t, uint32_t> TreeChildren; // (parent << 32 | func) -> node
  // TreePerThread: (parent, func, run-time call site) -> node, this thread's.
  DenseMap<std::tuple<uint32_t, uint32_t, uint64_t>, uint32_t> SiteChildren;
  std::vector<Stats> FlatAcc;
  // Per-thread scratch, reused to keep allocation proportional to the
  // largest thread rather than to all threads.
  std::vector<Stats> ThreadAcc;
  std::vector<uint32_t> Touched;
  std::vector<uint32_t> Active;
  std::vector<bool> Used;
  // The process's code samples pooled by the function of their frame.
  std::optional<ProcessCodeSamples> ProcSamples;
  // Variance (ns^2) of all the self time moved to counted functions.
  double MovedVar = 0;
};

/// Moves from every timed frame's self time the part its code samples put
/// in other functions (CodeSampleSplit.h: the frame's own ratios, or its
/// function's pooled ones); the frame keeps the rest. A counted callee gets
/// its part as Moved; a timed callee's code outside its probes goes to its
/// timed node under the frame (Outside, added after the split so that the
/// node's own split covers only its own time); a function with neither
/// counted calls on the thread nor a timed node under the frame ran that
/// code outside its probes too, and gets it itself (Moved, Uncounted). Each
/// part takes the same share of the frame's error parts.
void Aggregator::splitBySamples(const Process &P, const Thread &T,
                                NodeFigures &F) {
  size_t N = T.Nodes.size();
  ThreadCodeSamples Split(*ProcSamples, T);
  Out.How.CodeSamples += Split.samplesUsed();
  Out.How.LostCodeSamples += T.LostCodeSamples;
  std::vector<double> OutsideTicks(N, 0.0), GivenTicks(N, 0.0);
  std::vector<ErrorParts> OutsideErr(N);
  for (size_t I = 0; I < N; ++I) {
    if (F.SelfActive[I] <= 0)
      continue;
    std::optional<SampleSplit> R = Split.ratios(I);
    double SaNs = fracTicksToNs(P, F.SelfActive[I]);
    if (!R) {
      Out.How.UnsampledSelfNs += SaNs;
      continue;
    }
    uint64_t Total = R->total();
    double SA = F.SelfActive[I], Left = SA, KeptShare = 1;
    bool MovedCounted = false;
    for (const SplitShare &Sh : Split.shares(I)) {
      double Part = double(Sh.Samples) / double(Total);
      double Var = shareVariance(SaNs, Sh.Samples, Total);
      ErrorParts Err = F.SelfErr[I].scaled(Part);
      Left -= SA * Part;
      KeptShare -= Part;
      if (Sh.TimedChild != raw::kNoNode) {
        OutsideTicks[Sh.TimedChild] += SA * Part;
        GivenTicks[I] += SA * Part;
        F.KeptVar[Sh.TimedChild] += Var;
        OutsideErr[Sh.TimedChild].add(Err);
        Out.How.OutsideProbesNs += SaNs * Part;
        continue;
      }
      if (Sh.Uncounted)
        GivenTicks[I] += SA * Part;
      MovedCounted |= !Sh.Uncounted;
      F.Moved[I].push_back(
          {Sh.Func, SA * Part, Var, Sh.Samples, Err, Sh.Uncounted});
    }
    Out.How.CountingBoundNs += SaNs * double(R->Counting) / double(Total);
    double Var = shareVariance(SaNs, R->Own, Total);
    F.KeptVar[I] += Var;
    // The time moved out of the frame has the same error as what it kept.
    if (MovedCounted)
      MovedVar += Var;
    F.SelfActive[I] = Left;
    F.SelfErr[I] = F.SelfErr[I].scaled(std::max(KeptShare, 0.0));
  }
  for (size_t I = 0; I < N; ++I) {
    F.Outside[I] = OutsideTicks[I];
    F.GivenAway[I] = GivenTicks[I];
    F.SelfActive[I] += F.Outside[I];
    F.SelfErr[I].add(OutsideErr[I]);
    F.InclErr[I].add(OutsideErr[I]);
  }
}

Stats &Aggregator::touch(uint32_t G) {
  if (!Used[G]) {
    Used[G] = true;
    Touched.push_back(G);
  }
  return ThreadAcc[G];
}

/// The thread's sampled time of counted functions (flat), its samples, and
/// its call counts: every call, of which those beyond the timed ones were
/// only counted.
void Aggregator::addSampledAndCounts(const Process &P, const Thread &T,
                                     ArrayRef<uint32_t> Global,
                                     ArrayRef<std::vector<MovedTime>> Moved) {
  for (const std::vector<MovedTime> &V : Moved)
    for (const MovedTime &M : V) {
      Stats &S = touch(Global[M.Func]);
      double Ns = fracTicksToNs(P, M.Ticks);
      S.SelfActive += Ns;
      S.SelfElapsed += M.Uncounted ? Ns : 0;
      S.SelfVar += M.VarNs2;
      S.SelfErr.add(M.Err);
      if (M.Uncounted) {
        Out.How.OutsideProbesNs += Ns;
        continue;
      }
      S.Sampled += Ns;
      Out.How.SampledNs += Ns;
    }
  for (const CodeSample &S : T.CodeSamples)
    if (S.Node != raw::kNoNode && S.Kind == CodeKind::Function &&
        S.Func != T.Nodes[S.Node].Func)
      touch(Global[S.Func]).Samples += S.Count;
  for (const CallCount &C : T.Counts) {
    Stats &S = touch(Global[C.Func]);
    // S.Calls holds the timed calls so far (nodes of this function).
    if (C.Calls > S.Calls) {
      S.CountedCalls += C.Calls - S.Calls;
      S.Calls = C.Calls;
    }
  }
}

/// Which of \p P's functions were called (timed or counted) on any thread.
static std::vector<bool> calledFunctions(const Process &P) {
  std::vector<bool> Called(P.Functions.size());
  for (const Thread &T : P.Threads) {
    for (const Node &N : T.Nodes)
      if (N.Func < Called.size())
        Called[N.Func] = true;
    for (const CallCount &C : T.Counts)
      if (C.Calls && C.Func < Called.size())
        Called[C.Func] = true;
  }
  return Called;
}

std::vector<uint32_t> Aggregator::mapFunctions(const Process &P) {
  std::vector<uint32_t> Global(P.Functions.size());
  // Several modules' tables may list one global function: an inline or
  // template function each emitted, or a weak definition that lost to
  // another module's strong one. Its location is taken from an entry that
  // was called, whose module's code is the copy that ran.
  std::vector<bool> Called = calledFunctions(P);
  for (size_t I = 0; I < P.Functions.size(); ++I) {
    const Function &F = P.Functions[I];
    bool Local = F.Flags & abi::FF_LocalLinkage;
    const std::string &ModName = P.Modules[F.Module].Name;
    // A timed copy's entry (never written by the pass, but a table is
    // outside data) is its function.
    StringRef Name = sourceFunctionName(F.Name);
    // '\0' cannot occur in either name, so the key is unambiguous.
    std::string Key = Name.str();
    if (Local) {
      Key.push_back('\0');
      Key += ModName;
    }
    auto [It, New] = FuncIds.try_emplace(Key, Out.Functions.size());
    if (New) {
      FunctionInfo Info;
      Info.Name = Name.str();
      Info.Local = Local;
      if (Local)
        Info.Module = ModName;
      Out.Functions.push_back(std::move(Info));
    }
    FunctionInfo &Info = Out.Functions[It->second];
    if (LocationFromCall.size() <= It->second)
      LocationFromCall.resize(It->second + 1);
    bool Better = Info.File.empty() ||
                  (Called[I] && !LocationFromCall[It->second]);
    if (Better && !F.File.empty()) {
      Info.File = F.File;
      Info.Line = F.Line;
      LocationFromCall[It->second] = Called[I];
    }
    Global[I] = It->second;
  }
  return Global;
}

uint32_t Aggregator::treeChild(uint32_t Parent, uint32_t Func) {
  auto [It, New] =
      TreeChildren.try_emplace((uint64_t(Parent) << 32) | Func, 0);
  if (New) {
    It->second = Out.Tree.size();
    TreeNode N;
    N.Func = Func & ~(kCountedChild | kOutsideChild);
    N.Counted = Func & kCountedChild;
    N.OutsideProbes = Func & kOutsideChild;
    N.Parent = Parent;
    N.Depth = Out.Tree[Parent].Depth + 1;
    Out.Tree.push_back(std::move(N));
    Out.Tree[Parent].Children.push_back(It->second);
  }
  return It->second;
}

/// The tree node for \p Nd under \p Parent: merged by function, or with
/// TreePerThread by function and call instruction within the thread.
uint32_t Aggregator::treeChildAt(uint32_t Parent, uint32_t Func,
                                 const Node &Nd) {
  if (!Opts.TreePerThread)
    return treeChild(Parent, Func);
  auto [It, New] = SiteChildren.try_emplace({Parent, Func, Nd.CallSite}, 0);
  if (New) {
    It->second = Out.Tree.size();
    TreeNode N;
    N.Func = Func;
    N.Parent = Parent;
    N.Depth = Out.Tree[Parent].Depth + 1;
    N.Site = Nd.Site;
    Out.Tree.push_back(std::move(N));
    Out.Tree[Parent].Children.push_back(It->second);
  }
  return It->second;
}

/// Self-active and self-overhead ticks of every node: its figure minus its
/// children's (parents precede children, so a reverse pass sees children
/// first). Self overhead is how far the self-active figure leans on the
/// overhead table (the report's "~" mark), clamped at 0 for inputs whose
/// children carry more overhead than their parent.
static void selfTimes(ArrayRef<Node> Nodes, std::vector<int64_t> &SelfActive,
                      std::vector<int64_t> &SelfOverhead) {
  size_t N = Nodes.size();
  // 128-bit: a node's children may be many, each bounded by the reader only.
  std::vector<__int128> SelfActiveWide(N), SelfOverheadWide(N);
  for (size_t I = 0; I < N; ++I) {
    SelfActiveWide[I] = Nodes[I].active();
    SelfOverheadWide[I] = Nodes[I].Overhead;
  }
  for (size_t I = N; I-- > 0;)
    if (Nodes[I].Parent != raw::kNoParent) {
      SelfActiveWide[Nodes[I].Parent] -= Nodes[I].active();
      SelfOverheadWide[Nodes[I].Parent] -= Nodes[I].Overhead;
    }
  constexpr __int128 kMax = std::numeric_limits<int64_t>::max();
  SelfActive.resize(N);
  SelfOverhead.resize(N);
  for (size_t I = 0; I < N; ++I) {
    SelfActive[I] = int64_t(std::clamp<__int128>(
        SelfActiveWide[I], std::numeric_limits<int64_t>::min(), kMax));
    SelfOverhead[I] =
        int64_t(std::clamp<__int128>(SelfOverheadWide[I], 0, kMax));
  }
}

/// Each node's error parts before the split: its self time holds the
/// probe pairs of its own calls and its timed callees' (their exit probe's
/// interval and their elapsed time, subtracted) and the code samples
/// recorded against it; its inclusive time those of every timed call in
/// its subtree and every sample recorded in it (a sample's cost is charged
/// to the frame it was recorded in and to all frames open around it).
void Aggregator::nodeErrors(const Process &P, const Thread &T,
                            NodeFigures &F) {
  size_t N = T.Nodes.size();
  std::vector<uint64_t> SelfSamples(N, 0), InclSamples(N, 0),
      InclPairs(N, 0);
  for (const CodeSample &S : T.CodeSamples)
    if (S.Node < N)
      SelfSamples[S.Node] += S.Count;
  F.SelfPairs.assign(N, 0);
  for (size_t I = 0; I < N; ++I) {
    F.SelfPairs[I] += T.Nodes[I].Calls;
    if (T.Nodes[I].Parent != raw::kNoParent)
      F.SelfPairs[T.Nodes[I].Parent] += T.Nodes[I].Calls;
    InclPairs[I] = T.Nodes[I].Calls;
    InclSamples[I] = SelfSamples[I];
    Out.How.ChargedSamples += SelfSamples[I];
  }
  // Children after parents: a reverse pass adds each subtree upwards.
  for (size_t I = N; I-- > 0;)
    if (T.Nodes[I].Parent != raw::kNoParent) {
      InclPairs[T.Nodes[I].Parent] += InclPairs[I];
      InclSamples[T.Nodes[I].Parent] += InclSamples[I];
    }
  ProcessErrors PE = processErrors(P);
  F.SelfErr.resize(N);
  F.InclErr.resize(N);
  for (size_t I = 0; I < N; ++I) {
    F.SelfErr[I] = errorParts(PE, F.SelfPairs[I], SelfSamples[I]);
    F.InclErr[I] = errorParts(PE, InclPairs[I], InclSamples[I]);
    Out.How.SampleCostUncertaintyNs += F.SelfErr[I].SampleCostNs;
  }
}

NodeFigures Aggregator::nodeFigures(const Process &P, const Thread &T) {
  size_t N = T.Nodes.size();
  NodeFigures F;
  std::vector<int64_t> SelfActive;
  selfTimes(T.Nodes, SelfActive, F.SelfOverhead);
  F.SelfActive.assign(SelfActive.begin(), SelfActive.end());
  F.Moved.resize(N);
  F.KeptVar.assign(N, 0.0);
  F.Outside.assign(N, 0);
  F.GivenAway.assign(N, 0);
  nodeErrors(P, T, F);
  splitBySamples(P, T, F);
  return F;
}

/// Node \p I's inclusive figures, added to \p S. The node's code outside
/// its probes that samples found ran during its calls: it is in their
/// elapsed time as well as in their active time.
static void addInclusive(Stats &S, const Process &P, const Node &Nd,
                         const NodeFigures &F, size_t I) {
  S.Elapsed += ticksToNs(P, Nd.Incl) +
               fracTicksToNs(P, std::max(F.Outside[I], 0.0));
  S.Active += signedTicksToNs(P, Nd.active()) + fracTicksToNs(P, F.Outside[I]);
  S.ActiveErr.add(F.InclErr[I]);
  S.Overhead += ticksToNs(P, Nd.Overhead);
  S.OffCpu += ticksToNs(P, Nd.OffCpu);
  S.Voluntary += Nd.Voluntary;
  S.Involuntary += Nd.Involuntary;
}

/// Node \p I's self figures and calls, added to \p S.
static void addSelf(Stats &S, const Process &P, const Node &Nd,
                    const NodeFigures &F, size_t I) {
  S.SelfElapsed += ticksToNs(P, Nd.Excl) +
                   fracTicksToNs(P, F.Outside[I] - F.GivenAway[I]);
  S.SelfActive += fracTicksToNs(P, F.SelfActive[I]);
  S.SelfOverhead += ticksToNs(P, uint64_t(F.SelfOverhead[I]));
  S.SelfVar += F.KeptVar[I];
  S.SelfProbePairs += F.SelfPairs[I];
  S.SelfErr.add(F.SelfErr[I]);
  if (Nd.Calls)
    S.addMinMax(ticksToNs(P, Nd.Min), ticksToNs(P, Nd.Max));
  S.Calls += Nd.Calls;
}

/// Merged tree: parents precede children, so one forward pass suffices.
/// A context with no calls (e.g. one entered before a fork, in the child's
/// profile) and everything under it is left out: it describes no time.
void Aggregator::addToTree(const Process &P, const Thread &T,
                           ArrayRef<uint32_t> Global, const NodeFigures &F) {
  size_t N = T.Nodes.size();
  std::vector<uint32_t> &TreeIdx = Out.TreeIndex.back().emplace_back(N);
  for (size_t I = 0; I < N; ++I) {
    const Node &Nd = T.Nodes[I];
    if (Nd.Calls == 0 ||
        (Nd.Parent != raw::kNoParent && TreeIdx[Nd.Parent] == kNotInTree)) {
      TreeIdx[I] = kNotInTree;
      continue;
    }
    uint32_t Parent = Nd.Parent == raw::kNoParent ? 0 : TreeIdx[Nd.Parent];
    uint32_t Idx = treeChildAt(Parent, Global[Nd.Func], Nd);
    TreeIdx[I] = Idx;
    Stats &S = Out.Tree[Idx].S;
    addInclusive(S, P, Nd, F, I);
    addSelf(S, P, Nd, F, I);
    Out.How.TimedCalls += Nd.Calls;
    for (const MovedTime &M : F.Moved[I]) {
      uint32_t Key = Global[M.Func] | kCountedChild |
                     (M.Uncounted ? kOutsideChild : 0);
      Stats &C = Out.Tree[treeChild(Idx, Key)].S;
      double Ns = fracTicksToNs(P, M.Ticks);
      C.SelfActive += Ns;
      C.Active += Ns;
      C.Sampled += M.Uncounted ? 0 : Ns;
      C.SelfVar += M.VarNs2;
      C.Samples += M.Samples;
      C.SelfErr.add(M.Err);
      C.ActiveErr.add(M.Err);
    }
  }
}

/// Children lists of a thread's nodes in CSR form: node I's children are
/// Kids[First[I] .. First[I + 1]).
struct ChildLists {
  std::vector<uint32_t> First, Kids, Roots;
};

static ChildLists childLists(ArrayRef<Node> Nodes) {
  size_t N = Nodes.size();
  ChildLists L;
  L.First.assign(N + 1, 0);
  L.Kids.resize(N);
  for (const Node &Nd : Nodes)
    if (Nd.Parent != raw::kNoParent)
      ++L.First[Nd.Parent + 1];
  for (size_t I = 0; I < N; ++I)
    L.First[I + 1] += L.First[I];
  std::vector<uint32_t> Fill(L.First.begin(), L.First.end() - 1);
  for (size_t I = 0; I < N; ++I) {
    if (Nodes[I].Parent == raw::kNoParent)
      L.Roots.push_back(I);
    else
      L.Kids[Fill[Nodes[I].Parent]++] = I;
  }
  return L;
}

/// The thread's flat stats, in ThreadAcc. Inclusive time only counts a node
/// with no ancestor of the same function, or recursion would count the same
/// interval repeatedly; Active[f] is the number of open ancestors of
/// function f on the walk.
void Aggregator::addToThreadFlat(const Process &P, const Thread &T,
                                 ArrayRef<uint32_t> Global,
                                 const NodeFigures &F) {
  if (ThreadAcc.size() < Out.Functions.size()) {
    ThreadAcc.resize(Out.Functions.size());
    Active.resize(Out.Functions.size());
    Used.resize(Out.Functions.size());
  }
  Touched.clear();
  walkOutermost(T, Global, Active, [&](uint32_t I, bool Outermost) {
    const Node &Nd = T.Nodes[I];
    Stats &S = touch(Global[Nd.Func]);
    if (Outermost)
      addInclusive(S, P, Nd, F, I);
    addSelf(S, P, Nd, F, I);
    // A function's code outside its probes, found in this frame's samples,
    // ran inside none of its own calls: it adds to the function's
    // inclusive figures unless a call of it is open around the frame
    // (whose inclusive time already holds the frame's).
    for (const MovedTime &M : F.Moved[I])
      if (M.Uncounted && Active[Global[M.Func]] == 0) {
        Stats &C = touch(Global[M.Func]);
        double Ns = fracTicksToNs(P, M.Ticks);
        C.Elapsed += Ns;
        C.Active += Ns;
        C.ActiveErr.add(M.Err);
      }
  });
}

/// One thread's stats added to a function's over all threads.
static void addThreadStats(Stats &F, const Stats &S) {
  if (S.Calls)
    F.addMinMax(S.Min, S.Max);
  F.Calls += S.Calls;
  F.Elapsed += S.Elapsed;
  F.SelfElapsed += S.SelfElapsed;
  F.Active += S.Active;
  F.SelfActive += S.SelfActive;
  F.Overhead += S.Overhead;
  F.SelfOverhead += S.SelfOverhead;
  F.OffCpu += S.OffCpu;
  F.Voluntary += S.Voluntary;
  F.Involuntary += S.Involuntary;
  F.CountedCalls += S.CountedCalls;
  F.Sampled += S.Sampled;
  F.Samples += S.Samples;
  F.SelfVar += S.SelfVar;
  F.SelfProbePairs += S.SelfProbePairs;
  F.SelfErr.add(S.SelfErr);
  F.ActiveErr.add(S.ActiveErr);
}

static ThreadSummary threadSummary(uint32_t ProcIdx, const Process &P,
                                   const Thread &T) {
  ThreadSummary TS;
  TS.Process = ProcIdx;
  TS.Tid = T.Tid;
  TS.TidOrder = T.TidOrder;
  TS.Name = T.Name;
  TS.Flags = threadFlags(T);
  TS.FoldedThreads = T.FoldedThreads;
  TS.WallNs = ticksToNs(P, T.EndTick - T.StartTick);
  TS.OpenFrames = T.OpenFrames;
  TS.UnmatchedExits = T.UnmatchedExits;
  TS.UnwoundFrames = T.UnwoundFrames;
  TS.DroppedEvents = T.DroppedEvents;
  TS.SwitchSource = switchSource(T);
  TS.SwitchResolutionNs = ticksToNs(P, T.SwitchResolution);
  TS.OffCpuNs = ticksToNs(P, T.OffCpuTicks);
  TS.VoluntarySwitches = T.VoluntarySwitches;
  TS.InvoluntarySwitches = T.InvoluntarySwitches;
  TS.LostSwitchRecords = T.LostSwitchRecords;
  if (T.CpuNs != raw::kCpuUnknown)
    TS.CpuNs = double(T.CpuNs);
  return TS;
}

/// The 95% bound of a thread's total self-active time: that of the sum of
/// its functions' self-active figures, from their error parts (tick steps,
/// probe residual, code-sample cost) and split variances added up, by the
/// rule of every other figure (halfWidth95).
static double totalSelfActiveErrNs(ArrayRef<FunctionStats> Functions) {
  ErrorParts Err;
  double Var = 0;
  for (const FunctionStats &FS : Functions) {
    Err.add(FS.S.SelfErr);
    Var += FS.S.SelfVar;
  }
  return halfWidth95(Err, Var);
}

/// Moves the thread's flat stats (ThreadAcc) into its summary and the
/// flat stats over all threads (FlatAcc), leaving ThreadAcc cleared.
void Aggregator::finishThread(uint32_t ProcIdx, const Process &P,
                              const Thread &T) {
  llvm::sort(Touched);
  ThreadSummary TS = threadSummary(ProcIdx, P, T);
  for (uint32_t G : Touched) {
    Stats &S = ThreadAcc[G];
    Used[G] = false;
    // Touched without calls and given no time (a code sample's function
    // only): nothing to show. Time moved to it (counted, or its code
    // outside its probes) keeps it, so that the totals hold that time.
    if (S.Calls == 0 && S.Sampled == 0 && S.SelfActive == 0) {
      S = Stats();
      continue;
    }
    Out.How.CountedCalls += S.CountedCalls;
    TS.Functions.push_back({G, S, 0});
    TS.TotalSelfActive += S.SelfActive;
    TS.TotalSelfElapsed += S.SelfElapsed;
    addThreadStats(FlatAcc[G], S);
    S = Stats();
  }
  for (FunctionStats &FS : TS.Functions)
    FS.Share = TS.TotalSelfActive > 0 ? FS.S.SelfActive / TS.TotalSelfActive
                                      : 0;
  TS.TotalSelfActiveErrNs = totalSelfActiveErrNs(TS.Functions);
  sortAll(TS.Functions);
  Out.Threads.push_back(std::move(TS));
}

void Aggregator::addThread(uint32_t ProcIdx, const Process &P, const Thread &T,
                           ArrayRef<uint32_t> Global) {
  NodeFigures F = nodeFigures(P, T);
  reserveTree(T, F);
  if (Opts.TreePerThread) {
    // A new thread's nodes are never merged into an earlier thread's.
    SiteChildren.clear();
    TreeChildren.clear();
    Out.ThreadTreeBegin.push_back(Out.Tree.size());
  }
  addToTree(P, T, Global, F);
  addToThreadFlat(P, T, Global, F);
  addSampledAndCounts(P, T, Global, F.Moved);
  finishThread(ProcIdx, P, T);
}

/// Room for every node the thread can add (its nodes and their moved
/// times' children) before it adds one: a tree of a million nodes would
/// otherwise be copied as it doubles, three times its size at the peak.
/// A later thread grows it by half at least, so many threads copy it a
/// few times, not once each.
void Aggregator::reserveTree(const Thread &T, const NodeFigures &F) {
  size_t Need = Out.Tree.size() + T.Nodes.size();
  for (const std::vector<MovedTime> &M : F.Moved)
    Need += M.size();
  if (Need > Out.Tree.capacity())
    Out.Tree.reserve(Out.Tree.size() > 1
                         ? std::max(Need, Out.Tree.capacity() * 3 / 2)
                         : Need);
}

void Aggregator::sortAll(std::vector<FunctionStats> &V) const {
  sortFunctions(V, Out.Functions, SortKey::SelfActive);
}

Aggregate Aggregator::run() {
  Out.Tree.emplace_back(); // synthetic root
  std::vector<bool> Seen;
  for (uint32_t PI = 0; PI < Prof.Processes.size(); ++PI) {
    const Process &P = Prof.Processes[PI];
    std::vector<uint32_t> Global = mapFunctions(P);
    Out.FunctionIds.push_back(Global);
    Out.TreeIndex.emplace_back();
    FlatAcc.resize(Out.Functions.size());
    Seen.resize(Out.Functions.size());
    ProcSamples.emplace(P);
    Out.How.RuntimeSamples += ProcSamples->runtimeSamples();
    for (const Thread &T : P.Threads) {
      addThread(PI, P, T, Global);
      for (const Node &Nd : T.Nodes)
        if (Nd.Calls)
          Seen[Global[Nd.Func]] = true;
      for (const CallCount &C : T.Counts)
        Seen[Global[C.Func]] = true;
    }
    for (uint32_t G = 0; G < Out.Functions.size(); ++G)
      // Functions without calls that code samples gave time: counted
      // time, or code run outside their probes (Uncounted).
      Seen[G] = Seen[G] || FlatAcc[G].Sampled != 0 ||
                FlatAcc[G].SelfActive != 0;
  }
  Out.How.SampledSigmaNs = std::sqrt(MovedVar);
  for (const Process &P : Prof.Processes)
    Out.How.ProbeResidualNs =
        std::max(Out.How.ProbeResidualNs,
                 probeResidualTicks(P.Overhead) * 1e9 / double(P.TickRate));
  Out.How.TimedResidualNs = Out.How.ProbeResidualNs * double(Out.How.TimedCalls);
  for (uint32_t G = 0; G < Out.Functions.size(); ++G) {
    if (!Seen[G])
      continue;
    Out.Flat.push_back({G, FlatAcc[G], 0});
    Out.TotalSelfActive += FlatAcc[G].SelfActive;
    Out.TotalSelfElapsed += FlatAcc[G].SelfElapsed;
  }
  for (FunctionStats &FS : Out.Flat)
    FS.Share =
        Out.TotalSelfActive > 0 ? FS.S.SelfActive / Out.TotalSelfActive : 0;
  sortAll(Out.Flat);

  // Root totals make the tree self-describing (e.g. percentages).
  TreeNode &Root = Out.Tree[0];
  for (uint32_t C : Root.Children) {
    Root.S.Elapsed += Out.Tree[C].S.Elapsed;
    Root.S.Active += Out.Tree[C].S.Active;
  }

  const auto &Fns = Out.Functions;
  for (TreeNode &TN : Out.Tree) {
    llvm::sort(TN.Children, [&](uint32_t A, uint32_t B) {
      const TreeNode &NA = Out.Tree[A], &NB = Out.Tree[B];
      if (NA.S.Active != NB.S.Active)
        return NA.S.Active > NB.S.Active;
      const FunctionInfo &FA = Fns[NA.Func], &FB = Fns[NB.Func];
      if (FA.Name != FB.Name)
        return FA.Name < FB.Name;
      return NA.Func < NB.Func;
    });
  }
  return std::move(Out);
}

std::vector<std::vector<std::vector<NodeInclusive>>> Aggregator::inclusive() {
  std::vector<std::vector<std::vector<NodeInclusive>>> R;
  for (const Process &P : Prof.Processes) {
    ProcSamples.emplace(P);
    R.emplace_back();
    for (const Thread &T : P.Threads) {
      NodeFigures F = nodeFigures(P, T);
      std::vector<NodeInclusive> &V = R.back().emplace_back(T.Nodes.size());
      for (size_t I = 0; I < T.Nodes.size(); ++I) {
        const Node &Nd = T.Nodes[I];
        V[I].ActiveNs =
            signedTicksToNs(P, Nd.active()) + fracTicksToNs(P, F.Outside[I]);
        V[I].ElapsedNs = ticksToNs(P, Nd.Incl) +
                         fracTicksToNs(P, std::max(F.Outside[I], 0.0));
        V[I].Err = F.InclErr[I];
      }
    }
  }
  return R;
}

} // namespace

std::vector<std::vector<std::vector<NodeInclusive>>>
profile::nodeInclusive(const Profile &P) {
  return Aggregator(P, {}).inclusive();
}

void profile::walkOutermost(
    const Thread &T, ArrayRef<uint32_t> Global, std::vector<uint32_t> &Open,
    function_ref<void(uint32_t Node, bool Outermost)> Visit) {
  auto Enter = [&](uint32_t I) {
    Visit(I, Open[Global[T.Nodes[I].Func]]++ == 0);
  };
  ChildLists L = childLists(T.Nodes);
  std::vector<std::pair<uint32_t, uint32_t>> Stack; // node, next child slot
  for (uint32_t R : L.Roots) {
    Enter(R);
    Stack.emplace_back(R, L.First[R]);
    while (!Stack.empty()) {
      auto &[Cur, Next] = Stack.back();
      if (Next < L.First[Cur + 1]) {
        uint32_t C = L.Kids[Next++];
        Enter(C);
        Stack.emplace_back(C, L.First[C]);
        continue;
      }
      --Open[Global[T.Nodes[Cur].Func]];
      Stack.pop_back();
    }
  }
}

Aggregate profile::aggregate(const Profile &P, const AggregateOptions &O) {
  return Aggregator(P, O).run();
}

void ErrorParts::add(const ErrorParts &E) {
  ResidualNs += E.ResidualNs;
  QuantVarNs2 += E.QuantVarNs2;
  QuantMaxNs += E.QuantMaxNs;
  SampleCostNs += E.SampleCostNs;
}

ErrorParts ErrorParts::scaled(double F) const {
  ErrorParts E;
  E.ResidualNs = ResidualNs * F;
  E.QuantVarNs2 = QuantVarNs2 * F * F;
  E.QuantMaxNs = QuantMaxNs * F;
  E.SampleCostNs = SampleCostNs * F;
  return E;
}

double profile::halfWidth95(const ErrorParts &E, double SampleVar) {
  // The tick rounding's normal approximation is wider than its bound for
  // one or two readings; the bound holds whatever the distribution.
  double Quant = std::min(E.QuantMaxNs, 1.96 * std::sqrt(E.QuantVarNs2));
  return 1.96 * std::sqrt(std::max(SampleVar, 0.0)) + Quant + E.ResidualNs +
         E.SampleCostNs;
}

Figure profile::clampFigure(double V, double Err, double Low, double High) {
  Figure F;
  F.Measured = V;
  F.Error = Err;
  F.Shown = std::clamp(V, Low, std::max(Low, High));
  F.Clamped = F.Shown != V;
  return F;
}

ActiveFigures profile::activeFigures(const Stats &S, bool CountedNode) {
  ActiveFigures R;
  double SelfErr = halfWidth95(S.SelfErr, S.SelfVar);
  if (CountedNode) {
    // A counted node's active time is its self time.
    R.HasActive = true;
    R.Self = clampFigure(S.SelfActive, SelfErr, 0,
                         std::numeric_limits<double>::infinity());
    R.Active = R.Self;
    return R;
  }
  R.HasActive = S.allTimed() && S.Calls != 0;
  double High = std::numeric_limits<double>::infinity();
  if (R.HasActive) {
    R.Active = clampFigure(S.Active, halfWidth95(S.ActiveErr, 0), 0,
                           S.Elapsed);
    High = R.Active.Shown;
  }
  R.Self = clampFigure(S.SelfActive, SelfErr, 0, High);
  return R;
}
