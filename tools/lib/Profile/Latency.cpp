//===- Latency.cpp - Latency distributions per function and tree node -----===//
//
// Part of ActiveTime. See activetime/Profile/Latency.h.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/Latency.h"
#include "activetime/Profile/Flags.h"
#include "activetime/latency.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cmath>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;

void LatencyHistogram::add(uint64_t TickRate, ArrayRef<LatencyCount> Buckets) {
  for (const LatencyCount &L : Buckets) {
    Counts[{TickRate, L.Bucket}] += L.Count;
    Total += L.Count;
  }
}

void LatencyHistogram::add(const LatencyHistogram &Other) {
  for (const auto &[Key, Count] : Other.Counts)
    Counts[Key] += Count;
  Total += Other.Total;
}

static double ticksNs(uint64_t TickRate, uint64_t Ticks) {
  return TickRate ? double(Ticks) * 1e9 / double(TickRate) : 0;
}

std::vector<LatencyBin> LatencyHistogram::bins() const {
  std::vector<LatencyBin> Out;
  for (const auto &[Key, Count] : Counts) {
    auto [Rate, Bucket] = Key;
    Out.push_back({ticksNs(Rate, latency::bucketLower(Bucket)),
                   ticksNs(Rate, latency::bucketUpper(Bucket)), Count});
  }
  llvm::stable_sort(Out, [](const LatencyBin &A, const LatencyBin &B) {
    return A.UpperNs != B.UpperNs ? A.UpperNs < B.UpperNs
                                  : A.LowerNs < B.LowerNs;
  });
  return Out;
}

double LatencyHistogram::percentile(double P, double MinNs,
                                    double MaxNs) const {
  if (!Total)
    return 0;
  // Nearest rank: the smallest value with at least P% of the calls at or
  // below it. Integer arithmetic in per-mille steps keeps p99 of 100 calls
  // at rank 99, not 100 through a rounding of 0.99 * 100 (P is given to
  // 1/1000 of a percent).
  unsigned __int128 Scaled =
      (unsigned __int128)uint64_t(std::llround(P * 1000.0)) * Total;
  uint64_t Rank = uint64_t((Scaled + 100000 - 1) / 100000);
  Rank = std::clamp<uint64_t>(Rank, 1, Total);
  uint64_t Seen = 0;
  double V = MaxNs;
  for (const LatencyBin &B : bins()) {
    Seen += B.Count;
    if (Seen >= Rank) {
      V = B.UpperNs;
      break;
    }
  }
  return std::clamp(V, MinNs, std::max(MinNs, MaxNs));
}

/// The calls of \p Nd its thread left out of its histogram: sampled calls
/// whose per-call time was uncertain (the reader checked the rest).
static uint64_t sampledApart(const Thread &T, const Node &Nd) {
  if (!threadFlags(T).SampledCallsApart)
    return 0;
  uint64_t In = 0;
  for (const LatencyCount &L : Nd.Latency)
    In += L.Count;
  return Nd.Calls > In ? Nd.Calls - In : 0;
}

/// One thread's nodes into the table: per function, and per tree node where
/// the aggregate put the node (\p TreeIdx, Aggregate::TreeIndex).
static void addThread(LatencyTable &L, const Process &P, const Thread &T,
                      ArrayRef<uint32_t> Global, ArrayRef<uint32_t> TreeIdx) {
  bool Has = threadFlags(T).Latency;
  L.Any |= Has;
  for (size_t I = 0; I < T.Nodes.size(); ++I) {
    const Node &Nd = T.Nodes[I];
    if (!Nd.Calls)
      continue;
    uint32_t G = Global[Nd.Func];
    if (Has) {
      L.ByFunction[G].add(P.TickRate, Nd.Latency);
      uint64_t Apart = sampledApart(T, Nd);
      L.Function[G].SampledApart += Apart;
      if (TreeIdx[I] != kNotInTree) {
        L.ByTreeNode[TreeIdx[I]].add(P.TickRate, Nd.Latency);
        L.TreeNode[TreeIdx[I]].SampledApart += Apart;
      }
      continue;
    }
    L.Function[G].add(Nd.Calls, T.LatencyDropped);
    if (TreeIdx[I] != kNotInTree)
      L.TreeNode[TreeIdx[I]].add(Nd.Calls, T.LatencyDropped);
  }
}

LatencyTable profile::latencies(const Profile &P, const Aggregate &A) {
  LatencyTable L;
  L.ByFunction.resize(A.Functions.size());
  L.Function.resize(A.Functions.size());
  L.ByTreeNode.resize(A.Tree.size());
  L.TreeNode.resize(A.Tree.size());
  for (size_t PI = 0; PI < P.Processes.size(); ++PI)
    for (size_t TI = 0; TI < P.Processes[PI].Threads.size(); ++TI)
      addThread(L, P.Processes[PI], P.Processes[PI].Threads[TI],
                A.FunctionIds[PI], A.TreeIndex[PI][TI]);
  return L;
}
