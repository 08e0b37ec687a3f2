//===- export-json.cpp - The whole profile as one JSON document -------------===//
//
// Part of ActiveTime. `export --format=json` and the data island of
// `report --html`: the report document (complete call tree), the OpenMP
// document, the stride sites, the sample paths and the trace losses, under
// one versioned envelope ("activetime-export"; docs/user-guide.md and
// docs/activetime-export.schema.json).
//
//===----------------------------------------------------------------------===//

#include "activetime.h"
#include "activetime/Profile/Aggregate.h"
#include "activetime/Profile/Samples.h"
#include "activetime/Profile/Strides.h"
#include "activetime/abi.h"

#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/JSON.h"

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::tool;

static std::string display(const std::string &Name, bool Demangle) {
  return (Demangle && Name != kOutsideFrame) ? llvm::demangle(Name) : Name;
}

Error tool::writeExportJson(const Profile &P, raw_ostream &OS, bool Demangle,
                            Progress &Prog) {
  Prog.phase("aggregating");
  Aggregate A = aggregate(P);
  json::OStream J(OS, 1);
  J.object([&] {
    J.attribute("schema", "activetime-export");
    J.attribute("version", 1);
    J.attribute("generator", "activetime " ACTIVETIME_VERSION_STRING);
    J.attributeBegin("report");
    J.rawValue([&](raw_ostream &R) {
      printReportJson(P, A, R, Demangle, /*MaxDepth=*/0);
    });
    J.attributeEnd();
    Prog.phase("parallel regions");
    J.attributeBegin("parallel");
    J.rawValue([&](raw_ostream &R) {
      printParallelReport(P, ParallelThresholds(), /*Json=*/true, R);
    });
    J.attributeEnd();

    Prog.phase("stride sites");
    J.attributeArray("strides", [&] {
      for (const StrideRow &R : strideRows(P)) {
        const MemSite &S = R.Site;
        bool HasStride = R.Class != StrideClass::Irregular &&
                         R.Class != StrideClass::Unknown;
        J.object([&] {
          J.attribute("module", R.Module);
          J.attribute("function", display(S.Func, Demangle));
          J.attribute("file", S.File);
          J.attribute("line", int64_t(S.Line));
          J.attribute("column", int64_t(S.Column));
          J.attribute("access", (S.Flags & abi::MS_Store) ? "store" : "load");
          J.attribute("access_size", int64_t(S.AccessSize));
          J.attribute("static", R.Static);
          J.attribute("class", strideClassName(R.Class));
          if (HasStride)
            J.attribute("stride", R.Stride);
          else
            J.attribute("stride", nullptr);
          J.attribute("confidence", R.Confidence);
          J.attribute("executions", int64_t(S.Executions));
          J.attribute("observations", int64_t(S.Observations));
          J.attribute("gcd", int64_t(S.Gcd));
          if (R.IterNs)
            J.attribute("iteration_ns", *R.IterNs);
          else
            J.attribute("iteration_ns", nullptr);
        });
      }
    });

    Prog.phase("samples");
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
                J.value(display(Fr, Demangle));
            });
            J.attribute("on_cpu_ns", F.OnNs);
            J.attribute("off_cpu_ns", F.OffNs);
            J.attribute("on_cpu_samples", int64_t(F.OnSamples));
            J.attribute("off_cpu_samples", int64_t(F.OffSamples));
            J.attribute("preempted_samples", int64_t(F.Preempted));
          });
      });
    });

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
          });
    });
  });
  OS << "\n";
  return Error::success();
}
