//===- TraceReport.cpp - Active time from a trace, as text or JSON ---------===//
//
// Part of ActiveTime. `activetime active-time`: per thread and code portion
// the elapsed, overhead, switched-out and active ticks the offline
// computation (activetime/Profile/TraceActiveTime.h) found, and with
// --intervals the interval sets of every invocation.
//
//===----------------------------------------------------------------------===//

#include "activetime/Report/Format.h"
#include "activetime/Report/Reports.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace activetime;
using namespace activetime::active;
using namespace activetime::report;

/// An interval endpoint: whole ticks as integers, else two decimals.
static std::string point(int64_t V) {
  if (V == INT64_MAX)
    return "end";
  if (V % kFixed == 0)
    return itostr(V / kFixed);
  return formatTicks(V);
}

static std::string intervals(ArrayRef<Interval> V) {
  if (V.empty())
    return "(none)";
  std::string S;
  for (const Interval &I : V) {
    if (!S.empty())
      S += " ";
    S += "(" + point(I.Start) + "," + point(I.End) + ")";
  }
  return S;
}

static void resultJson(json::OStream &J, const TraceResult &S) {
  const Input &In = *S.In;
  const PortionResult &R = S.R;
  const ThreadInput &T = In.Threads[R.Thread];
  uint64_t Rate = In.TickRate;
  J.object([&] {
    J.attribute("pid", int64_t(R.Pid));
    uint64_t Num;
    if (T.TidOrder) { // a reused tid: "401#2" is tid 401, its second thread
      J.attribute("tid", int64_t(T.Id));
      J.attribute("tid_order", int64_t(T.TidOrder));
    } else if (!StringRef(T.Label).getAsInteger(10, Num))
      J.attribute("tid", int64_t(Num));
    else
      J.attribute("tid", T.Label);
    J.attribute("portion", In.DisplayNames[R.Portion]);
    J.attribute("linkage_name", In.Portions[R.Portion]);
    J.attribute("tick_rate", int64_t(Rate));
    J.attribute("invocations", int64_t(R.Invocations));
    J.attribute("outermost_invocations", int64_t(R.Outermost));
    J.attribute("unmatched_enters", int64_t(R.UnmatchedEnters));
    J.attribute("unmatched_exits", int64_t(R.UnmatchedExits));
    J.attribute("switched_out_measured", R.SwitchesMeasured);
    J.attribute("dropped_events", int64_t(T.DroppedEvents));
    J.attribute("dropped_switches", int64_t(T.DroppedSwitches));
    // The thread's, not the portion's: what making its trace buffers ready
    // cost, inside the probes' measured intervals (overhead) or before its
    // first call.
    J.attribute("trace_buffer_ticks", int64_t(T.BufferTicks));
    J.attribute("trace_buffer_ns",
                ticks256ToNs(int64_t(T.BufferTicks) * kFixed, Rate));
    J.attribute("trace_buffer_bytes", int64_t(T.BufferBytes));
    auto Ticks = [&](int64_t V) { return double(V) / kFixed; };
    J.attribute("elapsed_ticks", Ticks(R.Total.Elapsed));
    J.attribute("overhead_ticks", Ticks(R.Total.Overhead));
    if (R.SwitchesMeasured)
      J.attribute("swapped_out_ticks", Ticks(R.Total.SwappedOut));
    else
      J.attribute("swapped_out_ticks", nullptr);
    J.attribute("active_ticks", Ticks(R.Total.Active));
    J.attribute("elapsed_ns", ticks256ToNs(R.Total.Elapsed, Rate));
    J.attribute("overhead_ns", ticks256ToNs(R.Total.Overhead, Rate));
    if (R.SwitchesMeasured)
      J.attribute("swapped_out_ns",
                  ticks256ToNs(R.Total.SwappedOut, Rate));
    else
      J.attribute("swapped_out_ns", nullptr);
    J.attribute("active_ns", ticks256ToNs(R.Total.Active, Rate));
  });
}

void report::printTraceActiveTimeJson(ArrayRef<TraceResult> Results,
                                      uint64_t TickRate, raw_ostream &OS) {
  json::OStream J(OS, 2);
  J.object([&] {
    J.attribute("schema", "activetime-active-time");
    J.attribute("version", 1);
    J.attribute("tick_rate", int64_t(TickRate));
    J.attributeArray("results", [&] {
      for (const TraceResult &S : Results)
        resultJson(J, S);
    });
  });
  OS << "\n";
}

/// What making the trace buffers ready cost the process's traced threads:
/// the figure tells how much the trace itself perturbed the run.
static void bufferLine(const Input &In, raw_ostream &OS) {
  uint64_t Ticks = 0, Bytes = 0;
  for (const ThreadInput &T : In.Threads) {
    Ticks += T.BufferTicks;
    Bytes += T.BufferBytes;
  }
  if (!Bytes)
    return;
  OS << "trace buffers: " << formatBytes(Bytes) << " made ready while "
     << In.Threads.size() << (In.Threads.size() == 1 ? " thread" : " threads")
     << " ran, " << plainTime(ticks256ToNs(int64_t(Ticks) * kFixed, In.TickRate))
     << ", inside the probes' measured intervals (overhead below) or before a "
        "thread's first call: in no active time\n";
}

static void intervalLines(const PortionResult &R, raw_ostream &OS) {
  for (size_t I = 0; I < R.Details.size(); ++I) {
    const InvocationResult &D = R.Details[I];
    const ActiveFigures &F = D.Figures;
    OS << "  invocation " << I + 1 << (D.Inv.Outermost ? "" : " (nested)")
       << ": elapsed interval (" << point(D.Inv.Elapsed.Start) << ","
       << point(D.Inv.Elapsed.End) << ") = " << formatTicks(F.Elapsed) << "\n";
    OS << "    overhead intervals: " << intervals(D.OverheadSet) << " = "
       << formatTicks(F.Overhead) << "\n";
    if (R.SwitchesMeasured)
      OS << "    swap-out intervals: " << intervals(D.SwapOutSet) << " = "
         << formatTicks(F.SwappedOut) << "\n";
    OS << "    active = " << formatTicks(F.Elapsed) << " - "
       << formatTicks(F.Elapsed - F.Active) << " = " << formatTicks(F.Active)
       << "\n";
  }
}

static void resultText(const TraceResult &S, bool Intervals,
                       raw_ostream &OS) {
  const Input &In = *S.In;
  const PortionResult &R = S.R;
  const ThreadInput &T = In.Threads[R.Thread];
  OS << "\nthread " << T.Label << ", portion " << In.DisplayNames[R.Portion]
     << ": " << R.Invocations
     << (R.Invocations == 1 ? " invocation" : " invocations");
  if (R.Outermost != R.Invocations)
    OS << " (" << R.Outermost << " outermost; totals count those)";
  OS << "\n";
  if (R.UnmatchedEnters || R.UnmatchedExits)
    OS << "  not counted: " << R.UnmatchedEnters
       << " enters without an exit, " << R.UnmatchedExits
       << " exits without an enter\n";
  uint64_t Rate = In.TickRate;
  auto Line = [&](StringRef Label, int64_t V) {
    OS << "  " << left_justify(Label, 12) << right_justify(formatTicks(V), 14)
       << " ticks  " << right_justify(plainTime(ticks256ToNs(V, Rate)), 12)
       << "\n";
  };
  Line("elapsed", R.Total.Elapsed);
  Line("overhead", R.Total.Overhead);
  if (R.SwitchesMeasured)
    Line("swapped-out", R.Total.SwappedOut);
  else
    OS << "  " << left_justify("swapped-out", 12)
       << "not available for this thread (no perf context-switch "
          "records)\n";
  Line(R.SwitchesMeasured ? "active" : "active*", R.Total.Active);
  if (!R.SwitchesMeasured)
    OS << "  * excludes probe overhead only, not switched-out time\n";
  if (Intervals)
    intervalLines(R, OS);
}

void report::printTraceActiveTime(ArrayRef<TraceResult> Results,
                                  bool FromProfile, bool Intervals,
                                  raw_ostream &OS) {
  const Input *Prev = nullptr;
  for (const TraceResult &S : Results) {
    const Input &In = *S.In;
    if (&In != Prev) {
      if (Prev)
        OS << "\n";
      if (FromProfile)
        OS << "process " << In.Pid << ": ";
      OS << "tick rate " << In.TickRate << " ticks/s; overhead table: enter "
         << formatTicks(In.Table.Enter256) << " ticks, exit "
         << formatTicks(In.Table.Exit256) << " ticks\n";
      bufferLine(In, OS);
      Prev = &In;
    }
    resultText(S, Intervals, OS);
  }
  if (Results.empty())
    OS << "no invocations found\n";
}
