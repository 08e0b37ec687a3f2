//===- diff.cpp - `activetime diff` ---------------------------------------===//
//
// Part of ActiveTime. Compares two profiles, typically of an old and a new
// build: `diff BASE NEW`, or `diff --base A1 A2 ... --new B1 B2 ...` for
// repeated runs. Each side is read and merged as `report` does (one binary
// per side); the sides may be different binaries. The comparison is
// tools/lib/Profile/Diff.cpp, its output tools/lib/Report/DiffReport.cpp.
//
//===----------------------------------------------------------------------===//

#include "Command.h"
#include "Inputs.h"

#include "activetime/Profile/Aggregate.h"
#include "activetime/Profile/Diff.h"
#include "activetime/Report/DiffReport.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::report;
using namespace activetime::tool;

static cl::SubCommand DiffCommand(
    "diff", "Compare two profiles (e.g. of an old and a new build)");

static cl::list<std::string>
    Inputs(cl::Positional, cl::sub(DiffCommand),
           cl::desc("BASE NEW | files of --base/--new"), cl::cat(ToolCategory));
static cl::list<std::string>
    BaseFiles("base", cl::sub(DiffCommand),
              cl::desc("Profiles of the base side (the files up to --new "
                       "belong to it)"),
              cl::value_desc("file"), cl::cat(ToolCategory));
static cl::list<std::string>
    NewFiles("new", cl::sub(DiffCommand),
             cl::desc("Profiles of the new side (the files up to --base "
                      "belong to it)"),
             cl::value_desc("file"), cl::cat(ToolCategory));
static cl::opt<unsigned>
    Top("top", cl::sub(DiffCommand), cl::init(20),
        cl::desc("Rows of each table (0 = all; JSON always lists all)"),
        cl::value_desc("N"), cl::cat(ToolCategory));
static cl::opt<bool> Paths("paths", cl::sub(DiffCommand),
                           cl::desc("Also compare call paths (text; JSON and "
                                    "HTML always have them)"),
                           cl::cat(ToolCategory));
static cl::opt<DiffMetric> Sort(
    "sort", cl::sub(DiffCommand), cl::init(DiffMetric::SelfActive),
    cl::desc("The delta the rows are ordered by (and the time the change "
             "column judges; with calls, self-active time)"),
    cl::values(clEnumValN(DiffMetric::SelfActive, "self-active",
                          "self-active time (default)"),
               clEnumValN(DiffMetric::Active, "active",
                          "inclusive active time"),
               clEnumValN(DiffMetric::Calls, "calls", "calls")),
    cl::value_desc("key"), cl::cat(ToolCategory));
static cl::opt<double> NoiseFactor(
    "noise-factor", cl::sub(DiffCommand), cl::init(1),
    cl::desc("A delta within this many times its spread (the 95% "
             "confidence half-width of the difference of the per-run "
             "means, Welch's t) is noise (default 1)"),
    cl::value_desc("K"), cl::cat(ToolCategory));
static cl::opt<double> MinDelta(
    "min-delta", cl::sub(DiffCommand), cl::init(0),
    cl::desc("Deltas smaller than this many nanoseconds are never a change "
             "(default 0)"),
    cl::value_desc("ns"), cl::cat(ToolCategory));
static cl::opt<bool> Json("json", cl::sub(DiffCommand),
                          cl::desc("Print the \"activetime-diff\" JSON "
                                   "document instead of text"),
                          cl::cat(ToolCategory));
static cl::opt<std::string>
    HtmlOutput("html", cl::sub(DiffCommand),
               cl::desc("Write a differential flame graph (NEW's, colored "
                        "by the delta against BASE) to FILE"),
               cl::value_desc("file"), cl::cat(ToolCategory));
static cl::opt<double> PruneBelow(
    "prune-below", cl::sub(DiffCommand), cl::init(kDefaultPrunePercent),
    cl::desc("--html: merge the flame graph's frames narrower than this "
             "percentage of its width into one [other] frame per caller "
             "(default 0.01; 0 merges none, within the graph's caps on "
             "frames and levels)"),
    cl::value_desc("percent"), cl::cat(ToolCategory));
static cl::opt<ProgressMode>
    ProgressOpt("progress", cl::sub(DiffCommand), cl::init(ProgressMode::Auto),
                cl::desc("Progress line on stderr"), ACTIVETIME_PROGRESS_VALUES,
                cl::cat(ToolCategory));
static cl::opt<bool> NoDemangle("no-demangle", cl::sub(DiffCommand),
                                cl::desc("Print linkage names as they are"),
                                cl::cat(ToolCategory));
static cl::opt<bool>
    FullNames("full-names", cl::sub(DiffCommand),
              cl::desc("Print C++ names whole (template arguments and "
                       "parameter lists included)"),
              cl::cat(ToolCategory));

namespace {

using SideFiles = std::array<std::vector<std::string>, 2>;

/// The files of each side. Without --base/--new: exactly BASE NEW. With
/// them, a positional file belongs to the --base or --new before it (so
/// `--base a1 a2 --new b1 b2` reads as written).
Expected<SideFiles> sideFiles() {
  SideFiles F;
  if (BaseFiles.empty() && NewFiles.empty()) {
    if (Inputs.size() != 2)
      return createStringError(
          inconvertibleErrorCode(),
          "expected two profiles, BASE NEW (got %zu), or --base FILE... "
          "--new FILE...",
          Inputs.size());
    F[0].push_back(Inputs[0]);
    F[1].push_back(Inputs[1]);
    return F;
  }
  if (BaseFiles.empty() || NewFiles.empty())
    return createStringError(inconvertibleErrorCode(),
                             "--base and --new go together: give both");
  struct Arg {
    unsigned Pos;
    int Side; // -1: positional
    std::string File;
  };
  std::vector<Arg> Args;
  for (unsigned I = 0; I < BaseFiles.size(); ++I)
    Args.push_back({BaseFiles.getPosition(I), 0, BaseFiles[I]});
  for (unsigned I = 0; I < NewFiles.size(); ++I)
    Args.push_back({NewFiles.getPosition(I), 1, NewFiles[I]});
  for (unsigned I = 0; I < Inputs.size(); ++I)
    Args.push_back({Inputs.getPosition(I), -1, Inputs[I]});
  llvm::sort(Args, [](const Arg &A, const Arg &B) { return A.Pos < B.Pos; });
  int Current = -1;
  for (const Arg &A : Args) {
    if (A.Side < 0 && Current < 0)
      return createStringError(inconvertibleErrorCode(),
                               "%s: give it after --base or --new (or give "
                               "just BASE NEW)",
                               A.File.c_str());
    Current = A.Side < 0 ? Current : A.Side;
    F[Current].push_back(A.File);
  }
  return F;
}

/// One side read, merged and aggregated, as a whole and run by run.
struct Side {
  Profile P;
  Aggregate Whole;
  std::vector<Aggregate> RunAggs;
  DiffSideInfo Info;
};

/// Releases what only the aggregation reads, the threads' call trees,
/// counts and code samples, once a side is aggregated: two profiles of a
/// million nodes each would otherwise hold their raw trees and their
/// aggregates at once (the report reads the processes' and threads' own
/// figures and the aggregate).
void releaseAggregated(Profile &P) {
  for (Process &Pr : P.Processes)
    for (Thread &T : Pr.Threads) {
      // Assigning {} would keep the capacity.
      T.Nodes = std::vector<Node>();
      T.Counts = std::vector<CallCount>();
      T.CodeSamples = std::vector<CodeSample>();
    }
}

Error readSide(const char *Name, std::vector<std::string> Files, Side &S,
               Progress &Prog) {
  Expected<Profile> P = readInputs(Files, &Prog);
  if (!P)
    return createStringError(inconvertibleErrorCode(),
                             "%s: %s", Name,
                             toString(P.takeError()).c_str());
  if (P->Processes.empty())
    return createStringError(inconvertibleErrorCode(),
                             "%s: %s: the profile holds no process", Name,
                             Files.front().c_str());
  S.P = std::move(*P);
  S.Info.Files = std::move(Files);
  S.Info.Runs = splitRuns(S.P);
  Prog.phase(std::string("aggregating ") + Name);
  S.Whole = aggregate(S.P);
  if (S.Info.Runs.size() >= 2) {
    Prog.phase(std::string("aggregating each run of ") + Name);
    S.RunAggs = aggregateRuns(S.P, S.Info.Runs);
  }
  releaseAggregated(S.P);
  S.Info.P = &S.P;
  S.Info.A = &S.Whole;
  return Error::success();
}

Error checkOptions(const SideFiles &F) {
  for (const cl::opt<double> *O : {&NoiseFactor, &MinDelta})
    if (!(*O >= 0) || std::isinf(double(*O)))
      return createStringError(inconvertibleErrorCode(),
                               "--" + O->ArgStr +
                                   " must be a finite number >= 0");
  if (HtmlOutput.empty())
    return refuseOptions({&PruneBelow}, Json ? "--json" : "the text diff");
  if (!(PruneBelow >= 0 && PruneBelow <= 100))
    return createStringError(inconvertibleErrorCode(),
                             "--prune-below must be a percentage, 0 to 100");
  if (Error E = refuseOptions({&Json, &Top, &Paths}, "--html"))
    return E;
  std::vector<std::string> All(F[0]);
  All.insert(All.end(), F[1].begin(), F[1].end());
  return checkOutputIsNoInput(All, HtmlOutput);
}

int diffMain() {
  Expected<SideFiles> F = sideFiles();
  if (!F)
    return reportError(F.takeError());
  if (Error E = checkOptions(*F))
    return reportError(std::move(E));
  Side Sides[2];
  Progress Prog("diff", ProgressOpt);
  for (int S = 0; S < 2; ++S)
    if (Error E = readSide(S ? "new" : "base", (*F)[S], Sides[S], Prog))
      return reportError(std::move(E));
  DiffReportOptions O;
  O.Names.Demangle = !NoDemangle;
  O.Names.FullNames = FullNames;
  O.Top = Top;
  O.Paths = Paths;
  O.Metric = Sort;
  O.Noise.NoiseFactor = NoiseFactor;
  O.Noise.MinDeltaNs = MinDelta;
  O.PruneBelow = PruneBelow;
  DiffSide DS[2];
  for (int S = 0; S < 2; ++S)
    DS[S] = {&Sides[S].Whole, Sides[S].RunAggs,
             unsigned(Sides[S].Info.Runs.size()),
             tickStepNs(*Sides[S].Info.P)};
  Prog.phase("comparing");
  DiffResult R = diffProfiles(DS[0], DS[1], O.Noise);
  Prog.phase("writing");
  if (!HtmlOutput.empty()) {
    if (Error E = writeDiffHtml(Sides[0].Info, Sides[1].Info, R, O,
                                HtmlOutput))
      return reportError(std::move(E));
    return 0;
  }
  if (Json)
    printDiffJson(Sides[0].Info, Sides[1].Info, R, O, outs());
  else
    printDiffReport(Sides[0].Info, Sides[1].Info, R, O, outs());
  outs().flush();
  return 0;
}

} // namespace

static CommandRegistration
    Unused(&DiffCommand, "activetime diff [options] BASE NEW", diffMain);
