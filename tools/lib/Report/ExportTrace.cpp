//===- ExportTrace.cpp - Chrome trace-event and speedscope exports --------===//
//
// Part of ActiveTime. `export --format=chrome` turns mode=trace data into
// the Chrome trace-event JSON that Perfetto UI and chrome://tracing load:
// one track per traced thread (pid/tid with process_name/thread_name
// metadata), an "X" (complete) slice per call, an "X" slice per
// switched-out interval (nested in the call it interrupted) and a "C"
// counter of each thread's accumulated off-CPU time in microseconds.
// Events are written one by one as they are read from the in-memory trace,
// never collected as text, and compactly: one complete event per call
// instead of a B/E pair, no whitespace, times with no more digits than
// whole nanoseconds.
//
// `export --format=speedscope` writes speedscope's file format, evented
// profiles throughout, linear in what they show whatever its depth: one per
// traced thread from the trace, and the samples' call paths or the call
// tree as weighted trees (each node open for its subtree's weight).
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
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Format.h"
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

/// The track of a trace in the Chrome format, whose "tid" is a number: the
/// thread's tid, or for the second and later threads that had a reused tid
/// (TidOrder >= 2) that tid plus (TidOrder - 1) * 2^22, past any tid Linux
/// hands out (pid_max is at most 2^22): one track per thread, not one for
/// all the threads that shared an id. The track's name says which
/// ("401#2").
static int64_t chromeTid(const Trace &Tr) {
  constexpr int64_t kTidSpace = int64_t(1) << 22;
  if (Tr.TidOrder < 2)
    return int64_t(Tr.Tid);
  return int64_t(Tr.Tid) + int64_t(Tr.TidOrder - 1) * kTidSpace;
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

/// \p V with at most \p Decimals decimals and no trailing zeros ("1.5",
/// "12"): JSON's shortest honest spelling of a time whose finer digits
/// would be conversion noise.
static void writeShort(raw_ostream &OS, double V, unsigned Decimals) {
  SmallString<32> Buf;
  raw_svector_ostream(Buf) << format("%.*f", Decimals, V);
  StringRef S = Buf;
  if (S.contains('.'))
    S = S.rtrim('0').rtrim('.');
  if (S == "-0")
    S = "0";
  OS << S;
}

static void shortAttribute(json::OStream &J, StringRef Key, double V,
                           unsigned Decimals) {
  J.attributeBegin(Key);
  J.rawValue([&](raw_ostream &OS) { writeShort(OS, V, Decimals); });
  J.attributeEnd();
}

/// For each event of \p T, the index of the exit that ends the call it
/// enters: kOpenAtEnd for a call still open when the trace ended (and for
/// exits).
static constexpr size_t kOpenAtEnd = SIZE_MAX;
static std::vector<size_t> matchExits(const Trace &T) {
  std::vector<size_t> ExitOf(T.Events.size(), kOpenAtEnd);
  std::vector<size_t> Open;
  for (size_t I = 0; I < T.Events.size(); ++I) {
    if (eventKind(T.Events[I]) == TraceEventKind::Enter)
      Open.push_back(I);
    else if (!Open.empty()) { // else entered before tracing began
      ExitOf[Open.back()] = I;
      Open.pop_back();
    }
  }
  return ExitOf;
}

namespace {

/// The Chrome trace-event document, written event by event. Each process
/// gets a process_name track, each traced thread a thread_name track with
/// its calls and its switched-out intervals as "X" slices and a counter of
/// its accumulated off-CPU time.
class ChromeTraceWriter {
public:
  ChromeTraceWriter(const Profile &P, raw_ostream &OS, const ViewOptions &O,
                    Progress &Prog)
      : P(P), J(OS), Names(O.names(NameUse::TraceFrame)), Prog(Prog) {}
  void write();

private:
  void writeProcess(const Process &Pr);
  void writeThread(const Trace &T);
  void writeCall(const TraceEvent &E, uint64_t EndTick);
  void writeOffIntervalsUpTo(uint64_t Tick);
  void writeOffCpuCounter(uint64_t Tick);
  void writeTruncationMark(const Trace &T, uint64_t LastTick);
  void writeMetadata(const char *Name, int64_t Tid, StringRef Value);
  void writeWhere(uint64_t Tick);
  void writeDuration(uint64_t Begin, uint64_t End);
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

  // The thread being written: its off-CPU intervals, merged with the calls
  // by time.
  const Trace *CurTrace = nullptr;
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
                          "process start; a call is a complete (X) slice; "
                          "off-CPU slices are the threads' switched-out "
                          "intervals");
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

/// The calls in the order they began (as viewers nest slices that begin
/// together: the enclosing one first), each ending at its exit; calls
/// still open when the trace ended end at its last event, exits of calls
/// entered before tracing began are left out.
void ChromeTraceWriter::writeThread(const Trace &Tr) {
  CurTrace = &Tr;
  writeMetadata("thread_name", chromeTid(Tr), threadName(*CurProc, Tr));
  Off = offIntervals(Tr);
  NextOff = 0;
  OffTicks = 0;
  // A trace without events (all dropped, or the thread had only started)
  // still has a place in time: where its tracing began.
  uint64_t LastTick = threadStart(Tr);
  for (const TraceEvent &E : Tr.Events)
    LastTick = std::max(LastTick, E.Tick);
  std::vector<size_t> ExitOf = matchExits(Tr);
  for (size_t I = 0; I < Tr.Events.size(); ++I) {
    const TraceEvent &E = Tr.Events[I];
    writeOffIntervalsUpTo(E.Tick);
    Prog.update(++Done, Total);
    if (eventKind(E) == TraceEventKind::Enter)
      writeCall(E, ExitOf[I] == kOpenAtEnd ? LastTick
                                           : Tr.Events[ExitOf[I]].Tick);
  }
  writeOffIntervalsUpTo(UINT64_MAX);
  if (Tr.DroppedEvents || Tr.DroppedSwitches)
    writeTruncationMark(Tr, LastTick);
}

/// A complete slice from an entry to \p EndTick.
void ChromeTraceWriter::writeCall(const TraceEvent &E, uint64_t EndTick) {
  const std::string &Name = functionName(E.Func);
  J.object([&] {
    J.attribute("name", Name);
    J.attribute("ph", "X");
    writeWhere(E.Tick);
    writeDuration(E.Tick, EndTick);
  });
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
      writeDuration(I.Begin, I.End);
    });
    OffTicks += I.End - I.Begin;
    writeOffCpuCounter(I.End);
    Prog.update(Done += 2, Total);
  }
}

void ChromeTraceWriter::writeOffCpuCounter(uint64_t Tick) {
  J.object([&] {
    J.attribute("name", "off-CPU us, tid " + threadLabel(*CurTrace));
    J.attribute("ph", "C");
    writeWhere(Tick);
    J.attributeObject("args", [&] {
      shortAttribute(J, "us", durationMicros(OffTicks), 3);
    });
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
  J.attribute("tid", chromeTid(*CurTrace));
  shortAttribute(J, "ts", micros(Tick), 3);
}

/// The duration from \p Begin to \p End as the difference of their
/// rounded timestamps, so that a slice ends exactly where its timestamps
/// say and slices nested in the ticks stay nested in the file.
void ChromeTraceWriter::writeDuration(uint64_t Begin, uint64_t End) {
  double Dur = End > Begin ? roundToNs(micros(End) - micros(Begin)) : 0;
  shortAttribute(J, "dur", Dur, 3);
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

/// A tree with a weight at each node, for speedscope's evented profile:
/// each node opens, holds its own weight, then its children's, and closes,
/// so it is open for its subtree's weight and the file grows with the
/// number of nodes, not with their depths (a sampled profile's stacks
/// would). Speedscope's left-heavy and sandwich views of it are those of a
/// sampled profile with one sample per node. Node 0 is the root (no frame);
/// parents come before their children.
struct WeightedTree {
  std::vector<uint32_t> Parent{UINT32_MAX};
  std::vector<unsigned> Frame{0};
  std::vector<double> Self{0};
  uint32_t add(uint32_t Par, unsigned Fr, double W) {
    Parent.push_back(Par);
    Frame.push_back(Fr);
    // Negative self time (an overestimated overhead) is no weight.
    Self.push_back(std::max(W, 0.0));
    return uint32_t(Parent.size() - 1);
  }
};

/// \p T as an evented profile named \p Name; subtrees without weight are
/// left out (they would show nothing).
void writeEvented(json::OStream &J, StringRef Name, const WeightedTree &T) {
  size_t N = T.Parent.size();
  std::vector<double> Incl = T.Self;
  for (size_t I = N; I-- > 1;)
    Incl[T.Parent[I]] += Incl[I];
  // Children in node order (counting sort by parent).
  std::vector<uint32_t> First(N + 1, 0), Kids(N);
  for (size_t I = 1; I < N; ++I)
    ++First[T.Parent[I] + 1];
  for (size_t I = 1; I <= N; ++I)
    First[I] += First[I - 1];
  std::vector<uint32_t> Fill(First.begin(), First.end() - 1);
  for (uint32_t I = 1; I < N; ++I)
    Kids[Fill[T.Parent[I]]++] = I;
  J.object([&] {
    J.attribute("type", "evented");
    J.attribute("name", Name);
    J.attribute("unit", "nanoseconds");
    J.attribute("startValue", 0);
    shortAttribute(J, "endValue", Incl[0], 1);
    J.attributeArray("events", [&] {
      double At = 0;
      auto Event = [&](const char *Type, uint32_t Node) {
        J.object([&] {
          J.attribute("type", Type);
          J.attribute("frame", int64_t(T.Frame[Node]));
          shortAttribute(J, "at", At, 1);
        });
      };
      // A node is pushed to open it, then again (Close) to close it.
      std::vector<std::pair<uint32_t, bool>> Stack;
      auto PushKids = [&](uint32_t Node) {
        for (uint32_t K = First[Node + 1]; K-- > First[Node];)
          if (Incl[Kids[K]] > 0)
            Stack.push_back({Kids[K], false});
      };
      PushKids(0);
      while (!Stack.empty()) {
        auto [Node, Close] = Stack.back();
        Stack.pop_back();
        if (Close) {
          Event("C", Node);
          continue;
        }
        Event("O", Node);
        At += T.Self[Node];
        Stack.push_back({Node, true});
        PushKids(Node);
      }
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
    shortAttribute(J, "endValue",
                   double(T.Events.back().Tick - First) * NsPerTick, 1);
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
      shortAttribute(J, "at", At(E.Tick), 1);
    });
  }
  while (!Stack.empty()) {
    J.object([&] {
      J.attribute("type", "C");
      J.attribute("frame", int64_t(Stack.back()));
      shortAttribute(J, "at", At(T.Events.back().Tick), 1);
    });
    Stack.pop_back();
  }
}

/// One profile of wall-clock time over the sampled call paths: each
/// path's on-CPU time, and its off-CPU time under an "[off-CPU]" frame on
/// top of it; counted functions' estimated on-CPU time in "name [counted]"
/// frames (Samples.h).
void SpeedscopeWriter::writeSampleProfile() {
  Aggregate A = aggregate(P);
  SampleSummary S = summarizeSamples(P, A);
  // Full names, as every other speedscope profile has them.
  FunctionNamer SampleNames(A, O.names(NameUse::FullName));
  const SamplePaths &Paths = S.Paths;
  WeightedTree T;
  T.Parent.resize(Paths.numNodes());
  T.Frame.resize(Paths.numNodes());
  T.Self.resize(Paths.numNodes());
  for (uint32_t I = 1; I < Paths.numNodes(); ++I) {
    const SamplePaths::Node &N = Paths.node(I);
    T.Parent[I] = N.Parent;
    T.Frame[I] = Frames.get(sampleFrameName(SampleNames, N.Frame), "", 0);
  }
  unsigned OffFrame = Frames.get(kOffCpuFrame, "", 0);
  for (const SamplePaths::Entry &E : Paths) {
    T.Self[E.Node] = std::max(E.F.OnNs, 0.0);
    if (E.F.OffNs > 0)
      T.add(E.Node, OffFrame, E.F.OffNs);
  }
  writeEvented(J, "samples: on-CPU and off-CPU (wall clock)", T);
}

/// The call tree as two weighted trees: each node weighted by its self
/// active time, and by its self elapsed time.
void SpeedscopeWriter::writeTreeProfiles() {
  Aggregate A = aggregate(P);
  std::vector<int> FrameOf(A.Functions.size(), -1);
  WeightedTree Act, Ela;
  for (size_t I = 1; I < A.Tree.size(); ++I) {
    const TreeNode &N = A.Tree[I];
    if (FrameOf[N.Func] < 0) {
      const FunctionInfo &F = A.Functions[N.Func];
      FrameOf[N.Func] = Frames.get(Names.name(F.Name), F.File, F.Line);
    }
    // Tree nodes and weighted-tree nodes have the same numbers.
    Act.add(N.Parent, FrameOf[N.Func], N.S.SelfActive);
    Ela.add(N.Parent, FrameOf[N.Func], N.S.SelfElapsed);
  }
  writeEvented(J, "call tree: self active time", Act);
  writeEvented(J, "call tree: self elapsed time", Ela);
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

static View chromeFormat() {
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
static ViewRegistration RegisterChromeFormat(ViewKind::Export, 40,
                                             chromeFormat);

static View speedscopeFormat() {
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
static ViewRegistration RegisterSpeedscopeFormat(ViewKind::Export, 50,
                                                 speedscopeFormat);
