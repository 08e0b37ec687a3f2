//===- Samples.cpp - Sample attribution -------------------------------------===//
//
// Part of ActiveTime. See Samples.h.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/Samples.h"
#include "activetime/Profile/CodeSampleSplit.h"
#include "activetime/raw_format.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <optional>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;

const char profile::kOutsideFrame[] = "[outside instrumented code]";

SampleFigures &SampleFigures::operator+=(const SampleFigures &O) {
  OnNs += O.OnNs;
  OffNs += O.OffNs;
  OnSamples += O.OnSamples;
  OffSamples += O.OffSamples;
  PriorFrame += O.PriorFrame;
  Preempted += O.Preempted;
  PreemptedNs += O.PreemptedNs;
  OnSampleShare += O.OnSampleShare;
  OnVarNs2 += O.OnVarNs2;
  Counted |= O.Counted;
  return *this;
}

SamplePath profile::samplePath(const Thread &T, uint32_t Node,
                               ArrayRef<uint32_t> Global) {
  SamplePath Path;
  if (Node == raw::kNoNode)
    return {SampleFrame()};
  // Parents precede children (checked by the reader), so this terminates.
  for (uint32_t I = Node; I != raw::kNoParent && I < T.Nodes.size();
       I = T.Nodes[I].Parent)
    Path.push_back({Global[T.Nodes[I].Func], false});
  std::reverse(Path.begin(), Path.end());
  return Path;
}

/// One sample's figures.
static SampleFigures sampleFigures(double Ns, uint32_t Flags) {
  SampleFigures F;
  if (Flags & raw::SF_OffCpu) {
    F.OffNs = Ns;
    F.OffSamples = 1;
    F.PriorFrame = (Flags & raw::SF_PriorFrame) != 0;
    if (Flags & raw::SF_Preempted) {
      F.Preempted = 1;
      F.PreemptedNs = Ns;
    }
  } else {
    F.OnNs = Ns;
    F.OnSamples = 1;
    F.OnSampleShare = 1;
  }
  return F;
}

/// The part \p K of \p N of a frame's on-CPU figures: what a split gives one
/// function (or leaves the frame), with the variance of its ratio.
static SampleFigures onCpuPart(const SampleFigures &F, uint64_t K,
                               uint64_t N) {
  SampleFigures P;
  double Share = double(K) / double(N);
  P.OnNs = F.OnNs * Share;
  P.OnSamples = K ? F.OnSamples : 0;
  P.OnSampleShare = F.OnSampleShare * Share;
  P.OnVarNs2 = shareVariance(F.OnNs, K, N);
  return P;
}

uint64_t SamplePaths::key(const SampleFrame &F) {
  return uint64_t(F.Func) << 2 | uint64_t(F.Counted) << 1 |
         uint64_t(F.OutsideProbes);
}

uint32_t SamplePaths::child(uint32_t Parent, const SampleFrame &F) {
  auto [It, New] =
      Children.try_emplace({Parent, key(F)}, uint32_t(Nodes.size()));
  if (New) {
    Node N;
    N.Parent = Parent;
    N.Depth = Nodes[Parent].Depth + 1;
    N.Frame = F;
    Nodes.push_back(N);
  }
  return It->second;
}

void SamplePaths::add(uint32_t N, const SampleFigures &F) {
  auto [It, New] = EntryOf.try_emplace(N, uint32_t(Entries.size()));
  if (New)
    Entries.push_back({N, SampleFigures()});
  Entries[It->second].F += F;
}

void SamplePaths::children(std::vector<uint32_t> &First,
                           std::vector<uint32_t> &Kids) const {
  First.assign(Nodes.size() + 1, 0);
  Kids.resize(Nodes.size());
  for (uint32_t I = 1; I < Nodes.size(); ++I)
    ++First[Nodes[I].Parent + 1];
  for (size_t I = 1; I < First.size(); ++I)
    First[I] += First[I - 1];
  std::vector<uint32_t> Fill(First.begin(), First.end() - 1);
  for (uint32_t I = 1; I < Nodes.size(); ++I)
    Kids[Fill[Nodes[I].Parent]++] = I;
}

/// Children of every node, sorted by frame: a depth-first walk in that
/// order visits the paths in path order.
void SamplePaths::finish() {
  std::vector<uint32_t> First, Kids;
  children(First, Kids);
  for (size_t I = 0; I < Nodes.size(); ++I)
    std::sort(Kids.begin() + First[I], Kids.begin() + First[I + 1],
              [&](uint32_t A, uint32_t B) {
                return Nodes[A].Frame < Nodes[B].Frame;
              });
  std::vector<Entry> Ordered;
  Ordered.reserve(Entries.size());
  std::vector<uint32_t> Stack = {kRoot};
  while (!Stack.empty()) {
    uint32_t N = Stack.back();
    Stack.pop_back();
    auto It = EntryOf.find(N);
    if (It != EntryOf.end())
      Ordered.push_back(Entries[It->second]);
    for (uint32_t K = First[N + 1]; K-- > First[N];)
      Stack.push_back(Kids[K]);
  }
  Entries = std::move(Ordered);
  EntryOf.clear();
  for (uint32_t I = 0; I < Entries.size(); ++I)
    EntryOf[Entries[I].Node] = I;
}

SamplePath SamplePaths::path(uint32_t N) const {
  SamplePath P(Nodes[N].Depth);
  for (uint32_t I = N; I != kRoot; I = Nodes[I].Parent)
    P[Nodes[I].Depth - 1] = Nodes[I].Frame;
  return P;
}

std::vector<uint32_t> SamplePaths::ancestorsAt(uint32_t Depth) const {
  std::vector<uint32_t> A(Nodes.size());
  for (uint32_t I = 0; I < Nodes.size(); ++I)
    A[I] = Nodes[I].Depth <= Depth ? I : A[Nodes[I].Parent];
  return A;
}

uint32_t SamplePaths::find(const SamplePath &P) const {
  uint32_t N = kRoot;
  for (const SampleFrame &F : P) {
    auto It = Children.find({N, key(F)});
    if (It == Children.end())
      return UINT32_MAX;
    N = It->second;
  }
  return N;
}

const SampleFigures &SamplePaths::at(const SamplePath &P) const {
  uint32_t N = find(P);
  assert(N != UINT32_MAX && EntryOf.count(N) && "no such sampled path");
  return Entries[EntryOf.find(N)->second].F;
}

size_t SamplePaths::count(const SamplePath &P) const {
  uint32_t N = find(P);
  return N != UINT32_MAX && EntryOf.count(N);
}

namespace {

/// summarizeSamples: a process's samples are first summed per frame
/// (thread, node), since a split applies to a frame's whole on-CPU time
/// and its variance grows with the square of that time; then each frame
/// is split and added to the paths and functions. The per-function totals
/// (once per sample under recursion) are summed over the path tree at the
/// end, in one walk, rather than along each sample's path.
class Summarizer {
public:
  explicit Summarizer(const Aggregate &A) : A(A) {}
  void process(uint32_t ProcIdx, const Process &P);
  SampleSummary take();

private:
  void header(const Process &P);
  uint32_t pathNode(const Thread &T, uint32_t Node, ArrayRef<uint32_t> Global,
                    std::vector<uint32_t> &Memo);
  void frame(const Thread &T, uint32_t Node, uint32_t Path,
             const SampleFigures &F, ArrayRef<uint32_t> Global,
             std::optional<ThreadCodeSamples> &Code,
             const ProcessCodeSamples &Pooled);
  void splitFrame(const Thread &T, uint32_t Node, const SampleFigures &F,
                  uint32_t Path, ArrayRef<uint32_t> Global,
                  const ThreadCodeSamples &Code);
  void add(uint32_t Path, const SampleFigures &F);
  void totals();

  const Aggregate &A;
  SampleSummary S;
  /// Path node -> the whole figures of the frames sampled there (each
  /// counts for every function on its path) ...
  DenseMap<uint32_t, SampleFigures> Whole;
  /// ... and the parts a split gave a function, which count for it unless
  /// it is on the frame's path already.
  struct Part {
    uint32_t Path; // the frame's path
    uint32_t Func;
    SampleFigures F;
  };
  std::vector<Part> Parts;
};

} // namespace

/// The sampler's own figures.
void Summarizer::header(const Process &P) {
  const SampleSet &SS = P.Samples;
  double NsPerTick = 1e9 / double(P.TickRate);
  if (!S.Processes) {
    S.IntervalNs = double(SS.IntervalTicks) * NsPerTick;
    S.Randomized = SS.Flags & raw::SMF_Randomized;
  }
  S.Processes++;
  S.Sweeps += SS.Sweeps;
  S.Realtime += (SS.Flags & raw::SMF_Realtime) != 0;
  S.WakeLateNs += double(SS.WakeLateNs);
  S.Dropped += SS.Dropped;
  S.TornRetries += SS.TornRetries;
  S.TornDiscarded += SS.TornDiscarded;
  S.Unmapped += SS.Unmapped;
  S.ProcStateSamples += SS.ProcStateSamples;
  S.SamplerCpuNs += double(SS.SamplerCpuNs);
  if (SS.EndTick > SS.StartTick)
    S.SampledWallNs += double(SS.EndTick - SS.StartTick) * NsPerTick;
  if (!P.CodeSamplePeriodNs)
    S.Split.ProcessesWithoutCodeSamples++;
}

void Summarizer::process(uint32_t ProcIdx, const Process &P) {
  header(P);
  // Per thread, node -> the figures of its samples (ordered, so that sums
  // do not depend on hashing).
  std::vector<std::map<uint32_t, SampleFigures>> Frames(P.Threads.size());
  double NsPerTick = 1e9 / double(P.TickRate);
  for (const Sample &X : P.Samples.Samples) {
    SampleFigures F = sampleFigures(double(X.Weight) * NsPerTick, X.Flags);
    S.All += F;
    Frames[X.Thread][X.Node] += F;
  }
  ArrayRef<uint32_t> Global = A.FunctionIds[ProcIdx];
  ProcessCodeSamples Pooled(P);
  for (size_t TI = 0; TI < P.Threads.size(); ++TI) {
    if (Frames[TI].empty())
      continue;
    std::optional<ThreadCodeSamples> Code; // made on first use
    std::vector<uint32_t> Memo(P.Threads[TI].Nodes.size(), UINT32_MAX);
    for (const auto &[Node, F] : Frames[TI])
      frame(P.Threads[TI], Node, pathNode(P.Threads[TI], Node, Global, Memo),
            F, Global, Code, Pooled);
  }
}

/// The path node of thread node \p Node: up from it to the first node
/// whose path is known (\p Memo), then down again, so that every thread
/// node is followed once however many of its descendants were sampled.
uint32_t Summarizer::pathNode(const Thread &T, uint32_t Node,
                              ArrayRef<uint32_t> Global,
                              std::vector<uint32_t> &Memo) {
  if (Node == raw::kNoNode || Node >= T.Nodes.size())
    return S.Paths.child(SamplePaths::kRoot, SampleFrame());
  SmallVector<uint32_t, 64> Up;
  uint32_t I = Node;
  // Parents precede children (checked by the reader), so this terminates.
  for (; I != raw::kNoParent && I < T.Nodes.size() && Memo[I] == UINT32_MAX;
       I = T.Nodes[I].Parent)
    Up.push_back(I);
  uint32_t Path = I != raw::kNoParent && I < T.Nodes.size()
                      ? Memo[I]
                      : uint32_t(SamplePaths::kRoot);
  for (uint32_t J : llvm::reverse(Up)) {
    Path = S.Paths.child(Path, {Global[T.Nodes[J].Func], false});
    Memo[J] = Path;
  }
  return Path;
}

void Summarizer::frame(const Thread &T, uint32_t Node, uint32_t Path,
                       const SampleFigures &F, ArrayRef<uint32_t> Global,
                       std::optional<ThreadCodeSamples> &Code,
                       const ProcessCodeSamples &Pooled) {
  Whole[Path] += F;
  if (Node == raw::kNoNode || F.OnSamples == 0) {
    add(Path, F);
    return;
  }
  if (!Code)
    Code.emplace(Pooled, T);
  splitFrame(T, Node, F, Path, Global, *Code);
}

/// Frame \p Node's on-CPU figures divided by its code samples' ratios; its
/// off-CPU figures stay whole (Samples.h).
void Summarizer::splitFrame(const Thread &T, uint32_t Node,
                            const SampleFigures &F, uint32_t Path,
                            ArrayRef<uint32_t> Global,
                            const ThreadCodeSamples &Code) {
  SampledSplit &Sp = S.Split;
  RatioSource Source;
  std::optional<SampleSplit> R = Code.ratios(Node, &Source);
  if (!R) {
    Sp.UnsplitOnNs += F.OnNs;
    Sp.UnsplitFrames++;
    add(Path, F);
    return;
  }
  (Source == RatioSource::Own ? Sp.OwnFrames : Sp.PooledFrames)++;
  Sp.SplitOnNs += F.OnNs;
  uint64_t N = R->total();
  SampleFigures Kept = onCpuPart(F, R->Own, N);
  Kept.OffNs = F.OffNs;
  Kept.OffSamples = F.OffSamples;
  Kept.PriorFrame = F.PriorFrame;
  Kept.Preempted = F.Preempted;
  Kept.PreemptedNs = F.PreemptedNs;
  add(Path, Kept);
  bool Moved = false;
  for (const SplitShare &Sh : Code.shares(Node)) {
    SampleFigures Part = onCpuPart(F, Sh.Samples, N);
    SampleFrame To;
    if (Sh.TimedChild != raw::kNoNode) {
      To = {Global[T.Nodes[Sh.TimedChild].Func], false};
      Sp.OutsideProbesOnNs += Part.OnNs;
    } else if (Sh.Uncounted) {
      // Not a counted function's time: its code outside its probes, where
      // the time report's tree has an "[outside probes]" child.
      To = {Global[Sh.Func], false, true};
      Sp.OutsideProbesOnNs += Part.OnNs;
    } else {
      To = {Global[Sh.Func], true};
      Part.Counted = true;
      Sp.CountedOnNs += Part.OnNs;
      Moved = true;
    }
    add(S.Paths.child(Path, To), Part);
    Parts.push_back({Path, To.Func, Part});
  }
  // What moved out of the frame has the same error as what it kept (the
  // time report's rule).
  if (Moved)
    Sp.CountedVarNs2 += Kept.OnVarNs2;
}

void Summarizer::add(uint32_t Path, const SampleFigures &F) {
  S.Paths.add(Path, F);
  S.Self[S.Paths.node(Path).Frame.Func] += F;
}

/// Every function's total: the whole figures of the frames sampled on
/// paths through it, once per frame (a recursive path counts once), and
/// the parts splits gave it off its frames' paths. The sums under each
/// path node, then one walk down the tree that knows which functions are
/// on the path so far: a function's total is the sum under its outermost
/// nodes.
void Summarizer::totals() {
  const SamplePaths &P = S.Paths;
  size_t N = P.numNodes();
  std::vector<SampleFigures> Under(N);
  for (const auto &[Node, F] : Whole)
    Under[Node] += F;
  for (size_t I = N; I-- > 1;)
    Under[P.node(I).Parent] += Under[I];
  std::vector<uint32_t> First, Kids;
  P.children(First, Kids);
  llvm::sort(Parts, [](const Part &A, const Part &B) { return A.Path < B.Path; });
  // Open: how many nodes of each function are on the current path (a map:
  // kOutsideFunc is no function of the aggregate; widened: it is ~0U,
  // DenseMap<uint32_t>'s empty key).
  DenseMap<uint64_t, uint32_t> Open;
  // The walk: a node is pushed to enter it, then again (Leave) to leave.
  std::vector<std::pair<uint32_t, bool>> Stack;
  for (uint32_t K = First[1]; K-- > First[0];)
    Stack.push_back({Kids[K], false});
  while (!Stack.empty()) {
    auto [Node, Leave] = Stack.back();
    Stack.pop_back();
    uint32_t Func = P.node(Node).Frame.Func;
    if (Leave) {
      --Open[Func];
      continue;
    }
    // Split parts' nodes have no sampled frame under them: no total.
    if (Under[Node].samples() && Open[Func] == 0)
      S.Total[Func] += Under[Node];
    ++Open[Func];
    auto [Lo, Hi] = std::equal_range(
        Parts.begin(), Parts.end(), Part{Node, 0, {}},
        [](const Part &A, const Part &B) { return A.Path < B.Path; });
    for (auto It = Lo; It != Hi; ++It)
      if (!Open.lookup(It->Func))
        S.Total[It->Func] += It->F;
    Stack.push_back({Node, true});
    for (uint32_t K = First[Node + 1]; K-- > First[Node];)
      Stack.push_back({Kids[K], false});
  }
}

SampleSummary Summarizer::take() {
  totals();
  S.Paths.finish();
  return std::move(S);
}

SampleSummary profile::summarizeSamples(const Profile &Prof,
                                        const Aggregate &A) {
  Summarizer Sum(A);
  for (uint32_t PI = 0; PI < Prof.Processes.size(); ++PI)
    if (Prof.Processes[PI].HasSamples)
      Sum.process(PI, Prof.Processes[PI]);
  return Sum.take();
}
