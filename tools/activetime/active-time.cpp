//===- active-time.cpp - `activetime active-time` ---------------------------===//
//
// Part of ActiveTime. Seed 000's method 700 offline: active time of each
// code portion (function) per thread from timer measurements, context-switch
// events and the overhead table, read from a raw profile written with
// mode=trace or from a text tables file. Stages in tools/lib/ActiveTime.cpp.
//
//===----------------------------------------------------------------------===//

#include "activetime.h"
#include "activetime/Profile/ActiveTime.h"
#include "activetime/raw_format.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace llvm;
using namespace activetime;
using namespace activetime::active;
using namespace activetime::tool;

cl::SubCommand tool::ActiveTimeCommand(
    "active-time", "Active time per thread and function from a trace "
                   "(raw profile with trace sections, or a tables file)");

static cl::opt<std::string> InputFile(cl::Positional, cl::Required,
                                      cl::sub(ActiveTimeCommand),
                                      cl::desc("<profile or tables file>"),
                                      cl::cat(ToolCategory));
static cl::opt<std::string>
    PortionOpt("portion", cl::sub(ActiveTimeCommand),
               cl::desc("Only this code portion (function name, demangled "
                        "or linkage)"),
               cl::value_desc("name"), cl::cat(ToolCategory));
static cl::opt<std::string>
    ThreadOpt("thread", cl::sub(ActiveTimeCommand),
              cl::desc("Only this thread (tid, or the tables file's name)"),
              cl::value_desc("tid"), cl::cat(ToolCategory));
static cl::opt<bool> AtJson("json", cl::sub(ActiveTimeCommand),
                            cl::desc("Print a JSON document instead of text"),
                            cl::cat(ToolCategory));
static cl::opt<bool>
    ShowIntervals("intervals", cl::sub(ActiveTimeCommand),
                  cl::desc("Print the interval sets of every invocation"),
                  cl::cat(ToolCategory));

namespace {

/// An interval endpoint: whole ticks as integers, else two decimals.
std::string point(int64_t V) {
  if (V == INT64_MAX)
    return "end";
  if (V % kFixed == 0)
    return itostr(V / kFixed);
  return formatTicks(V);
}

std::string intervals(ArrayRef<Interval> V) {
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

struct Selected {
  const Input *In;
  PortionResult R;
};

} // namespace

int tool::activeTimeMain() {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(
      InputFile, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Buf)
    return reportError(createStringError(
        Buf.getError(), InputFile + ": " + Buf.getError().message()));
  StringRef Data = (*Buf)->getBuffer();

  // The input kind is decided by the raw magic.
  std::vector<Input> Inputs;
  bool IsRaw = Data.size() >= sizeof(raw::kMagic) &&
               std::memcmp(Data.data(), raw::kMagic, sizeof(raw::kMagic)) == 0;
  if (IsRaw) {
    Expected<profile::Profile> P =
        profile::readProfile((*Buf)->getMemBufferRef());
    if (!P)
      return reportError(createStringError(
          inconvertibleErrorCode(), InputFile + ": " + toString(P.takeError())));
    Inputs = inputsFromProfile(*P);
    if (Inputs.empty())
      return reportError(createStringError(
          inconvertibleErrorCode(),
          InputFile + ": the profile has no trace sections (run the program "
                      "with ACTIVETIME_OPTIONS=mode=trace)"));
  } else {
    Expected<Input> In = parseTables(Data, InputFile);
    if (!In)
      return reportError(In.takeError());
    Inputs.push_back(std::move(*In));
  }

  std::vector<Selected> Results;
  bool PortionFound = PortionOpt.empty(), ThreadFound = ThreadOpt.empty();
  for (const Input &In : Inputs) {
    std::vector<int64_t> Portions{-1};
    if (!PortionOpt.empty()) {
      Portions.clear();
      for (size_t I = 0; I < In.Portions.size(); ++I)
        if (In.Portions[I] == PortionOpt || In.DisplayNames[I] == PortionOpt)
          Portions.push_back(I);
      PortionFound |= !Portions.empty();
    }
    std::vector<int64_t> Threads{-1};
    if (!ThreadOpt.empty()) {
      Threads.clear();
      for (size_t I = 0; I < In.Threads.size(); ++I)
        if (In.Threads[I].Label == ThreadOpt)
          Threads.push_back(I);
      ThreadFound |= !Threads.empty();
    }
    for (int64_t Th : Threads)
      for (int64_t Po : Portions)
        for (PortionResult &R : computeActiveTime(In, Po, Th))
          Results.push_back({&In, std::move(R)});
  }
  if (!PortionFound)
    return reportError(createStringError(
        inconvertibleErrorCode(),
        InputFile + ": no code portion named '" + PortionOpt + "'"));
  if (!ThreadFound)
    return reportError(createStringError(
        inconvertibleErrorCode(),
        InputFile + ": no thread '" + ThreadOpt + "' in the trace"));

  // Warnings go to stderr so that the JSON on stdout stays clean.
  for (const Input &In : Inputs)
    for (const ThreadInput &T : In.Threads) {
      if (!ThreadOpt.empty() && T.Label != ThreadOpt)
        continue;
      if (T.DroppedEvents || T.DroppedSwitches)
        WithColor::warning(errs(), "activetime")
            << "thread " << T.Label << ": " << T.DroppedEvents
            << " timer measurements and " << T.DroppedSwitches
            << " switch events were dropped while tracing; its results are "
               "incomplete\n";
      if (!T.SwitchesMeasured)
        WithColor::warning(errs(), "activetime")
            << "thread " << T.Label
            << ": switched-out time not available (no perf context-switch "
               "records); its active time excludes probe overhead only\n";
    }

  raw_ostream &OS = outs();
  if (AtJson) {
    json::OStream J(OS, 2);
    J.object([&] {
      J.attribute("schema", "activetime-active-time");
      J.attribute("version", 1);
      J.attribute("tick_rate", int64_t(Inputs.front().TickRate));
      J.attributeArray("results", [&] {
        for (const Selected &S : Results) {
          const Input &In = *S.In;
          const PortionResult &R = S.R;
          const ThreadInput &T = In.Threads[R.Thread];
          uint64_t Rate = In.TickRate;
          J.object([&] {
            J.attribute("pid", int64_t(R.Pid));
            uint64_t Num;
            if (!StringRef(T.Label).getAsInteger(10, Num))
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
      });
    });
    OS << "\n";
    return 0;
  }

  const Input *Prev = nullptr;
  for (const Selected &S : Results) {
    const Input &In = *S.In;
    const PortionResult &R = S.R;
    const ThreadInput &T = In.Threads[R.Thread];
    if (&In != Prev) {
      if (Prev)
        OS << "\n";
      if (IsRaw)
        OS << "process " << In.Pid << ": ";
      OS << "tick rate " << In.TickRate << " ticks/s; overhead table: enter "
         << formatTicks(In.Table.Enter256) << " ticks, exit "
         << formatTicks(In.Table.Exit256) << " ticks\n";
      Prev = &In;
    }
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
    if (ShowIntervals) {
      for (size_t I = 0; I < R.Details.size(); ++I) {
        const InvocationResult &D = R.Details[I];
        const ActiveFigures &F = D.Figures;
        OS << "  invocation " << I + 1
           << (D.Inv.Outermost ? "" : " (nested)") << ": elapsed interval ("
           << point(D.Inv.Elapsed.Start) << "," << point(D.Inv.Elapsed.End)
           << ") = " << formatTicks(F.Elapsed) << "\n";
        OS << "    overhead intervals: " << intervals(D.OverheadSet) << " = "
           << formatTicks(F.Overhead) << "\n";
        if (R.SwitchesMeasured)
          OS << "    swap-out intervals: " << intervals(D.SwapOutSet) << " = "
             << formatTicks(F.SwappedOut) << "\n";
        OS << "    active = " << formatTicks(F.Elapsed) << " - "
           << formatTicks(F.Elapsed - F.Active) << " = "
           << formatTicks(F.Active) << "\n";
      }
    }
  }
  if (Results.empty())
    OS << "no invocations found\n";
  return 0;
}
