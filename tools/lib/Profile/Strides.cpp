//===- Strides.cpp - Stride classification ----------------------------------===//
//
// Part of ActiveTime. See activetime/Profile/Strides.h.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/Strides.h"
#include "activetime/abi.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <numeric>
#include <tuple>

using namespace activetime;
using namespace activetime::profile;

const char *profile::strideClassName(StrideClass C) {
  switch (C) {
  case StrideClass::Uniform:
    return "uniform";
  case StrideClass::Unit:
    return "unit";
  case StrideClass::Constant:
    return "constant";
  case StrideClass::Irregular:
    return "irregular";
  case StrideClass::Unknown:
    return "unknown";
  }
  return "unknown";
}

static StrideClass classOf(int64_t Stride, uint32_t Size) {
  if (Stride == 0)
    return StrideClass::Uniform;
  if (uint64_t(std::llabs(Stride)) == Size)
    return StrideClass::Unit;
  return StrideClass::Constant;
}

void profile::classifySite(StrideRow &R) {
  const MemSite &S = R.Site;
  R.Static = S.Flags & abi::MS_Static;
  if (R.Static) {
    R.Stride = S.StaticStride;
    R.Class = classOf(S.StaticStride, S.AccessSize);
    R.Confidence = 1;
    return;
  }
  if (S.Adjacent == 0) {
    R.Class = StrideClass::Unknown;
    return;
  }
  R.Confidence = double(S.DominantCount) / double(S.Adjacent);
  R.Stride = S.Dominant;
  R.Class = R.Confidence >= kStrideConfidence ? classOf(S.Dominant, S.AccessSize)
                                              : StrideClass::Irregular;
}

namespace {
/// The time of a set of a site's steps, in ns: tick rates differ between
/// processes, so the sums over them are of ns.
struct StepSet {
  double SumNs = 0;   // summed over the steps
  double ProbeNs = 0; // of which the site's own probe
  double MinNs = 0;   // the shortest step less its own probe time
};
/// A site's dominant steps, and every adjacent step whatever its
/// difference.
struct StepTimes {
  StepSet Dominant, Any;
};
} // namespace

/// A site's steps in ns. Each step holds one call of the site's probe: the
/// part its tick reads measured, and the probe gap they cannot see
/// (Process::ProbeGapTicks), which counts as the probe's too.
static StepTimes stepTimes(const Process &Pr, const MemSite &S) {
  double NsPerTick = 1e9 / double(Pr.TickRate);
  auto Ns = [&](uint64_t Ticks) { return double(Ticks) * NsPerTick; };
  uint64_t Gap = Pr.ProbeGapTicks;
  auto Set = [&](uint64_t Sum, uint64_t Probe, uint64_t Min, uint64_t Steps) {
    return StepSet{Ns(Sum), Ns(Probe) + Ns(Gap) * double(Steps),
                   Ns(Min > Gap ? Min - Gap : 0)};
  };
  return {Set(S.IterTicks, S.ProbeTicks, S.MinStepTicks, S.DominantCount),
          Set(S.AnyStepTicks, S.AnyProbeTicks, S.MinAnyStepTicks, S.Adjacent)};
}

/// Adds another process's record \p S of a site (its steps \p St) to the
/// merged \p M (its steps \p Sum).
static void mergeSite(MemSite &M, StepTimes &Sum, const MemSite &S,
                      const StepTimes &St) {
  M.Executions += S.Executions;
  M.Observations += S.Observations;
  M.Differences += S.Differences;
  M.Adjacent += S.Adjacent;
  M.ZeroDiffs += S.ZeroDiffs;
  M.Gcd = std::gcd(M.Gcd, S.Gcd);
  // The offset from the previous copy, likewise.
  M.PrevPairs += S.PrevPairs;
  if (M.PrevOffsetCount && S.PrevOffset == M.PrevOffset) {
    M.PrevOffsetCount += S.PrevOffsetCount;
  } else if (S.PrevOffsetCount > M.PrevOffsetCount) {
    M.PrevOffset = S.PrevOffset;
    M.PrevOffsetCount = S.PrevOffsetCount;
  }
  if (S.Adjacent) {
    Sum.Any.MinNs = M.Adjacent == S.Adjacent
                        ? St.Any.MinNs
                        : std::min(Sum.Any.MinNs, St.Any.MinNs);
    Sum.Any.SumNs += St.Any.SumNs;
    Sum.Any.ProbeNs += St.Any.ProbeNs;
  }
  // As the runtime merges threads: the best supported stride wins, and
  // processes agreeing on it add up.
  if (M.DominantCount && S.Dominant == M.Dominant) {
    M.DominantCount += S.DominantCount;
    Sum.Dominant.SumNs += St.Dominant.SumNs;
    Sum.Dominant.ProbeNs += St.Dominant.ProbeNs;
    Sum.Dominant.MinNs = std::min(Sum.Dominant.MinNs, St.Dominant.MinNs);
  } else if (S.DominantCount > M.DominantCount) {
    M.Dominant = S.Dominant;
    M.DominantCount = S.DominantCount;
    Sum.Dominant = St.Dominant;
  }
}

/// One row per site (module name, hash) over all processes; Steps[I] is
/// row I's step times.
static std::vector<StrideRow> mergeSites(const Profile &P,
                                         std::vector<StepTimes> &Steps) {
  std::vector<StrideRow> Rows;
  std::map<std::pair<std::string, uint64_t>, size_t> Index;
  for (const Process &Pr : P.Processes) {
    for (const MemSite &S : Pr.Sites) {
      const std::string &Mod = Pr.Modules[S.Module].Name;
      StepTimes St = stepTimes(Pr, S);
      auto [It, New] = Index.try_emplace({Mod, S.Hash}, Rows.size());
      if (!New) {
        mergeSite(Rows[It->second].Site, Steps[It->second], S, St);
        Rows[It->second].AddrSpan =
            std::max(Rows[It->second].AddrSpan, S.MaxAddress - S.MinAddress);
        continue;
      }
      StrideRow R;
      R.Module = Mod;
      R.Site = S;
      R.AddrSpan = S.MaxAddress - S.MinAddress;
      Rows.push_back(std::move(R));
      Steps.push_back(St);
    }
  }
  return Rows;
}

namespace {
/// A set of steps without the probes of the loop's dynamic sites.
struct LessProbes {
  double MeanNs = 0;      // the mean step as measured
  double LoopProbeNs = 0; // the loop's probes' time per step
  double IterNs = 0;      // MeanNs - LoopProbeNs, at least 0
  double MinNs = 0;       // the shortest less the other sites' probes
};
} // namespace

/// Every dynamic site of a loop is inspected in the loop's iterations: the
/// probe time of all of them lies inside each one's measured step. For each
/// row whose set \p Set of steps (\p Count of them) has time, its mean and
/// shortest step less that probe time (the shortest lacks its own already).
/// A site measured by its probe lead has the lead's steps and probe time:
/// its own as far as its steps go, but no probe of the loop's.
template <class SetT, class CountT>
static std::vector<std::optional<LessProbes>>
lessLoopProbes(const std::vector<StrideRow> &Rows, SetT Set, CountT Count) {
  auto LoopKey = [](const StrideRow &R) {
    return std::make_tuple(R.Module, R.Site.Func, R.Site.LoopLine);
  };
  auto InLoop = [](const StrideRow &R) { return R.Site.Flags & abi::MS_InLoop; };
  auto Has = [&](size_t I) { return Count(Rows[I]) && Set(I).SumNs > 0; };
  std::map<std::tuple<std::string, std::string, uint32_t>, double> LoopProbe;
  std::vector<double> Own(Rows.size(), 0);
  for (size_t I = 0; I < Rows.size(); ++I) {
    if (!Has(I))
      continue;
    Own[I] = Set(I).ProbeNs / double(Count(Rows[I]));
    if (InLoop(Rows[I]) && !Rows[I].Site.ProbeLead)
      LoopProbe[LoopKey(Rows[I])] += Own[I];
  }
  std::vector<std::optional<LessProbes>> Out(Rows.size());
  for (size_t I = 0; I < Rows.size(); ++I) {
    if (!Has(I))
      continue;
    LessProbes L;
    L.MeanNs = Set(I).SumNs / double(Count(Rows[I]));
    L.LoopProbeNs = InLoop(Rows[I]) ? LoopProbe[LoopKey(Rows[I])] : Own[I];
    L.IterNs = std::max(L.MeanNs - L.LoopProbeNs, 0.0);
    L.MinNs = std::max(Set(I).MinNs - (L.LoopProbeNs - Own[I]), 0.0);
    Out[I] = L;
  }
  return Out;
}

std::vector<StrideRow> profile::strideRows(const Profile &P) {
  std::vector<StepTimes> Steps;
  std::vector<StrideRow> Rows = mergeSites(P, Steps);
  for (StrideRow &R : Rows)
    classifySite(R);
  std::vector<std::optional<LessProbes>> Dominant = lessLoopProbes(
      Rows, [&](size_t I) { return Steps[I].Dominant; },
      [](const StrideRow &R) { return R.Site.DominantCount; });
  std::vector<std::optional<LessProbes>> Any = lessLoopProbes(
      Rows, [&](size_t I) { return Steps[I].Any; },
      [](const StrideRow &R) { return R.Site.Adjacent; });
  for (size_t I = 0; I < Rows.size(); ++I) {
    StrideRow &R = Rows[I];
    if (const std::optional<LessProbes> &D = Dominant[I]) {
      R.MeasuredIterNs = D->MeanNs;
      R.LoopProbeNs = D->LoopProbeNs;
      R.IterNs = D->IterNs;
      R.MinIterNs = D->MinNs;
    }
    if (const std::optional<LessProbes> &A = Any[I]) {
      R.AnyIterNs = A->IterNs;
      R.MinAnyIterNs = A->MinNs;
    }
  }
  chainObservedOffsets(Rows);
  return Rows;
}

PrefetchDistance profile::prefetchDistance(int64_t Stride, double StepNs,
                                           const PrefetchModel &Model) {
  PrefetchDistance D;
  bool LeavesLine = uint64_t(std::llabs(Stride)) >= Model.LineBytes;
  D.WorkNs = LeavesLine && StepNs > Model.LatencyNs ? StepNs - Model.LatencyNs
                                                    : StepNs;
  D.WorkNs = std::max(D.WorkNs, 1.0);
  double It = std::ceil(Model.LatencyNs / D.WorkNs);
  D.Iterations = unsigned(std::clamp(It, 1.0, double(Model.MaxIterations)));
  D.Bytes = int64_t(D.Iterations) * Stride;
  return D;
}

IndirectChoice profile::indirectChoice(const StrideRow &R, double WallNs,
                                       const PrefetchModel &Model) {
  IndirectChoice C;
  if (!R.AnyIterNs || !R.MinAnyIterNs) {
    C.Why = "no step time measured";
    return C;
  }
  C.LoopNs = double(R.Site.Executions) * *R.AnyIterNs;
  C.StallNs = *R.AnyIterNs - *R.MinAnyIterNs;
  if (R.AddrSpan < Model.CacheBytes) {
    C.Why = "its addresses stay within the cache";
    return C;
  }
  if (!(C.LoopNs >= kIndirectHotShare * WallNs)) {
    C.Why = "cold";
    return C;
  }
  if (!(C.StallNs >= kIndirectStallShare * Model.LatencyNs)) {
    C.Why = "its steps do not stall";
    return C;
  }
  C.Pays = true;
  C.Distance = prefetchDistance(0, *R.MinAnyIterNs, Model);
  // The probes of an unrolled loop's copies can cost more than its work:
  // then nothing of the shortest step is left once they are out, and the
  // work is not measured. The mean step is no substitute (it holds the
  // misses the prefetch is to hide); Ainsworth and Jones's look-ahead is.
  C.WorkUnmeasured = *R.MinAnyIterNs < 1;
  if (C.WorkUnmeasured)
    C.Distance.Iterations =
        std::min(kIndirectLookAhead, Model.MaxIterations);
  return C;
}
