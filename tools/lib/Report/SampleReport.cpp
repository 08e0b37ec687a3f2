//===- SampleReport.cpp - `activetime report --samples` -------------------===//
//
// Part of ActiveTime. The sampled, wall-clock view (sample=1): the
// sampler's own figures; then per function and per call path the on-CPU
// time, the off-CPU time charged to it (a period off CPU is charged to the
// frame the thread was in when it left the CPU), the samples and the share
// of all sampled time; then the summary of the off-CPU periods.
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "activetime/Report/Format.h"
#include "activetime/Report/Reports.h"
#include "activetime/Profile/Samples.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::report;

/// A call path of the samples: frame names, outermost first.
using SamplePath = std::vector<std::string>;

template <typename KeyT>
static std::vector<std::pair<KeyT, SampleFigures>>
largestFirst(const std::map<KeyT, SampleFigures> &M) {
  std::vector<std::pair<KeyT, SampleFigures>> V(M.begin(), M.end());
  std::stable_sort(V.begin(), V.end(), [](const auto &A, const auto &B) {
    return A.second.totalNs() > B.second.totalNs();
  });
  return V;
}

namespace {

/// The text of `report --samples`: the sampler's figures, then tables of
/// the sampled time per function, per call path and of the off-CPU periods,
/// each largest first and cut at --top.
class SampleView {
public:
  SampleView(const SampleSummary &S, raw_ostream &OS, bool Demangle,
             unsigned Top)
      : S(S), OS(OS), Demangle(Demangle), Top(Top), Whole(S.All.totalNs()) {}
  void print();

private:
  void printSampler();
  void printFunctionTable(StringRef Title,
                          const std::map<std::string, SampleFigures> &M);
  void printPathTable(
      const std::vector<std::pair<SamplePath, SampleFigures>> &Paths);
  void printOffCpuSummary(
      const std::vector<std::pair<SamplePath, SampleFigures>> &Paths);
  void heading(StringRef Title, StringRef What);
  void row(const SampleFigures &F, const std::string &Name);
  std::string pathName(const SamplePath &Path) const;
  size_t limit(size_t N) const { return Top && N > Top ? size_t(Top) : N; }

  const SampleSummary &S;
  raw_ostream &OS;
  bool Demangle;
  unsigned Top;
  double Whole; // all sampled time, the whole of the Share column
};

void SampleView::print() {
  printSampler();
  printFunctionTable("function (self: the frame each sample was charged to; "
                     "off-CPU = time off CPU charged to the frame the thread "
                     "left the CPU in)",
                     S.Self);
  printFunctionTable("function (total: samples with the function anywhere "
                     "on the stack)",
                     S.Total);
  auto Paths = largestFirst(S.Paths);
  printPathTable(Paths);
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

void SampleView::printFunctionTable(
    StringRef Title, const std::map<std::string, SampleFigures> &M) {
  heading(Title, "Function");
  auto V = largestFirst(M);
  for (size_t I = 0, E = limit(V.size()); I < E; ++I)
    row(V[I].second, displayName(V[I].first, Demangle));
}

void SampleView::printPathTable(
    const std::vector<std::pair<SamplePath, SampleFigures>> &Paths) {
  heading("call path", "Call path");
  for (size_t I = 0, E = limit(Paths.size()); I < E; ++I)
    row(Paths[I].second, pathName(Paths[I].first));
}

/// Per activity (call path) that recorded off-CPU periods: the time off
/// CPU, its samples and how many of them reached the activity through the
/// thread's prior on-CPU sample; then the totals.
void SampleView::printOffCpuSummary(
    const std::vector<std::pair<SamplePath, SampleFigures>> &Paths) {
  OS << "\nOff-CPU summary (a period off CPU is recorded in the frame of "
        "the activity that led to it)\n";
  OS << formatv("{0,12} {1,8} {2,8}  {3}\n", "Off-CPU", "Samples", "Prior",
                "Activity (call path)");
  unsigned Shown = 0;
  for (const auto &[Path, F] : Paths) {
    if (!F.OffSamples)
      continue;
    if (Top && Shown++ >= Top)
      break;
    OS << formatv("{0,12} {1,8} {2,8}  {3}\n", formatTime(F.OffNs),
                  F.OffSamples, F.PriorFrame, pathName(Path));
  }
  OS << formatv("{0} samples recorded an off-CPU period ({1}) in the frame "
                "of the activity that led to it; {2} of them (off CPU inside "
                "a probe) via the thread's prior on-CPU sample\n",
                S.All.OffSamples, plainTime(S.All.OffNs), S.All.PriorFrame);
}

void SampleView::heading(StringRef Title, StringRef What) {
  OS << "\nPer " << Title << "\n";
  OS << formatv("{0,12} {1,12} {2,8} {3,7}  {4}\n", "On-CPU", "Off-CPU",
                "Samples", "Share", What);
}

void SampleView::row(const SampleFigures &F, const std::string &Name) {
  OS << formatv("{0,12} {1,12} {2,8} {3,7}  {4}\n", formatTime(F.OnNs),
                formatTime(F.OffNs), F.samples(),
                percentOf(F.totalNs(), Whole), Name);
}

/// A call path as printed, outermost first: "main > f > g".
std::string SampleView::pathName(const SamplePath &Path) const {
  std::string Name;
  for (const std::string &F : Path)
    Name += (Name.empty() ? "" : " > ") + displayName(F, Demangle);
  return Name;
}

} // namespace

Error report::printSampleReport(const Profile &P, raw_ostream &OS,
                                bool Demangle, unsigned Top) {
  if (none_of(P.Processes, [](const Process &X) { return X.HasSamples; }))
    return noSamplesError();
  SampleSummary S = summarizeSamples(P);
  SampleView(S, OS, Demangle, Top).print();
  return Error::success();
}
