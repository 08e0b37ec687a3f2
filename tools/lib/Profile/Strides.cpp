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
/// The time of a site's dominant steps, in ns: tick rates differ between
/// processes, so the sums over them are of ns.
struct StepTimes {
  double IterNs = 0;  // summed over the dominant steps
  double ProbeNs = 0; // of which the site's own probe
  double MinNs = 0;   // the shortest step less its own probe time
  // The same over every adjacent step, whatever its difference.
  double AnyNs = 0, AnyProbeNs = 0, AnyMinNs = 0;
};
} // namespace

static StepTimes stepTimes(const Process &Pr, const MemSite &S) {
  double Rate = double(Pr.TickRate);
  return {double(S.IterTicks) * 1e9 / Rate,    double(S.ProbeTicks) * 1e9 / Rate,
          double(S.MinStepTicks) * 1e9 / Rate,  double(S.AnyStepTicks) * 1e9 / Rate,
          double(S.AnyProbeTicks) * 1e9 / Rate, double(S.MinAnyStepTicks) * 1e9 / Rate};
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
    Sum.AnyMinNs = M.Adjacent == S.Adjacent ? St.AnyMinNs
                                            : std::min(Sum.AnyMinNs, St.AnyMinNs);
    Sum.AnyNs += St.AnyNs;
    Sum.AnyProbeNs += St.AnyProbeNs;
  }
  // As the runtime merges threads: the best supported stride wins, and
  // processes agreeing on it add up.
  if (M.DominantCount && S.Dominant == M.Dominant) {
    M.DominantCount += S.DominantCount;
    Sum.IterNs += St.IterNs;
    Sum.ProbeNs += St.ProbeNs;
    Sum.MinNs = std::min(Sum.MinNs, St.MinNs);
  } else if (S.DominantCount > M.DominantCount) {
    M.Dominant = S.Dominant;
    M.DominantCount = S.DominantCount;
    Sum.IterNs = St.IterNs;
    Sum.ProbeNs = St.ProbeNs;
    Sum.MinNs = St.MinNs;
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

std::vector<StrideRow> profile::strideRows(const Profile &P) {
  std::vector<StepTimes> Steps;
  std::vector<StrideRow> Rows = mergeSites(P, Steps);
  // Every dynamic site of a loop is inspected in the loop's iterations: the
  // probe time of all of them lies inside each one's measured step.
  std::map<std::tuple<std::string, std::string, uint32_t>, double> LoopProbe;
  std::vector<double> OwnProbe(Rows.size(), 0);
  auto LoopKey = [](const StrideRow &R) {
    return std::make_tuple(R.Module, R.Site.Func, R.Site.LoopLine);
  };
  for (size_t I = 0; I < Rows.size(); ++I) {
    StrideRow &R = Rows[I];
    if (R.Site.DominantCount && Steps[I].IterNs > 0) {
      R.MeasuredIterNs = Steps[I].IterNs / double(R.Site.DominantCount);
      OwnProbe[I] = Steps[I].ProbeNs / double(R.Site.DominantCount);
      if (R.Site.Flags & abi::MS_InLoop)
        LoopProbe[LoopKey(R)] += OwnProbe[I];
    }
    classifySite(R);
  }
  // The same over every adjacent step of each site.
  std::map<std::tuple<std::string, std::string, uint32_t>, double> LoopAny;
  std::vector<double> OwnAny(Rows.size(), 0);
  for (size_t I = 0; I < Rows.size(); ++I) {
    const StrideRow &R = Rows[I];
    if (!R.Site.Adjacent || Steps[I].AnyNs <= 0)
      continue;
    OwnAny[I] = Steps[I].AnyProbeNs / double(R.Site.Adjacent);
    if (R.Site.Flags & abi::MS_InLoop)
      LoopAny[LoopKey(R)] += OwnAny[I];
  }
  for (size_t I = 0; I < Rows.size(); ++I) {
    StrideRow &R = Rows[I];
    if (R.Site.Adjacent && Steps[I].AnyNs > 0) {
      double Probe =
          (R.Site.Flags & abi::MS_InLoop) ? LoopAny[LoopKey(R)] : OwnAny[I];
      R.AnyIterNs = std::max(
          Steps[I].AnyNs / double(R.Site.Adjacent) - Probe, 0.0);
      R.MinAnyIterNs =
          std::max(Steps[I].AnyMinNs - (Probe - OwnAny[I]), 0.0);
    }
    if (!R.MeasuredIterNs)
      continue;
    R.LoopProbeNs = (R.Site.Flags & abi::MS_InLoop) ? LoopProbe[LoopKey(R)]
                                                     : OwnProbe[I];
    R.IterNs = std::max(*R.MeasuredIterNs - R.LoopProbeNs, 0.0);
    R.MinIterNs =
        std::max(Steps[I].MinNs - (R.LoopProbeNs - OwnProbe[I]), 0.0);
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
