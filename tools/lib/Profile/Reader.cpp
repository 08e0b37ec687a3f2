//===- Reader.cpp - Raw profile reader --------------------------------------===//
//
// Part of ActiveTime. Parses a raw profile (raw_format.h) into the model of
// Profile.h, one parser per section kind; which model field each record
// field fills is RawMapping.h's, shared with the writer. The input may be
// truncated or garbage: the file header's and every section's checksum are
// verified before their fields are trusted, every record is bounds-checked
// before it is read (little-endian loads, the buffer need not be aligned),
// and every inconsistency becomes a one-line error instead of a crash later.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/Checksum.h"
#include "activetime/Profile/Profile.h"
#include "activetime/Profile/RawMapping.h"
#include "activetime/abi.h"
#include "activetime/latency.h"
#include "activetime/raw_format.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstddef>
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
  /// The next record, read through RawMapping<Rec>.
  template <class Rec> RecordIn<Rec> record() {
    RecordIn<Rec> R(Data.data() + Pos);
    Pos += sizeof(Rec);
    return R;
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
  return nullptr; // not a section kind of this version
}

/// "section 5 (thread)", or "section 5 (kind 9)" for an unknown kind.
std::string sectionName(uint32_t Index, uint32_t Kind) {
  if (const char *Name = kindName(Kind))
    return formatv("section {0} ({1})", Index, Name).str();
  return formatv("section {0} (kind {1})", Index, Kind).str();
}

/// What a checksum mismatch says after naming the header or section.
constexpr const char *kChecksumMismatch =
    "checksum does not match its contents (the file is corrupt or was "
    "modified)";

class Parser {
public:
  Expected<Profile> parse(StringRef Buf);

private:
  Error parseFileHeader(StringRef Buf, uint32_t &NumSections);
  Error checkVersion(StringRef Buf);
  /// The header of section \p Index at \p Off: in the file, checksum
  /// verified, kind known, size a multiple of 8.
  Error checkSectionHeader(StringRef Buf, uint32_t Index, uint64_t Off,
                           uint32_t &Kind, uint64_t &Size);
  Error parseSection(uint32_t Kind, Cursor Payload);
  Error parseProcess(Cursor C);
  Error checkProcessRecord(const RecordIn<raw::ProcessRecord> &In);
  Error parseModule(Cursor C);
  Error parseInlinedAway(Cursor &C, Module &M, uint32_t ModIdx, uint32_t Num,
                         const std::string &What);
  Error parseFunctions(Cursor &C, uint32_t ModIdx, uint32_t Num,
                       const std::string &What);
  Error parseThread(Cursor C);
  Error checkThreadOrder();
  Error checkThreadRecord(const Thread &T, uint32_t NumLatency,
                          const std::string &What);
  Error parseNodes(Cursor &C, Thread &T, uint32_t Num, const std::string &What);
  Error checkNode(const Node &N, uint32_t I, const std::string &What);
  Error parseCounts(Cursor &C, Thread &T, uint32_t Num,
                    const std::string &What);
  Error parseLatency(Cursor &C, Thread &T, uint32_t Num,
                     const std::string &What);
  Error parseCodeSamples(Cursor &C, Thread &T, uint32_t Num,
                         const std::string &What);
  Error parseTrace(Cursor C);
  Error checkTraceOrder();
  Error parseEvents(Cursor &C, Trace &T, uint64_t Num, const std::string &What);
  Error parseSwitches(Cursor &C, Trace &T, uint64_t Num,
                      const std::string &What);
  Error parseParallel(Cursor C);
  Error parseRegions(Cursor &C, uint32_t Num, uint32_t StringBytes,
                     std::vector<std::pair<uint32_t, uint32_t>> &PathRefs,
                     const std::string &What);
  Error parseRegionThreads(Cursor &C, uint32_t Num, uint32_t NumRegions,
                           const std::string &What);
  Error parseSamples(Cursor C);
  Error checkSample(const SampleSet &S, uint64_t I, const std::string &What);
  Error parseStrides(Cursor C);
  Error checkStridesOrder();
  Error parseSite(Cursor &C, uint32_t ModIdx, uint32_t I,
                  const std::string &What);
  Error checkSite(const MemSite &S, uint32_t I, const std::string &What);
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
  using R = raw::ProcessRecord;
  RecordIn<R> In = C.record<R>();
  In.map(*Cur);
  ExpectedModules = In.get(&R::NumModules);
  ExpectedThreads = In.get(&R::NumThreads);
  ExpectedTraces = In.get(&R::NumTraces);
  ExpectedStrides = In.get(&R::NumStrides);
  ModulesSeen = ThreadsSeen = TracesSeen = StridesSeen = 0;
  ParallelSeen = false;
  if (Error E = checkProcessRecord(In))
    return E;
  uint32_t ExeLen = In.get(&R::ExeLen);
  uint32_t BuildIdLen = In.get(&R::BuildIdLen);
  if (uint64_t(ExeLen) + BuildIdLen > C.remaining())
    return fail(formatv("process (pid {0}): executable name ({1} bytes) and "
                        "build id ({2} bytes) overrun the section",
                        Cur->Pid, ExeLen, BuildIdLen));
  Cur->Exe = C.bytes(ExeLen).str();
  Cur->BuildId = C.bytes(BuildIdLen).str();
  return checkPadding(C, Size, formatv("process (pid {0})", Cur->Pid).str());
}

/// The process record's values, already mapped into *Cur.
Error Parser::checkProcessRecord(const RecordIn<raw::ProcessRecord> &In) {
  const OverheadTable &OH = Cur->Overhead;
  uint32_t OFlags =
      In.nested(&raw::ProcessRecord::Overhead).get(&raw::OverheadRecord::Flags);
  uint32_t Reserved = In.get(&raw::ProcessRecord::Reserved);
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
  if (Reserved != 0)
    return fail(formatv("process (pid {0}): reserved field is {1}, not 0",
                        Cur->Pid, Reserved));
  if (Cur->TickStep256 && Cur->TickStep256 < 256)
    return fail(formatv("process (pid {0}): tick step {1}/256 ticks is below "
                        "one tick",
                        Cur->Pid, Cur->TickStep256));
  if (Cur->EndTick < Cur->StartTick)
    return fail(formatv("process (pid {0}): end tick {1} is before start "
                        "tick {2}",
                        Cur->Pid, Cur->EndTick, Cur->StartTick));
  return Error::success();
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
  using R = raw::ModuleRecord;
  Module M;
  RecordIn<R> In = C.record<R>();
  In.map(M);
  uint32_t NameLen = In.get(&R::NameLen), PathLen = In.get(&R::PathLen);
  if (uint64_t(NameLen) + PathLen > C.remaining())
    return fail(formatv("{0}: name ({1} bytes) and path ({2} bytes) overrun "
                        "the section",
                        What, NameLen, PathLen));
  M.Name = C.bytes(NameLen).str();
  M.Path = C.bytes(PathLen).str();
  if (Error E = parseFunctions(C, ModIdx, In.get(&R::NumFuncs), What))
    return E;
  if (uint32_t Reserved = In.get(&R::Reserved))
    return fail(formatv("{0}: reserved field is {1}, not 0", What, Reserved));
  if (Error E = parseInlinedAway(C, M, ModIdx, In.get(&R::NumInlinedAway), What))
    return E;
  Cur->Modules.push_back(std::move(M));
  return checkPadding(C, Size, What);
}

/// v9: the records of the functions inlined away (address 0), after the
/// module's functions; they go into the module, not the function table.
Error Parser::parseInlinedAway(Cursor &C, Module &M, uint32_t ModIdx,
                               uint32_t Num, const std::string &What) {
  size_t First = Cur->Functions.size();
  if (Error E = parseFunctions(C, ModIdx, Num, What + " (inlined away)"))
    return E;
  for (size_t I = First; I < Cur->Functions.size(); ++I) {
    Function &F = Cur->Functions[I];
    if (F.Addr || (F.Flags & ~uint32_t(abi::FF_LocalLinkage)) || F.Name.empty())
      return fail(formatv("{0}: inlined-away function {1}: an address, "
                          "unknown flags or no name",
                          What, I - First));
    M.InlinedAway.push_back(std::move(F));
  }
  Cur->Functions.resize(First);
  return Error::success();
}

/// The module's function records, appended to the process-wide table.
Error Parser::parseFunctions(Cursor &C, uint32_t ModIdx, uint32_t Num,
                             const std::string &What) {
  // Bound the count by the bytes present before reserving anything.
  if (uint64_t(Num) * sizeof(raw::FuncRecord) > C.remaining())
    return fail(formatv("{0}: {1} function records overrun the section", What,
                        Num));
  Cur->Functions.reserve(Cur->Functions.size() + Num);
  for (uint32_t I = 0; I < Num; ++I) {
    if (C.remaining() < sizeof(raw::FuncRecord))
      return fail(formatv("{0}: function record {1} overruns the section",
                          What, I));
    Function F;
    F.Module = ModIdx;
    RecordIn<raw::FuncRecord> In = C.record<raw::FuncRecord>();
    In.map(F);
    uint32_t NameLen = In.get(&raw::FuncRecord::NameLen);
    uint32_t FileLen = In.get(&raw::FuncRecord::FileLen);
    if (uint64_t(NameLen) + FileLen > C.remaining())
      return fail(formatv("{0}: function {1}: name ({2} bytes) and file ({3} "
                          "bytes) overrun the section",
                          What, I, NameLen, FileLen));
    F.Name = C.bytes(NameLen).str();
    F.File = C.bytes(FileLen).str();
    Cur->Functions.push_back(std::move(F));
  }
  return Error::success();
}

Error Parser::checkThreadOrder() {
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
  return Error::success();
}

Error Parser::parseThread(Cursor C) {
  if (Error E = checkThreadOrder())
    return E;
  uint32_t ThreadIdx = ThreadsSeen++;
  if (Error E = needBytes(C, sizeof(raw::ThreadRecord),
                          formatv("thread {0} of process (pid {1})", ThreadIdx,
                                  Cur->Pid)))
    return E;
  using R = raw::ThreadRecord;
  Thread T;
  RecordIn<R> In = C.record<R>();
  In.map(T);
  uint32_t NumNodes = In.get(&R::NumNodes);
  uint32_t NumCounts = In.get(&R::NumCounts);
  uint32_t NumCode = In.get(&R::NumCodeSamples);
  uint32_t NumLatency = In.get(&R::NumLatency);
  std::string What = formatv("thread {0} (tid {1})", ThreadIdx, T.Tid);
  if (Error E = checkThreadRecord(T, NumLatency, What))
    return E;
  uint64_t Need = uint64_t(NumNodes) * sizeof(raw::NodeRecord) +
                  uint64_t(NumCounts) * sizeof(raw::CountRecord) +
                  uint64_t(NumCode) * sizeof(raw::CodeSampleRecord) +
                  uint64_t(NumLatency) * sizeof(raw::LatencyRecord);
  if (Need != C.remaining())
    return fail(formatv("{0}: {1} nodes, {2} call counts, {3} code samples "
                        "and {4} latency buckets need {5} bytes, the section "
                        "has {6}",
                        What, NumNodes, NumCounts, NumCode, NumLatency, Need,
                        C.remaining()));
  if (Error E = parseNodes(C, T, NumNodes, What))
    return E;
  if (Error E = parseCounts(C, T, NumCounts, What))
    return E;
  if (Error E = parseCodeSamples(C, T, NumCode, What))
    return E;
  if (Error E = parseLatency(C, T, NumLatency, What))
    return E;
  Cur->Threads.push_back(std::move(T));
  return Error::success();
}

Error Parser::checkThreadRecord(const Thread &T, uint32_t NumLatency,
                                const std::string &What) {
  if (T.Flags & ~uint32_t(raw::TF_Known))
    return fail(formatv("{0}: unknown thread flags {1:x}", What, T.Flags));
  if (T.EndTick < T.StartTick)
    return fail(formatv("{0}: end tick {1} is before start tick {2}", What,
                        T.EndTick, T.StartTick));
  if (T.SwitchSource != raw::SS_None && T.SwitchSource != raw::SS_Perf &&
      T.SwitchSource != raw::SS_CpuClock)
    return fail(formatv("{0}: unknown switch source {1}", What,
                        T.SwitchSource));
  if (NumLatency && !(T.Flags & raw::TF_Latency))
    return fail(formatv("{0}: {1} latency buckets without the latency flag",
                        What, NumLatency));
  return Error::success();
}

/// The caller checked that the section holds exactly its records.
Error Parser::parseNodes(Cursor &C, Thread &T, uint32_t Num,
                         const std::string &What) {
  T.Nodes.resize(Num);
  for (uint32_t I = 0; I < Num; ++I) {
    C.record<raw::NodeRecord>().map(T.Nodes[I]);
    if (Error E = checkNode(T.Nodes[I], I, What))
      return E;
  }
  return Error::success();
}

Error Parser::checkNode(const Node &N, uint32_t I, const std::string &What) {
  uint64_t NumFuncs = Cur->Functions.size();
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
  return Error::success();
}

Error Parser::parseCounts(Cursor &C, Thread &T, uint32_t Num,
                          const std::string &What) {
  uint64_t NumFuncs = Cur->Functions.size();
  T.Counts.resize(Num);
  for (uint32_t I = 0; I < Num; ++I) {
    CallCount &CC = T.Counts[I];
    RecordIn<raw::CountRecord> In = C.record<raw::CountRecord>();
    In.map(CC);
    uint32_t Flags = In.get(&raw::CountRecord::Flags);
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

/// Latency records (v9): ascending by (node, bucket), each bucket in the
/// layout, each count positive; with TF_Latency every node's counts sum to
/// (with TF_SampledCallsApart: at most)
/// its calls (checked once all records are in).
Error Parser::parseLatency(Cursor &C, Thread &T, uint32_t Num,
                           const std::string &What) {
  uint32_t PrevNode = 0, PrevBucket = 0;
  for (uint32_t I = 0; I < Num; ++I) {
    LatencyCount L;
    RecordIn<raw::LatencyRecord> In = C.record<raw::LatencyRecord>();
    In.map(L);
    uint32_t NodeIdx = In.get(&raw::LatencyRecord::Node);
    if (NodeIdx >= T.Nodes.size())
      return fail(formatv("{0}: latency bucket {1}: node {2} out of range",
                          What, I, NodeIdx));
    if (L.Bucket >= activetime::latency::kLatencyBuckets)
      return fail(formatv("{0}: latency bucket {1}: bucket index {2} out of "
                          "range (there are {3})",
                          What, I, L.Bucket,
                          activetime::latency::kLatencyBuckets));
    if (L.Count == 0 || L.Count > kMaxTicks)
      return fail(formatv("{0}: latency bucket {1}: implausible count {2}",
                          What, I, L.Count));
    if (I && (NodeIdx < PrevNode ||
              (NodeIdx == PrevNode && L.Bucket <= PrevBucket)))
      return fail(formatv("{0}: latency bucket {1}: not ascending by node "
                          "and bucket",
                          What, I));
    PrevNode = NodeIdx;
    PrevBucket = L.Bucket;
    T.Nodes[NodeIdx].Latency.push_back(L);
  }
  if (!(T.Flags & raw::TF_Latency))
    return Error::success();
  for (size_t I = 0; I < T.Nodes.size(); ++I) {
    uint64_t Sum = 0;
    for (const LatencyCount &L : T.Nodes[I].Latency)
      Sum += L.Count; // each <= 2^60, at most 496 of them: no overflow
    // Sampled calls set apart may be missing; no call is counted twice.
    bool Apart = T.Flags & raw::TF_SampledCallsApart;
    if (Apart ? Sum > T.Nodes[I].Calls : Sum != T.Nodes[I].Calls)
      return fail(formatv("{0}: node {1}: latency counts sum to {2}, the "
                          "node has {3} calls",
                          What, I, Sum, T.Nodes[I].Calls));
  }
  return Error::success();
}

Error Parser::parseCodeSamples(Cursor &C, Thread &T, uint32_t Num,
                               const std::string &What) {
  T.CodeSamples.resize(Num);
  for (uint32_t I = 0; I < Num; ++I) {
    CodeSample &S = T.CodeSamples[I];
    C.record<raw::CodeSampleRecord>().map(S);
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

Error Parser::checkTraceOrder() {
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
  return Error::success();
}

Error Parser::parseTrace(Cursor C) {
  if (Error E = checkTraceOrder())
    return E;
  uint32_t TraceIdx = TracesSeen++;
  if (Error E = needBytes(C, sizeof(raw::TraceRecord),
                          formatv("trace {0} of process (pid {1})", TraceIdx,
                                  Cur->Pid)))
    return E;
  Trace T;
  RecordIn<raw::TraceRecord> In = C.record<raw::TraceRecord>();
  In.map(T);
  uint64_t NumEvents = In.get(&raw::TraceRecord::NumEvents);
  uint64_t NumSwitches = In.get(&raw::TraceRecord::NumSwitches);
  std::string What = formatv("trace {0} (tid {1})", TraceIdx, T.Tid);
  if (uint32_t Reserved = In.get(&raw::TraceRecord::Reserved))
    return fail(formatv("{0}: reserved field is {1}, not 0", What, Reserved));
  if (T.BufferFlags & ~raw::TBF_Known)
    return fail(formatv("{0}: unknown buffer flags {1:x}", What,
                        T.BufferFlags));
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
  if (Error E = parseEvents(C, T, NumEvents, What))
    return E;
  if (Error E = parseSwitches(C, T, NumSwitches, What))
    return E;
  Cur->Traces.push_back(std::move(T));
  return Error::success();
}

Error Parser::parseEvents(Cursor &C, Trace &T, uint64_t Num,
                          const std::string &What) {
  uint64_t NumFuncs = Cur->Functions.size();
  T.Events.resize(Num);
  for (uint64_t I = 0; I < Num; ++I) {
    TraceEvent &E = T.Events[I];
    RecordIn<raw::TraceEvent> In = C.record<raw::TraceEvent>();
    In.map(E);
    if (uint32_t Reserved = In.get(&raw::TraceEvent::Reserved))
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
  return Error::success();
}

Error Parser::parseSwitches(Cursor &C, Trace &T, uint64_t Num,
                            const std::string &What) {
  T.Switches.resize(Num);
  for (uint64_t I = 0; I < Num; ++I) {
    SwitchEvent &S = T.Switches[I];
    C.record<raw::SwitchEvent>().map(S);
    // Recorded as seen by this thread: it is the one switched out or in.
    if ((S.OldTid == T.Tid) == (S.NewTid == T.Tid))
      return fail(formatv("{0}: switch event {1} does not switch the traced "
                          "thread either out or in (old tid {2}, new tid {3})",
                          What, I, S.OldTid, S.NewTid));
  }
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
  using R = raw::ParallelRecord;
  Parallel &P = Cur->Par;
  P.Present = true;
  RecordIn<R> In = C.record<R>();
  In.map(P);
  uint32_t NumRegions = In.get(&R::NumRegions);
  uint32_t NumEntries = In.get(&R::NumEntries);
  uint32_t StringBytes = In.get(&R::StringBytes);
  if (P.Status > raw::OS_Disabled)
    return fail(formatv("{0}: unknown OpenMP status {1}", What, P.Status));
  uint64_t Need = uint64_t(NumRegions) * sizeof(raw::RegionRecord) +
                  uint64_t(NumEntries) * sizeof(raw::RegionThreadRecord) +
                  StringBytes;
  if (Need > C.remaining())
    return fail(formatv("{0}: {1} regions, {2} entries and {3} string bytes "
                        "overrun the section",
                        What, NumRegions, NumEntries, StringBytes));
  // The paths follow the entries: remember where each region's lies.
  std::vector<std::pair<uint32_t, uint32_t>> PathRefs;
  if (Error E = parseRegions(C, NumRegions, StringBytes, PathRefs, What))
    return E;
  if (Error E = parseRegionThreads(C, NumEntries, NumRegions, What))
    return E;
  StringRef Strings = C.bytes(StringBytes);
  for (size_t I = 0; I < PathRefs.size(); ++I)
    P.Regions[I].Path =
        Strings.substr(PathRefs[I].first, PathRefs[I].second).str();
  return checkPadding(C, Size, What);
}

Error Parser::parseRegions(Cursor &C, uint32_t Num, uint32_t StringBytes,
                           std::vector<std::pair<uint32_t, uint32_t>> &PathRefs,
                           const std::string &What) {
  using R = raw::RegionRecord;
  for (uint32_t I = 0; I < Num; ++I) {
    Region Reg;
    RecordIn<R> In = C.record<R>();
    In.map(Reg);
    uint32_t Off = In.get(&R::PathOffset), Len = In.get(&R::PathLen);
    if (uint32_t Reserved = In.get(&R::Reserved))
      return fail(formatv("{0}: region {1}: reserved field is {2}, not 0",
                          What, I, Reserved));
    if (uint64_t(Off) + Len > StringBytes)
      return fail(formatv("{0}: region {1}: path ({2} bytes at {3}) outside "
                          "the {4} string bytes",
                          What, I, Len, Off, StringBytes));
    PathRefs.push_back({Off, Len});
    Cur->Par.Regions.push_back(std::move(Reg));
  }
  return Error::success();
}

Error Parser::parseRegionThreads(Cursor &C, uint32_t Num, uint32_t NumRegions,
                                 const std::string &What) {
  using R = raw::RegionThreadRecord;
  for (uint32_t I = 0; I < Num; ++I) {
    RegionThread E;
    RecordIn<R> In = C.record<R>();
    In.map(E);
    uint32_t Reserved = In.get(&R::Reserved);
    if (E.Region >= NumRegions || Reserved)
      return fail(formatv("{0}: entry {1}: region index {2} out of range (of "
                          "{3}) or reserved field {4} not 0",
                          What, I, E.Region, NumRegions, Reserved));
    Cur->Par.Entries.push_back(E);
  }
  return Error::success();
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
  using R = raw::SamplesRecord;
  SampleSet &S = Cur->Samples;
  RecordIn<R> In = C.record<R>();
  In.map(S);
  uint64_t Num = In.get(&R::NumSamples);
  std::string What = formatv("samples of process (pid {0})", Cur->Pid);
  if (In.get(&R::Reserved))
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
    C.record<raw::SampleRecord>().map(S.Samples[I]);
    if (Error E = checkSample(S, I, What))
      return E;
  }
  Cur->HasSamples = true;
  return Error::success();
}

Error Parser::checkSample(const SampleSet &S, uint64_t I,
                          const std::string &What) {
  const Sample &X = S.Samples[I];
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
  return Error::success();
}

Error Parser::checkStridesOrder() {
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
  return Error::success();
}

Error Parser::parseStrides(Cursor C) {
  if (Error E = checkStridesOrder())
    return E;
  uint32_t Idx = StridesSeen++;
  uint64_t Size = C.remaining();
  if (Error E = needBytes(C, sizeof(raw::StridesRecord),
                          formatv("strides {0} of process (pid {1})", Idx,
                                  Cur->Pid)))
    return E;
  // No model object: the sites carry their module (see RawMapping.h).
  using R = raw::StridesRecord;
  RecordIn<R> In = C.record<R>();
  uint32_t ModIdx = In.get(&R::Module);
  uint32_t NumSites = In.get(&R::NumSites);
  uint32_t Reserved0 = In.get(&R::Reserved0);
  uint32_t Reserved1 = In.get(&R::Reserved1);
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
  for (uint32_t I = 0; I < NumSites; ++I)
    if (Error E = parseSite(C, ModIdx, I, What))
      return E;
  return checkPadding(C, Size, What);
}

Error Parser::parseSite(Cursor &C, uint32_t ModIdx, uint32_t I,
                        const std::string &What) {
  if (C.remaining() < sizeof(raw::SiteRecord))
    return fail(formatv("{0}: site record {1} overruns the section", What, I));
  MemSite S;
  S.Module = ModIdx;
  RecordIn<raw::SiteRecord> In = C.record<raw::SiteRecord>();
  In.map(S);
  uint32_t FuncLen = In.get(&raw::SiteRecord::FuncLen);
  uint32_t FileLen = In.get(&raw::SiteRecord::FileLen);
  if (uint64_t(FuncLen) + FileLen > C.remaining())
    return fail(formatv("{0}: site {1}: function ({2} bytes) and file ({3} "
                        "bytes) overrun the section",
                        What, I, FuncLen, FileLen));
  S.Func = C.bytes(FuncLen).str();
  S.File = C.bytes(FileLen).str();
  if (uint32_t Reserved = In.get(&raw::SiteRecord::Reserved))
    return fail(formatv("{0}: site {1}: reserved field is {2}, not 0", What,
                        I, Reserved));
  if (!S.CopyGroup && S.CopyOffset)
    return fail(formatv("{0}: site {1}: copy offset {2} outside a copy group",
                        What, I, S.CopyOffset));
  if (Error E = checkSite(S, I, What))
    return E;
  Cur->Sites.push_back(std::move(S));
  return Error::success();
}

Error Parser::checkSite(const MemSite &S, uint32_t I, const std::string &What) {
  constexpr uint32_t KnownFlags = activetime::abi::MS_Store |
                                  activetime::abi::MS_Static |
                                  activetime::abi::MS_InLoop;
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
  return Error::success();
}

/// The magic, the version and the header size, each checked exactly before
/// the checksum: a file of another version is named as such, not as
/// corrupt.
Error Parser::checkVersion(StringRef Buf) {
  using R = raw::FileHeader;
  if (Buf.size() < sizeof(raw::kMagic) ||
      std::memcmp(Buf.data(), raw::kMagic, sizeof(raw::kMagic)) != 0)
    return fail("not an ActiveTime raw profile (bad magic)");
  if (Buf.size() < offsetof(R, FileSize))
    return fail(formatv("truncated: file has {0} bytes, the header alone "
                        "needs {1}",
                        Buf.size(), sizeof(R)));
  RecordIn<R> H(Buf.data());
  uint32_t Version = H.get(&R::Version);
  if (Version > raw::kVersion)
    return fail(formatv("format version {0} is newer than supported (this "
                        "activetime reads version {1})",
                        Version, raw::kVersion));
  if (Version < raw::kVersion)
    return fail(formatv("format version {0} is older than supported (this "
                        "activetime reads version {1}; re-profile with the "
                        "current runtime)",
                        Version, raw::kVersion));
  if (H.get(&R::HeaderSize) != sizeof(R))
    return fail(formatv("bad header size {0} (version {1} has {2})",
                        H.get(&R::HeaderSize), Version, sizeof(R)));
  if (Buf.size() < sizeof(R))
    return fail(formatv("truncated: file has {0} bytes, the header alone "
                        "needs {1}",
                        Buf.size(), sizeof(R)));
  return Error::success();
}

/// Checks the file header against the buffer; sets Prof.Merged.
Error Parser::parseFileHeader(StringRef Buf, uint32_t &NumSections) {
  if (Error E = checkVersion(Buf))
    return E;
  using R = raw::FileHeader;
  RecordIn<R> H(Buf.data());
  if (H.get(&R::Checksum) != fileHeaderChecksum(Buf))
    return fail(formatv("file header: {0}", kChecksumMismatch));
  uint64_t FileSize = H.get(&R::FileSize);
  uint32_t Flags = H.get(&R::Flags);
  NumSections = H.get(&R::NumSections);
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
  return Error::success();
}

Error Parser::checkSectionHeader(StringRef Buf, uint32_t Index, uint64_t Off,
                                 uint32_t &Kind, uint64_t &Size) {
  using R = raw::SectionHeader;
  RecordIn<R> SH(Buf.data() + Off);
  Kind = SH.get(&R::Kind);
  Size = SH.get(&R::Size);
  uint64_t PayloadOff = Off + sizeof(R);
  // The size first: the checksum covers the payload it delimits.
  if (Size > Buf.size() - PayloadOff)
    return fail(formatv("{0}: {1} bytes at offset {2} overrun the file ({3} "
                        "bytes)",
                        sectionName(Index, Kind), Size, PayloadOff,
                        Buf.size()));
  StringRef Section = Buf.substr(Off, sizeof(R) + Size);
  if (SH.get(&R::Checksum) != sectionChecksum(Section))
    return fail(formatv("{0}: {1}", sectionName(Index, Kind),
                        kChecksumMismatch));
  if (!kindName(Kind))
    return fail(formatv("section {0} at offset {1}: unknown section kind "
                        "{2}",
                        Index, Off, Kind));
  if (Size % 8)
    return fail(formatv("{0}: size {1} is not a multiple of 8",
                        sectionName(Index, Kind), Size));
  return Error::success();
}

Error Parser::parseSection(uint32_t Kind, Cursor Payload) {
  switch (Kind) {
  case raw::SK_Process:
    return parseProcess(Payload);
  case raw::SK_Module:
    return parseModule(Payload);
  case raw::SK_Thread:
    return parseThread(Payload);
  case raw::SK_Trace:
    return parseTrace(Payload);
  case raw::SK_Parallel:
    return parseParallel(Payload);
  case raw::SK_Samples:
    return parseSamples(Payload);
  case raw::SK_Strides:
    return parseStrides(Payload);
  }
  llvm_unreachable("the caller rejected unknown section kinds");
}

Expected<Profile> Parser::parse(StringRef Buf) {
  uint32_t NumSections = 0;
  if (Error E = parseFileHeader(Buf, NumSections))
    return std::move(E);
  uint64_t Off = sizeof(raw::FileHeader);
  for (uint32_t S = 0; S < NumSections; ++S) {
    if (Buf.size() - Off < sizeof(raw::SectionHeader))
      return fail(formatv("section {0} of {1}: header at offset {2} overruns "
                          "the file ({3} bytes)",
                          S, NumSections, Off, Buf.size()));
    uint32_t Kind;
    uint64_t Size;
    if (Error E = checkSectionHeader(Buf, S, Off, Kind, Size))
      return std::move(E);
    Off += sizeof(raw::SectionHeader);
    Cursor Payload(Buf.substr(Off, Size));
    Off += Size;
    if (Error E = parseSection(Kind, Payload))
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
