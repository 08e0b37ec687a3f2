//===- StrideCopies.cpp - Unrolled copies of one source access ------------===//
//
// Part of ActiveTime. See foldCopies in activetime/Profile/Strides.h.
//
// The probes sit after unrolling, so a loop unrolled n times has n sites for
// one source access, each with n times its stride. The pass proves which
// sites are such copies (ScalarEvolution: their addresses differ by
// constants); here the figures decide whether they are the copies of an
// unrolled stride: all with one stride S, their offsets the n distinct steps
// of d = S / n. Only then are they folded, so a folded row never states a
// stride the copies do not show.
//
// Copies the pass could not prove (a[idx[i]], p[i]->v unrolled: their
// addresses differ by loaded values) come as an unproven group, whose
// offsets the runtime observed instead, each copy against the one before it
// in the same iteration. The same figures decide, with the offsets observed
// in place of proven ones, and only offsets seen often and nearly always
// the same count.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/Strides.h"
#include "activetime/abi.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"

#include <map>
#include <numeric>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;

static bool hasStride(const StrideRow &R) {
  return R.Class != StrideClass::Irregular && R.Class != StrideClass::Unknown;
}

static uint64_t magnitude(int64_t V) {
  return V < 0 ? 0 - uint64_t(V) : uint64_t(V);
}

static bool isUnproven(const StrideRow &R) {
  return R.Site.Flags & abi::MS_CopyUnproven;
}

/// Why the observed offset of unproven copy \p K of \p G (from copy K - 1)
/// does not count, or "".
static std::string whyOffsetUnobserved(const std::vector<const StrideRow *> &G,
                                       size_t K, int64_t S) {
  const MemSite &C = G[K]->Site;
  std::string Copy = "copy " + utostr(K + 1) + " of " + utostr(G.size());
  if (C.PrevPairs < kMinCopyPairs)
    return Copy + " was observed in the same iteration as the copy before "
                  "it only " +
           utostr(C.PrevPairs) + " times (" + utostr(kMinCopyPairs) +
           " needed)";
  double Share = double(C.PrevOffsetCount) / double(C.PrevPairs);
  if (Share < kCopyOffsetConfidence)
    return "offsets between copies not constant at run time (" + Copy +
           ": " + utostr(unsigned(Share * 100)) + "% of " +
           utostr(C.PrevPairs) + " at " + itostr(C.PrevOffset) + ", " +
           utostr(unsigned(kCopyOffsetConfidence * 100)) + "% needed)";
  if (magnitude(C.PrevOffset) >= magnitude(S))
    return "the offset between copies " + itostr(C.PrevOffset) +
           " is not within one copy's stride " + itostr(S);
  return "";
}

/// Why the copies \p G (first copy first) are not folded, or "" (then \p D
/// is the source stride). An unproven group's offsets are the observed ones.
static std::string whyNotFolded(const std::vector<const StrideRow *> &G,
                                int64_t &D) {
  int64_t N = int64_t(G.size());
  for (const StrideRow *R : G)
    if (!hasStride(*R))
      return "a copy has no stride (irregular or too few observations)";
  for (const StrideRow *R : G)
    if (R->Stride != G[0]->Stride || R->Static != G[0]->Static)
      return "the copies' strides differ";
  int64_t S = G[0]->Stride;
  if (S == 0 || S % N != 0)
    return "their stride " + itostr(S) + " is not " + itostr(N) +
           " steps of a source stride";
  D = S / N;
  bool Unproven = isUnproven(*G[0]);
  if (Unproven)
    for (size_t K = 1; K < G.size(); ++K)
      if (std::string Why = whyOffsetUnobserved(G, K, S); !Why.empty())
        return Why;
  DenseSet<int64_t> Steps;
  for (const StrideRow *R : G) {
    int64_t Off = Unproven ? R->ObservedOffset.value_or(0)
                           : R->Site.CopyOffset - G[0]->Site.CopyOffset;
    if (Off % D != 0)
      return "offset " + itostr(Off) + " is not a multiple of " + itostr(D);
    int64_t K = ((Off / D) % N + N) % N;
    if (!Steps.insert(K).second)
      return "two copies fall on the same step of " + itostr(D);
  }
  return "";
}

/// The mean of \p Get over the copies that have it, divided by \p N: one
/// step of the source stride.
template <class GetT>
static std::optional<double> perStep(const std::vector<const StrideRow *> &G,
                                     GetT Get) {
  double Sum = 0;
  unsigned Have = 0;
  for (const StrideRow *R : G)
    if (std::optional<double> V = Get(*R)) {
      Sum += *V;
      ++Have;
    }
  if (!Have)
    return std::nullopt;
  return Sum / Have / double(G.size());
}

static StrideRow folded(const std::vector<const StrideRow *> &G, int64_t D) {
  StrideRow F = *G[0];
  MemSite &S = F.Site;
  S.CopyOffset = 0;
  S.Executions = S.Observations = S.Differences = S.Adjacent = 0;
  S.ZeroDiffs = S.DominantCount = S.IterTicks = S.ProbeTicks = 0;
  S.Gcd = 0;
  for (const StrideRow *R : G) {
    const MemSite &C = R->Site;
    S.Executions += C.Executions;
    S.Observations += C.Observations;
    S.Differences += C.Differences;
    S.Adjacent += C.Adjacent;
    S.ZeroDiffs += C.ZeroDiffs;
    S.DominantCount += C.DominantCount;
    S.Gcd = std::gcd(S.Gcd, C.Gcd);
  }
  F.Unroll = unsigned(G.size());
  F.CopyStride = G[0]->Stride;
  F.Stride = D;
  if (!F.Static && S.Adjacent)
    F.Confidence = double(S.DominantCount) / double(S.Adjacent);
  // The class of the source stride (8-byte elements unrolled 4 times are
  // "constant" 32 per copy but "unit" 8 in the source).
  StrideRow ByD = F;
  ByD.Site.StaticStride = D;
  ByD.Site.Flags |= abi::MS_Static;
  classifySite(ByD);
  F.Class = ByD.Class;
  F.MeasuredIterNs = perStep(G, [](const StrideRow &R) { return R.MeasuredIterNs; });
  F.IterNs = perStep(G, [](const StrideRow &R) { return R.IterNs; });
  F.MinIterNs = perStep(G, [](const StrideRow &R) { return R.MinIterNs; });
  if (std::optional<double> P = perStep(G, [](const StrideRow &R) {
        return std::optional<double>(R.LoopProbeNs);
      }))
    F.LoopProbeNs = *P;
  F.RunTimeFold = isUnproven(*G[0]);
  F.ObservedOffset.reset();
  return F;
}

void profile::chainObservedOffsets(std::vector<StrideRow> &Rows) {
  // Per (module, group): the latest copy's observed offset, none once a
  // link of the chain is missing.
  std::map<std::pair<std::string, uint32_t>, std::optional<int64_t>> Chain;
  for (StrideRow &R : Rows) {
    if (!R.Site.CopyGroup || !isUnproven(R))
      continue;
    auto [It, First] = Chain.try_emplace({R.Module, R.Site.CopyGroup},
                                         std::optional<int64_t>(0));
    std::optional<int64_t> &Latest = It->second;
    if (!First) {
      // Offsets bound by the copy stride in the fold; here only kept from
      // overflowing.
      int64_t Sum;
      if (Latest && R.Site.PrevOffsetCount &&
          !__builtin_add_overflow(*Latest, R.Site.PrevOffset, &Sum))
        Latest = Sum;
      else
        Latest.reset();
    }
    R.ObservedOffset = Latest;
  }
}

std::vector<StrideRow> profile::foldCopies(const std::vector<StrideRow> &Rows) {
  std::map<std::pair<std::string, uint32_t>, std::vector<const StrideRow *>>
      Groups;
  for (const StrideRow &R : Rows)
    if (R.Site.CopyGroup)
      Groups[{R.Module, R.Site.CopyGroup}].push_back(&R);
  std::vector<StrideRow> Out;
  for (const StrideRow &R : Rows) {
    if (!R.Site.CopyGroup) {
      Out.push_back(R);
      continue;
    }
    const std::vector<const StrideRow *> &G =
        Groups[{R.Module, R.Site.CopyGroup}];
    int64_t D = 0;
    std::string Why = G.size() < 2 ? "" : whyNotFolded(G, D);
    if (G.size() < 2 || !Why.empty()) {
      Out.push_back(R);
      if (G.size() >= 2)
        Out.back().FoldNote = Why;
      continue;
    }
    if (&R == G[0])
      Out.push_back(folded(G, D));
  }
  return Out;
}
