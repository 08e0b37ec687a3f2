//===- WriterProcess.cpp - Process and module sections --------------------===//
//
// Part of ActiveTime. The raw writer's sections that open a process block:
// the process section and its module sections; and the checks of a
// process's model before anything is written.
//
//===----------------------------------------------------------------------===//

#include "RawWriter.h"

#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::profile::rawwriter;

/// Function ids are implied by module order, so the table must be grouped.
static Error checkFunctions(const Process &P, size_t Idx) {
  uint32_t Prev = 0;
  for (const Function &F : P.Functions) {
    if (F.Module >= P.Modules.size() || F.Module < Prev)
      return fail(formatv("process {0}: function table is not grouped by "
                          "module",
                          Idx));
    Prev = F.Module;
  }
  return Error::success();
}

/// What the reader would reject, or what does not fit the raw format's
/// fields, is refused before anything is written.
Error rawwriter::checkProcess(const Process &P, size_t Idx) {
  if (P.TickRate == 0)
    return fail(formatv("process {0}: tick rate is 0", Idx));
  if (!fits32(P.Modules.size()) || !fits32(P.Threads.size()) ||
      !fits32(P.Traces.size()) || !fits32(P.Exe.size()) ||
      !fits32(P.BuildId.size()) || !fits32(P.Host.size()) ||
      !fits32(P.Functions.size()))
    return fail(formatv("process {0}: too large for the raw format", Idx));
  if (Error E = checkFunctions(P, Idx))
    return E;
  for (const Thread &T : P.Threads)
    if (Error E = checkThread(P, Idx, T))
      return E;
  if (Error E = checkSites(P, Idx))
    return E;
  if (Error E = checkBlockCounts(P, Idx))
    return E;
  for (const Trace &T : P.Traces)
    if (Error E = checkTrace(P, Idx, T))
      return E;
  if (P.HasSamples)
    return checkSamples(P, Idx);
  return Error::success();
}

void ProfileWriter::writeProcessSections(const Process &P) {
  RecordOut<raw::ProcessRecord> R(P);
  // One strides section per module with sites (checkSites: grouped).
  uint32_t NumStrides = 0;
  for (size_t I = 0; I < P.Sites.size(); ++I)
    NumStrides += !I || P.Sites[I].Module != P.Sites[I - 1].Module;
  R.set(&raw::ProcessRecord::NumStrides, NumStrides);
  SectionBuilder B;
  B.record(R);
  B.bytes(P.Exe);
  B.bytes(P.BuildId);
  B.bytes(P.Host);
  add(raw::SK_Process, B);
}

void ProfileWriter::writeModuleSections(const Process &P) {
  size_t NextFunc = 0;
  for (uint32_t MI = 0; MI < P.Modules.size(); ++MI) {
    size_t First = NextFunc;
    while (NextFunc < P.Functions.size() && P.Functions[NextFunc].Module == MI)
      ++NextFunc;
    writeModule(P, MI, First, NextFunc);
  }
}

void ProfileWriter::writeModule(const Process &P, uint32_t ModIdx,
                                size_t FirstFunc, size_t EndFunc) {
  const Module &M = P.Modules[ModIdx];
  RecordOut<raw::ModuleRecord> R(M);
  R.set(&raw::ModuleRecord::NumFuncs, EndFunc - FirstFunc);
  R.set(&raw::ModuleRecord::NumInlinedAway, M.InlinedAway.size());
  SectionBuilder B;
  B.record(R);
  B.bytes(M.Name);
  B.bytes(M.Path);
  for (size_t FI = FirstFunc; FI < EndFunc; ++FI) {
    const Function &F = P.Functions[FI];
    B.add<raw::FuncRecord>(F);
    B.bytes(F.Name);
    B.bytes(F.File);
  }
  for (const Function &F : M.InlinedAway) {
    B.add<raw::FuncRecord>(F);
    B.bytes(F.Name);
    B.bytes(F.File);
  }
  add(raw::SK_Module, B);
}
