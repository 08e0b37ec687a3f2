//===- export-trace.cpp - Chrome trace-event and speedscope exports ---------===//
//
// Part of ActiveTime. `export --format=chrome` turns mode=trace data into
// the Chrome trace-event JSON that Perfetto UI and chrome://tracing load:
// one track per traced thread (pid/tid with process_name/thread_name
// metadata), B/E slices per call, an "X" slice per switched-out interval
// (nested in the call it interrupted) and a "C" counter of each thread's
// accumulated off-CPU time in microseconds. Events are written one by one as they are read
// from the in-memory trace, never collected as text.
//
// `export --format=speedscope` writes speedscope's file format: evented
// profiles from traces, a sampled profile from samples, or the call tree as
// a weighted sampled profile.
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "activetime/Report/Export.h"
#include "activetime/Report/Format.h"
#include "activetime/Profile/Aggregate.h"
#include "activetime/Profile/Samples.h"

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

static std::string funcName(const Process &Pr, uint32_t Func, bool Demangle) {
  if (Func >= Pr.Functions.size())
    return "[function " + utostr(Func) + "]";
  return displayName(Pr.Functions[Func].Name, Demangle);
}

static std::string threadName(const Process &Pr, uint64_t Tid) {
  for (const Thread &T : Pr.Threads)
    if (T.Tid == Tid && !T.Name.empty())
      return T.Name;
  return "thread " + utostr(Tid);
}

/// A switched-out interval of a traced thread, in ticks.
struct OffInterval {
  uint64_t Begin, End;
};

/// The thread's swap-out intervals: from a switch away from it to the next
/// switch back (seed 000, 706). One still open at the end of the trace is
/// closed at the last tick seen.
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

Error report::writeChromeTrace(const Profile &P, raw_ostream &OS,
                               const ExportOptions &O, Progress &Prog) {
  bool Demangle = O.Demangle;
  if (!hasTraces(P))
    return noTraceError();
  uint64_t Total = 0, Done = 0;
  uint64_t Epoch = UINT64_MAX; // earliest process start, Unix ns
  for (const Process &Pr : P.Processes) {
    for (const Trace &T : Pr.Traces)
      Total += T.Events.size() + T.Switches.size();
    Epoch = std::min(Epoch, Pr.StartUnixNs);
  }
  json::OStream J(OS);
  J.object([&] {
    J.attribute("displayTimeUnit", "ns");
    J.attributeObject("otherData", [&] {
      J.attribute("generator", "activetime " ACTIVETIME_VERSION_STRING);
      J.attribute("time_origin_unix_ns", int64_t(Epoch));
      J.attribute("note", "timestamps in microseconds since the earliest "
                          "process start; off-CPU slices are the threads' "
                          "switched-out intervals");
    });
    J.attributeArray("traceEvents", [&] {
      for (const Process &Pr : P.Processes) {
        if (Pr.Traces.empty())
          continue;
        double UsPerTick = 1e6 / double(Pr.TickRate);
        double Base = double(Pr.StartUnixNs - Epoch) / 1e3;
        // Whole nanoseconds: finer digits would only be conversion noise.
        auto Us = [&](uint64_t Tick) {
          return std::round((Base + double(int64_t(Tick - Pr.StartTick)) *
                                        UsPerTick) * 1e3) / 1e3;
        };
        auto DurUs = [&](uint64_t Ticks) {
          return std::round(double(Ticks) * UsPerTick * 1e3) / 1e3;
        };
        int64_t Pid = Pr.Pid;
        auto Meta = [&](const char *Name, int64_t Tid, StringRef Value) {
          J.object([&] {
            J.attribute("name", Name);
            J.attribute("ph", "M");
            J.attribute("pid", Pid);
            J.attribute("tid", Tid);
            J.attributeObject("args", [&] { J.attribute("name", Value); });
          });
        };
        Meta("process_name", 0,
             (sys::path::filename(Pr.Exe) + " (pid " + utostr(Pr.Pid) + ")")
                 .str());
        std::vector<std::string> Names(Pr.Functions.size());
        for (const Trace &T : Pr.Traces) {
          int64_t Tid = T.Tid;
          Meta("thread_name", Tid, threadName(Pr, T.Tid));
          std::vector<OffInterval> Off = offIntervals(T);
          size_t NextOff = 0;
          uint64_t OffTicks = 0;
          // Where and when an event of this thread happened.
          auto At = [&](uint64_t Tick) {
            J.attribute("pid", Pid);
            J.attribute("tid", Tid);
            J.attribute("ts", Us(Tick));
          };
          auto Counter = [&](uint64_t Tick) {
            J.object([&] {
              J.attribute("name", "off-CPU us, tid " + utostr(T.Tid));
              J.attribute("ph", "C");
              At(Tick);
              J.attributeObject("args",
                                [&] { J.attribute("us", DurUs(OffTicks)); });
            });
          };
          // Merge calls and off-CPU intervals by time so the file is in
          // timestamp order per thread, as viewers prefer.
          auto FlushOff = [&](uint64_t UpTo) {
            for (; NextOff < Off.size() && Off[NextOff].Begin <= UpTo;
                 ++NextOff) {
              const OffInterval &I = Off[NextOff];
              if (NextOff == 0)
                Counter(I.Begin);
              J.object([&] {
                J.attribute("name", "switched out");
                J.attribute("cat", "off-cpu");
                J.attribute("ph", "X");
                At(I.Begin);
                J.attribute("dur", DurUs(I.End - I.Begin));
              });
              OffTicks += I.End - I.Begin;
              Counter(I.End);
              Prog.update(Done += 2, Total);
            }
          };
          std::vector<uint32_t> Stack;
          uint64_t LastTick = 0;
          for (const TraceEvent &E : T.Events) {
            FlushOff(E.Tick);
            LastTick = E.Tick;
            Prog.update(++Done, Total);
            bool Enter = E.Kind == raw::TE_Enter;
            if (!Enter && Stack.empty())
              continue; // exit of a call entered before tracing began
            uint32_t Func = Enter ? E.Func : Stack.back();
            if (Enter)
              Stack.push_back(E.Func);
            else
              Stack.pop_back();
            std::string Unknown;
            std::string &Name = Func < Names.size() ? Names[Func] : Unknown;
            if (Name.empty())
              Name = funcName(Pr, Func, Demangle);
            J.object([&] {
              J.attribute("name", Name);
              J.attribute("cat", "function");
              J.attribute("ph", Enter ? "B" : "E");
              At(E.Tick);
            });
          }
          FlushOff(UINT64_MAX);
          // Calls still open when the trace ended.
          while (!Stack.empty()) {
            Stack.pop_back();
            J.object([&] {
              J.attribute("ph", "E");
              At(LastTick);
            });
          }
          if (T.DroppedEvents || T.DroppedSwitches)
            J.object([&] {
              J.attribute("name", "trace buffer full");
              J.attribute("ph", "i");
              J.attribute("s", "t");
              At(LastTick);
              J.attributeObject("args", [&] {
                J.attribute("dropped_events", int64_t(T.DroppedEvents));
                J.attribute("dropped_switches", int64_t(T.DroppedSwitches));
              });
            });
        }
      }
    });
  });
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

} // namespace

Error report::writeSpeedscope(const Profile &P, raw_ostream &OS,
                              const ExportOptions &O, Progress &Prog) {
  bool Demangle = O.Demangle;
  SpeedscopeSource Source = O.Source;
  bool Samples = any_of(P.Processes, [](const Process &X) {
    return X.HasSamples && !X.Samples.Samples.empty();
  });
  if (Source == SpeedscopeSource::Auto)
    Source = hasTraces(P) ? SpeedscopeSource::Trace
             : Samples    ? SpeedscopeSource::Samples
                          : SpeedscopeSource::Tree;
  if (Source == SpeedscopeSource::Trace && !hasTraces(P))
    return noTraceError();
  if (Source == SpeedscopeSource::Samples && !Samples)
    return noSamplesError();
  FrameTable Frames;
  std::string Title = P.Processes.empty()
                          ? std::string("activetime")
                          : sys::path::filename(P.Processes[0].Exe).str();

  // Frames must be known before the profiles refer to them, but speedscope
  // puts "shared" first only by convention: any key order is valid JSON, so
  // profiles are written first and the frame table last.
  json::OStream J(OS);
  J.object([&] {
    J.attribute("$schema", "https://www.speedscope.app/file-format-schema.json");
    J.attribute("exporter", "activetime " ACTIVETIME_VERSION_STRING);
    J.attribute("name", Title);
    J.attribute("activeProfileIndex", 0);
    J.attributeArray("profiles", [&] {
      if (Source == SpeedscopeSource::Trace) {
        uint64_t Total = 0, Done = 0;
        for (const Process &Pr : P.Processes)
          for (const Trace &T : Pr.Traces)
            Total += T.Events.size();
        for (const Process &Pr : P.Processes) {
          double NsPerTick = 1e9 / double(Pr.TickRate);
          std::vector<int> FrameOf(Pr.Functions.size(), -1);
          auto Frame = [&](uint32_t F) -> unsigned {
            if (F >= Pr.Functions.size())
              return Frames.get(funcName(Pr, F, Demangle), "", 0);
            if (FrameOf[F] < 0) {
              const Function &Fn = Pr.Functions[F];
              FrameOf[F] = Frames.get(displayName(Fn.Name, Demangle), Fn.File, Fn.Line);
            }
            return FrameOf[F];
          };
          for (const Trace &T : Pr.Traces) {
            if (T.Events.empty())
              continue;
            uint64_t First = T.Events.front().Tick;
            auto At = [&](uint64_t Tick) {
              return double(Tick - First) * NsPerTick;
            };
            J.object([&] {
              J.attribute("type", "evented");
              J.attribute("name", threadName(Pr, T.Tid) + " (pid " +
                                      utostr(Pr.Pid) + ", tid " +
                                      utostr(T.Tid) + ", elapsed time)");
              J.attribute("unit", "nanoseconds");
              J.attribute("startValue", 0);
              J.attribute("endValue", At(T.Events.back().Tick));
              J.attributeArray("events", [&] {
                std::vector<unsigned> Stack;
                for (const TraceEvent &E : T.Events) {
                  Prog.update(++Done, Total);
                  bool Enter = E.Kind == raw::TE_Enter;
                  if (!Enter && Stack.empty())
                    continue;
                  unsigned F = Enter ? Frame(E.Func) : Stack.back();
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
              });
            });
          }
        }
      } else if (Source == SpeedscopeSource::Samples) {
        SampleSummary S = summarizeSamples(P);
        SampledProfile On{"samples: on-CPU and off-CPU (wall clock)", {}, {}};
        unsigned OffFrame = Frames.get("[off-CPU]", "", 0);
        for (const auto &[Path, F] : S.Paths) {
          std::vector<unsigned> Stack;
          for (const std::string &Fr : Path)
            Stack.push_back(Frames.get(displayName(Fr, Demangle), "", 0));
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
      } else {
        Aggregate A = aggregate(P);
        SampledProfile Act{"call tree: self active time", {}, {}};
        SampledProfile Ela{"call tree: self elapsed time", {}, {}};
        std::vector<std::vector<unsigned>> Paths(A.Tree.size());
        for (size_t I = 1; I < A.Tree.size(); ++I) {
          const TreeNode &N = A.Tree[I];
          const FunctionInfo &F = A.Functions[N.Func];
          Paths[I] = Paths[N.Parent]; // parents come before children
          Paths[I].push_back(Frames.get(displayName(F.Name, Demangle), F.File, F.Line));
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
    });
    J.attributeObject("shared", [&] { Frames.write(J); });
  });
  OS << "\n";
  return Error::success();
}
