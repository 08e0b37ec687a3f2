//===- ExportPrefetch.cpp - Prefetch hints from strides -------------------===//
//
// Part of ActiveTime. `export --format=prefetch`: the hint file of
// stride-profile-guided prefetching, read by the pass with
// -mllvm -activetime-prefetch-use=FILE.
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "activetime/Profile/Flags.h"
#include "activetime/Profile/Strides.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <cmath>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::report;

namespace {

/// The latency the hints cover: --latency-ns, or measured here once a hint
/// needs it.
class Latency {
public:
  explicit Latency(double Given) : Ns(Given), Given(Given > 0) {}
  Expected<double> get() {
    if (Ns > 0)
      return Ns;
    Measured = measureMissLatency();
    if (!(Measured.Ns > 0))
      return createStringError(inconvertibleErrorCode(),
                               "could not measure the memory latency "
                               "(allocating the buffer failed); give "
                               "--latency-ns");
    Ns = Measured.Ns;
    return Ns;
  }
  bool known() const { return Ns > 0; }
  json::Object describe() const {
    if (Given)
      return json::Object{{"source", "--latency-ns"}};
    if (!Measured.Loads)
      return json::Object{{"source", "not needed: no hint"}};
    return json::Object{{"source", "measured"},
                        {"buffer_bytes", int64_t(Measured.BufferBytes)},
                        {"dependent_loads", int64_t(Measured.Loads)}};
  }

private:
  double Ns;
  bool Given;
  MissLatency Measured;
};

double round2(double V) { return std::round(V * 100) / 100; }

/// The hint's fields common to both kinds: which load, what was seen.
json::Object siteFields(const StrideRow &R, const FunctionNamer &Names) {
  const MemSite &S = R.Site;
  return json::Object{
      {"module", R.Module},
      {"function", Names.name(S.Func)},
      {"file", S.File},
      {"line", S.Line},
      {"column", S.Column},
      {"hash", formatv("{0:x16}", S.Hash).str()},
      {"access_size", S.AccessSize},
      {"class", strideClassName(R.Class)},
      {"observations", int64_t(S.Observations)},
  };
}

double wallNs(const Profile &P) {
  double Ns = 0;
  for (const Process &Pr : P.Processes)
    if (Pr.TickRate && Pr.EndTick > Pr.StartTick)
      Ns += double(Pr.EndTick - Pr.StartTick) * 1e9 / double(Pr.TickRate);
  return Ns;
}

} // namespace

/// The prefetch hint file (format in docs/exports.md): a "stride" hint per
/// dynamic load in a loop classed unit or constant with a measured
/// iteration time, an "indirect" hint per irregular one that is hot and
/// stalls (the pass prefetches it through its index when it has one).
static Error writePrefetchHints(const Profile &P, const ViewOptions &O,
                                raw_ostream &OS, Progress &) {
  if (O.LatencyNs < 0 || O.MaxDistance == 0)
    return createStringError(inconvertibleErrorCode(),
                             "--latency-ns must be >= 0 and --max-distance "
                             "> 0");
  FunctionNamer Names(O.names(NameUse::Linkage));
  Latency Lat(O.LatencyNs);
  PrefetchModel Model;
  Model.MaxIterations = O.MaxDistance;
  Model.CacheBytes = O.MinSpan >= 0 ? uint64_t(O.MinSpan) : cacheBytes();
  double Wall = wallNs(P);
  json::Array Hints;
  unsigned Skipped = 0;
  for (const StrideRow &R : strideRows(P)) {
    const MemSite &S = R.Site;
    if (R.Static || siteFlags(S).Store || !siteFlags(S).InLoop)
      continue;
    bool Strided = (R.Class == StrideClass::Unit ||
                    R.Class == StrideClass::Constant) && R.IterNs;
    // Data that stays in a core's cache needs no prefetch: it would only
    // cost instructions (the no-regression programs' small tables).
    if (R.AddrSpan < Model.CacheBytes &&
        (Strided || R.Class == StrideClass::Irregular)) {
      ++Skipped;
      continue;
    }
    if (!Strided && R.Class != StrideClass::Irregular) {
      ++Skipped;
      continue;
    }
    Expected<double> L = Lat.get();
    if (!L)
      return L.takeError();
    Model.LatencyNs = *L;
    json::Object H = siteFields(R, Names);
    if (Strided) {
      PrefetchDistance D = prefetchDistance(R.Stride, *R.MinIterNs, Model);
      H.insert({"kind", "stride"});
      H.insert({"stride", R.Stride});
      H.insert({"confidence", std::round(R.Confidence * 1e4) / 1e4});
      H.insert({"measured_iteration_ns", round2(*R.MeasuredIterNs)});
      H.insert({"probe_ns", round2(R.LoopProbeNs)});
      H.insert({"iteration_ns", round2(*R.IterNs)});
      H.insert({"min_iteration_ns", round2(*R.MinIterNs)});
      H.insert({"work_ns", round2(D.WorkNs)});
      H.insert({"distance_iterations", D.Iterations});
      H.insert({"distance_bytes", D.Bytes});
    } else {
      IndirectChoice C = indirectChoice(R, Wall, Model);
      if (!C.Pays) {
        ++Skipped;
        continue;
      }
      H.insert({"kind", "indirect"});
      H.insert({"stride", 0});
      H.insert({"iteration_ns", round2(*R.AnyIterNs)});
      H.insert({"min_iteration_ns", round2(*R.MinAnyIterNs)});
      H.insert({"stall_ns", round2(C.StallNs)});
      H.insert({"address_span", int64_t(R.AddrSpan)});
      H.insert({"work_from", C.WorkUnmeasured ? "unmeasured: look-ahead"
                                              : "shortest step"});
      H.insert({"loop_share", std::round(C.LoopNs / Wall * 1e4) / 1e4});
      if (!C.WorkUnmeasured)
        H.insert({"work_ns", round2(C.Distance.WorkNs)});
      H.insert({"distance_iterations", C.Distance.Iterations});
      H.insert({"distance_bytes", 0});
    }
    Hints.push_back(std::move(H));
  }
  json::Object Doc{
      {"format", "activetime-prefetch-hints"},
      {"version", 2},
      {"latency_ns", Lat.known() ? json::Value(round2(Model.LatencyNs))
                                 : json::Value(nullptr)},
      {"latency", Lat.describe()},
      {"line_bytes", Model.LineBytes},
      {"cache_bytes", int64_t(Model.CacheBytes)},
      {"max_distance_iterations", Model.MaxIterations},
      {"loads_without_hint", Skipped},
      {"hints", std::move(Hints)},
  };
  OS << formatv("{0:2}", json::Value(std::move(Doc))) << "\n";
  return Error::success();
}

static View prefetchFormat() {
  View V;
  V.Name = "prefetch";
  V.Description = "prefetch hints for -activetime-prefetch-use";
  V.Reads = "latency-ns max-distance min-span";
  // The stride sites belong to no thread or call.
  V.CallFilters = false;
  V.Write = writePrefetchHints;
  return V;
}
static ViewRegistration RegisterPrefetchFormat(ViewKind::Export, 10,
                                               prefetchFormat);
