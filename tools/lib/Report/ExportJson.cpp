//===- ExportJson.cpp - The whole profile as one JSON document ------------===//
//
// Part of ActiveTime. `export --format=json` and the data island of
// `report --html`: the report document (complete call tree), the OpenMP
// document, the stride sites, the sample paths and the trace losses, under
// one versioned envelope ("activetime-export"; docs/user-guide.md and
// docs/activetime-export.schema.json).
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "activetime/Report/Export.h"
#include "activetime/Report/Format.h"
#include "activetime/Report/Reports.h"
#include "activetime/Profile/Aggregate.h"
#include "activetime/Profile/Samples.h"
#include "activetime/Profile/Strides.h"
#include "activetime/abi.h"

#include "llvm/Support/JSON.h"

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::report;

/// The sampled view: the sampler's settings and losses and every sampled
/// call path with its on- and off-CPU time.
static void samplesJson(const Profile &P, json::OStream &J, bool Demangle) {
  SampleSummary S = summarizeSamples(P);
  J.attributeObject("samples", [&] {
    J.attribute("processes", int64_t(S.Processes));
    J.attribute("interval_ns", S.IntervalNs);
    J.attribute("randomized", S.Randomized);
    J.attribute("on_cpu_ns", S.All.OnNs);
    J.attribute("off_cpu_ns", S.All.OffNs);
    J.attribute("samples", int64_t(S.All.samples()));
    J.attributeObject("losses", [&] {
      J.attribute("dropped", int64_t(S.Dropped));
      J.attribute("torn_discarded", int64_t(S.TornDiscarded));
      J.attribute("unmapped", int64_t(S.Unmapped));
    });
    J.attribute("sampler_cpu_ns", S.SamplerCpuNs);
    J.attributeArray("paths", [&] {
      for (const auto &KV : S.Paths)
        J.object([&] {
          const std::vector<std::string> &Path = KV.first;
          const SampleFigures &F = KV.second;
          J.attributeArray("frames", [&] {
            for (const std::string &Fr : Path)
              J.value(displayName(Fr, Demangle));
          });
          J.attribute("on_cpu_ns", F.OnNs);
          J.attribute("off_cpu_ns", F.OffNs);
          J.attribute("on_cpu_samples", int64_t(F.OnSamples));
          J.attribute("off_cpu_samples", int64_t(F.OffSamples));
          J.attribute("preempted_samples", int64_t(F.Preempted));
        });
    });
  });
}

/// Per traced thread, how much it recorded, what a full buffer lost and
/// what the buffers cost it.
static void traceLossesJson(const Profile &P, json::OStream &J) {
  J.attributeArray("traces", [&] {
    for (const Process &Pr : P.Processes)
      for (const Trace &T : Pr.Traces)
        J.object([&] {
          J.attribute("pid", int64_t(Pr.Pid));
          J.attribute("tid", int64_t(T.Tid));
          J.attribute("events", int64_t(T.Events.size()));
          J.attribute("switches", int64_t(T.Switches.size()));
          J.attribute("dropped_events", int64_t(T.DroppedEvents));
          J.attribute("dropped_switches", int64_t(T.DroppedSwitches));
          // What making the buffers ready cost the thread (in no call's
          // active time).
          J.attribute("buffer_ns", ticksToNs(Pr, T.BufferTicks));
          J.attribute("buffer_bytes", int64_t(T.BufferBytes));
        });
  });
}

/// Levels of the exported inverted tree.
static constexpr unsigned kExportBottomUpDepth = 64;

Error report::writeExportJson(const Profile &P, raw_ostream &OS,
                              const ExportOptions &O, Progress &Prog) {
  bool Demangle = O.Demangle;
  Prog.phase("aggregating");
  Aggregate A = aggregate(P);
  json::OStream J(OS, 1);
  // The report and OpenMP documents come from the views that print
  // `report --json` and `report --parallel --json`, embedded as they are.
  J.object([&] {
    J.attribute("schema", "activetime-export");
    J.attribute("version", 1);
    J.attribute("generator", kGenerator);
    J.attributeBegin("report");
    J.rawValue([&](raw_ostream &R) {
      TimeReportOptions TO;
      TO.Demangle = Demangle;
      TO.FullNames = O.FullNames;
      TO.MaxDepth = 0; // the complete tree
      TO.Callers = true;
      TO.Filters = O.Filters;
      printTimeReportJson(P, A, TO, R);
    });
    J.attributeEnd();
    // The inverted tree, for the HTML report's bottom-up view; its size
    // grows with the depth followed, hence a bound.
    Prog.phase("bottom-up tree");
    bottomUpJson(A, J, kExportBottomUpDepth);
    Prog.phase("parallel regions");
    J.attributeBegin("parallel");
    J.rawValue([&](raw_ostream &R) {
      printParallelReport(P, ParallelThresholds(), /*Json=*/true, R);
    });
    J.attributeEnd();

    Prog.phase("stride sites");
    strideSitesJson(P, J, Demangle);

    Prog.phase("samples");
    samplesJson(P, J, Demangle);
    traceLossesJson(P, J);
  });
  OS << "\n";
  return Error::success();
}
