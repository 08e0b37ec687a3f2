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
#include "activetime/Profile/Aggregate.h"
#include "activetime/Profile/Samples.h"
#include "activetime/Profile/Strides.h"
#include "activetime/Report/Format.h"
#include "activetime/Report/Reports.h"

#include "llvm/Support/JSON.h"

#include <cmath>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::report;

/// How the sampled on-CPU time of timed frames was divided by their code
/// samples (Samples.h, SampledSplit).
static void sampledSplitJson(const SampledSplit &Sp, json::OStream &J) {
  J.attributeObject("split", [&] {
    J.attribute("split_on_cpu_ns", Sp.SplitOnNs);
    J.attribute("counted_on_cpu_ns", Sp.CountedOnNs);
    J.attribute("counted_uncertainty_ns", 1.96 * std::sqrt(Sp.CountedVarNs2));
    J.attribute("outside_probes_on_cpu_ns", Sp.OutsideProbesOnNs);
    J.attribute("unsplit_on_cpu_ns", Sp.UnsplitOnNs);
    J.attribute("own_ratio_frames", int64_t(Sp.OwnFrames));
    J.attribute("pooled_ratio_frames", int64_t(Sp.PooledFrames));
    J.attribute("unsplit_frames", int64_t(Sp.UnsplitFrames));
    J.attribute("processes_without_code_samples",
                int64_t(Sp.ProcessesWithoutCodeSamples));
  });
}

/// The sampled view: the sampler's settings and losses, how counted
/// functions got their on-CPU time, and every sampled call path with its
/// on- and off-CPU time. A path's frames are named like the report's
/// functions ("name"), and its "functions" are their ids in the report's
/// "functions" (null outside it). A path deeper than --max-stack keeps its
/// ends around a "[N frames elided]" frame (ExportStacks.cpp).
static void samplesJson(const Profile &P, const Aggregate &A, json::OStream &J,
                        const ViewOptions &O) {
  SampleSummary S = summarizeSamples(P, A);
  FunctionNamer Names(A, O.names(NameUse::FullName));
  // The report's function ids are the flat table's order.
  std::vector<int64_t> ReportId(A.Functions.size(), -1);
  for (size_t I = 0; I < A.Flat.size(); ++I)
    ReportId[A.Flat[I].Func] = int64_t(I);
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
    sampledSplitJson(S.Split, J);
    PathFrames Frames(S.Paths, O.MaxStack);
    SmallVector<PathFrames::Item, 256> Items;
    J.attributeArray("paths", [&] {
      for (const SamplePaths::Entry &E : S.Paths)
        J.object([&] {
          const SamplePaths::Node &Leaf = S.Paths.node(E.Node);
          const SampleFigures &F = E.F;
          Frames.get(E.Node, Items);
          J.attributeArray("frames", [&] {
            for (const PathFrames::Item &It : Items)
              if (!It.Frame)
                J.value(elidedFrameName(It.Elided));
              else if (It.Frame->Func == kOutsideFunc)
                J.value(kOutsideFrame);
              else
                J.value(Names.name(It.Frame->Func));
          });
          J.attributeArray("functions", [&] {
            for (const PathFrames::Item &It : Items)
              if (!It.Frame || It.Frame->Func == kOutsideFunc ||
                  ReportId[It.Frame->Func] < 0)
                J.value(nullptr);
              else
                J.value(ReportId[It.Frame->Func]);
          });
          // A path deeper than --max-stack: the frames left out.
          for (const PathFrames::Item &It : Items)
            if (!It.Frame)
              J.attribute("elided_frames", int64_t(It.Elided));
          // The leaf is a counted function's frame: its on-CPU time is
          // estimated (on_cpu_uncertainty_ns).
          J.attribute("counted", Leaf.Frame.Counted);
          // The leaf is a function's code outside its probes (no counted
          // calls there), as the tree's "outside_probes" node.
          if (Leaf.Frame.OutsideProbes)
            J.attribute("outside_probes", true);
          J.attribute("on_cpu_ns", F.OnNs);
          J.attribute("on_cpu_uncertainty_ns", 1.96 * std::sqrt(F.OnVarNs2));
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
          if (T.TidOrder)
            J.attribute("tid_order", int64_t(T.TidOrder));
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

Error report::writeExportJson(const Profile &P, const ViewOptions &O,
                              raw_ostream &OS, Progress &Prog) {
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
      ViewOptions TO;
      TO.Names = O.Names;
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
    strideSitesJson(P, J, O);

    Prog.phase("samples");
    samplesJson(P, A, J, O);
    traceLossesJson(P, J);
  });
  OS << "\n";
  return Error::success();
}

static View jsonFormat() {
  View V;
  V.Name = "json";
  V.Description = "the whole profile as one versioned JSON document";
  V.Reads = "max-stack no-demangle full-names";
  V.Write = writeExportJson;
  return V;
}
static ViewRegistration RegisterJsonFormat(ViewKind::Export, 30, jsonFormat);
