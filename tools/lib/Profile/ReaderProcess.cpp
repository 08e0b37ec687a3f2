//===- ReaderProcess.cpp - Process and module sections --------------------===//
//
// Part of ActiveTime. The raw reader's parsers of the sections that open a
// process block: the process section (its record, executable and build id)
// and its module sections (each module's record and function table).
//
//===----------------------------------------------------------------------===//

#include "RawReader.h"

#include "activetime/abi.h"

#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::profile::rawreader;

/// A process section opens a block: the previous one must be complete.
Error Parser::checkProcessOrder() { return finishBlock(); }

Error Parser::parseProcess(Cursor C) {
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
  ExpectedBlockCounts = In.get(&R::NumBlockCounts);
  ModulesSeen = ThreadsSeen = TracesSeen = StridesSeen = 0;
  ParallelSeen = false;
  if (Error E = checkProcessRecord(In))
    return E;
  uint32_t ExeLen = In.get(&R::ExeLen);
  uint32_t BuildIdLen = In.get(&R::BuildIdLen);
  uint32_t HostLen = In.get(&R::HostLen);
  if (uint64_t(ExeLen) + BuildIdLen + HostLen > C.remaining())
    return fail(formatv("process (pid {0}): executable name ({1} bytes), "
                        "build id ({2} bytes) and host name ({3} bytes) "
                        "overrun the section",
                        Cur->Pid, ExeLen, BuildIdLen, HostLen));
  // After the run's end is no time into it.
  uint32_t ThreadedUs = Cur->ThreadedByRuntimeUs;
  if (ThreadedUs != raw::kNotThreadedByRuntime &&
      Cur->EndTick >= Cur->StartTick) {
    uint64_t RunUs = spanNs(Cur->EndTick - Cur->StartTick) / 1000;
    if (ThreadedUs > RunUs + 1)
      return fail(formatv("process (pid {0}): the runtime's thread started "
                          "{1} us into a run of {2} us",
                          Cur->Pid, ThreadedUs, RunUs));
  }
  Cur->Exe = C.bytes(ExeLen).str();
  Cur->BuildId = C.bytes(BuildIdLen).str();
  Cur->Host = C.bytes(HostLen).str();
  return checkPadding(C, Size, formatv("process (pid {0})", Cur->Pid).str());
}

/// The process record's values, already mapped into *Cur.
Error Parser::checkProcessRecord(const RecordIn<raw::ProcessRecord> &In) {
  const OverheadTable &OH = Cur->Overhead;
  uint32_t OFlags =
      In.nested(&raw::ProcessRecord::Overhead).get(&raw::OverheadRecord::Flags);
  if (Cur->TickRate == 0)
    return fail(formatv("process (pid {0}): tick rate is 0", Cur->Pid));
  // Every clock a runtime reads ticks between a kilohertz and a terahertz;
  // a rate outside turns every figure into nonsense without a warning.
  if (Cur->TickRate < kMinTickRate || Cur->TickRate > kMaxTickRate)
    return fail(formatv("process (pid {0}): tick rate {1} ticks/s is not a "
                        "clock's (expected {2} to {3})",
                        Cur->Pid, Cur->TickRate, kMinTickRate, kMaxTickRate));
  if (ExpectedStrides > ExpectedModules)
    return fail(formatv("process (pid {0}): {1} strides sections for {2} "
                        "modules",
                        Cur->Pid, ExpectedStrides, ExpectedModules));
  if (OH.Source != raw::OS_Calibrated && OH.Source != raw::OS_Option &&
      OH.Source != raw::OS_Uncalibrated)
    return fail(formatv("process (pid {0}): unknown overhead source {1}",
                        Cur->Pid, OH.Source));
  if (OFlags & ~uint32_t(raw::OF_Known))
    return fail(formatv("process (pid {0}): unknown overhead flags {1:x}",
                        Cur->Pid, OFlags));
  if (Cur->CodeSampleFlags & ~uint32_t(raw::CSF_Known))
    return fail(formatv("process (pid {0}): unknown code sampling flags {1:x}",
                        Cur->Pid, Cur->CodeSampleFlags));
  if ((Cur->CodeSampleFlags & raw::CSF_NotStarted) && Cur->CodeSamplePeriodNs)
    return fail(formatv("process (pid {0}): code samples not started, yet a "
                        "period of {1} ns",
                        Cur->Pid, Cur->CodeSamplePeriodNs));
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

Error Parser::checkModuleOrder() {
  if (ThreadsSeen || TracesSeen || StridesSeen)
    return fail(formatv("process (pid {0}): module section after a {1} "
                        "section",
                        Cur->Pid,
                        StridesSeen ? "strides"
                                    : (TracesSeen ? "trace" : "thread")));
  if (ModulesSeen == ExpectedModules)
    return moreThanHeader("module", ExpectedModules);
  return Error::success();
}

Error Parser::parseModule(Cursor C) {
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
