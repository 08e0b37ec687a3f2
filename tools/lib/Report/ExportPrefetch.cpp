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

/// The prefetch hint file (format in docs/user-guide.md): one hint per
/// dynamic load in a loop classed unit or constant with a non-zero stride
/// and a measured iteration time.
static Error writePrefetchHints(const Profile &P, const ViewOptions &O,
                                raw_ostream &OS, Progress &) {
  if (!(O.LatencyNs > 0) || O.MaxDistance == 0)
    return createStringError(inconvertibleErrorCode(),
                             "--latency-ns and --max-distance must be > 0");
  FunctionNamer Names(O.names(NameUse::Linkage));
  PrefetchModel Model;
  Model.LatencyNs = O.LatencyNs;
  Model.MaxIterations = O.MaxDistance;
  json::Array Hints;
  unsigned Skipped = 0;
  for (const StrideRow &R : strideRows(P)) {
    const MemSite &S = R.Site;
    if (R.Static || siteFlags(S).Store || !siteFlags(S).InLoop)
      continue;
    if ((R.Class != StrideClass::Unit && R.Class != StrideClass::Constant) ||
        !R.IterNs) {
      ++Skipped;
      continue;
    }
    PrefetchDistance D = prefetchDistance(R.Stride, *R.MinIterNs, Model);
    Hints.push_back(json::Object{
        {"module", R.Module},
        {"function", Names.name(S.Func)},
        {"file", S.File},
        {"line", S.Line},
        {"column", S.Column},
        {"hash", formatv("{0:x16}", S.Hash).str()},
        {"access_size", S.AccessSize},
        {"class", strideClassName(R.Class)},
        {"stride", R.Stride},
        {"confidence", std::round(R.Confidence * 1e4) / 1e4},
        {"observations", int64_t(S.Observations)},
        {"measured_iteration_ns", std::round(*R.MeasuredIterNs * 100) / 100},
        {"probe_ns", std::round(R.LoopProbeNs * 100) / 100},
        {"iteration_ns", std::round(*R.IterNs * 100) / 100},
        {"min_iteration_ns", std::round(*R.MinIterNs * 100) / 100},
        {"work_ns", std::round(D.WorkNs * 100) / 100},
        {"distance_iterations", D.Iterations},
        {"distance_bytes", D.Bytes},
    });
  }
  json::Object Doc{
      {"format", "activetime-prefetch-hints"},
      {"version", 1},
      {"latency_ns", O.LatencyNs},
      {"line_bytes", Model.LineBytes},
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
  V.Reads = "latency-ns max-distance";
  // The stride sites belong to no thread or call.
  V.CallFilters = false;
  V.Write = writePrefetchHints;
  return V;
}
static ViewRegistration RegisterPrefetchFormat(ViewKind::Export, 10,
                                               prefetchFormat);
