//===- ReportModel.cpp - Rules of the time report ---------------------------===//
//
// Part of ActiveTime. See activetime/Report/ReportModel.h.
//
//===----------------------------------------------------------------------===//

#include "activetime/Report/ReportModel.h"
#include "activetime/Report/Format.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cmath>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::report;

const char report::TimesNote[] =
    "active = elapsed - probe overhead - switched-out (off-cpu) time; "
    "self-active = active - the callees' active; min/max are active per call";
const char report::HowNote[] =
    "how: timed = every call timed by the probes; counted = calls beyond the "
    "first timed ones only counted (exactly), their self time split off the "
    "timed callers' by code samples, no per-call figures (-)";
const char report::ErrorNote[] =
    "+-95% = the 95% half-width of the figure before it: 1.96 standard "
    "deviations of the code-sample split and of the tick step's rounding "
    "(2 readings per timed call), plus in full the probes' residual cost "
    "per timed call and the start-up cost estimate of each code sample "
    "charged to it";
const char report::ClampNote[] =
    "! = clamped: the measured figure lay outside what it can be (below 0, "
    "self-active above active, active above elapsed) and the bound is "
    "printed; --json gives the measured value";

ReportModel::ReportModel(const Profile &P, const Aggregate &A,
                         NameOptions Naming)
    : P(P), A(A), Names(A, Naming) {
  // Never show elapsed time under the name active time: if any thread's
  // switched-out time was not measured, the active columns are starred.
  for (const Process &Pr : P.Processes)
    for (const Thread &T : Pr.Threads)
      Starred |= switchSource(T) == SwitchSource::None;
}

std::string ReportModel::location(uint32_t Func) const {
  const FunctionInfo &F = A.Functions[Func];
  if (F.File.empty())
    return F.Local ? "[" + F.Module + "]" : "";
  std::string L = sys::path::filename(F.File).str();
  if (F.Line)
    L += ":" + utostr(F.Line);
  return L;
}

double ReportModel::shareTotal(ArrayRef<FunctionStats> Rows) {
  double T = 0;
  for (const FunctionStats &F : Rows)
    T += figures(F.S).Self.Shown;
  return T;
}

std::vector<uint32_t> ReportModel::subtreeHeights() const {
  // Children always have larger indices than their parent, so one reverse
  // pass computes every height without recursion.
  std::vector<uint32_t> H(A.Tree.size(), 0);
  for (size_t I = A.Tree.size(); I-- > 1;) {
    uint32_t Par = A.Tree[I].Parent;
    H[Par] = std::max(H[Par], H[I] + 1);
  }
  return H;
}

void ReportModel::walkTree(
    unsigned MaxDepth, function_ref<void(uint32_t, bool)> Visit) const {
  std::vector<uint32_t> Stack(A.Tree[0].Children.rbegin(),
                              A.Tree[0].Children.rend());
  while (!Stack.empty()) {
    uint32_t I = Stack.back();
    Stack.pop_back();
    const TreeNode &N = A.Tree[I];
    bool Cut = MaxDepth != 0 && N.Depth >= MaxDepth && !N.Children.empty();
    Visit(I, Cut);
    if (!Cut)
      Stack.insert(Stack.end(), N.Children.rbegin(), N.Children.rend());
  }
}

Counters Counters::of(const Process &P) {
  Counters C;
  for (const Thread &T : P.Threads)
    C.add(T);
  return C;
}

void SwitchSummary::add(const Process &P, const Thread &T) {
  // A folded record counts its threads under the least exact source of any.
  unsigned N = unsigned(threadsOf(T));
  switch (switchSource(T)) {
  case SwitchSource::Perf:
    Perf += N;
    break;
  case SwitchSource::CpuClock: {
    double R = ticksToNs(P, T.SwitchResolution);
    MinResolutionNs = CpuClock ? std::min(MinResolutionNs, R) : R;
    MaxResolutionNs = CpuClock ? std::max(MaxResolutionNs, R) : R;
    CpuClock += N;
    CpuClockNoDescriptors += threadFlags(T).NoDescriptors ? N : 0;
    CpuClockShortLived += threadFlags(T).ShortLived ? N : 0;
    break;
  }
  case SwitchSource::None:
    None += N;
    break;
  }
  Lost += T.LostSwitchRecords;
  Voluntary += T.VoluntarySwitches;
  Involuntary += T.InvoluntarySwitches;
  OffCpuNs += ticksToNs(P, T.OffCpuTicks);
}

SwitchSummary SwitchSummary::of(const Profile &P) {
  SwitchSummary S;
  for (const Process &Pr : P.Processes)
    for (const Thread &T : Pr.Threads)
      S.add(Pr, T);
  return S;
}

std::string SwitchSummary::resolution() const {
  if (MinResolutionNs == MaxResolutionNs)
    return plainTime(MaxResolutionNs);
  return plainTime(MinResolutionNs) + " to " + plainTime(MaxResolutionNs);
}

void TraceSummary::add(const Process &P, const Trace &T) {
  ++Threads;
  Events += T.Events.size();
  Switches += T.Switches.size();
  DroppedEvents += T.DroppedEvents;
  DroppedSwitches += T.DroppedSwitches;
  BufferNs += ticksToNs(P, T.BufferTicks);
  BufferBytes += T.BufferBytes;
  BufferFlags |= traceBufferFlags(T);
  for (const Thread &Th : P.Threads)
    if (tracedBy(T, Th) && Th.EndTick > Th.StartTick) {
      WallNs += ticksToNs(P, Th.EndTick - Th.StartTick);
      break;
    }
}

TraceSummary TraceSummary::of(const Process &P) {
  TraceSummary S;
  for (const Trace &T : P.Traces)
    S.add(P, T);
  return S;
}

std::string TraceSummary::how() const {
  std::string S;
  if (BufferFlags.Populate)
    S = "madvise(MADV_POPULATE_WRITE)";
  if (BufferFlags.Touch)
    S += std::string(S.empty() ? "" : " and ") +
         "a write per page (the kernel refused MADV_POPULATE_WRITE)";
  if (BufferFlags.HugePages)
    S += ", huge pages past 2 MiB";
  if (BufferFlags.NoMemory)
    S += "; OUT OF MEMORY: the kernel refused more, later events dropped";
  if (BufferFlags.Budget)
    S += "; MEMORY BUDGET: the process's trace buffers reached "
         "trace_memory_mb, later events dropped";
  return S;
}

ShortCalls ShortCalls::of(const Profile &P, const Aggregate &A) {
  ShortCalls S;
  for (const Process &Pr : P.Processes) {
    if (Pr.TimingThreshold)
      return ShortCalls();
    S.ThresholdNs = std::max(S.ThresholdNs, kProfileTimingRatio *
                                                ticks256ToNs(Pr, Pr.Overhead.Pair256));
  }
  if (S.ThresholdNs <= 0)
    return ShortCalls();
  for (const FunctionStats &F : A.Flat) {
    uint64_t Timed = F.S.Calls - std::min(F.S.Calls, F.S.CountedCalls);
    S.TimedCalls += Timed;
    if (Timed && F.S.allTimed() && F.S.Elapsed < S.ThresholdNs * double(Timed)) {
      S.Calls += Timed;
      ++S.Functions;
    }
  }
  return S;
}

const char *report::switchSourceName(SwitchSource S) {
  switch (S) {
  case SwitchSource::Perf:
    return "perf";
  case SwitchSource::CpuClock:
    return "cpu-clock";
  case SwitchSource::None:
    break;
  }
  return "none";
}
