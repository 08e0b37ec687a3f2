//===- SampleReport.cpp - `activetime report --samples` -------------------===//
//
// Part of ActiveTime. The sampled, wall-clock view (sample=1): the
// sampler's own figures and how counted functions got their on-CPU time;
// then per function and per call path the on-CPU time, the off-CPU time
// charged to it (a period off CPU is charged to the frame the thread was in
// when it left the CPU), the samples and the share of all sampled time;
// then the summary of the off-CPU periods.
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "activetime/Profile/CodeSampleSplit.h"
#include "activetime/Profile/Samples.h"
#include "activetime/Report/Format.h"
#include "activetime/Report/Reports.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::report;

namespace {

/// A table row: what it is named and its figures.
struct Row {
  std::string Name;
  SampleFigures F;
};

/// The rows of \p M, largest first (ties by name), named by \p Name.
template <typename ContainerT, typename NameT>
std::vector<Row> largestFirst(const ContainerT &M, NameT Name) {
  std::vector<Row> V;
  for (const auto &[Key, F] : M)
    V.push_back({Name(Key, F), F});
  llvm::stable_sort(V, [](const Row &A, const Row &B) {
    if (A.F.totalNs() != B.F.totalNs())
      return A.F.totalNs() > B.F.totalNs();
    return A.Name < B.Name;
  });
  return V;
}

/// The text of `report --samples`: the sampler's figures, then tables of
/// the sampled time per function, per call path and of the off-CPU periods,
/// each largest first and cut at --top.
class SampleView {
public:
  SampleView(const SampleSummary &S, const Aggregate &A,
             const FunctionNamer &Names, raw_ostream &OS, unsigned Top)
      : S(S), A(A), Names(Names), OS(OS), Top(Top), Whole(S.All.totalNs()),
        PathNames(S.Paths, kPathFrames) {}
  void print();

private:
  void printSampler();
  void printSplit();
  void printFunctionTable(StringRef Title,
                          const std::map<uint32_t, SampleFigures> &Fns);
  void printPathTable(const std::vector<Row> &Paths);
  void printOffCpuSummary(const std::vector<Row> &Paths);
  void heading(StringRef Title, StringRef What);
  void row(const SampleFigures &F, const std::string &Name);
  std::string functionName(uint32_t Func, const SampleFigures &F) const;
  std::string pathName(uint32_t Path);
  size_t limit(size_t N) const { return Top && N > Top ? size_t(Top) : N; }

  const SampleSummary &S;
  const Aggregate &A;
  const FunctionNamer &Names;
  raw_ostream &OS;
  unsigned Top;
  double Whole; // all sampled time, the whole of the Share column
  /// A call path's name holds this many frames at most (a deep recursion's
  /// would run to megabytes): its ends around "[N frames elided]".
  static constexpr unsigned kPathFrames = 16;
  PathFrames PathNames;
  bool Elided = false; // a path name was cut
};

void SampleView::print() {
  printSampler();
  printSplit();
  printFunctionTable("function (self: the frame each sample was charged to; "
                     "off-CPU = time off CPU charged to the frame the thread "
                     "left the CPU in)",
                     S.Self);
  printFunctionTable("function (total: samples with the function anywhere "
                     "on the stack)",
                     S.Total);
  std::vector<Row> Paths = largestFirst(
      S.Paths, [&](uint32_t P, const SampleFigures &) { return pathName(P); });
  printPathTable(Paths);
  OS << "+-95%: the uncertainty of On-CPU from the code samples' ratios (-: "
        "not split by code samples); On%: share of all on-CPU sampled time "
        "(as the time report's % is of self-active time); Share: of all "
        "sampled time\n";
  if (A.How.CountedCalls || S.Split.SplitOnNs > 0)
    OS << "[counted]: the on-CPU time of a counted function's calls inside "
          "the timed frame below it, estimated from that frame's code "
          "samples; its samples are the frame's on-CPU samples it got a part "
          "of\n";
  if (Elided)
    OS << "[N frames elided]: a call path deeper than " << kPathFrames
       << " frames is named by its outermost and innermost ones\n";
  if (any_of(S.Paths, [&](const SamplePaths::Entry &E) {
        return S.Paths.node(E.Node).Frame.OutsideProbes;
      }))
    OS << "[outside probes]: code of a function with no counted calls there "
          "that ran outside its probes (prologue, epilogue) inside the timed "
          "frame below it, estimated from that frame's code samples, as in "
          "the time report's tree\n";
  printOffCpuSummary(Paths);
}

/// How many samples, how they were taken and what was lost: the figures
/// that say how far the tables below can be trusted.
void SampleView::printSampler() {
  OS << formatv("Samples: {0} ({1} on-CPU, {2} off-CPU) from {3} sweeps, "
                "interval {4} mean ({5})\n",
                S.All.samples(), S.All.OnSamples, S.All.OffSamples, S.Sweeps,
                plainTime(S.IntervalNs),
                S.Randomized ? "exponentially distributed" : "FIXED period");
  OS << formatv("Sampled time: {0} on-CPU + {1} off-CPU = {2} (sum of sample "
                "weights; weight = time since the thread's previous sample)\n",
                plainTime(S.All.OnNs), plainTime(S.All.OffNs),
                plainTime(Whole));
  OS << formatv("Sampler: {0}; mean wake-up latency {1}\n",
                S.Realtime == S.Processes
                    ? "real-time priority (SCHED_FIFO 1)"
                    : S.Realtime ? "real-time priority in some processes only"
                                 : "normal priority (late under CPU "
                                   "contention, when the sampled threads "
                                   "are more likely idle)",
                plainTime(S.Sweeps ? S.WakeLateNs / double(S.Sweeps) : 0));
  OS << formatv("Off-CPU samples: {0} blocked or waiting, {1} preempted "
                "(runnable)\n",
                S.All.OffSamples - S.All.Preempted, S.All.Preempted);
  OS << formatv("Snapshots: {0} torn reads retried, {1} discarded, {2} lost "
                "to a full buffer, {3} of nodes not in the profile\n",
                S.TornRetries, S.TornDiscarded, S.Dropped, S.Unmapped);
  if (S.ProcStateSamples)
    OS << formatv("Note: on/off-CPU of {0} samples read from "
                  "/proc/<tid>/stat (no perf switch ring): 'R' counts as "
                  "on-CPU, so preempted-but-runnable time is on-CPU there\n",
                  S.ProcStateSamples);
  if (S.SampledWallNs > 0 && S.SamplerCpuNs > 0)
    OS << formatv("Sampler thread CPU: {0} over {1} sampled = {2:F3}% of one "
                  "CPU\n",
                  plainTime(S.SamplerCpuNs), plainTime(S.SampledWallNs),
                  100.0 * S.SamplerCpuNs / S.SampledWallNs);
  else
    OS << "Sampler thread CPU: not measured (profile written while the "
          "sampler was running)\n";
}

/// "1 frame", "2 frames".
static std::string frames(uint64_t N) {
  return std::to_string(N) + (N == 1 ? " frame" : " frames");
}

/// Counted functions have no frame on the shadow stack, so the sampler
/// charged their time to their nearest timed caller: how much of it the
/// code samples gave back to them, how sure that is, and what was left.
void SampleView::printSplit() {
  const SampledSplit &Sp = S.Split;
  double On = S.All.OnNs;
  if (!A.How.CountedCalls && Sp.SplitOnNs == 0)
    return;
  OS << "Counted functions: no frame of their own, so the sampler charged "
        "their time to their nearest timed caller"
     << (Sp.SplitOnNs > 0 ? "; its code samples split it off again, as in "
                            "the time report"
                          : "")
     << "\n";
  if (Sp.SplitOnNs > 0) {
    OS << formatv("  estimated:       {0} of the {1} on-CPU ({2}) moved to "
                  "counted functions, +-{3} (95%, from the code samples' "
                  "ratios): each timed frame's on-CPU time divided among "
                  "its own code and the counted functions its code samples "
                  "fell in\n",
                  plainTime(Sp.CountedOnNs), plainTime(On),
                  percentOf(Sp.CountedOnNs, On),
                  plainTime(1.96 * std::sqrt(Sp.CountedVarNs2)));
    OS << formatv("  ratios:          own code samples for {0}; for {1}, "
                  "with fewer than {2} of their own, those of every frame of "
                  "their function in the process\n",
                  frames(Sp.OwnFrames), frames(Sp.PooledFrames),
                  kMinFrameSamples);
  }
  if (Sp.OutsideProbesOnNs > 0)
    OS << formatv("  outside probes:  {0} on-CPU moved to functions whose "
                  "code before and after their probes (prologues, "
                  "epilogues) the frames' code samples fell in: to their "
                  "timed frames above, or to [outside probes] frames\n",
                  plainTime(Sp.OutsideProbesOnNs));
  if (Sp.UnsplitOnNs > 0)
    OS << formatv("  not split:       {0} on-CPU of {1} whose function had no "
                  "code sample: any counted functions they ran stay in "
                  "them\n",
                  plainTime(Sp.UnsplitOnNs), frames(Sp.UnsplitFrames));
  if (Sp.ProcessesWithoutCodeSamples)
    OS << formatv("  no code samples: {0} of {1} sampled processes "
                  "(code_samples=0, perf refused, or mode=trace) took none: "
                  "counted functions' time stays in their timed callers "
                  "there\n",
                  Sp.ProcessesWithoutCodeSamples, S.Processes);
}

std::string SampleView::functionName(uint32_t Func,
                                     const SampleFigures &F) const {
  return sampleFrameName(Names, SampleFrame{Func, F.Counted});
}

void SampleView::printFunctionTable(
    StringRef Title, const std::map<uint32_t, SampleFigures> &Fns) {
  heading(Title, "Function");
  std::vector<Row> V = largestFirst(
      Fns, [&](uint32_t F, const SampleFigures &Fig) {
        return functionName(F, Fig);
      });
  for (size_t I = 0, E = limit(V.size()); I < E; ++I)
    row(V[I].F, V[I].Name);
}

void SampleView::printPathTable(const std::vector<Row> &Paths) {
  heading("call path", "Call path");
  for (size_t I = 0, E = limit(Paths.size()); I < E; ++I)
    row(Paths[I].F, Paths[I].Name);
}

/// Per activity (call path) that recorded off-CPU periods: the time off
/// CPU, its samples and how many of them reached the activity through the
/// thread's prior on-CPU sample; then the totals.
void SampleView::printOffCpuSummary(const std::vector<Row> &Paths) {
  OS << "\nOff-CPU summary (a period off CPU is recorded in the frame of "
        "the activity that led to it)\n";
  OS << formatv("{0,12} {1,8} {2,8}  {3}\n", "Off-CPU", "Samples", "Prior",
                "Activity (call path)");
  unsigned Shown = 0;
  for (const Row &R : Paths) {
    if (!R.F.OffSamples)
      continue;
    if (Top && Shown++ >= Top)
      break;
    OS << formatv("{0,12} {1,8} {2,8}  {3}\n", formatTime(R.F.OffNs),
                  R.F.OffSamples, R.F.PriorFrame, R.Name);
  }
  OS << formatv("{0} samples recorded an off-CPU period ({1}) in the frame "
                "of the activity that led to it; {2} of them (off CPU inside "
                "a probe) via the thread's prior on-CPU sample\n",
                S.All.OffSamples, plainTime(S.All.OffNs), S.All.PriorFrame);
}

void SampleView::heading(StringRef Title, StringRef What) {
  OS << "\nPer " << Title << "\n";
  OS << formatv("{0,12} {1,11} {2,7} {3,12} {4,8} {5,7}  {6}\n", "On-CPU",
                "+-95%", "On%", "Off-CPU", "Samples", "Share", What);
}

void SampleView::row(const SampleFigures &F, const std::string &Name) {
  std::string Err =
      F.OnVarNs2 > 0 ? formatTime(1.96 * std::sqrt(F.OnVarNs2)) : "-";
  OS << formatv("{0,12} {1,11} {2,7} {3,12} {4,8} {5,7}  {6}\n",
                formatTime(F.OnNs), Err, percentOf(F.OnNs, S.All.OnNs),
                formatTime(F.OffNs), F.samples(),
                percentOf(F.totalNs(), Whole), Name);
}

/// A call path as printed, outermost first: "main > f > g".
std::string SampleView::pathName(uint32_t Path) {
  SmallVector<PathFrames::Item, kPathFrames> Items;
  PathNames.get(Path, Items);
  std::string Name;
  for (const PathFrames::Item &It : Items) {
    Name += Name.empty() ? "" : " > ";
    Name += It.Frame ? sampleFrameName(Names, *It.Frame)
                     : elidedFrameName(It.Elided);
    Elided |= !It.Frame;
  }
  return Name;
}

} // namespace

/// The sampled wall-clock view (runs with sample=1); an error if the
/// profile has no samples. Functions are named as in the time report. It
/// has no JSON form (export --format=json, folded or speedscope carry the
/// samples).
static Error writeSampleReport(const Profile &P, const ViewOptions &O,
                               raw_ostream &OS, Progress &) {
  printFiltersLine(O, OS);
  if (none_of(P.Processes, [](const Process &X) { return X.HasSamples; }))
    return noSamplesError();
  Aggregate A = aggregate(P);
  SampleSummary S = summarizeSamples(P, A);
  FunctionNamer Names(A, O.names(NameUse::Asked));
  SampleView(S, A, Names, OS, O.Top).print();
  return Error::success();
}

static View sampleView() {
  View V;
  V.Name = "samples";
  V.Description =
      "Print the sampled wall-clock view (profiles run with "
      "ACTIVETIME_OPTIONS=sample=1): on-CPU and charged off-CPU time per "
      "function and call path";
  V.Reads = "top no-demangle full-names";
  V.NoJsonHint = "use 'activetime export --format=json' (its \"samples\"), "
                 "'--format=folded' or '--format=speedscope'";
  V.Write = writeSampleReport;
  return V;
}
static ViewRegistration RegisterSampleView(ViewKind::Report, 30, sampleView);
