//===- Reader.cpp - Raw profile reader --------------------------------------===//
//
// Part of ActiveTime. Parses a raw profile (raw_format.h) into the model of
// Profile.h. The input may be truncated or garbage: every field is read with
// bounds checks and little-endian loads (the buffer need not be aligned), and
// every inconsistency becomes a one-line error instead of a crash later.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/Profile.h"
#include "activetime/abi.h"
#include "activetime/raw_format.h"

#include "llvm/Support/Endian.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstring>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;

namespace {

// Upper bound of any tick count in a valid profile (see parseThread).
constexpr uint64_t kMaxTicks = uint64_t(1) << 60;

Error fail(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

/// Sequential little-endian reader over one section payload. Callers check
/// remaining() before each record so the loads below never overrun.
class Cursor {
public:
  Cursor(StringRef Data) : Data(Data) {}
  uint64_t remaining() const { return Data.size() - Pos; }
  uint64_t offset() const { return Pos; }
  uint32_t u32() {
    uint32_t V = support::endian::read32le(Data.data() + Pos);
    Pos += 4;
    return V;
  }
  uint64_t u64() {
    uint64_t V = support::endian::read64le(Data.data() + Pos);
    Pos += 8;
    return V;
  }
  StringRef bytes(uint64_t N) {
    StringRef S = Data.substr(Pos, N);
    Pos += N;
    return S;
  }

private:
  StringRef Data;
  uint64_t Pos = 0;
};

const char *kindName(uint32_t Kind) {
  switch (Kind) {
  case raw::SK_Process:
    return "process";
  case raw::SK_Module:
    return "module";
  case raw::SK_Thread:
    return "thread";
  case raw::SK_Trace:
    return "trace";
  case raw::SK_Parallel:
    return "parallel";
  case raw::SK_Samples:
    return "samples";
  case raw::SK_Strides:
    return "strides";
  }
  return "unknown";
}

class Parser {
public:
  Expected<Profile> parse(StringRef Buf);

private:
  Error parseProcess(Cursor C);
  Error parseModule(Cursor C);
  Error parseThread(Cursor C);
  Error parseCounts(Cursor &C, Thread &T, uint32_t Num, const std::string &What);
  Error parseCodeSamples(Cursor &C, Thread &T, uint32_t Num,
                         const std::string &What);
  Error parseTrace(Cursor C);
  Error parseParallel(Cursor C);
  Error parseSamples(Cursor C);
  Error parseStrides(Cursor C);
  Error finishBlock();
  /// The padding after the last record must be what alignment requires,
  /// so a wrong length field is caught rather than silently skipped.
  Error checkPadding(const Cursor &C, uint64_t Size, const Twine &What);
  /// "<What>: section too small: ..." when C holds fewer than Need bytes.
  Error needBytes(const Cursor &C, size_t Need, const Twine &What);
  /// The block already holds the Expected sections of Kind its header names.
  Error moreThanHeader(StringRef Kind, uint32_t Expected);

  Profile Prof;
  Process *Cur = nullptr;
  uint32_t ModulesSeen = 0;
  uint32_t ThreadsSeen = 0;
  uint32_t TracesSeen = 0;
  bool ParallelSeen = false;
  uint32_t StridesSeen = 0;
  uint32_t ExpectedStrides = 0;
  uint32_t ExpectedModules = 0;
  uint32_t ExpectedThreads = 0;
  uint32_t ExpectedTraces = 0;
};

Error Parser::needBytes(const Cursor &C, size_t Need, const Twine &What) {
  if (C.remaining() < Need)
    return fail(formatv("{0}: section too small: {1} bytes, need {2}", What,
                        C.remaining(), Need));
  return Error::success();
}

Error Parser::moreThanHeader(StringRef Kind, uint32_t Expected) {
  return fail(formatv("process (pid {0}): more {1} sections than its header "
                      "says ({2})",
                      Cur->Pid, Kind, Expected));
}

Error Parser::checkPadding(const Cursor &C, uint64_t Size, const Twine &What) {
  uint64_t Used = C.offset();
  if (alignTo(Used, 8) != Size)
    return fail(formatv("{0}: section size {1} does not match its contents "
                        "({2} bytes, {3} with padding)",
                        What, Size, Used, alignTo(Used, 8)));
  return Error::success();
}

Error Parser::finishBlock() {
  if (!Cur)
    return Error::success();
  size_t Idx = Prof.Processes.size() - 1;
  if (ModulesSeen != ExpectedModules)
    return fail(formatv("process {0} (pid {1}) has {2} module sections, its "
                        "header says {3}",
                        Idx, Cur->Pid, ModulesSeen, ExpectedModules));
  if (ThreadsSeen != ExpectedThreads)
    return fail(formatv("process {0} (pid {1}) has {2} thread sections, its "
                        "header says {3}",
                        Idx, Cur->Pid, ThreadsSeen, ExpectedThreads));
  if (TracesSeen != ExpectedTraces)
    return fail(formatv("process {0} (pid {1}) has {2} trace sections, its "
                        "header says {3}",
                        Idx, Cur->Pid, TracesSeen, ExpectedTraces));
  if (StridesSeen != ExpectedStrides)
    return fail(formatv("process {0} (pid {1}) has {2} strides sections, its "
                        "header says {3}",
                        Idx, Cur->Pid, StridesSeen, ExpectedStrides));
  return Error::success();
}

Error Parser::parseProcess(Cursor C) {
  if (Error E = finishBlock())
    return E;
  uint64_t Size = C.remaining();
  if (Size < sizeof(raw::ProcessRecord))
    return fail(formatv("process section too small: {0} bytes, need {1}", Size,
                        sizeof(raw::ProcessRecord)));
  Prof.Processes.emplace_back();
  Cur = &Prof.Processes.back();
  Cur->TickRate = C.u64();
  Cur->StartTick = C.u64();
  Cur->EndTick = C.u64();
  Cur->StartUnixNs = C.u64();
  Cur->Pid = C.u32();
  Cur->ParentPid = C.u32();
  ExpectedModules = C.u32();
  ExpectedThreads = C.u32();
  ExpectedTraces = C.u32();
  uint32_t ExeLen = C.u32();
  uint32_t BuildIdLen = C.u32();
  ExpectedStrides = C.u32();
  OverheadTable &OH = Cur->Overhead;
  OH.Enter256 = C.u64();
  OH.Exit256 = C.u64();
  OH.Source = C.u32();
  OH.Batches = C.u32();
  OH.SpreadPermille = C.u32();
  uint32_t OFlags = C.u32();
  OH.Stable = (OFlags & raw::OF_Stable) != 0;
  OH.Fenced = (OFlags & raw::OF_Fenced) != 0;
  OH.Measured = (OFlags & raw::OF_Measured) != 0;
  OH.Pair256 = C.u64();
  OH.MeasuredEnter256 = C.u64();
  OH.MeasuredExit256 = C.u64();
  Cur->TickStep256 = C.u64();
  Cur->TimingThreshold = C.u64();
  Cur->CodeSamplePeriodNs = C.u64();
  Cur->CodeSampleCost256 = C.u64();
  Cur->CodeSampleFlags = C.u32();
  uint32_t PReserved = C.u32();
  ModulesSeen = ThreadsSeen = TracesSeen = StridesSeen = 0;
  ParallelSeen = false;
  if (Cur->TickRate == 0)
    return fail(formatv("process (pid {0}): tick rate is 0", Cur->Pid));
  if (ExpectedStrides > ExpectedModules)
    return fail(formatv("process (pid {0}): {1} strides sections for {2} "
                        "modules",
                        Cur->Pid, ExpectedStrides, ExpectedModules));
  if (OH.Source != raw::OS_Calibrated && OH.Source != raw::OS_Option)
    return fail(formatv("process (pid {0}): unknown overhead source {1}",
                        Cur->Pid, OH.Source));
  if (OFlags & ~uint32_t(raw::OF_Known))
    return fail(formatv("process (pid {0}): unknown overhead flags {1:x}",
                        Cur->Pid, OFlags));
  if (Cur->CodeSampleFlags & ~uint32_t(raw::CSF_Known))
    return fail(formatv("process (pid {0}): unknown code sampling flags {1:x}",
                        Cur->Pid, Cur->CodeSampleFlags));
  if (PReserved != 0)
    return fail(formatv("process (pid {0}): reserved field is {1}, not 0",
                        Cur->Pid, PReserved));
  if (Cur->TickStep256 && Cur->TickStep256 < 256)
    return fail(formatv("process (pid {0}): tick step {1}/256 ticks is below "
                        "one tick",
                        Cur->Pid, Cur->TickStep256));
  if (Cur->EndTick < Cur->StartTick)
    return fail(formatv("process (pid {0}): end tick {1} is before start "
                        "tick {2}",
                        Cur->Pid, Cur->EndTick, Cur->StartTick));
  if (uint64_t(ExeLen) + BuildIdLen > C.remaining())
    return fail(formatv("process (pid {0}): executable name ({1} bytes) and "
                        "build id ({2} bytes) overrun the section",
                        Cur->Pid, ExeLen, BuildIdLen));
  Cur->Exe = C.bytes(ExeLen).str();
  Cur->BuildId = C.bytes(BuildIdLen).str();
  return checkPadding(C, Size, formatv("process (pid {0})", Cur->Pid).str());
}

Error Parser::parseModule(Cursor C) {
  if (!Cur)
    return fail("module section before any process section");
  if (ThreadsSeen || TracesSeen || StridesSeen)
    return fail(formatv("process (pid {0}): module section after a {1} "
                        "section",
                        Cur->Pid,
                        StridesSeen ? "strides"
                                    : (TracesSeen ? "trace" : "thread")));
  if (ModulesSeen == ExpectedModules)
    return moreThanHeader("module", ExpectedModules);
  uint32_t ModIdx = ModulesSeen++;
  std::string What = formatv("module {0} of process (pid {1})", ModIdx,
                             Cur->Pid);
  uint64_t Size = C.remaining();
  if (Error E = needBytes(C, sizeof(raw::ModuleRecord), What))
    return E;
  Module M;
  M.Hash = C.u64();
  M.LoadBase = C.u64();
  uint32_t NumFuncs = C.u32();
  uint32_t NameLen = C.u32();
  uint32_t PathLen = C.u32();
  M.Flags = C.u32();
  if (uint64_t(NameLen) + PathLen > C.remaining())
    return fail(formatv("{0}: name ({1} bytes) and path ({2} bytes) overrun "
                        "the section",
                        What, NameLen, PathLen));
  M.Name = C.bytes(NameLen).str();
  M.Path = C.bytes(PathLen).str();
  // Bound the count by the bytes present before reserving anything.
  if (uint64_t(NumFuncs) * sizeof(raw::FuncRecord) > C.remaining())
    return fail(formatv("{0}: {1} function records overrun the section", What,
                        NumFuncs));
  Cur->Functions.reserve(Cur->Functions.size() + NumFuncs);
  for (uint32_t I = 0; I < NumFuncs; ++I) {
    if (C.remaining() < sizeof(raw::FuncRecord))
      return fail(formatv("{0}: function record {1} overruns the section",
                          What, I));
    Function F;
    F.Module = ModIdx;
    F.Addr = C.u64();
    F.Line = C.u32();
    F.Flags = C.u32();
    uint32_t FNameLen = C.u32();
    uint32_t FileLen = C.u32();
    if (uint64_t(FNameLen) + FileLen > C.remaining())
      return fail(formatv("{0}: function {1}: name ({2} bytes) and file ({3} "
                          "bytes) overrun the section",
                          What, I, FNameLen, FileLen));
    F.Name = C.bytes(FNameLen).str();
    F.File = C.bytes(FileLen).str();
    Cur->Functions.push_back(std::move(F));
  }
  Cur->Modules.push_back(std::move(M));
  return checkPadding(C, Size, What);
}

Error Parser::parseThread(Cursor C) {
  if (!Cur)
    return fail("thread section before any process section");
  if (ModulesSeen != ExpectedModules)
    return fail(formatv("process (pid {0}): thread section after {1} of its "
                        "{2} module sections",
                        Cur->Pid, ModulesSeen, ExpectedModules));
  if (TracesSeen || StridesSeen)
    return fail(formatv("process (pid {0}): thread section after a {1} "
                        "section",
                        Cur->Pid, StridesSeen ? "strides" : "trace"));
  if (Cur->HasSamples || ParallelSeen)
    return fail(formatv("process (pid {0}): thread section after the {1} "
                        "section",
                        Cur->Pid, ParallelSeen ? "parallel" : "samples"));
  if (ThreadsSeen == ExpectedThreads)
    return moreThanHeader("thread", ExpectedThreads);
  uint32_t ThreadIdx = ThreadsSeen++;
  if (Error E = needBytes(C, sizeof(raw::ThreadRecord),
                          formatv("thread {0} of process (pid {1})", ThreadIdx,
                                  Cur->Pid)))
    return E;
  Thread T;
  T.Tid = C.u64();
  T.StartTick = C.u64();
  T.EndTick = C.u64();
  uint32_t NumNodes = C.u32();
  T.Flags = C.u32();
  T.OpenFrames = C.u64();
  T.UnmatchedExits = C.u64();
  T.UnwoundFrames = C.u64();
  T.DroppedEvents = C.u64();
  StringRef Name = C.bytes(16);
  T.Name = Name.take_until([](char Ch) { return Ch == '\0'; }).str();
  T.SwitchSource = C.u32();
  uint32_t NumCounts = C.u32();
  T.SwitchResolution = C.u64();
  T.OffCpuTicks = C.u64();
  T.VoluntarySwitches = C.u64();
  T.InvoluntarySwitches = C.u64();
  T.LostSwitchRecords = C.u64();
  uint32_t NumCode = C.u32();
  uint32_t Reserved = C.u32();
  T.LostCodeSamples = C.u64();
  std::string What = formatv("thread {0} (tid {1})", ThreadIdx, T.Tid);
  if (T.Flags & ~uint32_t(raw::TF_Known))
    return fail(formatv("{0}: unknown thread flags {1:x}", What, T.Flags));
  if (T.EndTick < T.StartTick)
    return fail(formatv("{0}: end tick {1} is before start tick {2}", What,
                        T.EndTick, T.StartTick));
  if (T.SwitchSource != raw::SS_None && T.SwitchSource != raw::SS_Perf &&
      T.SwitchSource != raw::SS_CpuClock)
    return fail(formatv("{0}: unknown switch source {1}", What,
                        T.SwitchSource));
  if (Reserved != 0)
    return fail(formatv("{0}: reserved field is {1}, not 0", What, Reserved));
  uint64_t Need = uint64_t(NumNodes) * sizeof(raw::NodeRecord) +
                  uint64_t(NumCounts) * sizeof(raw::CountRecord) +
                  uint64_t(NumCode) * sizeof(raw::CodeSampleRecord);
  if (Need != C.remaining())
    return fail(formatv("{0}: {1} nodes, {2} call counts and {3} code samples "
                        "need {4} bytes, the section has {5}",
                        What, NumNodes, NumCounts, NumCode, Need,
                        C.remaining()));
  uint64_t NumFuncs = Cur->Functions.size();
  T.Nodes.resize(NumNodes);
  for (uint32_t I = 0; I < NumNodes; ++I) {
    Node &N = T.Nodes[I];
    N.Parent = C.u32();
    N.Func = C.u32();
    N.Calls = C.u64();
    N.Incl = C.u64();
    N.Excl = C.u64();
    N.Min = C.u64();
    N.Max = C.u64();
    N.Overhead = C.u64();
    N.OffCpu = C.u64();
    N.Voluntary = C.u32();
    N.Involuntary = C.u32();
    N.CallSite = C.u64();
    // No real run comes near 2^60 ticks (15 years at 2.4 GHz); the bound
    // keeps every signed difference of these fields representable.
    if (N.Incl > kMaxTicks || N.Min > kMaxTicks || N.Max > kMaxTicks ||
        N.Overhead > kMaxTicks)
      return fail(formatv("{0}: node {1}: implausible tick count (over 2^60)",
                          What, I));
    // Parents precede children; the tree algorithms rely on it.
    if (N.Parent != raw::kNoParent && N.Parent >= I)
      return fail(formatv("{0}: node {1}: parent {2} does not precede it",
                          What, I, N.Parent));
    if (N.Func >= NumFuncs)
      return fail(formatv("{0}: node {1}: function id {2} out of range (the "
                          "process has {3} functions)",
                          What, I, N.Func, NumFuncs));
    if (N.Excl > N.Incl)
      return fail(formatv("{0}: node {1}: exclusive ticks {2} exceed "
                          "inclusive ticks {3}",
                          What, I, N.Excl, N.Incl));
    // Time is only ever added when a call closes (or is closed at the write).
    if (N.Calls == 0 && N.Incl != 0)
      return fail(formatv("{0}: node {1}: {2} inclusive ticks but no calls",
                          What, I, N.Incl));
    if (N.Calls && N.Min > N.Max)
      return fail(formatv("{0}: node {1}: minimum ticks {2} exceed maximum "
                          "ticks {3}",
                          What, I, N.Min, N.Max));
    // Overhead may exceed a tiny frame's elapsed time (calibration error),
    // switched-out time inside the calls cannot.
    if (N.OffCpu > N.Incl)
      return fail(formatv("{0}: node {1}: off-CPU ticks {2} exceed inclusive "
                          "ticks {3}",
                          What, I, N.OffCpu, N.Incl));
  }
  if (Error E = parseCounts(C, T, NumCounts, What))
    return E;
  if (Error E = parseCodeSamples(C, T, NumCode, What))
    return E;
  Cur->Threads.push_back(std::move(T));
  return Error::success();
}

Error Parser::parseCounts(Cursor &C, Thread &T, uint32_t Num,
                          const std::string &What) {
  uint64_t NumFuncs = Cur->Functions.size();
  T.Counts.resize(Num);
  for (uint32_t I = 0; I < Num; ++I) {
    CallCount &CC = T.Counts[I];
    CC.Func = C.u32();
    uint32_t Flags = C.u32();
    CC.Calls = C.u64();
    CC.Counted = (Flags & raw::CR_Counted) != 0;
    if (CC.Func >= NumFuncs)
      return fail(formatv("{0}: call count {1}: function id {2} out of range",
                          What, I, CC.Func));
    if (Flags & ~uint32_t(raw::CR_Known))
      return fail(formatv("{0}: call count {1}: unknown flags {2:x}", What, I,
                          Flags));
    if (CC.Calls == 0 || CC.Calls > kMaxTicks)
      return fail(formatv("{0}: call count {1}: implausible count {2}", What,
                          I, CC.Calls));
    if (I && CC.Func <= T.Counts[I - 1].Func)
      return fail(formatv("{0}: call count {1}: function ids not ascending",
                          What, I));
  }
  return Error::success();
}

Error Parser::parseCodeSamples(Cursor &C, Thread &T, uint32_t Num,
                               const std::string &What) {
  T.CodeSamples.resize(Num);
  for (uint32_t I = 0; I < Num; ++I) {
    CodeSample &S = T.CodeSamples[I];
    S.Node = C.u32();
    S.Flags = C.u32();
    S.Addr = C.u64();
    S.Count = C.u64();
    S.Caller = C.u64();
    if (S.Node != raw::kNoNode && S.Node >= T.Nodes.size())
      return fail(formatv("{0}: code sample {1}: node {2} out of range", What,
                          I, S.Node));
    if (S.Flags & ~uint32_t(raw::CSR_Known))
      return fail(formatv("{0}: code sample {1}: unknown flags {2:x}", What, I,
                          S.Flags));
    if (S.Count == 0 || S.Count > kMaxTicks)
      return fail(formatv("{0}: code sample {1}: implausible count {2}", What,
                          I, S.Count));
  }
  return Error::success();
}

Error Parser::parseTrace(Cursor C) {
  if (!Cur)
    return fail("trace section before any process section");
  if (ModulesSeen != ExpectedModules || ThreadsSeen != ExpectedThreads)
    return fail(formatv("process (pid {0}): trace section after {1} of its "
                        "{2} module sections and {3} of its {4} thread "
                        "sections",
                        Cur->Pid, ModulesSeen, ExpectedModules, ThreadsSeen,
                        ExpectedThreads));
  if (StridesSeen || Cur->HasSamples || ParallelSeen)
    return fail(formatv("process (pid {0}): trace section after a {1} "
                        "section",
                        Cur->Pid,
                        StridesSeen ? "strides"
                                    : (ParallelSeen ? "parallel" : "samples")));
  if (TracesSeen == ExpectedTraces)
    return moreThanHeader("trace", ExpectedTraces);
  uint32_t TraceIdx = TracesSeen++;
  if (Error E = needBytes(C, sizeof(raw::TraceRecord),
                          formatv("trace {0} of process (pid {1})", TraceIdx,
                                  Cur->Pid)))
    return E;
  Trace T;
  T.Tid = C.u64();
  uint64_t NumEvents = C.u64();
  uint64_t NumSwitches = C.u64();
  T.DroppedEvents = C.u64();
  T.DroppedSwitches = C.u64();
  std::string What = formatv("trace {0} (tid {1})", TraceIdx, T.Tid);
  // Division, not multiplication: the counts are untrusted 64-bit values.
  uint64_t Rem = C.remaining();
  if (NumEvents > Rem / sizeof(raw::TraceEvent) ||
      NumSwitches > (Rem - NumEvents * sizeof(raw::TraceEvent)) /
                        sizeof(raw::SwitchEvent) ||
      NumEvents * sizeof(raw::TraceEvent) +
              NumSwitches * sizeof(raw::SwitchEvent) !=
          Rem)
    return fail(formatv("{0}: {1} events and {2} switch events do not match "
                        "the section's {3} bytes",
                        What, NumEvents, NumSwitches, Rem));
  uint64_t NumFuncs = Cur->Functions.size();
  T.Events.resize(NumEvents);
  for (uint64_t I = 0; I < NumEvents; ++I) {
    TraceEvent &E = T.Events[I];
    E.Tick = C.u64();
    E.Func = C.u32();
    E.Kind = C.u32();
    E.Measured = C.u32();
    if (uint32_t Reserved = C.u32())
      return fail(formatv("{0}: event {1}: reserved field is {2}, not 0", What,
                          I, Reserved));
    if (E.Func >= NumFuncs)
      return fail(formatv("{0}: event {1}: function id {2} out of range (the "
                          "process has {3} functions)",
                          What, I, E.Func, NumFuncs));
    if (E.Kind != raw::TE_Enter && E.Kind != raw::TE_Exit)
      return fail(formatv("{0}: event {1}: unknown event kind {2}", What, I,
                          E.Kind));
    if (I && E.Tick < T.Events[I - 1].Tick)
      return fail(formatv("{0}: event {1}: tick {2} is before the previous "
                          "event's tick {3}",
                          What, I, E.Tick, T.Events[I - 1].Tick));
  }
  T.Switches.resize(NumSwitches);
  for (uint64_t I = 0; I < NumSwitches; ++I) {
    SwitchEvent &S = T.Switches[I];
    S.Tick = C.u64();
    S.OldTid = C.u64();
    S.NewTid = C.u64();
    // Recorded as seen by this thread: it is the one switched out or in.
    if ((S.OldTid == T.Tid) == (S.NewTid == T.Tid))
      return fail(formatv("{0}: switch event {1} does not switch the traced "
                          "thread either out or in (old tid {2}, new tid {3})",
                          What, I, S.OldTid, S.NewTid));
  }
  Cur->Traces.push_back(std::move(T));
  return Error::success();
}

Error Parser::parseParallel(Cursor C) {
  if (!Cur)
    return fail("parallel section before any process section");
  if (ModulesSeen != ExpectedModules || ThreadsSeen != ExpectedThreads ||
      TracesSeen != ExpectedTraces || StridesSeen != ExpectedStrides)
    return fail(formatv("process (pid {0}): parallel section before its "
                        "module, thread, trace and strides sections",
                        Cur->Pid));
  if (ParallelSeen)
    return fail(formatv("process (pid {0}): more than one parallel section",
                        Cur->Pid));
  ParallelSeen = true;
  std::string What = formatv("parallel section of process (pid {0})", Cur->Pid);
  uint64_t Size = C.remaining();
  if (Size < sizeof(raw::ParallelRecord))
    return fail(formatv("{0}: too small: {1} bytes, need {2}", What, Size,
                        sizeof(raw::ParallelRecord)));
  Parallel &P = Cur->Par;
  P.Present = true;
  P.Status = C.u32();
  uint32_t NumRegions = C.u32();
  uint32_t NumEntries = C.u32();
  uint32_t StringBytes = C.u32();
  P.LostEvents = C.u64();
  if (P.Status > raw::OS_Disabled)
    return fail(formatv("{0}: unknown OpenMP status {1}", What, P.Status));
  uint64_t Need = uint64_t(NumRegions) * sizeof(raw::RegionRecord) +
                  uint64_t(NumEntries) * sizeof(raw::RegionThreadRecord) +
                  StringBytes;
  if (Need > C.remaining())
    return fail(formatv("{0}: {1} regions, {2} entries and {3} string bytes "
                        "overrun the section",
                        What, NumRegions, NumEntries, StringBytes));
  std::vector<std::pair<uint32_t, uint32_t>> PathRefs;
  for (uint32_t I = 0; I < NumRegions; ++I) {
    Region R;
    R.Address = C.u64();
    uint32_t Off = C.u32(), Len = C.u32();
    R.Instances = C.u64();
    R.WallTicks = C.u64();
    R.MaxWorkers = C.u32();
    uint32_t Reserved = C.u32();
    if (Reserved)
      return fail(formatv("{0}: region {1}: reserved field is {2}, not 0",
                          What, I, Reserved));
    if (uint64_t(Off) + Len > StringBytes)
      return fail(formatv("{0}: region {1}: path ({2} bytes at {3}) outside "
                          "the {4} string bytes",
                          What, I, Len, Off, StringBytes));
    PathRefs.push_back({Off, Len});
    P.Regions.push_back(std::move(R));
  }
  for (uint32_t I = 0; I < NumEntries; ++I) {
    RegionThread E;
    E.Region = C.u32();
    uint32_t Reserved = C.u32();
    E.Tid = C.u64();
    for (uint64_t &V : E.StateTicks)
      V = C.u64();
    for (auto &Row : E.Transitions)
      for (uint64_t &V : Row)
        V = C.u64();
    E.LocalTakes = C.u64();
    E.StolenTakes = C.u64();
    E.TasksCreated = C.u64();
    E.Chunks = C.u64();
    E.WaitEntries = C.u64();
    if (E.Region >= NumRegions || Reserved)
      return fail(formatv("{0}: entry {1}: region index {2} out of range (of "
                          "{3}) or reserved field {4} not 0",
                          What, I, E.Region, NumRegions, Reserved));
    P.Entries.push_back(E);
  }
  StringRef Strings = C.bytes(StringBytes);
  for (size_t I = 0; I < PathRefs.size(); ++I)
    P.Regions[I].Path = Strings.substr(PathRefs[I].first, PathRefs[I].second).str();
  return checkPadding(C, Size, What);
}

Error Parser::parseSamples(Cursor C) {
  if (!Cur)
    return fail("samples section before any process section");
  if (ModulesSeen != ExpectedModules || ThreadsSeen != ExpectedThreads ||
      TracesSeen != ExpectedTraces || StridesSeen != ExpectedStrides)
    return fail(formatv("process (pid {0}): samples section before all of its "
                        "module, thread, trace and strides sections",
                        Cur->Pid));
  if (Cur->HasSamples)
    return fail(formatv("process (pid {0}): more than one samples section",
                        Cur->Pid));
  if (Error E = needBytes(C, sizeof(raw::SamplesRecord),
                          formatv("samples of process (pid {0})", Cur->Pid)))
    return E;
  SampleSet &S = Cur->Samples;
  S.IntervalTicks = C.u64();
  S.StartTick = C.u64();
  S.EndTick = C.u64();
  uint64_t Num = C.u64();
  S.Sweeps = C.u64();
  S.Dropped = C.u64();
  S.TornRetries = C.u64();
  S.TornDiscarded = C.u64();
  S.Unmapped = C.u64();
  S.ProcStateSamples = C.u64();
  S.SamplerCpuNs = C.u64();
  S.Flags = C.u32();
  uint32_t Reserved = C.u32();
  S.WakeLateNs = C.u64();
  std::string What = formatv("samples of process (pid {0})", Cur->Pid);
  if (Reserved)
    return fail(What + ": reserved field is not 0");
  if (S.Flags & ~uint32_t(raw::SMF_Randomized | raw::SMF_Realtime))
    return fail(formatv("{0}: unknown flags {1:x}", What, S.Flags));
  if (S.IntervalTicks == 0)
    return fail(What + ": sampling interval is 0");
  if (Num != C.remaining() / sizeof(raw::SampleRecord) ||
      C.remaining() % sizeof(raw::SampleRecord))
    return fail(formatv("{0}: {1} samples do not match the section's {2} "
                        "bytes",
                        What, Num, C.remaining()));
  S.Samples.resize(Num);
  for (uint64_t I = 0; I < Num; ++I) {
    Sample &X = S.Samples[I];
    X.Tick = C.u64();
    X.Weight = C.u64();
    X.Thread = C.u32();
    X.Node = C.u32();
    X.Flags = C.u32();
    X.Depth = C.u32();
    if (X.Thread >= Cur->Threads.size())
      return fail(formatv("{0}: sample {1}: thread {2} out of range (the "
                          "process has {3} threads)",
                          What, I, X.Thread, Cur->Threads.size()));
    if (X.Node != raw::kNoNode && X.Node >= Cur->Threads[X.Thread].Nodes.size())
      return fail(formatv("{0}: sample {1}: node {2} out of range (thread {3} "
                          "has {4} nodes)",
                          What, I, X.Node, X.Thread,
                          Cur->Threads[X.Thread].Nodes.size()));
    if (X.Flags & ~uint32_t(raw::SF_KnownMask))
      return fail(formatv("{0}: sample {1}: unknown flags {2:x}", What, I,
                          X.Flags));
    if (I && X.Tick < S.Samples[I - 1].Tick)
      return fail(formatv("{0}: sample {1}: tick {2} is before the previous "
                          "sample's tick {3}",
                          What, I, X.Tick, S.Samples[I - 1].Tick));
  }
  Cur->HasSamples = true;
  return Error::success();
}

Error Parser::parseStrides(Cursor C) {
  if (!Cur)
    return fail("strides section before any process section");
  if (ModulesSeen != ExpectedModules || ThreadsSeen != ExpectedThreads ||
      TracesSeen != ExpectedTraces)
    return fail(formatv("process (pid {0}): strides section before the "
                        "block's module, thread and trace sections are "
                        "complete",
                        Cur->Pid));
  if (Cur->HasSamples || ParallelSeen)
    return fail(formatv("process (pid {0}): strides section after the {1} "
                        "section",
                        Cur->Pid, ParallelSeen ? "parallel" : "samples"));
  if (StridesSeen == ExpectedStrides)
    return moreThanHeader("strides", ExpectedStrides);
  uint32_t Idx = StridesSeen++;
  uint64_t Size = C.remaining();
  if (Error E = needBytes(C, sizeof(raw::StridesRecord),
                          formatv("strides {0} of process (pid {1})", Idx,
                                  Cur->Pid)))
    return E;
  uint32_t ModIdx = C.u32();
  uint32_t NumSites = C.u32();
  uint32_t Reserved0 = C.u32();
  uint32_t Reserved1 = C.u32();
  std::string What = formatv("strides {0} (module {1})", Idx, ModIdx);
  if (Reserved0 || Reserved1)
    return fail(formatv("{0}: reserved fields are {1} and {2}, not 0", What,
                        Reserved0, Reserved1));
  if (ModIdx >= Cur->Modules.size())
    return fail(formatv("{0}: module index out of range (the process has {1} "
                        "modules)",
                        What, Cur->Modules.size()));
  // One section per module, in module order: the site table stays grouped.
  if (!Cur->Sites.empty() && ModIdx <= Cur->Sites.back().Module)
    return fail(formatv("{0}: module index does not follow the previous "
                        "strides section's ({1})",
                        What, Cur->Sites.back().Module));
  if (uint64_t(NumSites) * sizeof(raw::SiteRecord) > C.remaining())
    return fail(formatv("{0}: {1} site records overrun the section", What,
                        NumSites));
  constexpr uint32_t KnownFlags = activetime::abi::MS_Store |
                                  activetime::abi::MS_Static |
                                  activetime::abi::MS_InLoop;
  for (uint32_t I = 0; I < NumSites; ++I) {
    if (C.remaining() < sizeof(raw::SiteRecord))
      return fail(formatv("{0}: site record {1} overruns the section", What,
                          I));
    MemSite S;
    S.Module = ModIdx;
    S.Hash = C.u64();
    S.StaticStride = int64_t(C.u64());
    S.Line = C.u32();
    S.Column = C.u32();
    S.AccessSize = C.u32();
    S.Flags = C.u32();
    S.LoopLine = C.u32();
    S.LoopDepth = C.u32();
    S.Executions = C.u64();
    S.Observations = C.u64();
    S.Differences = C.u64();
    S.Adjacent = C.u64();
    S.ZeroDiffs = C.u64();
    S.Gcd = C.u64();
    S.Dominant = int64_t(C.u64());
    S.DominantCount = C.u64();
    S.IterTicks = C.u64();
    S.ProbeTicks = C.u64();
    S.MinStepTicks = C.u64();
    uint32_t FuncLen = C.u32();
    uint32_t FileLen = C.u32();
    if (uint64_t(FuncLen) + FileLen > C.remaining())
      return fail(formatv("{0}: site {1}: function ({2} bytes) and file ({3} "
                          "bytes) overrun the section",
                          What, I, FuncLen, FileLen));
    S.Func = C.bytes(FuncLen).str();
    S.File = C.bytes(FileLen).str();
    if (S.Flags & ~KnownFlags)
      return fail(formatv("{0}: site {1}: unknown flags {2:x}", What, I,
                          S.Flags));
    if (S.AccessSize == 0)
      return fail(formatv("{0}: site {1}: access size is 0", What, I));
    if ((S.Flags & activetime::abi::MS_Static) && S.Executions)
      return fail(formatv("{0}: site {1}: static site with {2} probe "
                          "executions",
                          What, I, S.Executions));
    // Each count bounds the next: a wrong one means a corrupt record.
    if (S.Observations > S.Executions || S.Differences > S.Observations ||
        S.Adjacent > S.Differences || S.ZeroDiffs > S.Differences ||
        S.DominantCount > S.Adjacent)
      return fail(formatv("{0}: site {1}: inconsistent counts (executions "
                          "{2}, observations {3}, differences {4}, adjacent "
                          "{5}, zero {6}, dominant {7})",
                          What, I, S.Executions, S.Observations,
                          S.Differences, S.Adjacent, S.ZeroDiffs,
                          S.DominantCount));
    // The probe ran inside the steps it is measured in.
    if (S.ProbeTicks > S.IterTicks)
      return fail(formatv("{0}: site {1}: probe ticks {2} exceed the steps' "
                          "ticks {3}",
                          What, I, S.ProbeTicks, S.IterTicks));
    if (S.DominantCount && S.MinStepTicks > S.IterTicks / S.DominantCount)
      return fail(formatv("{0}: site {1}: shortest step {2} ticks exceeds "
                          "the mean of the steps",
                          What, I, S.MinStepTicks));
    Cur->Sites.push_back(std::move(S));
  }
  return checkPadding(C, Size, What);
}

Expected<Profile> Parser::parse(StringRef Buf) {
  if (Buf.size() < sizeof(raw::kMagic) ||
      std::memcmp(Buf.data(), raw::kMagic, sizeof(raw::kMagic)) != 0)
    return fail("not an ActiveTime raw profile (bad magic)");
  if (Buf.size() < sizeof(raw::FileHeader))
    return fail(formatv("truncated: file has {0} bytes, the header alone "
                        "needs {1}",
                        Buf.size(), sizeof(raw::FileHeader)));
  Cursor H(Buf.substr(sizeof(raw::kMagic)));
  uint32_t Version = H.u32();
  uint32_t HeaderSize = H.u32();
  uint64_t FileSize = H.u64();
  uint32_t NumSections = H.u32();
  uint32_t Flags = H.u32();
  if (Version > raw::kVersion)
    return fail(formatv("format version {0} is newer than supported (this "
                        "activetime reads version {1})",
                        Version, raw::kVersion));
  if (Version < raw::kVersion)
    return fail(formatv("format version {0} is older than supported (this "
                        "activetime reads version {1}; re-profile with the "
                        "current runtime)",
                        Version, raw::kVersion));
  if (HeaderSize != sizeof(raw::FileHeader))
    return fail(formatv("bad header size {0} (version {1} has {2})",
                        HeaderSize, Version, sizeof(raw::FileHeader)));
  if (FileSize > Buf.size())
    return fail(formatv("truncated: header says {0} bytes, file has {1}",
                        FileSize, Buf.size()));
  if (FileSize < Buf.size())
    return fail(formatv("trailing garbage: header says {0} bytes, file has "
                        "{1}",
                        FileSize, Buf.size()));
  if (Flags & ~uint32_t(raw::FH_Merged))
    return fail(formatv("unknown file flags {0:x}", Flags));
  Prof.Merged = Flags & raw::FH_Merged;

  uint64_t Off = sizeof(raw::FileHeader);
  for (uint32_t S = 0; S < NumSections; ++S) {
    if (Buf.size() - Off < sizeof(raw::SectionHeader))
      return fail(formatv("section {0} of {1}: header at offset {2} overruns "
                          "the file ({3} bytes)",
                          S, NumSections, Off, Buf.size()));
    Cursor SH(Buf.substr(Off, sizeof(raw::SectionHeader)));
    uint32_t Kind = SH.u32();
    uint32_t Reserved = SH.u32();
    uint64_t Size = SH.u64();
    Off += sizeof(raw::SectionHeader);
    if (Kind != raw::SK_Process && Kind != raw::SK_Module &&
        Kind != raw::SK_Thread && Kind != raw::SK_Trace &&
        Kind != raw::SK_Parallel && Kind != raw::SK_Samples &&
        Kind != raw::SK_Strides)
      return fail(formatv("section {0} at offset {1}: unknown section kind "
                          "{2}",
                          S, Off - sizeof(raw::SectionHeader), Kind));
    if (Reserved != 0)
      return fail(formatv("section {0} ({1}): reserved field is {2}, not 0",
                          S, kindName(Kind), Reserved));
    if (Size % 8)
      return fail(formatv("section {0} ({1}): size {2} is not a multiple of "
                          "8",
                          S, kindName(Kind), Size));
    if (Size > Buf.size() - Off)
      return fail(formatv("section {0} ({1}): {2} bytes at offset {3} overrun "
                          "the file ({4} bytes)",
                          S, kindName(Kind), Size, Off, Buf.size()));
    Cursor Payload(Buf.substr(Off, Size));
    Off += Size;
    Error E = Error::success();
    switch (Kind) {
    case raw::SK_Process:
      E = parseProcess(Payload);
      break;
    case raw::SK_Module:
      E = parseModule(Payload);
      break;
    case raw::SK_Thread:
      E = parseThread(Payload);
      break;
    case raw::SK_Trace:
      E = parseTrace(Payload);
      break;
    case raw::SK_Parallel:
      E = parseParallel(Payload);
      break;
    case raw::SK_Samples:
      E = parseSamples(Payload);
      break;
    case raw::SK_Strides:
      E = parseStrides(Payload);
      break;
    }
    if (E)
      return std::move(E);
  }
  if (Off != Buf.size())
    return fail(formatv("{0} bytes after the last of {1} sections",
                        Buf.size() - Off, NumSections));
  if (Error E = finishBlock())
    return std::move(E);
  if (Prof.Processes.empty())
    return fail("the profile contains no process");
  return std::move(Prof);
}

} // namespace

Expected<Profile> profile::readProfile(MemoryBufferRef Buffer) {
  return Parser().parse(Buffer.getBuffer());
}

Expected<Profile> profile::readProfile(StringRef Path) {
  // Not null-terminated and never mmap-ed lazily past the end: the parser
  // needs only the bytes.
  ErrorOr<std::unique_ptr<MemoryBuffer>> BufOrErr = MemoryBuffer::getFile(
      Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!BufOrErr)
    return createStringError(BufOrErr.getError(),
                             Path + ": " + BufOrErr.getError().message());
  Expected<Profile> P = readProfile((*BufOrErr)->getMemBufferRef());
  if (!P)
    return createStringError(inconvertibleErrorCode(),
                             Path + ": " + toString(P.takeError()));
  return P;
}
