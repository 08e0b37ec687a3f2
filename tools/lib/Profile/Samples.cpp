//===- Samples.cpp - Sample attribution -------------------------------------===//
//
// Part of ActiveTime. See Samples.h.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/Samples.h"
#include "activetime/Profile/CodeSampleSplit.h"
#include "activetime/raw_format.h"

#include "llvm/ADT/STLExtras.h"

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

namespace {

/// summarizeSamples: a process's samples are first summed per frame
/// (thread, node), since a split applies to a frame's whole on-CPU time
/// and its variance grows with the square of that time; then each frame
/// is split and added to the paths and functions.
class Summarizer {
public:
  explicit Summarizer(const Aggregate &A) : A(A) {}
  void process(uint32_t ProcIdx, const Process &P);
  SampleSummary take() { return std::move(S); }

private:
  void header(const Process &P);
  void frame(const Process &P, const Thread &T, uint32_t Node,
             const SampleFigures &F, ArrayRef<uint32_t> Global,
             std::optional<ThreadCodeSamples> &Code,
             const ProcessCodeSamples &Pooled);
  void splitFrame(const Thread &T, uint32_t Node, const SampleFigures &F,
                  const SamplePath &Path, ArrayRef<uint32_t> Global,
                  const ThreadCodeSamples &Code);
  void add(const SamplePath &Path, const SampleFigures &F);
  void addTotal(const SamplePath &Path, const SampleFigures &F);

  const Aggregate &A;
  SampleSummary S;
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
    std::optional<ThreadCodeSamples> Code; // made on first use
    for (const auto &[Node, F] : Frames[TI])
      frame(P, P.Threads[TI], Node, F, Global, Code, Pooled);
  }
}

void Summarizer::frame(const Process &P, const Thread &T, uint32_t Node,
                       const SampleFigures &F, ArrayRef<uint32_t> Global,
                       std::optional<ThreadCodeSamples> &Code,
                       const ProcessCodeSamples &Pooled) {
  SamplePath Path = samplePath(T, Node, Global);
  addTotal(Path, F);
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
                            const SampleFigures &F, const SamplePath &Path,
                            ArrayRef<uint32_t> Global,
                            const ThreadCodeSamples &Code) {
  SampledSplit &Sp = S.Split;
  RatioSource Source;
  const SampleSplit *R = Code.ratios(Node, &Source);
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
    SamplePath To = Path;
    if (Sh.TimedChild != raw::kNoNode) {
      To.push_back({Global[T.Nodes[Sh.TimedChild].Func], false});
      Sp.OutsideProbesOnNs += Part.OnNs;
    } else if (Sh.Uncounted) {
      // Not a counted function's time: its code outside its probes, where
      // the time report's tree has an "[outside probes]" child.
      To.push_back({Global[Sh.Func], false, true});
      Sp.OutsideProbesOnNs += Part.OnNs;
    } else {
      To.push_back({Global[Sh.Func], true});
      Part.Counted = true;
      Sp.CountedOnNs += Part.OnNs;
      Moved = true;
    }
    add(To, Part);
    // The frame's functions already have the whole sample in their totals.
    if (none_of(Path, [&](const SampleFrame &Fr) {
          return Fr.Func == To.back().Func;
        }))
      S.Total[To.back().Func] += Part;
  }
  // What moved out of the frame has the same error as what it kept (the
  // time report's rule).
  if (Moved)
    Sp.CountedVarNs2 += Kept.OnVarNs2;
}

void Summarizer::add(const SamplePath &Path, const SampleFigures &F) {
  S.Paths[Path] += F;
  S.Self[Path.back().Func] += F;
}

/// \p F, whole, to every function of \p Path, once per function: a sample
/// of a recursive path counts once.
void Summarizer::addTotal(const SamplePath &Path, const SampleFigures &F) {
  for (size_t I = 0; I < Path.size(); ++I) {
    uint32_t Func = Path[I].Func;
    if (std::any_of(Path.begin(), Path.begin() + I,
                    [&](const SampleFrame &Fr) { return Fr.Func == Func; }))
      continue;
    S.Total[Func] += F;
  }
}

SampleSummary profile::summarizeSamples(const Profile &Prof,
                                        const Aggregate &A) {
  Summarizer Sum(A);
  for (uint32_t PI = 0; PI < Prof.Processes.size(); ++PI)
    if (Prof.Processes[PI].HasSamples)
      Sum.process(PI, Prof.Processes[PI]);
  return Sum.take();
}
