//===- ExportTrace.cpp - Chrome trace-event and speedscope exports --------===//
//
// Part of ActiveTime. `export --format=chrome` turns mode=trace data into
// the Chrome trace-event JSON that Perfetto UI and chrome://tracing load:
// one track per traced thread (pid/tid with process_name/thread_name
// metadata), B/E slices per call, an "X" slice per switched-out interval
// (nested in the call it interrupted) and a "C" counter of each thread's
// accumulated off-CPU time in microseconds. Events are written one by one
// as they are read from the in-memory trace, never collected as text.
//
// `export --format=speedscope` writes speedscope's file format: evented
// profiles from traces, a sampled profile from samples, or the call tree as
// a weighted sampled profile.
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "activetime/Profile/Aggregate.h"
#include "activetime/Profile/Flags.h"
#include "activetime/Profile/Samples.h"
#include "activetime/Report/Format.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cmath>
#include <map>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::report;

static bool hasTraces(const Profile &P) {
  return any_of(P.Processes,
                [](const Process &X) { return !X.Traces.empty(); });
}

static std::string funcName(const Process &Pr, uint32_t Func,
                            const FunctionNamer &Names) {
  if (Func >= Pr.Functions.size())
    return "[function " + utostr(Func) + "]";
  return Names.name(Pr.Functions[Func].Name);
}

static std::string threadName(const Process &Pr, const Trace &Tr) {
  for (const Thread &T : Pr.Threads)
    if (tracedBy(Tr, T) && !T.Name.empty())
      return T.Name;
  return "thread " + threadLabel(Tr);
}

/// A switched-out interval of a traced thread, in ticks.
struct OffInterval {
  uint64_t Begin, End;
};

/// The thread's swap-out intervals: from a switch away from it to the next
/// switch back, the switched-out time that active time leaves out. One
/// still open at the end of the trace is closed at the last tick seen.
static std::vector<OffInterval> offIntervals(const Trace &T) {
  std::vector<OffInterval> V;
  std::optional<uint64_t> Out;
  uint64_t Last = 0;
  for (const SwitchEvent &S : T.Switches) {
    Last = std::max(Last, S.Tick);
    if (S.OldTid == T.Tid && !Out)
      Out = S.Tick;
    else if (S.NewTid == T.Tid && Out) {
      V.push_back({*Out, S.Tick});
      Out.reset();
    }
  }
  if (!T.Events.empty())
    Last = std::max(Last, T.Events.back().Tick);
  if (Out && Last > *Out)
    V.push_back({*Out, Last});
  return V;
}

namespace {

/// The Chrome trace-event document, written event by event. Each process
/// gets a process_name track, each traced thread a thread_name track with
/// its calls as B/E slices, its switched-out intervals as "X" slices and a
/// counter of its accumulated off-CPU time.
class ChromeTraceWriter {
public:
  ChromeTraceWriter(const Profile &P, raw_ostream &OS, const ViewOptions &O,
                    Progress &Prog)
      : P(P), J(OS), Names(O.names(NameUse::TraceFrame)), Prog(Prog) {}
  void write();

private:
  void writeProcess(const Process &Pr);
  void writeThread(const Trace &T);
  void writeCall(const TraceEvent &E);
  void closeOpenCalls(uint64_t LastTick);
  void writeOffIntervalsUpTo(uint64_t Tick);
  void writeOffCpuCounter(uint64_t Tick);
  void writeTruncationMark(const Trace &T, uint64_t LastTick);
  void writeMetadata(const char *Name, int64_t Tid, StringRef Value);
  void writeWhere(uint64_t Tick);
  const std::string &functionName(uint32_t Func);

  /// Whole nanoseconds: finer digits would only be conversion noise.
  static double roundToNs(double Us) { return std::round(Us * 1e3) / 1e3; }
  /// Microseconds since the earliest process start. Nothing a process
  /// recorded precedes its own start; a tick that would (0: a conversion
  /// that failed) is placed at the start rather than days before it.
  double micros(uint64_t Tick) const {
    uint64_t Since = Tick > CurProc->StartTick ? Tick - CurProc->StartTick : 0;
    return roundToNs(Base + double(Since) * UsPerTick);
  }
  uint64_t threadStart(const Trace &Tr) const;
  double durationMicros(uint64_t Ticks) const {
    return roundToNs(double(Ticks) * UsPerTick);
  }

  const Profile &P;
  json::OStream J;
  FunctionNamer Names;
  Progress &Prog;
  uint64_t Total = 0, Done = 0;
  uint64_t Epoch = UINT64_MAX; // earliest process start, Unix ns

  // The process being written: its clock and its names, each demangled
  // once.
  const Process *CurProc = nullptr;
  double UsPerTick = 0, Base = 0;
  std::vector<std::string> FuncNames;
  std::string UnknownName; // a function index beyond the table

  // The thread being written: its open calls and its off-CPU intervals,
  // merged with the calls by time.
  const Trace *CurTrace = nullptr;
  std::vector<uint32_t> Stack;
  std::vector<OffInterval> Off;
  size_t NextOff = 0;
  uint64_t OffTicks = 0;
};

void ChromeTraceWriter::write() {
  for (const Process &Pr : P.Processes) {
    for (const Trace &T : Pr.Traces)
      Total += T.Events.size() + T.Switches.size();
    Epoch = std::min(Epoch, Pr.StartUnixNs);
  }
  J.object([&] {
    J.attribute("displayTimeUnit", "ns");
    J.attributeObject("otherData", [&] {
      J.attribute("generator", kGenerator);
      J.attribute("time_origin_unix_ns", int64_t(Epoch));
      J.attribute("note", "timestamps in microseconds since the earliest "
                          "process start; off-CPU slices are the threads' "
                          "switched-out intervals");
    });
    J.attributeArray("traceEvents", [&] {
      for (const Process &Pr : P.Processes)
        if (!Pr.Traces.empty())
          writeProcess(Pr);
    });
  });
}

void ChromeTraceWriter::writeProcess(const Process &Proc) {
  CurProc = &Proc;
  UsPerTick = 1e6 / double(Proc.TickRate);
  Base = double(Proc.StartUnixNs - Epoch) / 1e3;
  writeMetadata("process_name", 0,
                (sys::path::filename(Proc.Exe) + " (pid " + utostr(Proc.Pid) +
                 ")")
                    .str());
  FuncNames.assign(Proc.Functions.size(), std::string());
  for (const Trace &Tr : Proc.Traces)
    writeThread(Tr);
}

/// When the thread's tracing began: its start, or the process's where the
/// profile has no thread record for it.
uint64_t ChromeTraceWriter::threadStart(const Trace &Tr) const {
  for (const Thread &T : CurProc->Threads)
    if (tracedBy(Tr, T) && T.StartTick)
      return std::max(T.StartTick, CurProc->StartTick);
  return CurProc->StartTick;
}

void ChromeTraceWriter::writeThread(const Trace &Tr) {
  CurTrace = &Tr;
  writeMetadata("thread_name", int64_t(Tr.Tid), threadName(*CurProc, Tr));
  Off = offIntervals(Tr);
  NextOff = 0;
  OffTicks = 0;
  Stack.clear();
  // A trace without events (all dropped, or the thread had only started)
  // still has a place in time: where its tracing began.
  uint64_t LastTick = threadStart(Tr);
  for (const TraceEvent &E : Tr.Events) {
    writeOffIntervalsUpTo(E.Tick);
    LastTick = std::max(LastTick, E.Tick);
    Prog.update(++Done, Total);
    writeCall(E);
  }
  writeOffIntervalsUpTo(UINT64_MAX);
  closeOpenCalls(LastTick);
  if (Tr.DroppedEvents || Tr.DroppedSwitches)
    writeTruncationMark(Tr, LastTick);
}

/// A "B" slice for an entry, an "E" for an exit; the name of an exit is
/// that of the call it ends.
void ChromeTraceWriter::writeCall(const TraceEvent &E) {
  bool Enter = eventKind(E) == TraceEventKind::Enter;
  if (!Enter && Stack.empty())
    return; // exit of a call entered before tracing began
  uint32_t Func = Enter ? E.Func : Stack.back();
  if (Enter)
    Stack.push_back(E.Func);
  else
    Stack.pop_back();
  const std::string &Name = functionName(Func);
  J.object([&] {
    J.attribute("name", Name);
    J.attribute("cat", "function");
    J.attribute("ph", Enter ? "B" : "E");
    writeWhere(E.Tick);
  });
}

/// Calls still open when the trace ended end at its last event.
void ChromeTraceWriter::closeOpenCalls(uint64_t LastTick) {
  while (!Stack.empty()) {
    Stack.pop_back();
    J.object([&] {
      J.attribute("ph", "E");
      writeWhere(LastTick);
    });
  }
}

/// The off-CPU intervals that begin by \p Tick, so the file is in
/// timestamp order per thread, as viewers prefer. The counter starts at
/// zero at the first interval and steps up at the end of each.
void ChromeTraceWriter::writeOffIntervalsUpTo(uint64_t Tick) {
  for (; NextOff < Off.size() && Off[NextOff].Begin <= Tick; ++NextOff) {
    const OffInterval &I = Off[NextOff];
    if (NextOff == 0)
      writeOffCpuCounter(I.Begin);
    J.object([&] {
      J.attribute("name", "switched out");
      J.attribute("cat", "off-cpu");
      J.attribute("ph", "X");
      writeWhere(I.Begin);
      J.attribute("dur", durationMicros(I.End - I.Begin));
    });
    OffTicks += I.End - I.Begin;
    writeOffCpuCounter(I.End);
    Prog.update(Done += 2, Total);
  }
}

void ChromeTraceWriter::writeOffCpuCounter(uint64_t Tick) {
  J.object([&] {
    J.attribute("name", "off-CPU us, tid " + utostr(CurTrace->Tid));
    J.attribute("ph", "C");
    writeWhere(Tick);
    J.attributeObject("args",
                      [&] { J.attribute("us", durationMicros(OffTicks)); });
  });
}

/// An instant event where the thread's trace ends short: events dropped by a
/// full buffer (or of functions of no registered module).
void ChromeTraceWriter::writeTruncationMark(const Trace &Tr,
                                            uint64_t LastTick) {
  J.object([&] {
    J.attribute("name", "trace events dropped");
    J.attribute("ph", "i");
    J.attribute("s", "t");
    writeWhere(LastTick);
    J.attributeObject("args", [&] {
      J.attribute("dropped_events", int64_t(Tr.DroppedEvents));
      J.attribute("dropped_switches", int64_t(Tr.DroppedSwitches));
    });
  });
}

void ChromeTraceWriter::writeMetadata(const char *Name, int64_t Tid,
                                      StringRef Value) {
  J.object([&] {
    J.attribute("name", Name);
    J.attribute("ph", "M");
    J.attribute("pid", int64_t(CurProc->Pid));
    J.attribute("tid", Tid);
    J.attributeObject("args", [&] { J.attribute("name", Value); });
  });
}

/// Where and when an event of the current thread happened.
void ChromeTraceWriter::writeWhere(uint64_t Tick) {
  J.attribute("pid", int64_t(CurProc->Pid));
  J.attribute("tid", int64_t(CurTrace->Tid));
  J.attribute("ts", micros(Tick));
}

const std::string &ChromeTraceWriter::functionName(uint32_t Func) {
  if (Func >= FuncNames.size())
    return UnknownName = funcName(*CurProc, Func, Names);
  if (FuncNames[Func].empty())
    FuncNames[Func] = funcName(*CurProc, Func, Names);
  return FuncNames[Func];
}

} // namespace

static Error writeChromeTrace(const Profile &P, const ViewOptions &O,
                              raw_ostream &OS, Progress &Prog) {
  if (!hasTraces(P))
    return noTraceError();
  ChromeTraceWriter(P, OS, O, Prog).write();
  OS << "\n";
  return Error::success();
}

namespace {

/// speedscope's shared frame table, deduplicated by (name, file, line).
class FrameTable {
public:
  unsigned get(const std::string &Name, const std::string &File,
               uint32_t Line) {
    auto Key = std::make_tuple(Name, File, Line);
    auto [It, New] = Index.try_emplace(Key, Frames.size());
    if (New)
      Frames.push_back(Key);
    return It->second;
  }
  void write(json::OStream &J) const {
    J.attributeArray("frames", [&] {
      for (const auto &Fr : Frames)
        J.object([&] {
          const auto &[Name, File, Line] = Fr;
          J.attribute("name", Name);
          if (!File.empty()) {
            J.attribute("file", File);
            if (Line)
              J.attribute("line", int64_t(Line));
          }
        });
    });
  }

private:
  std::map<std::tuple<std::string, std::string, uint32_t>, unsigned> Index;
  std::vector<std::tuple<std::string, std::string, uint32_t>> Frames;
};

struct SampledProfile {
  std::string Name;
  std::vector<std::vector<unsigned>> Stacks;
  std::vector<double> Weights;
};

void writeSampled(json::OStream &J, const SampledProfile &S) {
  double Sum = 0;
  for (double W : S.Weights)
    Sum += W;
  J.object([&] {
    J.attribute("type", "sampled");
    J.attribute("name", S.Name);
    J.attribute("unit", "nanoseconds");
    J.attribute("startValue", 0);
    J.attribute("endValue", Sum);
    J.attributeArray("samples", [&] {
      for (const auto &St : S.Stacks)
        J.array([&] {
          for (unsigned F : St)
            J.value(int64_t(F));
        });
    });
    J.attributeArray("weights", [&] {
      for (double W : S.Weights)
        J.value(W);
    });
  });
}

/// What the speedscope file shows: the source asked for, or by default the
/// richest the profile has (traces, then samples, then the call tree).
Expected<SpeedscopeSource> chooseSource(const Profile &P,
                                        SpeedscopeSource Asked) {
  bool Samples = any_of(P.Processes, [](const Process &X) {
    return X.HasSamples && !X.Samples.Samples.empty();
  });
  if (Asked == SpeedscopeSource::Auto)
    return hasTraces(P) ? SpeedscopeSource::Trace
           : Samples    ? SpeedscopeSource::Samples
                        : SpeedscopeSource::Tree;
  if (Asked == SpeedscopeSource::Trace && !hasTraces(P))
    return noTraceError();
  if (Asked == SpeedscopeSource::Samples && !Samples)
    return noSamplesError();
  return Asked;
}

/// speedscope's file: the profiles of one source, then the frame table
/// they refer to.
class SpeedscopeWriter {
public:
  SpeedscopeWriter(const Profile &P, raw_ostream &OS, const ViewOptions &O,
                   Progress &Prog)
      : P(P), J(OS), O(O), Names(O.names(NameUse::TraceFrame)), Prog(Prog) {}
  void write(SpeedscopeSource Source);

private:
  void writeTraceProfiles();
  void writeThreadProfile(const Process &Pr, const Trace &T);
  void writeThreadEvents(const Trace &T, double NsPerTick);
  void writeSampleProfile();
  void writeTreeProfiles();
  unsigned functionFrame(uint32_t F);

  const Profile &P;
  json::OStream J;
  const ViewOptions &O;
  FunctionNamer Names; // trace and call-tree frames
  Progress &Prog;
  FrameTable Frames;
  uint64_t Total = 0, Done = 0; // trace events, for the progress line
  // The process whose trace is being written and its functions' frames
  // (-1 until first used).
  const Process *CurProc = nullptr;
  std::vector<int> FrameOf;
};

void SpeedscopeWriter::write(SpeedscopeSource Source) {
  std::string Title = P.Processes.empty()
                          ? std::string("activetime")
                          : sys::path::filename(P.Processes[0].Exe).str();
  // Frames must be known before the profiles refer to them, but speedscope
  // puts "shared" first only by convention: any key order is valid JSON, so
  // profiles are written first and the frame table last.
  J.object([&] {
    J.attribute("$schema", "https://www.speedscope.app/file-format-schema.json");
    J.attribute("exporter", kGenerator);
    J.attribute("name", Title);
    J.attribute("activeProfileIndex", 0);
    J.attributeArray("profiles", [&] {
      if (Source == SpeedscopeSource::Trace)
        writeTraceProfiles();
      else if (Source == SpeedscopeSource::Samples)
        writeSampleProfile();
      else
        writeTreeProfiles();
    });
    J.attributeObject("shared", [&] { Frames.write(J); });
  });
}

/// An evented profile per traced thread, in elapsed time.
void SpeedscopeWriter::writeTraceProfiles() {
  for (const Process &Pr : P.Processes)
    for (const Trace &T : Pr.Traces)
      Total += T.Events.size();
  for (const Process &Pr : P.Processes) {
    CurProc = &Pr;
    FrameOf.assign(Pr.Functions.size(), -1);
    for (const Trace &T : Pr.Traces)
      if (!T.Events.empty())
        writeThreadProfile(Pr, T);
  }
}

unsigned SpeedscopeWriter::functionFrame(uint32_t F) {
  if (F >= CurProc->Functions.size())
    return Frames.get(funcName(*CurProc, F, Names), "", 0);
  if (FrameOf[F] < 0) {
    const Function &Fn = CurProc->Functions[F];
    FrameOf[F] = Frames.get(Names.name(Fn.Name), Fn.File, Fn.Line);
  }
  return FrameOf[F];
}

void SpeedscopeWriter::writeThreadProfile(const Process &Pr, const Trace &T) {
  double NsPerTick = 1e9 / double(Pr.TickRate);
  uint64_t First = T.Events.front().Tick;
  J.object([&] {
    J.attribute("type", "evented");
    J.attribute("name", threadName(Pr, T) + " (pid " + utostr(Pr.Pid) +
                            ", tid " + threadLabel(T) + ", elapsed time)");
    J.attribute("unit", "nanoseconds");
    J.attribute("startValue", 0);
    J.attribute("endValue", double(T.Events.back().Tick - First) * NsPerTick);
    J.attributeArray("events", [&] { writeThreadEvents(T, NsPerTick); });
  });
}

/// Open and close events of the thread's calls; calls still open when the
/// trace ended close at its last event, exits of calls entered before
/// tracing began are left out.
void SpeedscopeWriter::writeThreadEvents(const Trace &T, double NsPerTick) {
  uint64_t First = T.Events.front().Tick;
  auto At = [&](uint64_t Tick) { return double(Tick - First) * NsPerTick; };
  std::vector<unsigned> Stack;
  for (const TraceEvent &E : T.Events) {
    Prog.update(++Done, Total);
    bool Enter = eventKind(E) == TraceEventKind::Enter;
    if (!Enter && Stack.empty())
      continue;
    unsigned F = Enter ? functionFrame(E.Func) : Stack.back();
    if (Enter)
      Stack.push_back(F);
    else
      Stack.pop_back();
    J.object([&] {
      J.attribute("type", Enter ? "O" : "C");
      J.attribute("frame", int64_t(F));
      J.attribute("at", At(E.Tick));
    });
  }
  while (!Stack.empty()) {
    J.object([&] {
      J.attribute("type", "C");
      J.attribute("frame", int64_t(Stack.back()));
      J.attribute("at", At(T.Events.back().Tick));
    });
    Stack.pop_back();
  }
}

/// One sampled profile of wall-clock time: each call path's on-CPU time,
/// and its off-CPU time under an "[off-CPU]" frame on top of it; counted
/// functions' estimated on-CPU time in "name [counted]" frames (Samples.h).
void SpeedscopeWriter::writeSampleProfile() {
  Aggregate A = aggregate(P);
  SampleSummary S = summarizeSamples(P, A);
  // Full names, as every other speedscope profile has them.
  FunctionNamer SampleNames(A, O.names(NameUse::FullName));
  SampledProfile On{"samples: on-CPU and off-CPU (wall clock)", {}, {}};
  unsigned OffFrame = Frames.get(kOffCpuFrame, "", 0);
  for (const auto &[Path, F] : S.Paths) {
    std::vector<unsigned> Stack;
    for (const SampleFrame &Fr : Path)
      Stack.push_back(Frames.get(sampleFrameName(SampleNames, Fr), "", 0));
    if (F.OnNs > 0) {
      On.Stacks.push_back(Stack);
      On.Weights.push_back(F.OnNs);
    }
    if (F.OffNs > 0) {
      Stack.push_back(OffFrame);
      On.Stacks.push_back(Stack);
      On.Weights.push_back(F.OffNs);
    }
  }
  writeSampled(J, On);
}

/// The call tree as two weighted sampled profiles: each node's path weighted
/// by its self active time, and by its self elapsed time.
void SpeedscopeWriter::writeTreeProfiles() {
  Aggregate A = aggregate(P);
  SampledProfile Act{"call tree: self active time", {}, {}};
  SampledProfile Ela{"call tree: self elapsed time", {}, {}};
  std::vector<std::vector<unsigned>> Paths(A.Tree.size());
  for (size_t I = 1; I < A.Tree.size(); ++I) {
    const TreeNode &N = A.Tree[I];
    const FunctionInfo &F = A.Functions[N.Func];
    Paths[I] = Paths[N.Parent]; // parents come before children
    Paths[I].push_back(Frames.get(Names.name(F.Name), F.File, F.Line));
    // Negative self time (an overestimated overhead) is no weight.
    if (N.S.SelfActive > 0) {
      Act.Stacks.push_back(Paths[I]);
      Act.Weights.push_back(N.S.SelfActive);
    }
    if (N.S.SelfElapsed > 0) {
      Ela.Stacks.push_back(Paths[I]);
      Ela.Weights.push_back(N.S.SelfElapsed);
    }
  }
  writeSampled(J, Act);
  writeSampled(J, Ela);
}

} // namespace

static Error writeSpeedscope(const Profile &P, const ViewOptions &O,
                             raw_ostream &OS, Progress &Prog) {
  Expected<SpeedscopeSource> Source = chooseSource(P, O.Source);
  if (!Source)
    return Source.takeError();
  SpeedscopeWriter(P, OS, O, Prog).write(*Source);
  OS << "\n";
  return Error::success();
}

View report::chromeFormat() {
  View V;
  V.Name = "chrome";
  V.Description = "mode=trace data as Chrome trace-event JSON (Perfetto, "
                  "chrome://tracing)";
  V.Reads = "no-demangle";
  V.TimeFilters = [](const ViewOptions &) { return true; };
  V.TimeFiltersWhen = "chrome";
  V.Write = writeChromeTrace;
  return V;
}

View report::speedscopeFormat() {
  View V;
  V.Name = "speedscope";
  V.Description = "speedscope's JSON file format";
  V.Reads = "source no-demangle";
  // Only the trace events have times.
  V.TimeFilters = [](const ViewOptions &O) {
    return O.Source != SpeedscopeSource::Samples &&
           O.Source != SpeedscopeSource::Tree;
  };
  V.TimeFiltersWhen = "speedscope with --source=trace or auto";
  V.Write = writeSpeedscope;
  return V;
}
