//===- CodeSampleSplit.cpp - Code sample ratios ---------------------------===//
//
// Part of ActiveTime. See CodeSampleSplit.h.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/CodeSampleSplit.h"
#include "activetime/Profile/Aggregate.h"
#include "activetime/raw_format.h"

#include "llvm/ADT/STLExtras.h"

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;

void SampleSplit::add(uint32_t Func, uint64_t N) {
  for (auto &C : Callees)
    if (C.first == Func) {
      C.second += N;
      return;
    }
  Callees.emplace_back(Func, N);
}

double profile::shareVariance(double Ns, uint64_t K, uint64_t N) {
  double P = (double(K) + 1) / (double(N) + 2);
  return Ns * Ns * P * (1 - P) / (double(N) + 2);
}

bool profile::addCodeSample(SampleSplit &Sp, const CodeSample &S,
                            uint32_t Own) {
  if (S.Kind == CodeKind::Runtime)
    return false;
  if (S.Flags & raw::CSR_Counting)
    Sp.Counting += S.Count;
  if (S.Kind != CodeKind::Function || S.Func == Own)
    Sp.Own += S.Count;
  else
    Sp.add(S.Func, S.Count);
  return true;
}

ProcessCodeSamples::ProcessCodeSamples(const Process &P) {
  for (const Thread &T : P.Threads)
    for (const CodeSample &S : T.CodeSamples) {
      if (S.Node == raw::kNoNode)
        continue;
      uint32_t Own = T.Nodes[S.Node].Func;
      if (!addCodeSample(Pooled[Own], S, Own))
        Runtime += S.Count;
    }
}

const SampleSplit *ProcessCodeSamples::pooled(uint32_t Func) const {
  auto It = Pooled.find(Func);
  return It == Pooled.end() ? nullptr : &It->second;
}

/// The thread's functions that were only counted on some calls: their
/// count exceeds the calls its nodes timed.
static DenseSet<uint32_t> functionsWithCountedCalls(const Thread &T) {
  DenseMap<uint32_t, uint64_t> Timed;
  for (const Node &Nd : T.Nodes)
    Timed[Nd.Func] += Nd.Calls;
  DenseSet<uint32_t> Counted;
  for (const CallCount &C : T.Counts)
    if (C.Calls > Timed.lookup(C.Func))
      Counted.insert(C.Func);
  return Counted;
}

ThreadCodeSamples::ThreadCodeSamples(const ProcessCodeSamples &P,
                                     const Thread &T)
    : Proc(P), T(T), Own(T.Nodes.size()),
      Counted(functionsWithCountedCalls(T)) {
  for (const CodeSample &S : T.CodeSamples)
    if (S.Node != raw::kNoNode &&
        addCodeSample(Own[S.Node], S, T.Nodes[S.Node].Func))
      Used += S.Count;
  for (size_t I = 0; I < T.Nodes.size(); ++I)
    if (T.Nodes[I].Parent != raw::kNoParent && T.Nodes[I].Calls)
      TimedChild[(uint64_t(T.Nodes[I].Parent) << 32) | T.Nodes[I].Func] = I;
}

bool ThreadCodeSamples::canHaveRun(uint32_t Node, uint32_t Func) const {
  return Counted.contains(Func) ||
         TimedChild.count((uint64_t(Node) << 32) | Func);
}

std::optional<SampleSplit> ThreadCodeSamples::ratios(uint32_t Node,
                                                     RatioSource *Source) const {
  const SampleSplit *R = &Own[Node];
  RatioSource From = RatioSource::Own;
  if (R->total() < kMinFrameSamples) {
    R = Proc.pooled(T.Nodes[Node].Func);
    From = RatioSource::Pooled;
  }
  if (!R || !R->total()) {
    R = nullptr;
    From = RatioSource::None;
  }
  if (Source)
    *Source = From;
  if (!R)
    return std::nullopt;
  SampleSplit S = *R;
  if (From == RatioSource::Pooled)
    erase_if(S.Callees, [&](const std::pair<uint32_t, uint64_t> &C) {
      if (canHaveRun(Node, C.first))
        return false;
      S.Own += C.second;
      return true;
    });
  return S;
}

SmallVector<SplitShare, 4> ThreadCodeSamples::shares(uint32_t Node) const {
  SmallVector<SplitShare, 4> V;
  std::optional<SampleSplit> R = ratios(Node);
  if (!R)
    return V;
  for (const auto &[F, Cnt] : R->Callees) {
    SplitShare S;
    S.Func = F;
    S.Samples = Cnt;
    // A function with counted calls on this thread gets its part as a
    // counted callee; one without ran that code outside its probes: in its
    // timed node under the frame, or, without one, timed nowhere.
    if (!Counted.contains(F)) {
      auto Child = TimedChild.find((uint64_t(Node) << 32) | F);
      if (Child != TimedChild.end())
        S.TimedChild = Child->second;
      else
        S.Uncounted = true;
    }
    V.push_back(S);
  }
  return V;
}

SamplesTaken SamplesTaken::of(const Process &P) {
  SamplesTaken S;
  for (const Thread &T : P.Threads) {
    uint64_t N = 0;
    for (const CodeSample &C : T.CodeSamples)
      N += C.Count;
    S.Samples += N;
    S.SamplingThreads += N != 0;
    ++S.Threads;
    if (T.CpuNs != kCpuUnknown)
      S.CpuNs += T.CpuNs;
  }
  S.PaidNs = double(S.Samples) * ticks256ToNs(P, P.CodeSampleCost256);
  return S;
}
