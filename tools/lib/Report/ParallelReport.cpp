//===- ParallelReport.cpp - `activetime report --parallel` ----------------===//
//
// Part of ActiveTime. The report of the OpenMP worker-state diagnosis: per
// parallel region, the workers' time in each state (U user code, L local
// lookup, G global search, W waiting), takes and transitions, and the
// diagnosis with its suggestion.
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "activetime/Report/Format.h"
#include "activetime/Report/Reports.h"
#include "activetime/Profile/Flags.h"
#include "activetime/Profile/Parallel.h"

#include "llvm/DebugInfo/Symbolize/Symbolize.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::report;

namespace {

const char *const StateNames[kNumWorkerStates] = {"U", "L", "G", "W"};

std::string regionLocation(symbolize::LLVMSymbolizer &Sym,
                           const FunctionNamer &Names, const Region &R) {
  std::string Where = formatv("{0}+{1:x}", sys::path::filename(R.Path),
                              R.Address);
  if (R.Path.empty() || R.Address == 0)
    return Where;
  // The address is the fork call's return address: look up the call.
  object::SectionedAddress A{R.Address - 1,
                             object::SectionedAddress::UndefSection};
  Expected<DILineInfo> Info = Sym.symbolizeCode(R.Path, A);
  if (!Info) {
    consumeError(Info.takeError());
    return Where;
  }
  if (Info->FileName == DILineInfo::BadString || Info->Line == 0)
    return Where;
  return formatv("{0}:{1} ({2})", sys::path::filename(Info->FileName),
                 Info->Line, Names.name(Info->FunctionName));
}

std::string ratio(double X) {
  return std::isinf(X) ? std::string("inf") : formatv("{0:f2}", X).str();
}

const char *statusName(const Parallel &Par) {
  if (!Par.Present)
    return "none";
  switch (ompStatus(Par)) {
  case OmpStatus::Ompt:
    return "ompt";
  case OmpStatus::NoOmpt:
    return "no-ompt";
  case OmpStatus::Disabled:
    return "disabled";
  case OmpStatus::NoOpenMP:
    break;
  }
  return "none";
}

/// Transitions from state \p From to \p To per second per thread.
double transitionRate(const RegionSummary &R, unsigned From, unsigned To) {
  return R.ThreadSeconds > 0 ? R.Transitions[From][To] / R.ThreadSeconds
                             : 0.0;
}

// A ratio that may be infinite: JSON has no infinity, null says "undefined".
json::Value jsonRatio(double X) {
  return std::isinf(X) ? json::Value(nullptr) : json::Value(X);
}

/// A transition counter's JSON key, "G->W".
std::string transitionKey(unsigned From, unsigned To) {
  return std::string(StateNames[From]) + "->" + StateNames[To];
}

/// One region of the JSON document: its figures, the counters behind the
/// diagnosis and the diagnosis itself.
void regionJson(json::OStream &J, const RegionSummary &R,
                const ParallelThresholds &T) {
  J.attribute("location", R.Location);
  J.attribute("object", R.Path);
  J.attribute("address", int64_t(R.Address));
  J.attribute("instances", int64_t(R.Instances));
  J.attribute("max_workers", int64_t(R.MaxWorkers));
  J.attribute("threads", int64_t(R.Threads));
  J.attribute("wall_ns", R.WallSeconds * 1e9);
  J.attribute("thread_ns", R.ThreadSeconds * 1e9);
  J.attributeObject("state_ns", [&] {
    for (unsigned S = 0; S < kNumWorkerStates; ++S)
      J.attribute(StateNames[S], R.StateSeconds[S] * 1e9);
  });
  J.attribute("overhead_share", R.overheadShare());
  J.attribute("active_overhead_share", R.activeOverheadShare());
  J.attribute("inactive_share", R.inactiveShare());
  J.attribute("local_takes", int64_t(R.LocalTakes));
  J.attribute("stolen_takes", int64_t(R.StolenTakes));
  J.attribute("stolen_ratio", jsonRatio(R.stolenRatio()));
  J.attribute("chunks", int64_t(R.Chunks));
  J.attribute("tasks_created", int64_t(R.TasksCreated));
  J.attribute("task_rate", R.taskRate());
  J.attributeObject("transitions", [&] {
    for (unsigned A = 0; A < kNumWorkerStates; ++A)
      for (unsigned B = 0; B < kNumWorkerStates; ++B)
        J.attribute(transitionKey(A, B), int64_t(R.Transitions[A][B]));
  });
  // Per second per thread (over the workers' summed time).
  J.attributeObject("transition_rates", [&] {
    for (unsigned A = 0; A < kNumWorkerStates; ++A)
      for (unsigned B = 0; B < kNumWorkerStates; ++B)
        J.attribute(transitionKey(A, B), transitionRate(R, A, B));
  });
  J.attribute("shared_pool", R.SharedPool);
  J.attribute("fruitless_searches", int64_t(R.fruitlessSearches()));
  J.attribute("fruitless_per_take", jsonRatio(R.fruitlessPerTake()));
  ParallelCause C = diagnose(R, T);
  J.attribute("diagnosis", causeName(C));
  J.attribute("suggestion", causeSuggestion(C));
}

void printJson(const Profile &P, const ParallelThresholds &T,
               const std::vector<RegionSummary> &Regions, raw_ostream &OS) {
  json::OStream J(OS, 2);
  J.object([&] {
    J.attribute("schema", "activetime-parallel");
    J.attribute("version", 1);
    J.attributeObject("thresholds", [&] {
      J.attribute("min_overhead_share", T.MinOverheadShare);
      J.attribute("max_task_rate", T.MaxTaskRate);
      J.attribute("max_stolen_ratio", T.MaxStolenRatio);
      J.attribute("min_inactive_share", T.MinInactiveShare);
      J.attribute("min_fruitless_per_take", T.MinFruitlessPerTake);
    });
    J.attributeArray("processes", [&] {
      for (const Process &Pr : P.Processes)
        J.object([&] {
          J.attribute("pid", int64_t(Pr.Pid));
          J.attribute("status", statusName(Pr.Par));
          J.attribute("lost_events", int64_t(Pr.Par.LostEvents));
        });
    });
    J.attributeArray("regions", [&] {
      for (const RegionSummary &R : Regions)
        J.object([&] { regionJson(J, R, T); });
    });
  });
  OS << "\n";
}

/// The parallel regions of all processes, each located in the source
/// through its fork call's debug information.
std::vector<RegionSummary> locatedRegions(const Profile &P) {
  symbolize::LLVMSymbolizer::Options SO;
  SO.Demangle = false;
  symbolize::LLVMSymbolizer Sym(SO);
  FunctionNamer Names(namesFor(NameUse::Region, NameOptions()));
  return summarizeRegions(
      P, [&](const Region &R) { return regionLocation(Sym, Names, R); });
}

/// A line per process whose worker states were not recorded, saying why,
/// and per process that lost events; true if any process has them.
bool printAvailability(const Profile &P, raw_ostream &OS) {
  bool AnyOmpt = false;
  for (const Process &Pr : P.Processes) {
    const char *Why = nullptr;
    if (!Pr.Par.Present)
      Why = "no OpenMP runtime was seen in this process";
    else if (ompStatus(Pr.Par) == OmpStatus::NoOmpt)
      Why = "parallel analysis unavailable: the OpenMP runtime (libgomp) has "
            "no OMPT interface; build with clang -fopenmp (LLVM libomp)";
    else if (ompStatus(Pr.Par) == OmpStatus::Disabled)
      Why = "parallel analysis disabled (ACTIVETIME_OPTIONS=openmp=0)";
    else if (ompStatus(Pr.Par) == OmpStatus::NoOpenMP)
      Why = "no OpenMP runtime was seen in this process";
    if (Why)
      OS << formatv("process {0}: {1}\n", Pr.Pid, Why);
    else
      AnyOmpt = true;
    if (Pr.Par.LostEvents)
      OS << formatv("process {0}: {1} OpenMP events not counted (more than "
                    "128 regions per thread or deep nesting)\n",
                    Pr.Pid, Pr.Par.LostEvents);
  }
  return AnyOmpt;
}

/// One region as text: its size, the share of the workers' time in each
/// state, the takes, the transitions that happened and the diagnosis.
void printRegion(const RegionSummary &R, const ParallelThresholds &T,
                 raw_ostream &OS) {
  OS << "\nregion " << R.Location << "\n";
  OS << formatv("  instances {0}, workers {1}, threads {2}, wall {3}, "
                "thread time {4}\n",
                R.Instances, R.MaxWorkers, R.Threads,
                plainTime(R.WallSeconds * 1e9),
                plainTime(R.ThreadSeconds * 1e9));
  OS << "  time in state ";
  for (unsigned S = 0; S < kNumWorkerStates; ++S)
    OS << formatv(" {0} {1}", StateNames[S],
                  percent(R.ThreadSeconds > 0
                              ? R.StateSeconds[S] / R.ThreadSeconds
                              : 0));
  OS << formatv("  (overhead {0}: active {1}, inactive {2})\n",
                percent(R.overheadShare()), percent(R.activeOverheadShare()),
                percent(R.inactiveShare()));
  OS << formatv("  takes          local {0}, stolen {1} (stolen/local {2}); "
                "chunks {3}, tasks created {4}; {5} tasks/s/thread\n",
                R.LocalTakes, R.StolenTakes, ratio(R.stolenRatio()),
                R.Chunks, R.TasksCreated, format("%.0f", R.taskRate()));
  OS << "  transitions   ";
  for (unsigned A = 0; A < kNumWorkerStates; ++A)
    for (unsigned B = 0; B < kNumWorkerStates; ++B)
      if (R.Transitions[A][B])
        OS << formatv(" {0}->{1} {2} ({3}/s)", StateNames[A], StateNames[B],
                      R.Transitions[A][B],
                      format("%.0f", transitionRate(R, A, B)));
  OS << formatv("; fruitless searches {0} ({1} per take{2})\n",
                R.fruitlessSearches(), ratio(R.fruitlessPerTake()),
                R.SharedPool ? "" : ", no shared pool");
  ParallelCause C = diagnose(R, T);
  OS << "  diagnosis      " << causeName(C);
  if (C != ParallelCause::None)
    OS << ": " << causeSuggestion(C);
  OS << "\n";
}

} // namespace

void activetime::report::printParallelReport(const Profile &P,
                                             const ParallelThresholds &T,
                                             bool Json, raw_ostream &OS) {
  if (Json) {
    printJson(P, T, locatedRegions(P), OS);
    return;
  }
  if (!printAvailability(P, OS))
    return;
  std::vector<RegionSummary> Regions = locatedRegions(P);
  // The state letters are explained here, where they are first shown.
  OS << formatv("OpenMP parallel regions: {0} (worker states U user code, L "
                "local lookup, G global search, W waiting)\n",
                Regions.size());
  OS << formatv("thresholds: overhead > {0}, tasks/s/thread > {1}, "
                "stolen/local > {2}, inactive > {3}, fruitless searches per "
                "take >= {4}\n",
                percent(T.MinOverheadShare), T.MaxTaskRate, T.MaxStolenRatio,
                percent(T.MinInactiveShare), T.MinFruitlessPerTake);
  for (const RegionSummary &R : Regions)
    printRegion(R, T, OS);
}

static View parallelView() {
  View V;
  V.Name = "parallel";
  V.Description =
      "Show the OpenMP worker-state report: per parallel region, time in "
      "each worker state, takes, transitions and the diagnosis";
  V.Reads = "json min-overhead max-task-rate max-stolen-ratio min-inactive "
            "min-fruitless-per-take";
  // The regions' figures belong to no call or thread of the call tree.
  V.CallFilters = false;
  V.Write = [](const Profile &P, const ViewOptions &O, raw_ostream &OS,
               Progress &) -> Error {
    printParallelReport(P, O.Parallel, O.Json, OS);
    return Error::success();
  };
  return V;
}
static ViewRegistration RegisterParallelView(ViewKind::Report, 40,
                                             parallelView);
