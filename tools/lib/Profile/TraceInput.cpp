//===- TraceInput.cpp - Inputs of the offline active-time computation ------===//
//
// Part of ActiveTime. The two sources of the three inputs of the offline
// active-time computation (timer measurements, context switches, overhead
// table): the text tables format (hand-written examples, e.g.
// test/tool/Inputs/worked-example.tables) and the trace sections of a raw
// profile (mode=trace).
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/ThreadIds.h"
#include "activetime/Profile/TraceActiveTime.h"
#include "activetime/raw_format.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace llvm;
using namespace activetime;
using namespace activetime::active;

namespace {

class TablesParser {
public:
  TablesParser(StringRef File) : File(File) {}
  Expected<Input> parse(StringRef Text);

private:
  Error fail(const Twine &Msg) const {
    return createStringError(inconvertibleErrorCode(),
                             File + ":" + Twine(LineNo) + ": " + Msg);
  }
  Error parseLine(ArrayRef<StringRef> F);
  Error parseTickRate(ArrayRef<StringRef> F);
  Error parseOverhead(ArrayRef<StringRef> F);
  Error parseMeasure(ArrayRef<StringRef> F);
  Error parseSwitch(ArrayRef<StringRef> F);
  Expected<uint64_t> tick(StringRef S, StringRef What) const;
  /// Thread number of a name (0 for "0" and "-" when \p AllowUnknown).
  Expected<uint64_t> thread(StringRef S, bool AllowUnknown);

  StringRef File;
  unsigned LineNo = 0;
  Input In;
  bool HaveRate = false, HaveEnter = false, HaveExit = false;
  StringMap<uint64_t> ThreadIds;   // name -> id (1-based)
  StringMap<uint32_t> PortionIds;
  std::vector<Switch> AllSwitches;
};

Expected<uint64_t> TablesParser::tick(StringRef S, StringRef What) const {
  uint64_t V;
  if (S.getAsInteger(10, V) || V > uint64_t(INT64_MAX) / kFixed)
    return fail("bad " + What + " '" + S +
                "' (expected a non-negative integer number of ticks)");
  return V;
}

Expected<uint64_t> TablesParser::thread(StringRef S, bool AllowUnknown) {
  if (S == "0" || S == "-") {
    if (AllowUnknown)
      return 0;
    return fail("a measurement needs a thread name, not '" + S + "'");
  }
  auto [It, New] = ThreadIds.try_emplace(S, ThreadIds.size() + 1);
  if (New) {
    ThreadInput T;
    T.Id = It->second;
    T.Label = S.str();
    In.Threads.push_back(std::move(T));
  }
  return It->second;
}

/// One line: its first word says which table it adds to.
Error TablesParser::parseLine(ArrayRef<StringRef> F) {
  StringRef Key = F[0];
  if (Key == "tick_rate")
    return parseTickRate(F);
  if (Key == "overhead")
    return parseOverhead(F);
  if (Key == "measure")
    return parseMeasure(F);
  if (Key == "switch")
    return parseSwitch(F);
  return fail("unknown line '" + Key +
              "' (expected tick_rate, overhead, measure or switch)");
}

Error TablesParser::parseTickRate(ArrayRef<StringRef> F) {
  if (F.size() != 2)
    return fail("expected 'tick_rate TICKS_PER_SECOND'");
  if (HaveRate)
    return fail("tick_rate given twice");
  uint64_t V;
  if (F[1].getAsInteger(10, V) || V == 0)
    return fail("bad tick rate '" + F[1] + "' (expected a positive integer)");
  In.TickRate = V;
  HaveRate = true;
  return Error::success();
}

/// An overhead table entry: the cost of one event kind, in ticks.
Error TablesParser::parseOverhead(ArrayRef<StringRef> F) {
  if (F.size() != 3 || (F[1] != "enter" && F[1] != "exit"))
    return fail("expected 'overhead enter|exit TICKS'");
  bool IsEnter = F[1] == "enter";
  if (IsEnter ? HaveEnter : HaveExit)
    return fail("overhead " + F[1] + " given twice");
  double V;
  if (F[2].getAsDouble(V) || !(V >= 0) || V > 1e12)
    return fail("bad overhead '" + F[2] +
                "' (expected a non-negative number of ticks)");
  int64_t Fixed = int64_t(std::llround(V * kFixed));
  (IsEnter ? In.Table.Enter256 : In.Table.Exit256) = Fixed;
  (IsEnter ? HaveEnter : HaveExit) = true;
  return Error::success();
}

/// A timer measurement: a thread entering or leaving a portion.
Error TablesParser::parseMeasure(ArrayRef<StringRef> F) {
  if (F.size() != 5)
    return fail("expected 'measure TIME THREAD enter|exit PORTION'");
  Expected<uint64_t> T = tick(F[1], "time");
  if (!T)
    return T.takeError();
  if (F[3] != "enter" && F[3] != "exit")
    return fail("unknown event '" + F[3] + "' (expected enter or exit)");
  Expected<uint64_t> Th = thread(F[2], /*AllowUnknown=*/false);
  if (!Th)
    return Th.takeError();
  auto [It, New] = PortionIds.try_emplace(F[4], In.Portions.size());
  if (New) {
    In.Portions.push_back(F[4].str());
    In.DisplayNames.push_back(F[4].str());
  }
  Measurement M;
  M.Tick = *T;
  M.Portion = It->second;
  M.Kind = F[3] == "enter" ? Enter : Exit;
  In.Threads[*Th - 1].Events.push_back(M);
  return Error::success();
}

/// A context switch; parse() hands it to both threads it names.
Error TablesParser::parseSwitch(ArrayRef<StringRef> F) {
  if (F.size() != 4)
    return fail("expected 'switch TIME OLD_THREAD NEW_THREAD'");
  Expected<uint64_t> T = tick(F[1], "time");
  if (!T)
    return T.takeError();
  Expected<uint64_t> Old = thread(F[2], /*AllowUnknown=*/true);
  if (!Old)
    return Old.takeError();
  Expected<uint64_t> New = thread(F[3], /*AllowUnknown=*/true);
  if (!New)
    return New.takeError();
  if (*Old == 0 && *New == 0)
    return fail("a switch needs at least one known thread");
  if (*Old == *New)
    return fail("a switch from thread '" + F[2] + "' to itself");
  AllSwitches.push_back({*T, *Old, *New});
  return Error::success();
}

Expected<Input> TablesParser::parse(StringRef Text) {
  SmallVector<StringRef, 0> Lines;
  Text.split(Lines, '\n');
  for (StringRef Line : Lines) {
    ++LineNo;
    Line = Line.take_until([](char C) { return C == '#'; });
    SmallVector<StringRef, 8> F;
    SplitString(Line, F, " \t\r\f\v");
    if (F.empty())
      continue;
    if (Error E = parseLine(F))
      return std::move(E);
  }
  auto Whole = [&](const Twine &Msg) {
    return createStringError(inconvertibleErrorCode(), File + ": " + Msg);
  };
  if (!HaveEnter || !HaveExit)
    return Whole(Twine("no 'overhead ") + (HaveEnter ? "exit" : "enter") +
                 " TICKS' line (the overhead table is required; write 0 for "
                 "no overhead)");
  bool Any = false;
  for (ThreadInput &T : In.Threads)
    Any |= !T.Events.empty();
  if (!Any)
    return Whole("no measurements");
  for (const Switch &S : AllSwitches)
    for (ThreadInput &T : In.Threads)
      if (S.Old == T.Id || S.New == T.Id)
        T.Switches.push_back(S);
  return std::move(In);
}

} // namespace

Expected<Input> active::parseTables(StringRef Text, StringRef FileName) {
  return TablesParser(FileName).parse(Text);
}

std::vector<Input> active::inputsFromProfile(const profile::Profile &P) {
  std::vector<Input> Out;
  for (const profile::Process &Pr : P.Processes) {
    if (Pr.Traces.empty())
      continue;
    Input In;
    In.Pid = Pr.Pid;
    In.TickRate = Pr.TickRate;
    In.Table.Enter256 = int64_t(Pr.Overhead.Enter256);
    In.Table.Exit256 = int64_t(Pr.Overhead.Exit256);
    for (const profile::Function &F : Pr.Functions) {
      In.Portions.push_back(F.Name);
      In.DisplayNames.push_back(llvm::demangle(F.Name));
    }
    for (const profile::Trace &Tr : Pr.Traces) {
      ThreadInput T;
      T.Id = Tr.Tid;
      T.Label = threadLabel(Tr);
      T.TidOrder = Tr.TidOrder;
      T.DroppedEvents = Tr.DroppedEvents;
      T.DroppedSwitches = Tr.DroppedSwitches;
      T.BufferTicks = Tr.BufferTicks;
      T.BufferBytes = Tr.BufferBytes;
      // Switched-out intervals are only known where the runtime had perf
      // context-switch records for the thread; otherwise it fell back.
      T.SwitchesMeasured = false;
      for (const profile::Thread &Th : Pr.Threads)
        if (tracedBy(Tr, Th) && Th.SwitchSource == raw::SS_Perf)
          T.SwitchesMeasured = true;
      for (const profile::TraceEvent &E : Tr.Events)
        T.Events.push_back(
            {E.Tick, E.Func, E.Kind == raw::TE_Exit ? Exit : Enter, E.Measured});
      for (const profile::SwitchEvent &S : Tr.Switches)
        T.Switches.push_back({S.Tick, S.OldTid, S.NewTid});
      In.Threads.push_back(std::move(T));
    }
    Out.push_back(std::move(In));
  }
  return Out;
}

std::string activetime::active::reusedTidHint(ArrayRef<Input> Inputs,
                                              StringRef Name) {
  std::vector<std::pair<uint32_t, std::string>> Threads; // in start order
  for (const Input &In : Inputs)
    for (const ThreadInput &T : In.Threads)
      if (T.TidOrder && utostr(T.Id) == Name)
        Threads.push_back({T.TidOrder, T.Label});
  if (Threads.empty())
    return "";
  llvm::sort(Threads);
  std::string Hint = (" (tid " + Name + " was reused: its threads are").str();
  for (size_t I = 0; I < Threads.size(); ++I)
    Hint += (I ? ", " : " ") + Threads[I].second;
  return Hint + ")";
}
