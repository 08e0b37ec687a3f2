//===- report.cpp - `activetime report` -------------------------------------===//
//
// Part of ActiveTime. Prints a profile as text (header, flat table, optional
// call tree and per-thread sections) or as JSON (schema in README.md).
//
//===----------------------------------------------------------------------===//

#include "activetime.h"
#include "activetime/Profile/Aggregate.h"
#include "activetime/Profile/Parallel.h"
#include "activetime/Profile/Strides.h"
#include "activetime/abi.h"
#include "activetime/raw_format.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::tool;

cl::SubCommand tool::ReportCommand("report", "Show a profile");

static cl::list<std::string> Inputs(cl::Positional, cl::sub(ReportCommand),
                                    cl::desc("<profile>..."),
                                    cl::cat(ToolCategory));
static cl::opt<unsigned>
    Top("top", cl::sub(ReportCommand), cl::init(20),
        cl::desc("Functions listed in the flat table and per thread "
                 "(0 = all; JSON always lists all)"),
        cl::value_desc("N"), cl::cat(ToolCategory));
static cl::opt<bool> ShowTree("tree", cl::sub(ReportCommand),
                              cl::desc("Print the merged call tree"),
                              cl::cat(ToolCategory));
static cl::opt<unsigned>
    MaxDepth("max-depth", cl::sub(ReportCommand), cl::init(40),
             cl::desc("Deepest call tree level printed (text and JSON; "
                      "0 = no limit)"),
             cl::value_desc("D"), cl::cat(ToolCategory));
static cl::opt<bool> ShowStrides(
    "strides", cl::sub(ReportCommand),
    cl::desc("Print the memory access sites of stride profiling (seed 004) "
             "instead of the time report"),
    cl::cat(ToolCategory));
static cl::opt<bool> ShowCallSites(
    "call-sites", cl::sub(ReportCommand),
    cl::desc("Print each function's call sites (caller, source line, calls; "
             "the targets of indirect calls); with --json, a call_sites array"),
    cl::cat(ToolCategory));
static cl::opt<bool> ShowThreads("threads", cl::sub(ReportCommand),
                                 cl::desc("Print a section per thread"),
                                 cl::cat(ToolCategory));
static cl::opt<bool> Json("json", cl::sub(ReportCommand),
                          cl::desc("Print a JSON document instead of text"),
                          cl::cat(ToolCategory));
static cl::opt<bool> NoDemangle("no-demangle", cl::sub(ReportCommand),
                                cl::desc("Print linkage names as they are"),
                                cl::cat(ToolCategory));
static cl::opt<bool> ShowParallel(
    "parallel", cl::sub(ReportCommand),
    cl::desc("Show the OpenMP worker-state report: per parallel region, time "
             "in U/L/G/W, takes, transitions and the diagnosis (seed 001)"),
    cl::cat(ToolCategory));
static cl::opt<double> MinOverhead(
    "min-overhead", cl::sub(ReportCommand), cl::init(10),
    cl::desc("--parallel: diagnose regions whose parallel overhead exceeds "
             "this percentage of the workers' time (default 10)"),
    cl::cat(ToolCategory));
static cl::opt<double> MaxTaskRate(
    "max-task-rate", cl::sub(ReportCommand), cl::init(400000),
    cl::desc("--parallel: tasks per second per thread above which granularity "
             "is too fine (default 400000)"),
    cl::cat(ToolCategory));
static cl::opt<double> MaxStolenRatio(
    "max-stolen-ratio", cl::sub(ReportCommand), cl::init(1),
    cl::desc("--parallel: stolen/local takes above which the work is spawned "
             "linearly (default 1)"),
    cl::cat(ToolCategory));
static cl::opt<double> MinInactive(
    "min-inactive", cl::sub(ReportCommand), cl::init(10),
    cl::desc("--parallel: waiting percentage above which idleness is "
             "diagnosed (default 10)"),
    cl::cat(ToolCategory));
static cl::opt<double> MinFruitless(
    "min-fruitless-per-take", cl::sub(ReportCommand), cl::init(1),
    cl::desc("--parallel: fruitless searches per take at or above which idle "
             "workers lack tasks rather than balance (default 1)"),
    cl::cat(ToolCategory));
static cl::opt<std::string>
    HtmlOutput("html", cl::sub(ReportCommand),
               cl::desc("Write a self-contained interactive HTML report to "
                        "FILE (flame graphs, tables, header)"),
               cl::value_desc("file"), cl::cat(ToolCategory));
static cl::opt<ProgressMode>
    ProgressOpt("progress", cl::sub(ReportCommand),
                cl::init(ProgressMode::Auto),
                cl::desc("--html: progress line on stderr"),
                ACTIVETIME_PROGRESS_VALUES, cl::cat(ToolCategory));
static cl::opt<bool> ShowHeader("header", cl::sub(ReportCommand),
                                cl::desc("Print only the header block "
                                         "(overhead table, switch sources)"),
                                cl::cat(ToolCategory));
static cl::opt<bool> ShowSamples(
    "samples", cl::sub(ReportCommand),
    cl::desc("Print the sampled wall-clock view (profiles run with "
             "ACTIVETIME_OPTIONS=sample=1): on-CPU and charged off-CPU time "
             "per function and call path"),
    cl::cat(ToolCategory));
static cl::opt<SortKey> Sort(
    "sort", cl::sub(ReportCommand), cl::init(SortKey::SelfActive),
    cl::desc("Order of the flat and per-thread tables (largest first)"),
    cl::values(clEnumValN(SortKey::Calls, "calls", "calls"),
               clEnumValN(SortKey::Elapsed, "elapsed", "elapsed inclusive"),
               clEnumValN(SortKey::Active, "active", "active inclusive"),
               clEnumValN(SortKey::SelfActive, "self-active",
                          "active exclusive (default)"),
               clEnumValN(SortKey::SelfElapsed, "self-elapsed",
                          "elapsed exclusive"),
               clEnumValN(SortKey::Overhead, "overhead", "probe overhead"),
               clEnumValN(SortKey::OffCpu, "off-cpu", "switched-out time"),
               clEnumValN(SortKey::Min, "min", "shortest call (active)"),
               clEnumValN(SortKey::Max, "max", "longest call (active)"),
               clEnumValN(SortKey::Name, "name", "function name, A-Z")),
    cl::value_desc("key"), cl::cat(ToolCategory));

static const char TimesNote[] =
    "active = elapsed - probe overhead - switched-out (off-cpu) time; "
    "self-active = active - the callees' active; min/max are active per call";
static const char HowNote[] =
    "how: timed = every call timed by the probes; counted = calls beyond the "
    "first timed ones only counted (exactly), their self time split off the "
    "timed callers' by code samples, no per-call figures (-); "
    "+-95% = the self-active time's uncertainty from that sampling and the "
    "probes' residual cost";

namespace {

/// Counters summed over threads.
struct Counters {
  uint64_t OpenFrames = 0, UnwoundFrames = 0, UnmatchedExits = 0,
           DroppedEvents = 0;
  void add(const Thread &T) {
    OpenFrames += T.OpenFrames;
    UnwoundFrames += T.UnwoundFrames;
    UnmatchedExits += T.UnmatchedExits;
    DroppedEvents += T.DroppedEvents;
  }
  bool any() const {
    return OpenFrames || UnwoundFrames || UnmatchedExits || DroppedEvents;
  }
};

Counters countersOf(const Process &P) {
  Counters C;
  for (const Thread &T : P.Threads)
    C.add(T);
  return C;
}

/// Threads of a scope grouped by where their switched-out time came from.
struct SwitchSummary {
  unsigned Perf = 0, CpuClock = 0, None = 0;
  double MinResolutionNs = 0, MaxResolutionNs = 0;
  uint64_t Lost = 0, Voluntary = 0, Involuntary = 0;
  double OffCpuNs = 0;
  void add(const Process &P, const Thread &T) {
    switch (T.SwitchSource) {
    case raw::SS_Perf:
      ++Perf;
      break;
    case raw::SS_CpuClock: {
      double R = ticksToNs(P, T.SwitchResolution);
      MinResolutionNs = CpuClock ? std::min(MinResolutionNs, R) : R;
      MaxResolutionNs = CpuClock ? std::max(MaxResolutionNs, R) : R;
      ++CpuClock;
      break;
    }
    default:
      ++None;
      break;
    }
    Lost += T.LostSwitchRecords;
    Voluntary += T.VoluntarySwitches;
    Involuntary += T.InvoluntarySwitches;
    OffCpuNs += ticksToNs(P, T.OffCpuTicks);
  }
  std::string resolution() const {
    if (MinResolutionNs == MaxResolutionNs)
      return plainTime(MaxResolutionNs);
    return plainTime(MinResolutionNs) + " to " + plainTime(MaxResolutionNs);
  }
};

std::string threads(unsigned N) {
  return utostr(N) + (N == 1 ? " thread" : " threads");
}

const char *sourceName(uint32_t S) {
  switch (S) {
  case raw::SS_Perf:
    return "perf";
  case raw::SS_CpuClock:
    return "cpu-clock";
  }
  return "none";
}

std::string ticks2(uint64_t Ticks256) {
  return formatv("{0:F2}", double(Ticks256) / 256.0).str();
}

// The tick counter's step (raw::ProcessRecord::TickStep256) in words.
std::string tickStep(const Process &Pr) {
  if (!Pr.TickStep256)
    return "not measured";
  if (Pr.TickStep256 == 256)
    return "1 tick";
  return formatv("{0} ticks ({1:F1} ns): one call is timed to within a step; "
                 "sums over many calls average it out",
                 ticks2(Pr.TickStep256), ticks256ToNs(Pr, Pr.TickStep256))
      .str();
}

class Reporter {
public:
  Reporter(const Profile &P, const Aggregate &A, raw_ostream &OS,
           bool Demangle, unsigned MaxDepth)
      : P(P), A(A), OS(OS), Demangle(Demangle), MaxDepth(MaxDepth) {
    // Local functions of different modules may share a name (two files
    // with a static `helper`); only those get their module appended.
    StringMap<unsigned> Count;
    for (const FunctionStats &F : A.Flat)
      ++Count[A.Functions[F.Func].Name];
    Ambiguous.resize(A.Functions.size());
    for (const FunctionStats &F : A.Flat)
      Ambiguous[F.Func] = A.Functions[F.Func].Local &&
                          Count[A.Functions[F.Func].Name] > 1;
    // Never show elapsed time under the name active time: if any thread's
    // switched-out time was not measured, the active columns are starred.
    for (const Process &Pr : P.Processes)
      for (const Thread &T : Pr.Threads)
        Starred |= T.SwitchSource == raw::SS_None;
  }

  void text();
  void json();

private:
  std::string name(uint32_t Func) const;
  std::string location(uint32_t Func) const;
  void header();
  void overheadLines(const Process &Pr);
  void switchLines(const SwitchSummary &S);
  void counterLines(const Counters &C, StringRef Indent);
  void table(ArrayRef<FunctionStats> Rows, StringRef Indent, bool Starred);
  void tree();
  std::vector<uint32_t> subtreeHeights() const;

  const Profile &P;
  const Aggregate &A;
  raw_ostream &OS;
  bool Demangle;
  unsigned MaxDepth;
  std::vector<bool> Ambiguous;
  bool Starred = false;
  // The 95% half-width of a self-active time: the sampling's (two standard
  // errors) and every probe pair's residual in it.
  double uncertainty(const Stats &S) const {
    return 1.96 * std::sqrt(S.SelfVar) +
           double(S.SelfProbePairs) * A.How.ProbeResidualNs;
  }
  static const char *how(const Stats &S) {
    return S.allTimed() ? "timed" : "counted";
  }
  void provenanceLines();
};

std::string Reporter::name(uint32_t Func) const {
  const FunctionInfo &F = A.Functions[Func];
  std::string N = Demangle ? llvm::demangle(F.Name) : F.Name;
  if (Ambiguous[Func])
    N += " [" + sys::path::filename(F.Module).str() + "]";
  return N;
}

std::string Reporter::location(uint32_t Func) const {
  const FunctionInfo &F = A.Functions[Func];
  if (F.File.empty())
    return F.Local ? "[" + F.Module + "]" : "";
  std::string L = sys::path::filename(F.File).str();
  if (F.Line)
    L += ":" + utostr(F.Line);
  return L;
}

void Reporter::counterLines(const Counters &C, StringRef Indent) {
  auto Line = [&](StringRef Label, uint64_t V, StringRef Why) {
    if (V)
      OS << Indent << left_justify(Label, 17) << V << "  (" << Why << ")\n";
  };
  Line("open frames:", C.OpenFrames,
       "calls still running when the profile was written; timed up to then");
  Line("unwound frames:", C.UnwoundFrames,
       "frames left by longjmp or exception unwinding, closed at repair");
  Line("unmatched exits:", C.UnmatchedExits,
       "function exits without a matching entry; ignored");
  Line("dropped events:", C.DroppedEvents,
       "probes ignored, e.g. re-entered from a signal handler");
}

void Reporter::overheadLines(const Process &Pr) {
  const OverheadTable &O = Pr.Overhead;
  const char *Indent = "                   ";
  if (Pr.TimingThreshold)
    OS << "  timing:          a function's calls are timed while they last "
       << plainTime(ticksToNs(Pr, Pr.TimingThreshold))
       << " or more on average; shorter ones are counted after their first "
          "timed calls on each thread\n";
  else
    OS << "  timing:          every call timed\n";
  OS << "  probe cost:      "
     << (O.Measured ? "measured by every probe between its two tick reads, "
                      "plus "
                    : "")
     << formatv("{0:F1}", ticks256ToNs(Pr, O.Enter256)) << " + "
     << formatv("{0:F1}", ticks256ToNs(Pr, O.Exit256))
     << " ns per timed call" << (O.Measured ? " outside them" : "") << "\n";
  const char *Fence = O.Fenced ? ", fenced probes" : ", unfenced probes";
  if (O.Source == raw::OS_Option) {
    OS << Indent << "fixed by ACTIVETIME_OPTIONS" << Fence << "\n";
  } else {
    OS << Indent << "calibrated at start-up: " << O.Batches
       << (O.Batches == 1 ? " batch" : " batches") << ", spread "
       << formatv("{0:F1}", O.SpreadPermille / 10.0) << "%" << Fence;
    if (O.Measured && O.Pair256)
      OS << "; a timed call cost its caller "
         << formatv("{0:F1}", ticks256ToNs(Pr, O.Pair256))
         << " ns there, its probes measured "
         << formatv("{0:F1}",
                    ticks256ToNs(Pr, O.MeasuredEnter256 + O.MeasuredExit256))
         << " ns";
    OS << "\n";
    if (!O.Stable)
      OS << Indent << "UNSTABLE: the calibration spread exceeded its bound\n";
  }
  OS << "  code samples:    ";
  if (Pr.CodeSamplePeriodNs) {
    OS << "every " << plainTime(double(Pr.CodeSamplePeriodNs))
       << " of a thread's CPU time, ";
    if (Pr.CodeSampleFlags & raw::CSF_CostUnmeasured)
      OS << "cost NOT MEASURED (the machine was busy at start-up): the "
            "samples' interrupts stay in the times";
    else
      OS << plainTime(ticks256ToNs(Pr, Pr.CodeSampleCost256))
         << " each (removed as probe cost)";
    if (Pr.CodeSampleFlags & raw::CSF_Stacks)
      OS << "; library and kernel time charged to the program function that "
            "called out";
    if (Pr.CodeSampleFlags & raw::CSF_UserOnly)
      OS << "; kernel time not sampled (perf_event_paranoid)";
    OS << "\n";
    size_t Unsampled = llvm::count_if(Pr.Threads, [](const Thread &T) {
      return T.Flags & raw::TF_NotSampled;
    });
    if (Unsampled)
      OS << Indent << "NOT SAMPLED: " << Unsampled << " of "
         << Pr.Threads.size()
         << " threads (no perf ring: raise perf_event_mlock_kb or ulimit -l); "
            "their timed functions' self time includes their counted "
            "callees'\n";
  } else {
    OS << (Pr.CodeSampleFlags & raw::CSF_Disabled
               ? "off (ACTIVETIME_OPTIONS=code_samples=0 or mode=trace)"
               : "unavailable (perf_event_open refused)")
       << ": a timed function's self time includes its counted callees'\n";
  }
  if (Pr.CodeResolvedByNearest)
    OS << Indent << "APPROXIMATE: the program's symbols could not be read; "
                   "sample addresses were mapped to the nearest function "
                   "start below them\n";
}

void Reporter::provenanceLines() {
  const Provenance &H = A.How;
  double Total = A.TotalSelfActive;
  auto Pct = [&](double X) {
    return Total > 0 ? formatv("{0:F1}%", 100 * X / Total).str() : "-";
  };
  OS << "self-active time: " << plainTime(Total) << " in all\n";
  OS << "  timed:           " << plainTime(Total - H.SampledNs) << " ("
     << Pct(Total - H.SampledNs) << ") in the code of " << H.TimedCalls
     << " timed calls; their probes' residual cost, at most "
     << formatv("{0:F1}", H.ProbeResidualNs) << " ns a call: "
     << plainTime(H.TimedResidualNs) << "\n";
  if (H.OutsideProbesNs > 0)
    OS << "  outside probes:  " << plainTime(H.OutsideProbesNs) << " ("
       << Pct(H.OutsideProbesNs)
       << ") of it ran in timed callees' code before and after their probes "
          "(prologues, epilogues): moved from the callers' self time by "
          "code samples\n";
  if (H.CountedCalls || H.SampledNs)
    OS << "  counted:         " << plainTime(H.SampledNs) << " ("
       << Pct(H.SampledNs) << ") in " << H.CountedCalls
       << " counted calls, split off their timed callers by "
       << H.CodeSamples << " code samples (+-"
       << plainTime(1.96 * H.SampledSigmaNs) << ", 95%)\n";
  if (H.CountingBoundNs > 0)
    OS << "  counting:        the inline counting of counted calls is not "
          "removed; the code samples put at most "
       << plainTime(H.CountingBoundNs) << " (" << Pct(H.CountingBoundNs)
       << ") on its instructions\n";
  if (H.UnsampledSelfNs > 0 && H.CountedCalls)
    OS << "  not split:       " << plainTime(H.UnsampledSelfNs)
       << " of timed functions' self time had no code sample: any counted "
          "callees' time there stays in them\n";
  if (H.LostCodeSamples)
    OS << "  lost samples:    " << H.LostCodeSamples
       << " code samples the kernel dropped (ring full)\n";
}

void Reporter::switchLines(const SwitchSummary &S) {
  std::vector<std::string> Parts;
  if (S.Perf)
    Parts.push_back("from perf context-switch records: " + threads(S.Perf));
  if (S.CpuClock)
    Parts.push_back("from the thread CPU clock (resolution " +
                    S.resolution() + "): " + threads(S.CpuClock));
  if (S.None)
    Parts.push_back("NOT MEASURED: " + threads(S.None));
  OS << "  switched-out time " << join(Parts, "; ") << "\n";
  if (S.Lost)
    OS << "  lost switch records: " << S.Lost
       << "  (context-switch records the kernel dropped; their switched-out "
          "time is counted as active)\n";
  OS << "  switches:        " << S.Voluntary << " voluntary, "
     << S.Involuntary << " involuntary; off-cpu " << plainTime(S.OffCpuNs)
     << "\n";
}

void Reporter::header() {
  // Per-process blocks while they stay readable; a summary beyond that
  // (a fork-heavy program can leave hundreds of processes).
  constexpr size_t MaxDetailed = 4;
  size_t NumThreads = 0;
  SwitchSummary All;
  for (const Process &Pr : P.Processes) {
    NumThreads += Pr.Threads.size();
    for (const Thread &T : Pr.Threads)
      All.add(Pr, T);
  }
  OS << "ActiveTime profile: " << P.Processes.size()
     << (P.Processes.size() == 1 ? " process, " : " processes, ") << NumThreads
     << (NumThreads == 1 ? " thread\n" : " threads\n");
  if (P.Processes.size() <= MaxDetailed) {
    for (const Process &Pr : P.Processes) {
      OS << "process " << Pr.Pid << " (parent " << Pr.ParentPid
         << "): " << (Pr.Exe.empty() ? "<unknown executable>" : Pr.Exe)
         << "\n";
      if (!Pr.BuildId.empty())
        OS << "  build id:        " << buildIdHex(Pr) << "\n";
      OS << "  tick rate:       " << Pr.TickRate << " ticks/s\n";
      OS << "  tick step:       " << tickStep(Pr) << "\n";
      OS << "  wall time:       "
         << plainTime(ticksToNs(Pr, Pr.EndTick - Pr.StartTick)) << "\n";
      OS << "  threads:         " << Pr.Threads.size() << "\n";
      OS << "  modules:         " << Pr.Modules.size() << "\n";
      overheadLines(Pr);
      SwitchSummary S;
      for (const Thread &T : Pr.Threads)
        S.add(Pr, T);
      switchLines(S);
      if (!Pr.Traces.empty())
        OS << "  traces:          " << threads(Pr.Traces.size())
           << " (see `activetime active-time`)\n";
      counterLines(countersOf(Pr), "  ");
    }
  } else {
    const Process &First = P.Processes.front();
    OS << "processes of " << (First.Exe.empty() ? "<unknown executable>"
                                                : First.Exe)
       << "\n";
    OS << "  pids:           ";
    for (size_t I = 0; I < P.Processes.size() && I < 8; ++I)
      OS << (I ? ", " : " ") << P.Processes[I].Pid;
    if (P.Processes.size() > 8)
      OS << ", ... (" << P.Processes.size() - 8 << " more)";
    OS << "\n";
    double Total = 0, Longest = 0;
    size_t MaxModules = 0;
    bool SameRate = true, SameStep = true, SameOverhead = true;
    Counters C;
    for (const Process &Pr : P.Processes) {
      double W = ticksToNs(Pr, Pr.EndTick - Pr.StartTick);
      Total += W;
      Longest = std::max(Longest, W);
      MaxModules = std::max(MaxModules, Pr.Modules.size());
      SameRate &= Pr.TickRate == First.TickRate;
      SameStep &= Pr.TickStep256 == First.TickStep256;
      SameOverhead &= Pr.Overhead.Enter256 == First.Overhead.Enter256 &&
                      Pr.Overhead.Exit256 == First.Overhead.Exit256 &&
                      Pr.Overhead.Source == First.Overhead.Source &&
                      Pr.Overhead.Stable == First.Overhead.Stable &&
                      Pr.Overhead.Fenced == First.Overhead.Fenced &&
                      Pr.Overhead.Batches == First.Overhead.Batches &&
                      Pr.Overhead.SpreadPermille ==
                          First.Overhead.SpreadPermille;
      for (const Thread &T : Pr.Threads)
        C.add(T);
    }
    if (SameRate)
      OS << "  tick rate:       " << First.TickRate << " ticks/s\n";
    else
      OS << "  tick rate:       differs between processes\n";
    if (SameStep && SameRate)
      OS << "  tick step:       " << tickStep(First) << "\n";
    else
      OS << "  tick step:       differs between processes (--json lists "
            "each)\n";
    OS << "  wall time:       " << plainTime(Total) << " in total, longest "
       << plainTime(Longest) << "\n";
    OS << "  threads:         " << NumThreads << "\n";
    OS << "  modules:         up to " << MaxModules << " per process\n";
    if (SameOverhead && SameRate) {
      overheadLines(First);
    } else {
      unsigned Unstable = 0;
      for (const Process &Pr : P.Processes)
        Unstable += Pr.Overhead.Source == raw::OS_Calibrated &&
                    !Pr.Overhead.Stable;
      OS << "  probe cost:      differs between processes (--json lists "
            "each)";
      if (Unstable)
        OS << "; UNSTABLE calibration in " << Unstable << " of them";
      OS << "\n";
    }
    switchLines(All);
    counterLines(C, "  ");
  }
  provenanceLines();
  OS << "note: " << TimesNote << "\n";
  OS << "note: " << HowNote << "\n";
  if (All.CpuClock)
    OS << "note: for threads measured with the thread CPU clock, switched-out "
          "time is located within "
       << All.resolution()
       << " (the clock is read at that interval): it may be charged to a "
          "call next to the one that was switched out\n";
  if (All.None)
    OS << "note: " << threads(All.None)
       << " without switched-out measurement: for "
       << (All.None == 1 ? "it" : "them")
       << " \"active\" excludes probe overhead only, not switched-out time "
          "(columns marked *)\n";
}

void Reporter::table(ArrayRef<FunctionStats> Rows, StringRef Indent,
                     bool Starred) {
  std::vector<FunctionStats> Sorted(Rows.begin(), Rows.end());
  sortFunctions(Sorted, A.Functions, Sort);
  if (Sort == SortKey::Name) // by the name as printed (demangled)
    std::stable_sort(Sorted.begin(), Sorted.end(),
                     [&](const FunctionStats &X, const FunctionStats &Y) {
                       return name(X.Func) < name(Y.Func);
                     });
  Rows = Sorted;
  size_t Shown = Top == 0 ? Rows.size() : std::min<size_t>(Top, Rows.size());
  std::vector<std::string> Names;
  size_t NameWidth = 8;
  for (size_t I = 0; I < Shown; ++I) {
    Names.push_back(name(Rows[I].Func));
    NameWidth = std::max(NameWidth, Names.back().size());
  }
  NameWidth = std::min<size_t>(NameWidth, 60);
  auto Row = [&](ArrayRef<std::string> Cols, StringRef Name, StringRef Loc) {
    std::string Line;
    raw_string_ostream L(Line);
    L << Indent << right_justify(Cols[0], 10);
    for (size_t I = 1; I + 1 < Cols.size(); ++I)
      L << ' ' << right_justify(Cols[I], I == 3 ? 12 : 11);
    L << "  " << left_justify(Cols.back(), 7) << "  "
      << left_justify(Name, NameWidth) << "  " << Loc;
    OS << StringRef(Line).rtrim() << "\n";
  };
  std::string Star = Starred ? "*" : "";
  Row({"calls", "elapsed", "active" + Star, "self-active" + Star, "+-95%",
       "overhead", "off-cpu", "min" + Star, "max" + Star, "how"},
      "function", "location");
  for (size_t I = 0; I < Shown; ++I) {
    const Stats &S = Rows[I].S;
    // Counted calls have no per-call figures: the inclusive ones would
    // describe only the first, timed calls.
    bool PerCall = S.Calls != 0 && S.allTimed();
    auto Cell = [&](double Ns) { return PerCall ? formatTime(Ns) : "-"; };
    Row({utostr(S.Calls), Cell(S.Elapsed), Cell(S.Active),
         formatTime(S.SelfActive), formatTime(uncertainty(S)),
         Cell(S.Overhead), Cell(S.OffCpu), Cell(S.Min), Cell(S.Max), how(S)},
        Names[I], location(Rows[I].Func));
  }
  if (Shown < Rows.size())
    OS << Indent << "(" << Rows.size() - Shown
       << " more functions; --top 0 lists all)\n";
  if (Starred)
    OS << Indent
       << (Indent.empty() ? "* switched-out time not measured for some "
                            "threads: for them active excludes probe "
                            "overhead only\n"
                          : "* switched-out time not measured for this "
                            "thread: active excludes probe overhead only\n");
}

std::vector<uint32_t> Reporter::subtreeHeights() const {
  // Children always have larger indices than their parent, so one reverse
  // pass computes every height without recursion.
  std::vector<uint32_t> H(A.Tree.size(), 0);
  for (size_t I = A.Tree.size(); I-- > 1;) {
    uint32_t Par = A.Tree[I].Parent;
    H[Par] = std::max(H[Par], H[I] + 1);
  }
  return H;
}

void Reporter::tree() {
  std::vector<uint32_t> Heights = subtreeHeights();
  OS << "\ncall tree (all threads merged; children by active time):\n";
  std::string Star = Starred ? "*" : "";
  OS << right_justify("elapsed", 11) << ' ' << right_justify("active" + Star, 11)
     << ' ' << right_justify("self-active" + Star, 12) << ' '
     << right_justify("overhead", 11) << ' ' << right_justify("off-cpu", 11)
     << ' ' << right_justify("calls", 10) << "  function\n";
  constexpr size_t Lead = 11 + 1 + 11 + 1 + 12 + 1 + 11 + 1 + 11 + 1 + 10 + 2;
  std::vector<uint32_t> Stack(A.Tree[0].Children.rbegin(),
                              A.Tree[0].Children.rend());
  while (!Stack.empty()) {
    uint32_t I = Stack.back();
    Stack.pop_back();
    const TreeNode &N = A.Tree[I];
    std::string Indent(2 * (N.Depth - 1), ' ');
    // A counted function under its nearest timed caller: only its self time
    // there is known (from code samples).
    auto Cell = [&](double Ns) { return N.Counted ? "-" : formatTime(Ns); };
    OS << right_justify(Cell(N.S.Elapsed), 11) << ' '
       << right_justify(formatTime(N.S.Active), 11) << ' '
       << right_justify(formatTime(N.S.SelfActive), 12) << ' '
       << right_justify(Cell(N.S.Overhead), 11) << ' '
       << right_justify(Cell(N.S.OffCpu), 11) << ' '
       << right_justify(N.Counted ? "-" : utostr(N.S.Calls), 10) << "  "
       << Indent << name(N.Func) << (N.Counted ? " [counted]" : "") << "\n";
    if (N.Children.empty())
      continue;
    if (MaxDepth != 0 && N.Depth >= MaxDepth) {
      OS << std::string(Lead, ' ') << Indent << "  ... " << Heights[I]
         << (Heights[I] == 1 ? " more level\n" : " more levels\n");
      continue;
    }
    Stack.insert(Stack.end(), N.Children.rbegin(), N.Children.rend());
  }
  OS << "[counted]: a counted function's self time inside the timed caller "
        "above it, from code samples\n";
}

void Reporter::text() {
  header();
  if (ShowHeader)
    return;
  OS << "\n";
  table(A.Flat, "", Starred);
  if (ShowTree)
    tree();
  if (ShowCallSites)
    printCallSites(P, A, OS, Demangle, Top);
  if (ShowThreads) {
    for (const ThreadSummary &T : A.Threads) {
      const Process &Pr = P.Processes[T.Process];
      OS << "\nthread " << T.Tid;
      if (!T.Name.empty())
        OS << " \"" << T.Name << "\"";
      OS << " (pid " << Pr.Pid << "): wall " << plainTime(T.WallNs) << ", "
         << T.Functions.size()
         << (T.Functions.size() == 1 ? " function" : " functions");
      if (T.Flags & raw::TF_Running)
        OS << ", still running when the profile was written";
      if (T.Flags & raw::TF_NotSampled)
        OS << ", NOT SAMPLED (no perf ring)";
      OS << "\n";
      OS << "  switched-out:    ";
      switch (T.SwitchSource) {
      case raw::SS_Perf:
        OS << "from perf context-switch records";
        break;
      case raw::SS_CpuClock:
        OS << "from the thread CPU clock (resolution "
           << plainTime(T.SwitchResolutionNs) << ")";
        break;
      default:
        OS << "NOT MEASURED (active excludes probe overhead only)";
        break;
      }
      OS << "; off-cpu " << plainTime(T.OffCpuNs) << "; switches "
         << T.VoluntarySwitches << " voluntary, " << T.InvoluntarySwitches
         << " involuntary\n";
      if (T.LostSwitchRecords)
        OS << "  lost switch records: " << T.LostSwitchRecords << "\n";
      Counters C;
      C.OpenFrames = T.OpenFrames;
      C.UnwoundFrames = T.UnwoundFrames;
      C.UnmatchedExits = T.UnmatchedExits;
      C.DroppedEvents = T.DroppedEvents;
      counterLines(C, "  ");
      table(T.Functions, "  ", T.SwitchSource == raw::SS_None);
    }
  }
}

void Reporter::json() {
  // Function ids in the document are positions in "functions" (flat order).
  std::vector<uint32_t> JsonId(A.Functions.size(), UINT32_MAX);
  for (size_t I = 0; I < A.Flat.size(); ++I)
    JsonId[A.Flat[I].Func] = I;
  std::vector<uint32_t> Heights = subtreeHeights();

  json::OStream J(OS, 2);
  // Per-call figures are null where calls were counted, not timed.
  auto StatsAttrs = [&](const Stats &S, bool Counted = false) {
    bool PerCall = !Counted && S.allTimed();
    auto Timed = [&](StringRef Key, double V) {
      if (PerCall)
        J.attribute(Key, V);
      else
        J.attribute(Key, nullptr);
    };
    J.attribute("how", Counted || !S.allTimed() ? "counted" : "timed");
    if (Counted)
      J.attribute("calls", nullptr);
    else
      J.attribute("calls", int64_t(S.Calls));
    J.attribute("counted_calls", int64_t(S.CountedCalls));
    Timed("elapsed_ns", S.Elapsed);
    Timed("self_elapsed_ns", S.SelfElapsed);
    J.attribute("active_ns", PerCall || Counted ? json::Value(S.Active)
                                                : json::Value(nullptr));
    J.attribute("self_active_ns", S.SelfActive);
    J.attribute("self_active_sampled_ns", S.Sampled);
    J.attribute("self_active_uncertainty_ns", uncertainty(S));
    J.attribute("code_samples", int64_t(S.Samples));
    Timed("overhead_ns", S.Overhead);
    Timed("off_cpu_ns", S.OffCpu);
    J.attribute("voluntary_switches", int64_t(S.Voluntary));
    J.attribute("involuntary_switches", int64_t(S.Involuntary));
    Timed("min_active_ns", S.Min);
    Timed("max_active_ns", S.Max);
  };
  auto CounterAttrs = [&](const Counters &C) {
    J.attributeObject("counters", [&] {
      J.attribute("open_frames", int64_t(C.OpenFrames));
      J.attribute("unwound_frames", int64_t(C.UnwoundFrames));
      J.attribute("unmatched_exits", int64_t(C.UnmatchedExits));
      J.attribute("dropped_events", int64_t(C.DroppedEvents));
    });
  };
  SwitchSummary All;
  for (const Process &Pr : P.Processes)
    for (const Thread &T : Pr.Threads)
      All.add(Pr, T);
  J.object([&] {
    J.attribute("schema", "activetime-report");
    J.attribute("version", 3);
    J.attribute("time_unit", "ns");
    J.attribute("time_kind", "active");
    J.attribute("note", TimesNote);
    J.attribute("how_note", HowNote);
    const Provenance &H = A.How;
    J.attributeObject("provenance", [&] {
      J.attribute("timed_calls", int64_t(H.TimedCalls));
      J.attribute("counted_calls", int64_t(H.CountedCalls));
      J.attribute("timed_self_active_ns", A.TotalSelfActive - H.SampledNs);
      J.attribute("counted_self_active_ns", H.SampledNs);
      J.attribute("counted_uncertainty_ns", 1.96 * H.SampledSigmaNs);
      J.attribute("counting_bound_ns", H.CountingBoundNs);
      J.attribute("outside_probes_ns", H.OutsideProbesNs);
      J.attribute("probe_residual_per_call_ns", H.ProbeResidualNs);
      J.attribute("timed_uncertainty_ns", H.TimedResidualNs);
      J.attribute("code_samples", int64_t(H.CodeSamples));
      J.attribute("runtime_code_samples", int64_t(H.RuntimeSamples));
      J.attribute("lost_code_samples", int64_t(H.LostCodeSamples));
      J.attribute("unsplit_self_active_ns", H.UnsampledSelfNs);
    });
    // Threads whose "active" still includes switched-out time.
    J.attribute("threads_without_switch_data", int64_t(All.None));
    Counters Total;
    J.attributeArray("processes", [&] {
      for (const Process &Pr : P.Processes) {
        Counters C = countersOf(Pr);
        Total.OpenFrames += C.OpenFrames;
        Total.UnwoundFrames += C.UnwoundFrames;
        Total.UnmatchedExits += C.UnmatchedExits;
        Total.DroppedEvents += C.DroppedEvents;
        J.object([&] {
          J.attribute("executable", Pr.Exe);
          J.attribute("build_id", buildIdHex(Pr));
          J.attribute("pid", int64_t(Pr.Pid));
          J.attribute("parent_pid", int64_t(Pr.ParentPid));
          J.attribute("tick_rate", int64_t(Pr.TickRate));
          J.attribute("tick_step_ticks", double(Pr.TickStep256) / 256.0);
          J.attribute("tick_step_ns", ticks256ToNs(Pr, Pr.TickStep256));
          J.attribute("start_unix_ns", int64_t(Pr.StartUnixNs));
          J.attribute("wall_ns", ticksToNs(Pr, Pr.EndTick - Pr.StartTick));
          J.attribute("threads", int64_t(Pr.Threads.size()));
          J.attribute("modules", int64_t(Pr.Modules.size()));
          J.attribute("traces", int64_t(Pr.Traces.size()));
          const OverheadTable &O = Pr.Overhead;
          J.attributeObject("overhead", [&] {
            J.attribute("enter_ticks", double(O.Enter256) / 256.0);
            J.attribute("exit_ticks", double(O.Exit256) / 256.0);
            J.attribute("enter_ns", ticks256ToNs(Pr, O.Enter256));
            J.attribute("exit_ns", ticks256ToNs(Pr, O.Exit256));
            J.attribute("source", O.Source == raw::OS_Option ? "option"
                                                             : "calibrated");
            J.attribute("batches", int64_t(O.Batches));
            J.attribute("spread", O.SpreadPermille / 1000.0);
            J.attribute("stable", bool(O.Stable));
            J.attribute("fenced", bool(O.Fenced));
            J.attribute("measured", bool(O.Measured));
            J.attribute("pair_ns", ticks256ToNs(Pr, O.Pair256));
            J.attribute("measured_enter_ns", ticks256ToNs(Pr, O.MeasuredEnter256));
            J.attribute("measured_exit_ns", ticks256ToNs(Pr, O.MeasuredExit256));
          });
          J.attribute("timing_threshold_ns", ticksToNs(Pr, Pr.TimingThreshold));
          J.attributeObject("code_samples", [&] {
            J.attribute("period_ns", int64_t(Pr.CodeSamplePeriodNs));
            if (Pr.CodeSampleFlags & raw::CSF_CostUnmeasured)
              J.attribute("cost_ns", nullptr);
            else
              J.attribute("cost_ns", ticks256ToNs(Pr, Pr.CodeSampleCost256));
            J.attribute("state", Pr.CodeSamplePeriodNs ? "on"
                                 : (Pr.CodeSampleFlags & raw::CSF_Disabled)
                                     ? "off"
                                     : "unavailable");
            J.attribute("kernel", !(Pr.CodeSampleFlags & raw::CSF_UserOnly));
            J.attribute("callers", bool(Pr.CodeSampleFlags & raw::CSF_Stacks));
            J.attribute("nearest_symbol", Pr.CodeResolvedByNearest);
          });
          CounterAttrs(C);
        });
      }
    });
    CounterAttrs(Total);
    J.attribute("total_self_active_ns", A.TotalSelfActive);
    J.attribute("total_self_elapsed_ns", A.TotalSelfElapsed);
    J.attributeArray("functions", [&] {
      for (const FunctionStats &F : A.Flat) {
        const FunctionInfo &Info = A.Functions[F.Func];
        J.object([&] {
          J.attribute("id", int64_t(JsonId[F.Func]));
          J.attribute("name", name(F.Func));
          J.attribute("linkage_name", Info.Name);
          J.attribute("local", Info.Local);
          if (Info.Local)
            J.attribute("module", Info.Module);
          J.attribute("file", Info.File);
          J.attribute("line", int64_t(Info.Line));
          StatsAttrs(F.S);
          J.attribute("self_active_share", F.Share);
        });
      }
    });
    J.attributeObject("tree", [&] {
      J.attribute("max_depth", int64_t(MaxDepth));
      // Flat pre-order list with parent links: no nesting, so arbitrarily
      // deep trees need no recursion here or in consumers.
      J.attributeArray("nodes", [&] {
        std::vector<uint32_t> Order(A.Tree.size(), UINT32_MAX);
        uint32_t Next = 0;
        std::vector<uint32_t> Stack(A.Tree[0].Children.rbegin(),
                                    A.Tree[0].Children.rend());
        while (!Stack.empty()) {
          uint32_t I = Stack.back();
          Stack.pop_back();
          const TreeNode &N = A.Tree[I];
          Order[I] = Next++;
          bool Cut = MaxDepth != 0 && N.Depth >= MaxDepth &&
                     !N.Children.empty();
          J.object([&] {
            J.attribute("id", int64_t(Order[I]));
            if (N.Parent == 0)
              J.attribute("parent", nullptr);
            else
              J.attribute("parent", int64_t(Order[N.Parent]));
            J.attribute("depth", int64_t(N.Depth));
            J.attribute("function", int64_t(JsonId[N.Func]));
            StatsAttrs(N.S, N.Counted);
            if (Cut)
              J.attribute("truncated_levels", int64_t(Heights[I]));
          });
          if (!Cut)
            Stack.insert(Stack.end(), N.Children.rbegin(), N.Children.rend());
        }
      });
    });
    if (ShowCallSites)
      callSitesJson(P, A, J, Demangle);
    J.attributeArray("threads", [&] {
      for (const ThreadSummary &T : A.Threads) {
        J.object([&] {
          J.attribute("process", int64_t(T.Process));
          J.attribute("pid", int64_t(P.Processes[T.Process].Pid));
          J.attribute("tid", int64_t(T.Tid));
          J.attribute("name", T.Name);
          J.attribute("running", bool(T.Flags & raw::TF_Running));
          J.attribute("code_samples_refused", bool(T.Flags & raw::TF_NotSampled));
          J.attribute("wall_ns", T.WallNs);
          J.attribute("switch_source", sourceName(T.SwitchSource));
          J.attribute("switch_resolution_ns", T.SwitchResolutionNs);
          J.attribute("off_cpu_ns", T.OffCpuNs);
          J.attribute("voluntary_switches", int64_t(T.VoluntarySwitches));
          J.attribute("involuntary_switches", int64_t(T.InvoluntarySwitches));
          J.attribute("lost_switch_records", int64_t(T.LostSwitchRecords));
          Counters C;
          C.OpenFrames = T.OpenFrames;
          C.UnwoundFrames = T.UnwoundFrames;
          C.UnmatchedExits = T.UnmatchedExits;
          C.DroppedEvents = T.DroppedEvents;
          CounterAttrs(C);
          J.attribute("total_self_active_ns", T.TotalSelfActive);
          J.attribute("total_self_elapsed_ns", T.TotalSelfElapsed);
          J.attributeArray("functions", [&] {
            for (const FunctionStats &F : T.Functions)
              J.object([&] {
                J.attribute("function", int64_t(JsonId[F.Func]));
                StatsAttrs(F.S);
                J.attribute("self_active_share", F.Share);
              });
          });
        });
      }
    });
  });
  OS << "\n";
}

/// `report --strides`: one row per site, dynamic ones first by executions.
void printStrides(const Profile &P, raw_ostream &OS) {
  std::vector<StrideRow> Rows = strideRows(P);
  size_t Static = llvm::count_if(Rows, [](const StrideRow &R) { return R.Static; });
  OS << "Memory access sites: " << Rows.size() << " (" << Rows.size() - Static
     << " dynamic, " << Static << " static)\n";
  if (Rows.empty()) {
    OS << "  no site tables in the profile (compile with -mllvm "
          "-activetime-strides)\n";
    return;
  }
  std::stable_sort(Rows.begin(), Rows.end(),
                   [](const StrideRow &A, const StrideRow &B) {
                     if (A.Static != B.Static)
                       return !A.Static;
                     return A.Site.Executions > B.Site.Executions;
                   });
  std::vector<std::vector<std::string>> Table;
  Table.push_back({"location", "function", "access", "stride", "elems",
                   "class", "confidence", "observed", "executions", "gcd",
                   "iter", "kind"});
  for (const StrideRow &R : Rows) {
    const MemSite &S = R.Site;
    std::string Loc = S.File.empty() ? "?" : sys::path::filename(S.File).str();
    Loc += ":" + utostr(S.Line) + ":" + utostr(S.Column);
    std::string Fn = NoDemangle ? S.Func : llvm::demangle(S.Func);
    bool HasStride =
        R.Class != StrideClass::Irregular && R.Class != StrideClass::Unknown;
    std::string Elems = "-";
    if (HasStride) {
      if (R.Stride % int64_t(S.AccessSize) == 0)
        Elems = itostr(R.Stride / int64_t(S.AccessSize));
      else
        Elems = formatv("{0:F2}", double(R.Stride) / S.AccessSize).str();
    }
    Table.push_back(
        {Loc, Fn,
         ((S.Flags & activetime::abi::MS_Store) ? "store " : "load ") +
             utostr(S.AccessSize),
         HasStride ? itostr(R.Stride) : "-", Elems, strideClassName(R.Class),
         R.Static ? "-"
                  : (S.Adjacent ? formatv("{0:F1}%", R.Confidence * 100).str()
                                : "-"),
         R.Static ? "-" : utostr(S.Observations),
         R.Static ? "-" : utostr(S.Executions),
         R.Static ? "-" : utostr(S.Gcd),
         R.IterNs ? plainTime(*R.IterNs) : "-",
         R.Static ? "static" : "dynamic"});
  }
  std::vector<size_t> Width(Table[0].size(), 0);
  for (const auto &Row : Table)
    for (size_t I = 0; I < Row.size(); ++I)
      Width[I] = std::max(Width[I], Row[I].size());
  for (const auto &Row : Table) {
    std::string Line;
    raw_string_ostream L(Line);
    L << "  ";
    for (size_t I = 0; I < Row.size(); ++I) {
      // Text columns left, numbers right.
      bool Left = I <= 2 || I == 5 || I == 11;
      L << (Left ? left_justify(Row[I], Width[I]) : right_justify(Row[I], Width[I]))
        << "  ";
    }
    OS << StringRef(Line).rtrim() << "\n";
  }
  OS << "  stride in bytes, elems = stride / access size; confidence = share "
        "of adjacent differences equal to the stride (classed at >= "
     << unsigned(kStrideConfidence * 100)
     << "%); gcd = GCD of all non-zero differences; iter = mean time of one "
        "step of the stride, less the probe time the loop's probes measured "
        "in it\n";
}

} // namespace

void tool::printReportJson(const Profile &P, const Aggregate &A,
                           raw_ostream &OS, bool Demangle, unsigned MaxDepth) {
  Reporter(P, A, OS, Demangle, MaxDepth).json();
}

int tool::reportMain() {
  for (const std::string &In : Inputs) {
    bool Same = false;
    if (!HtmlOutput.empty() && HtmlOutput != "-" &&
        !sys::fs::equivalent(In, HtmlOutput, Same) && Same)
      return reportError(createStringError(
          inconvertibleErrorCode(),
          HtmlOutput + ": output file is also an input; refusing to "
                       "overwrite it"));
  }
  Expected<Profile> P = readInputs(Inputs);
  if (!P)
    return reportError(P.takeError());
  if (ShowParallel) {
    for (const cl::opt<double> *O : {&MinOverhead, &MaxTaskRate, &MaxStolenRatio,
                                     &MinInactive, &MinFruitless})
      if (!(*O >= 0) || std::isinf(double(*O)))
        return reportError(createStringError(
            inconvertibleErrorCode(),
            "--" + O->ArgStr + " must be a finite number >= 0"));
    ParallelThresholds T;
    T.MinOverheadShare = MinOverhead / 100;
    T.MaxTaskRate = MaxTaskRate;
    T.MaxStolenRatio = MaxStolenRatio;
    T.MinInactiveShare = MinInactive / 100;
    T.MinFruitlessPerTake = MinFruitless;
    printParallelReport(*P, T, Json, outs());
    outs().flush();
    return 0;
  }
  if (ShowSamples) {
    if (Json)
      return reportError(createStringError(
          inconvertibleErrorCode(), "--samples has no JSON form; use "
                                    "'activetime export --format=folded'"));
    int RC = printSampleReport(*P, outs(), !NoDemangle, Top);
    outs().flush();
    return RC;
  }
  if (ShowStrides) {
    printStrides(*P, outs());
    outs().flush();
    return 0;
  }
  if (!HtmlOutput.empty()) {
    Progress Prog("report --html", ProgressOpt);
    if (Error E = writeHtmlReport(*P, HtmlOutput, !NoDemangle, Prog))
      return reportError(std::move(E));
    return 0;
  }
  Aggregate A = aggregate(*P);
  Reporter R(*P, A, outs(), !NoDemangle, MaxDepth);
  if (Json)
    R.json();
  else
    R.text();
  outs().flush();
  return 0;
}
