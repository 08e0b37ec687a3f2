//===- TimeReport.cpp - The time report as text -----------------------------===//
//
// Part of ActiveTime. `activetime report`: the header (processes, probe
// cost, switched-out time sources, how the self time was obtained), the flat
// table, and the optional call tree, call sites and per-thread sections.
// What a row shows and when it is approximate is ReportModel's.
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "activetime/Profile/CodeSampleSplit.h"
#include "activetime/Profile/CallerCallee.h"
#include "activetime/Profile/Mpi.h"
#include "activetime/Report/Format.h"
#include "activetime/Report/InlinedAway.h"
#include "activetime/Report/ReportModel.h"
#include "activetime/Report/Reports.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <set>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::report;

namespace {

class TextReport {
public:
  TextReport(const Profile &P, const Aggregate &A, const ViewOptions &O,
             raw_ostream &OS)
      : P(P), A(A), O(O), OS(OS), M(P, A, O.names(NameUse::Asked)) {}
  void print();

private:
  void header();
  void processBlock(const Process &Pr);
  void blockCountLines(size_t Tables, size_t Modules);
  void processesSummary(size_t NumThreads, const SwitchSummary &All);
  void cpuLines();
  void differingCostLine();
  void hostsLine();
  void overheadLines(const Process &Pr);
  void codeSampleLines(const Process &Pr);
  void paidSampleLine(const Process &Pr);
  void provenanceLines();
  void switchLines(const SwitchSummary &S);
  void traceLines(const TraceSummary &S);
  void shortCallsLine();
  void counterLines(const Counters &C, StringRef Indent);
  void notes(const SwitchSummary &All);
  void table(ArrayRef<FunctionStats> Rows, StringRef Indent, bool Starred);
  void tree();
  void threadSection(const ThreadSummary &T);
  void mpiSection();
  void rankTimesSection(ArrayRef<MpiRankTime> Ranks);
  void imbalanceSection();

  const Profile &P;
  const Aggregate &A;
  const ViewOptions &O;
  raw_ostream &OS;
  ReportModel M;
};

} // namespace

static std::string threads(unsigned N) {
  return utostr(N) + (N == 1 ? " thread" : " threads");
}

static std::string ticks2(uint64_t Ticks256) {
  return formatv("{0:F2}", double(Ticks256) / 256.0).str();
}

// The tick counter's step (Process::TickStep256) in words.
static std::string tickStep(const Process &Pr) {
  if (!Pr.TickStep256)
    return "not measured";
  if (Pr.TickStep256 == 256)
    return "1 tick";
  return formatv("{0} ticks ({1:F1} ns): each timed interval is rounded to "
                 "a step, part of every figure's +-95%",
                 ticks2(Pr.TickStep256), ticks256ToNs(Pr, Pr.TickStep256))
      .str();
}

void TextReport::counterLines(const Counters &C, StringRef Indent) {
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

void TextReport::overheadLines(const Process &Pr) {
  const OverheadTable &Cost = Pr.Overhead;
  const char *Indent = "                   ";
  if (Pr.TimingThreshold)
    OS << "  timing:          a function's calls are timed while they last "
       << plainTime(ticksToNs(Pr, Pr.TimingThreshold))
       << " or more on average; shorter ones are counted after their first "
          "timed calls on each thread\n";
  else
    OS << "  timing:          every call timed\n";
  OS << "  probe cost:      "
     << (Cost.Measured ? "measured by every probe between its two tick reads, "
                      "plus "
                    : "")
     << formatv("{0:F1}", ticks256ToNs(Pr, Cost.Enter256)) << " + "
     << formatv("{0:F1}", ticks256ToNs(Pr, Cost.Exit256))
     << " ns per timed call" << (Cost.Measured ? " outside them" : "") << "\n";
  const char *Fence = Cost.Fenced ? ", fenced probes" : ", unfenced probes";
  OverheadSource Source = overheadSource(Cost);
  if (Source == OverheadSource::Option) {
    OS << Indent << "fixed by ACTIVETIME_OPTIONS" << Fence << "\n";
  } else if (Source == OverheadSource::Uncalibrated) {
    OS << Indent
       << "NOT CALIBRATED: the process ended before the calibration beside "
          "it was done (it starts 1 ms into the run and takes a few ms); the "
          "parts of each timed call's probe cost outside the probes' tick "
          "reads are in its callers' times"
       << Fence << "\n";
  } else {
    OS << Indent << "calibrated";
    if (Cost.ReadyTick)
      OS << " beside the program, done "
         << plainTime(nsIntoRun(Pr, Cost.ReadyTick))
         << " into the run (timed calls before then left those parts in "
            "their callers' times, within the error bounds)";
    else
      OS << " at start-up";
    OS << ": " << Cost.Batches
       << (Cost.Batches == 1 ? " batch" : " batches") << ", spread "
       << formatv("{0:F1}", Cost.SpreadPermille / 10.0) << "%" << Fence;
    if (Cost.Measured && Cost.Pair256)
      OS << "; a timed call cost its caller "
         << formatv("{0:F1}", ticks256ToNs(Pr, Cost.Pair256))
         << " ns there, its probes measured "
         << formatv("{0:F1}",
                    ticks256ToNs(Pr, Cost.MeasuredEnter256 + Cost.MeasuredExit256))
         << " ns";
    OS << "\n";
    if (!Cost.Stable)
      OS << Indent << "UNSTABLE: the calibration spread exceeded its bound\n";
  }
  codeSampleLines(Pr);
}

/// Why threads had no sampling ring: the runtime's descriptor budget, or the
/// kernel's limit on locked ring pages.
namespace {
/// The program's threads in a process's records, and those of them the
/// runtime folded together (keep_threads).
struct ThreadCount {
  size_t Threads = 0, Folded = 0;
  static ThreadCount of(const Process &Pr) {
    ThreadCount C;
    for (const Thread &T : Pr.Threads) {
      C.Threads += threadsOf(T);
      C.Folded += T.FoldedThreads;
    }
    return C;
  }
};
} // namespace

namespace {
/// A process's threads without code samples, by reason; a folded record
/// counts all its threads (UpTo: some of them may have been sampled).
struct Unsampled {
  size_t Threads = 0, Budget = 0, ShortLived = 0;
  bool UpTo = false;
  static Unsampled of(const Process &Pr) {
    Unsampled U;
    for (const Thread &T : Pr.Threads) {
      ThreadFlags F = threadFlags(T);
      if (!F.NotSampled)
        continue;
      size_t N = threadsOf(T);
      U.Threads += N;
      U.Budget += F.NoDescriptors ? N : 0;
      U.ShortLived += F.ShortLived && !F.NoDescriptors ? N : 0;
      U.UpTo |= F.Folded;
    }
    return U;
  }
  std::string why() const {
    std::vector<std::pair<size_t, const char *>> Parts = {
        {Budget, "the runtime keeps its descriptors to an eighth of "
                 "ulimit -n"},
        {ShortLived, "ended before their perf rings were opened, which is "
                     "not before a thread has lived perf_after_us"},
        {Threads - Budget - ShortLived,
         "no perf ring: raise perf_event_mlock_kb or ulimit -l"}};
    llvm::erase_if(Parts, [](const auto &P) { return P.first == 0; });
    if (Parts.size() == 1)
      return Parts[0].second;
    std::string S;
    for (const auto &P : Parts)
      S += (S.empty() ? "" : "; ") + std::to_string(P.first) + ": " + P.second;
    return S;
  }
};
} // namespace

/// What the code samples cost: the samples taken (a thread samples only once
/// it has counted calls, whose time they split off), at the measured cost
/// each, against the threads' CPU time.
void TextReport::paidSampleLine(const Process &Pr) {
  SamplesTaken S = SamplesTaken::of(Pr);
  OS << "                   " << S.Samples
     << (S.Samples == 1 ? " sample" : " samples") << " on "
     << S.SamplingThreads << " of " << S.Threads
     << (S.Threads == 1 ? " thread" : " threads")
     << " (a thread samples once it has counted calls)";
  if (!codeSampling(Pr).CostUnmeasured)
    OS << ": " << plainTime(S.PaidNs) << " in all"
       << (S.CpuNs ? ", " + percentOf(S.PaidNs, double(S.CpuNs)) +
                         " of the threads' CPU time"
                   : std::string());
  OS << "\n";
}

void TextReport::codeSampleLines(const Process &Pr) {
  const char *Indent = "                   ";
  OS << "  code samples:    ";
  if (Pr.CodeSamplePeriodNs) {
    OS << "every " << plainTime(double(Pr.CodeSamplePeriodNs))
       << " of a thread's CPU time, ";
    if (codeSampling(Pr).CostUnmeasured)
      OS << "cost NOT MEASURED (the machine was busy when it was): the "
            "samples' interrupts stay in the times";
    else
      OS << plainTime(ticks256ToNs(Pr, Pr.CodeSampleCost256))
         << " each (removed as probe cost)";
    if (codeSampling(Pr).Stacks)
      OS << "; library and kernel time charged to the program function that "
            "called out";
    if (codeSampling(Pr).UserOnly)
      OS << "; kernel time not sampled (perf_event_paranoid)";
    OS << "\n";
    Unsampled U = Unsampled::of(Pr);
    if (U.Threads)
      OS << Indent << "NOT SAMPLED: " << (U.UpTo ? "up to " : "") << U.Threads
         << " of " << ThreadCount::of(Pr).Threads << " threads (" << U.why()
         << "); their timed functions' self time includes their counted "
            "callees'\n";
    paidSampleLine(Pr);
  } else {
    OS << (codeSampling(Pr).Disabled
               ? "off (ACTIVETIME_OPTIONS=code_samples=0 or mode=trace)"
           : codeSampling(Pr).NotStarted
               ? "none: the run ended before their cost was measured (beside "
                 "the program, in its first ~15 ms)"
               : "unavailable (perf_event_open refused)")
       << ": a timed function's self time includes its counted callees'\n";
  }
  if (Pr.CodeResolvedByNearest)
    OS << Indent << "APPROXIMATE: the program's symbols could not be read; "
                   "sample addresses were mapped to the nearest function "
                   "start below them\n";
}

/// A sum of measured figures as printed: at least 0 (marked when clamped),
/// with the sum of the parts' +-95% when that matters.
static std::string totalText(double Ns, double Err) {
  std::string S = Ns < 0 ? formatTime(0) + kClampMark : formatTime(Ns);
  S = StringRef(S).trim().str();
  if (Ns < 0)
    S += " (measured " + plainTime(Ns) + " +-" + plainTime(Err) + ")";
  return S;
}

void TextReport::provenanceLines() {
  const Provenance &H = A.How;
  double Total = std::max(A.TotalSelfActive, 0.0);
  double Err = 0;
  for (const FunctionStats &F : A.Flat)
    Err += ReportModel::figures(F.S).Self.Error;
  double Timed = A.TotalSelfActive - H.SampledNs;
  auto Pct = [&](double X) { return percentOf(std::max(X, 0.0), Total); };
  OS << "self-active time: " << totalText(A.TotalSelfActive, Err)
     << " in all\n";
  OS << "  timed:           " << totalText(Timed, Err) << " ("
     << Pct(Timed) << ") in the code of " << H.TimedCalls
     << " timed calls; their probes' residual cost, at most "
     << formatv("{0:F1}", H.ProbeResidualNs) << " ns a call: "
     << plainTime(H.TimedResidualNs) << "\n";
  shortCallsLine();
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
    OS << "  counting:        the inline counting of counted calls (and "
          "their sample polls) is not removed; the code samples put at most "
       << plainTime(H.CountingBoundNs) << " (" << Pct(H.CountingBoundNs)
       << ") on its instructions\n";
  if (H.UnsampledSelfNs > 0 && H.CountedCalls)
    OS << "  not split:       " << plainTime(H.UnsampledSelfNs)
       << " of timed functions' self time had no code sample: any counted "
          "callees' time there stays in them\n";
  if (H.LostCodeSamples)
    OS << "  lost samples:    " << H.LostCodeSamples
       << " code samples the kernel dropped (ring full)\n";
  if (H.ChargedSamples && H.SampleCostUncertaintyNs > 0)
    OS << "  sample cost:     " << H.ChargedSamples
       << " code samples' interrupt cost removed from the frames open when "
          "each was recorded, one start-up estimate each, taken as +-"
       << formatv("{0:F0}", 100 * kSampleCostUncertainty)
       << "%: up to " << plainTime(H.SampleCostUncertaintyNs)
       << " in all, in the +-95% of the frames charged\n";
  cpuLines();
}

// The threads' own CPU clocks: what the self-active time must stay within.
void TextReport::cpuLines() {
  double Cpu = 0, Self = 0;
  size_t Known = 0;
  std::vector<const ThreadSummary *> Over;
  for (const ThreadSummary &T : A.Threads) {
    if (T.CpuNs < 0)
      continue;
    ++Known;
    Cpu += T.CpuNs;
    Self += T.TotalSelfActive;
    if (T.exceedsCpu())
      Over.push_back(&T);
  }
  if (!Known)
    return;
  OS << "  CPU time:        " << plainTime(Cpu)
     << " on the threads' own clocks, the profiler's cost included: "
        "self-active is "
     << percentOf(Self, Cpu) << " of it";
  if (Known < A.Threads.size())
    OS << " (" << A.Threads.size() - Known << " threads' clocks not read)";
  OS << "\n";
  if (Over.empty())
    return;
  OS << "  OVER CPU TIME:   " << Over.size()
     << (Over.size() == 1 ? " thread's" : " threads'")
     << " self-active time exceeds its CPU time beyond its uncertainty: "
        "their figures are too high by the excess";
  constexpr size_t MaxListed = 4;
  for (size_t I = 0; I < Over.size() && I < MaxListed; ++I)
    OS << (I ? "; " : ": ") << "tid " << Over[I]->label() << " "
       << plainTime(Over[I]->TotalSelfActive) << " > "
       << plainTime(Over[I]->CpuNs) << " +- "
       << plainTime(Over[I]->TotalSelfActiveErrNs);
  if (Over.size() > MaxListed)
    OS << "; ... (--json lists all)";
  OS << "\n";
}

// Every call timed (mode=trace, timing_ratio=0): the calls profile mode
// would have counted are named, since the probes' residual cost can
// outweigh their own time (docs/performance.md measures it).
void TextReport::shortCallsLine() {
  ShortCalls S = ShortCalls::of(P, A);
  if (!S.Calls)
    return;
  OS << "  short calls:     " << S.Calls << " of the " << S.TimedCalls
     << " timed calls (" << S.Functions
     << (S.Functions == 1 ? " function" : " functions")
     << ") averaged under " << plainTime(S.ThresholdNs) << " ("
     << kProfileTimingRatio
     << "x the probe pair cost): every call was timed, and the probes' "
        "residual cost can outweigh such calls' own time in theirs and "
        "their callers' active time; mode=profile counts them instead\n";
}

void TextReport::switchLines(const SwitchSummary &S) {
  std::vector<std::string> Parts;
  if (S.Perf)
    Parts.push_back("from perf context-switch records: " + threads(S.Perf));
  if (S.CpuClock)
    Parts.push_back(
        "from the thread CPU clock (resolution " + S.resolution() +
        "): " + threads(S.CpuClock) +
        (S.CpuClockNoDescriptors
             ? " (" + std::to_string(S.CpuClockNoDescriptors) +
                   " for want of descriptors: the runtime keeps to an "
                   "eighth of ulimit -n)"
             : std::string()) +
        (S.CpuClockShortLived
             ? " (" + std::to_string(S.CpuClockShortLived) +
                   " ended before their perf rings were opened, which is "
                   "not before a thread has lived perf_after_us)"
             : std::string()));
  if (S.None)
    Parts.push_back("NOT MEASURED: " + threads(S.None));
  if (Parts.empty())
    Parts.push_back("(no thread was profiled)");
  OS << "  switched-out time " << join(Parts, "; ") << "\n";
  if (S.Lost)
    OS << "  lost switch records: " << S.Lost
       << "  (context-switch records the kernel dropped; their switched-out "
          "time is counted as active)\n";
  OS << "  switches:        " << S.Voluntary << " voluntary, "
     << S.Involuntary << " involuntary; off-cpu " << plainTime(S.OffCpuNs)
     << "\n";
}


void TextReport::header() {
  // Per-process blocks while they stay readable; a summary beyond that
  // (a fork-heavy program can leave hundreds of processes).
  constexpr size_t MaxDetailed = 4;
  size_t NumThreads = 0, Folded = 0;
  for (const Process &Pr : P.Processes) {
    ThreadCount C = ThreadCount::of(Pr);
    NumThreads += C.Threads;
    Folded += C.Folded;
  }
  SwitchSummary All = SwitchSummary::of(P);
  OS << "ActiveTime profile: " << P.Processes.size()
     << (P.Processes.size() == 1 ? " process, " : " processes, ") << NumThreads
     << (NumThreads == 1 ? " thread" : " threads");
  if (Folded)
    OS << " (" << Folded << " finished threads folded into one record per "
       << "process by the runtime: keep_threads)";
  OS << "\n";
  if (P.Processes.size() <= MaxDetailed)
    for (const Process &Pr : P.Processes)
      processBlock(Pr);
  else
    processesSummary(NumThreads, All);
  provenanceLines();
  if (O.Filters && !O.Filters->empty())
    OS << "filters:          " << O.Filters->describe() << "\n";
  // Functions with no figures because they were inlined before the probes
  // went in (InlinedAway.h).
  std::string Away = inlinedAwayLine(InlinedAwaySummary::of(P), M.Names);
  if (!Away.empty())
    OS << "inlined away: " << Away << "\n";
  notes(All);
}

// A training build has no timing probes. Its counters in a program whose
// other objects were timed are no probe: nothing removes their cost.
void TextReport::blockCountLines(size_t Tables, size_t Modules) {
  if (!Tables)
    return;
  OS << "  block counts:    " << Tables
     << (Tables == 1 ? " linked object" : " linked objects")
     << " of a training build (activetime pgo-flags train), whose functions "
        "counted blocks and measured no time (export --format=pgo)";
  if (Modules)
    OS << "; their counters' cost is in the times of the timed functions "
          "they call or that call them, which it perturbed";
  OS << "\n";
}

/// False for a training build's processes, which timed nothing: no probe
/// cost, tick step or code samples to state.
static bool timedAnything(size_t Modules, size_t BlockCountTables) {
  return Modules || !BlockCountTables;
}

void TextReport::processBlock(const Process &Pr) {
  OS << "process " << Pr.Pid << " (parent " << Pr.ParentPid
     << "): " << (Pr.Exe.empty() ? "<unknown executable>" : Pr.Exe) << "\n";
  if (!Pr.BuildId.empty())
    OS << "  build id:        " << buildIdHex(Pr) << "\n";
  if (!Pr.Host.empty())
    OS << "  host:            " << Pr.Host << "\n";
  bool Timed = timedAnything(Pr.Modules.size(), Pr.BlockCounts.size());
  OS << "  tick rate:       " << Pr.TickRate << " ticks/s\n";
  if (Timed)
    OS << "  tick step:       " << tickStep(Pr) << "\n";
  OS << "  wall time:       "
     << plainTime(ticksToNs(Pr, Pr.EndTick - Pr.StartTick)) << "\n";
  if (Pr.MpiSize)
    OS << "  MPI rank:        " << Pr.MpiRank << " of " << Pr.MpiSize
       << " (MPI_COMM_WORLD)\n";
  ThreadCount C = ThreadCount::of(Pr);
  OS << "  threads:         " << C.Threads;
  if (C.Folded)
    OS << " (" << C.Folded << " of them folded into one record)";
  OS << "\n";
  if (Pr.ThreadedByRuntimeUs != kNotThreadedByRuntime)
    OS << "                   MULTI-THREADED BY THE RUNTIME "
       << plainTime(double(Pr.ThreadedByRuntimeUs) * 1e3)
       << " into the run: its own thread was the program's second, so "
          "glibc's malloc and stdio took their slower multi-threaded paths "
          "from then on, and their callers' times include that (a build "
          "with -mllvm -activetime-sample-poll needs no such thread while "
          "it counts)\n";
  OS << "  modules:         " << Pr.Modules.size() << "\n";
  blockCountLines(Pr.BlockCounts.size(), Pr.Modules.size());
  if (Timed)
    overheadLines(Pr);
  SwitchSummary S;
  for (const Thread &T : Pr.Threads)
    S.add(Pr, T);
  switchLines(S);
  traceLines(TraceSummary::of(Pr));
  counterLines(Counters::of(Pr), "  ");
}

// mode=trace: what was recorded, what was lost, and what recording it cost
// the run (the trace buffers' pages made ready while the threads ran).
void TextReport::traceLines(const TraceSummary &S) {
  if (!S.Threads)
    return;
  OS << "  traces:          " << threads(S.Threads)
     << " (see `activetime active-time`): " << S.Events << " events, "
     << S.Switches << " switches";
  if (S.DroppedEvents || S.DroppedSwitches)
    OS << "; DROPPED: " << S.DroppedEvents << " events, "
       << S.DroppedSwitches << " switches ("
       << (S.BufferFlags.Budget ? "the trace memory budget was reached (see "
                                  "trace_memory_mb) or "
                                : "")
       << "full buffers: see trace_buffer_events and trace_buffer_switches)";
  OS << "\n";
  OS << "  trace buffers:   ";
  if (!S.BufferBytes) {
    OS << "no pages made ready\n";
    return;
  }
  OS << formatBytes(S.BufferBytes) << " made ready while the threads ran, "
     << plainTime(S.BufferNs) << " (" << percentOf(S.BufferNs, S.WallNs)
     << " of their wall time; " << S.how()
     << "): inside the probes' measured cost or before a thread's first "
        "call, so removed from every call's active time; the threads ran "
        "that much longer\n";
}

static bool sameOverhead(const OverheadTable &A, const OverheadTable &B) {
  return A.Enter256 == B.Enter256 && A.Exit256 == B.Exit256 &&
         A.Source == B.Source && A.Stable == B.Stable && A.Fenced == B.Fenced &&
         A.Batches == B.Batches && A.SpreadPermille == B.SpreadPermille;
}

void TextReport::processesSummary(size_t NumThreads,
                                  const SwitchSummary &All) {
  const Process &First = P.Processes.front();
  OS << "processes of "
     << (First.Exe.empty() ? "<unknown executable>" : First.Exe) << "\n";
  OS << "  pids:           ";
  for (size_t I = 0; I < P.Processes.size() && I < 8; ++I)
    OS << (I ? ", " : " ") << P.Processes[I].Pid;
  if (P.Processes.size() > 8)
    OS << ", ... (" << P.Processes.size() - 8 << " more)";
  OS << "\n";
  double Total = 0, Longest = 0;
  size_t MaxModules = 0;
  bool SameRate = true, SameStep = true, SameCost = true;
  Counters C;
  for (const Process &Pr : P.Processes) {
    double W = ticksToNs(Pr, Pr.EndTick - Pr.StartTick);
    Total += W;
    Longest = std::max(Longest, W);
    MaxModules = std::max(MaxModules, Pr.Modules.size());
    SameRate &= Pr.TickRate == First.TickRate;
    SameStep &= Pr.TickStep256 == First.TickStep256;
    SameCost &= sameOverhead(Pr.Overhead, First.Overhead);
    for (const Thread &T : Pr.Threads)
      C.add(T);
  }
  if (SameRate)
    OS << "  tick rate:       " << First.TickRate << " ticks/s\n";
  else
    OS << "  tick rate:       differs between processes\n";
  size_t BlockCountTables = 0;
  for (const Process &Pr : P.Processes)
    BlockCountTables += Pr.BlockCounts.size();
  bool Timed = timedAnything(MaxModules, BlockCountTables);
  if (!Timed)
    ;
  else if (SameStep && SameRate)
    OS << "  tick step:       " << tickStep(First) << "\n";
  else
    OS << "  tick step:       differs between processes (--json lists "
          "each)\n";
  OS << "  wall time:       " << plainTime(Total) << " in total, longest "
     << plainTime(Longest) << "\n";
  uint32_t Ranks = 0, JobSize = 0;
  for (const Process &Pr : P.Processes)
    if (Pr.MpiSize) {
      ++Ranks;
      JobSize = std::max(JobSize, Pr.MpiSize);
    }
  if (Ranks)
    OS << "  MPI ranks:       " << Ranks << " of a job of " << JobSize
       << " (MPI_COMM_WORLD)\n";
  hostsLine();
  OS << "  threads:         " << NumThreads << "\n";
  OS << "  modules:         up to " << MaxModules << " per process\n";
  blockCountLines(BlockCountTables, MaxModules);
  if (!Timed)
    ;
  else if (SameCost && SameRate)
    overheadLines(First);
  else
    differingCostLine();
  switchLines(All);
  TraceSummary T;
  for (const Process &Pr : P.Processes)
    for (const Trace &Tr : Pr.Traces)
      T.add(Pr, Tr);
  traceLines(T);
  counterLines(C, "  ");
}

// The host of the processes, or how many hosts ran them.
void TextReport::hostsLine() {
  std::set<StringRef> Hosts;
  for (const Process &Pr : P.Processes)
    if (!Pr.Host.empty())
      Hosts.insert(Pr.Host);
  if (Hosts.size() == 1)
    OS << "  host:            " << *Hosts.begin() << "\n";
  else if (Hosts.size() > 1)
    OS << "  hosts:           " << Hosts.size() << "\n";
}

void TextReport::differingCostLine() {
  unsigned Unstable = 0;
  for (const Process &Pr : P.Processes)
    Unstable +=
        overheadSource(Pr.Overhead) == OverheadSource::Calibrated &&
        !Pr.Overhead.Stable;
  OS << "  probe cost:      differs between processes (--json lists each)";
  if (Unstable)
    OS << "; UNSTABLE calibration in " << Unstable << " of them";
  OS << "\n";
}

void TextReport::notes(const SwitchSummary &All) {
  OS << "note: " << TimesNote << "\n";
  OS << "note: " << HowNote << "\n";
  OS << "note: " << ErrorNote << "\n";
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

/// A figure as printed: its value, marked when it was clamped (ReportModel).
static std::string shown(const Figure &F) {
  std::string S = formatTime(F.Shown);
  if (F.Clamped)
    S += kClampMark;
  return S;
}

void TextReport::table(ArrayRef<FunctionStats> Rows, StringRef Indent,
                       bool Starred) {
  std::vector<FunctionStats> Sorted(Rows.begin(), Rows.end());
  sortFunctions(Sorted, A.Functions, O.Sort);
  if (O.Sort == SortKey::Name) // by the name as printed (demangled)
    std::stable_sort(Sorted.begin(), Sorted.end(),
                     [&](const FunctionStats &X, const FunctionStats &Y) {
                       return M.Names.name(X.Func) < M.Names.name(Y.Func);
                     });
  double Total = ReportModel::shareTotal(Rows);
  Rows = Sorted;
  size_t Shown =
      O.Top == 0 ? Rows.size() : std::min<size_t>(O.Top, Rows.size());
  std::vector<std::string> Names;
  size_t NameWidth = 8;
  for (size_t I = 0; I < Shown; ++I) {
    Names.push_back(M.Names.name(Rows[I].Func));
    NameWidth = std::max(NameWidth, Names.back().size());
  }
  NameWidth = std::min<size_t>(NameWidth, 60);
  // calls, elapsed, active, +-95%, self-active, +-95%, %, overhead,
  // off-cpu, min, max; then how.
  static const size_t Width[] = {10, 11, 11, 11, 12, 11, 6, 11, 11, 11, 11};
  auto Row = [&](ArrayRef<std::string> Cols, StringRef Name, StringRef Loc) {
    std::string Line;
    raw_string_ostream L(Line);
    L << Indent << right_justify(Cols[0], Width[0]);
    for (size_t I = 1; I + 1 < Cols.size(); ++I)
      L << ' ' << right_justify(Cols[I], Width[I]);
    L << "  " << left_justify(Cols.back(), 7) << "  "
      << left_justify(Name, NameWidth) << "  " << Loc;
    OS << StringRef(Line).rtrim() << "\n";
  };
  std::string Star = Starred ? "*" : "";
  Row({"calls", "elapsed", "active" + Star, "+-95%", "self-active" + Star,
       "+-95%", "%" + Star, "overhead", "off-cpu", "min" + Star, "max" + Star,
       "how"},
      "function", "location");
  bool AnyClamped = false;
  for (size_t I = 0; I < Shown; ++I) {
    const Stats &S = Rows[I].S;
    ActiveFigures F = ReportModel::figures(S);
    // Counted calls have no per-call figures: the inclusive ones would
    // describe only the first, timed calls.
    bool PerCall = F.HasActive;
    auto Cell = [&](double Ns) { return PerCall ? formatTime(Ns) : "-"; };
    AnyClamped |= F.Self.Clamped || (PerCall && F.Active.Clamped);
    Row({utostr(S.Calls), Cell(S.Elapsed),
         PerCall ? shown(F.Active) : "-", Cell(F.Active.Error),
         shown(F.Self), formatTime(F.Self.Error),
         percent(ReportModel::share(F.Self.Shown, Total)), Cell(S.Overhead),
         Cell(S.OffCpu), Cell(S.Min), Cell(S.Max), ReportModel::how(S)},
        Names[I], M.location(Rows[I].Func));
  }
  if (Shown < Rows.size())
    OS << Indent << "(" << Rows.size() - Shown
       << " more functions; --top 0 lists all)\n";
  if (AnyClamped)
    OS << Indent << ClampNote << "\n";
  if (Starred)
    OS << Indent
       << (Indent.empty() ? "* switched-out time not measured for some "
                            "threads: for them active excludes probe "
                            "overhead only\n"
                          : "* switched-out time not measured for this "
                            "thread: active excludes probe overhead only\n");
}

void TextReport::tree() {
  std::vector<uint32_t> Heights = M.subtreeHeights();
  double Total = ReportModel::shareTotal(A.Flat);
  OS << "\ncall tree (all threads merged; children by active time):\n";
  std::string Star = M.activeIncludesOffCpu() ? "*" : "";
  OS << right_justify("elapsed", 11) << ' ' << right_justify("active" + Star, 11)
     << ' ' << right_justify("+-95%", 11) << ' '
     << right_justify("%" + Star, 6) << ' '
     << right_justify("self-active" + Star, 12) << ' '
     << right_justify("+-95%", 11) << ' ' << right_justify("overhead", 11)
     << ' ' << right_justify("off-cpu", 11) << ' '
     << right_justify("calls", 10) << "  function\n";
  constexpr size_t Lead =
      11 + 1 + 11 + 1 + 11 + 1 + 6 + 1 + 12 + 1 + 11 + 1 + 11 + 1 + 11 + 1 +
      10 + 2;
  bool AnyClamped = false, AnyDeep = false;
  M.walkTree(O.MaxDepth, [&](uint32_t I, bool Cut) {
    const TreeNode &N = A.Tree[I];
    ActiveFigures F = ReportModel::figures(N.S, N.Counted);
    AnyClamped |= F.Active.Clamped || F.Self.Clamped;
    std::string Indent = treeIndent(N.Depth);
    AnyDeep |= isDeepIndent(N.Depth);
    // A counted function under its nearest timed caller: only its self time
    // there is known (from code samples).
    auto Cell = [&](double Ns) { return N.Counted ? "-" : formatTime(Ns); };
    OS << right_justify(Cell(N.S.Elapsed), 11) << ' '
       << right_justify(shown(F.Active), 11) << ' '
       << right_justify(formatTime(F.Active.Error), 11) << ' '
       << right_justify(percent(ReportModel::share(F.Active.Shown, Total)), 6)
       << ' ' << right_justify(shown(F.Self), 12) << ' '
       << right_justify(formatTime(F.Self.Error), 11) << ' '
       << right_justify(Cell(N.S.Overhead), 11) << ' '
       << right_justify(Cell(N.S.OffCpu), 11) << ' '
       << right_justify(N.Counted ? "-" : utostr(N.S.Calls), 10) << "  "
       << Indent << M.Names.name(N.Func)
       << (N.OutsideProbes ? " [outside probes]"
           : N.Counted     ? " [counted]"
                           : "")
       << "\n";
    if (Cut)
      OS << std::string(Lead, ' ') << Indent << "  ... " << Heights[I]
         << (Heights[I] == 1 ? " more level\n" : " more levels\n");
  });
  OS << "[counted]: a counted function's self time inside the timed caller "
        "above it, from code samples\n";
  if (std::any_of(A.Tree.begin(), A.Tree.end(),
                  [](const TreeNode &N) { return N.OutsideProbes; }))
    OS << "[outside probes]: code of a function with no counted calls there "
          "that ran outside its probes (prologue, epilogue) inside the timed "
          "caller above it, from code samples\n";
  if (AnyClamped)
    OS << ClampNote << "\n";
  if (AnyDeep)
    OS << kDeepIndentNote << "\n";
}

void TextReport::print() {
  header();
  if (O.HeaderOnly)
    return;
  mpiSection();
  OS << "\n";
  table(A.Flat, "", M.activeIncludesOffCpu());
  if (O.Tree)
    tree();
  if (O.CallSites)
    printCallSites(P, A, OS, M, O.Top);
  if (O.Callers)
    printCallGraph(P, A, OS, M, O.Top);
  if (O.BottomUp)
    printBottomUp(A, OS, M, O.Top, O.MaxDepth);
  if (O.Threads)
    for (const ThreadSummary &T : A.Threads)
      threadSection(T);
}

// Time and bytes per MPI routine over the profile's ranks (Mpi.h): what
// mpiP's summary gives, out of the call tree's own figures.
void TextReport::mpiSection() {
  MpiSummary S = mpiSummary(P, A);
  if (!S.present())
    return;
  OS << "\nMPI: " << S.Ranks << (S.Ranks == 1 ? " rank" : " ranks");
  if (S.JobSize)
    OS << " of a job of " << S.JobSize;
  OS << "; time inside MPI calls " << plainTime(S.ElapsedNs) << " elapsed, "
     << plainTime(S.ActiveNs) << " active ("
     << percentOf(S.ActiveNs, A.TotalSelfActive)
     << " of all active time), " << formatBytes(S.Bytes) << " of messages\n";
  if (S.Routines.empty())
    return;
  auto Row = [&](StringRef Name, StringRef Calls, StringRef El, StringRef Ac,
                 StringRef Bytes) {
    OS << "  " << left_justify(Name, 24) << ' ' << right_justify(Calls, 10)
       << ' ' << right_justify(El, 11) << ' ' << right_justify(Ac, 11) << ' '
       << right_justify(Bytes, 11) << "\n";
  };
  Row("routine", "calls", "elapsed", "active", "bytes");
  for (const MpiRoutine &R : S.Routines)
    Row(M.Names.name(R.Func), utostr(R.Calls), plainTime(R.ElapsedNs),
        plainTime(R.ActiveNs), formatBytes(R.Bytes));
  rankTimesSection(S.PerRank);
  imbalanceSection();
}

// Each rank's computing and waiting time (Mpi.h): mpiP's task times, with
// the on-CPU part of the wait a progress engine spent spinning.
void TextReport::rankTimesSection(ArrayRef<MpiRankTime> Ranks) {
  if (Ranks.empty())
    return;
  size_t N = O.Top == 0 ? Ranks.size() : std::min<size_t>(O.Top, Ranks.size());
  OS << "\nMPI time per rank: computing = active time outside MPI calls; "
        "waiting = elapsed time inside them, on the CPU (a progress engine "
        "spinning) or off it; MPI% = waiting / the rank's wall time\n";
  auto Row = [&](StringRef Rank, StringRef Wall, StringRef Comp,
                 StringRef Wait, StringRef OnCpu, StringRef Share) {
    OS << "  " << right_justify(Rank, 6) << ' ' << right_justify(Wall, 11)
       << ' ' << right_justify(Comp, 11) << ' ' << right_justify(Wait, 11)
       << ' ' << right_justify(OnCpu, 11) << ' ' << right_justify(Share, 6)
       << "\n";
  };
  Row("rank", "wall", "computing", "waiting", "on CPU", "MPI%");
  for (size_t I = 0; I < N; ++I) {
    const MpiRankTime &R = Ranks[I];
    Row(utostr(R.Rank), plainTime(R.WallNs), plainTime(R.ComputingNs),
        plainTime(R.WaitingNs), plainTime(R.WaitingOnCpuNs),
        formatv("{0:f1}%", 100 * R.mpiShare()).str());
  }
  if (N < Ranks.size())
    OS << "  (" << Ranks.size() - N << " more ranks; --top 0 shows all)\n";
}

// Per function its spread over the ranks (Mpi.h), by what the job lost to
// its slowest rank: Score-P's and HPCToolkit's first question of an MPI run.
void TextReport::imbalanceSection() {
  RankSpreads Spreads = rankSpreads(P, A);
  const std::vector<RankSpread> &V = Spreads.Functions;
  if (V.empty())
    return;
  size_t N = O.Top == 0 ? V.size() : std::min<size_t>(O.Top, V.size());
  OS << "\nMPI imbalance over " << Spreads.Ranks
     << " ranks: per function its time on each rank (computing: inclusive "
        "active less the MPI calls under it; an MPI routine's elapsed, its "
        "wait; * self time, where it had counted calls), by imbalance = max "
        "- mean, what the job lost to its slowest rank\n";
  auto Row = [&](StringRef Imb, StringRef Mean, StringRef Min, StringRef Max,
                 StringRef Sd, StringRef Cf, StringRef Name) {
    OS << "  " << right_justify(Imb, 11) << ' ' << right_justify(Mean, 11)
       << ' ' << right_justify(Min, 19) << ' ' << right_justify(Max, 19)
       << ' ' << right_justify(Sd, 11) << ' ' << right_justify(Cf, 6) << "  "
       << Name << "\n";
  };
  auto AtRank = [](double Ns, uint32_t Rank) {
    return plainTime(Ns) + " (" + utostr(Rank) + ")";
  };
  Row("imbalance", "mean", "min (rank)", "max (rank)", "std dev", "CfVar",
      "function");
  for (size_t I = 0; I < N; ++I) {
    const RankSpread &R = V[I];
    Row(plainTime(R.ImbalanceNs), plainTime(R.MeanNs),
        AtRank(R.MinNs, R.MinRank), AtRank(R.MaxNs, R.MaxRank),
        plainTime(R.StdDevNs), formatv("{0:f2}", R.CfVar).str(),
        M.Names.name(R.Func) + (R.SelfOnly ? " *" : ""));
  }
  if (N < V.size())
    OS << "  (" << V.size() - N << " more functions; --top 0 shows all)\n";
}

void TextReport::threadSection(const ThreadSummary &T) {
  const Process &Pr = P.Processes[T.Process];
  if (T.FoldedThreads)
    OS << "\n" << T.FoldedThreads << " finished threads folded together";
  else
    OS << "\nthread " << T.label();
  if (!T.Name.empty())
    OS << " \"" << T.Name << "\"";
  OS << " (pid " << Pr.Pid << "): " << (T.FoldedThreads ? "span " : "wall ")
     << plainTime(T.WallNs) << ", "
     << T.Functions.size()
     << (T.Functions.size() == 1 ? " function" : " functions");
  if (T.Flags.Running)
    OS << ", still running when the profile was written";
  if (T.Flags.NotSampled)
    OS << ", NOT SAMPLED ("
       << (T.Flags.NoDescriptors ? "descriptor budget spent"
           : T.Flags.ShortLived  ? "ended before its perf rings were opened"
                                 : "no perf ring")
       << ")";
  OS << "\n";
  OS << "  switched-out:    ";
  switch (T.SwitchSource) {
  case SwitchSource::Perf:
    OS << "from perf context-switch records";
    break;
  case SwitchSource::CpuClock:
    OS << "from the thread CPU clock (resolution "
       << plainTime(T.SwitchResolutionNs) << ")";
    break;
  case SwitchSource::None:
    OS << "NOT MEASURED (active excludes probe overhead only)";
    break;
  }
  OS << "; off-cpu " << plainTime(T.OffCpuNs) << "; switches "
     << T.VoluntarySwitches << " voluntary, " << T.InvoluntarySwitches
     << " involuntary\n";
  if (T.LostSwitchRecords)
    OS << "  lost switch records: " << T.LostSwitchRecords << "\n";
  for (const Trace &Tr : Pr.Traces)
    if (Tr.Tid == T.Tid && Tr.TidOrder == T.TidOrder) {
      OS << "  trace:           " << Tr.Events.size() << " events, "
         << Tr.Switches.size() << " switches";
      if (Tr.DroppedEvents || Tr.DroppedSwitches)
        OS << ", DROPPED " << Tr.DroppedEvents << " events, "
           << Tr.DroppedSwitches << " switches";
      OS << "; buffers " << formatBytes(Tr.BufferBytes) << " made ready in "
         << plainTime(ticksToNs(Pr, Tr.BufferTicks))
         << " (removed as probe cost)\n";
      break;
    }
  Counters C;
  C.add(T);
  counterLines(C, "  ");
  table(T.Functions, "  ", T.SwitchSource == SwitchSource::None);
}

void report::printTimeReport(const Profile &P, const Aggregate &A,
                             const ViewOptions &O, raw_ostream &OS) {
  TextReport(P, A, O, OS).print();
}

/// The inverted tree of a deep chain grows with the square of its depth.
static constexpr uint64_t kMaxBottomUpSteps = 100000000;

static Error writeTimeReport(const Profile &P, const ViewOptions &O,
                             raw_ostream &OS, Progress &) {
  Aggregate A = aggregate(P);
  if (O.BottomUp && invertTreeSteps(A, O.MaxDepth) > kMaxBottomUpSteps)
    return createStringError(
        inconvertibleErrorCode(),
        "--bottom-up: following every call path %s takes %llu steps (over "
        "%llu); give a smaller --max-depth",
        O.MaxDepth ? ("to depth " + utostr(O.MaxDepth)).c_str() : "to its root",
        (unsigned long long)invertTreeSteps(A, O.MaxDepth),
        (unsigned long long)kMaxBottomUpSteps);
  if (O.Json)
    printTimeReportJson(P, A, O, OS);
  else
    printTimeReport(P, A, O, OS);
  return Error::success();
}

static View timeView() {
  View V;
  V.Name = "time";
  V.Default = true;
  V.Description = "the header, the flat table, and the call tree, call "
                  "sites, callers, bottom-up tree and threads asked for";
  V.Reads = "top sort tree max-depth threads json no-demangle full-names "
            "call-sites callers bottom-up";
  V.Write = writeTimeReport;
  return V;
}
// The default view: last among the views.
static ViewRegistration RegisterTimeView(ViewKind::Report, 1000, timeView);

static View headerView() {
  View V;
  V.Name = "header";
  V.Description =
      "Print only the header block (overhead table, switch sources)";
  V.Reads = "full-names";
  V.Write = [](const Profile &P, const ViewOptions &O, raw_ostream &OS,
               Progress &Prog) {
    ViewOptions Header = O;
    Header.HeaderOnly = true;
    return writeTimeReport(P, Header, OS, Prog);
  };
  return V;
}
static ViewRegistration RegisterHeaderView(ViewKind::Report, 10, headerView);
