//===- Flags.cpp - The model's flags by name --------------------------------===//
//
// Part of ActiveTime. See activetime/Profile/Flags.h: the one place that
// reads the raw format's bits and codes out of the model's fields. The
// reader has already refused values it does not know.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/Flags.h"
#include "activetime/abi.h"
#include "activetime/raw_format.h"

using namespace activetime;
using namespace activetime::profile;

static_assert(kNumWorkerStates == raw::kNumWorkerStates);

SwitchSource profile::switchSource(const Thread &T) {
  switch (T.SwitchSource) {
  case raw::SS_Perf:
    return SwitchSource::Perf;
  case raw::SS_CpuClock:
    return SwitchSource::CpuClock;
  }
  return SwitchSource::None;
}

ThreadFlags profile::threadFlags(const Thread &T) {
  ThreadFlags F;
  F.Running = T.Flags & raw::TF_Running;
  F.NotSampled = T.Flags & raw::TF_NotSampled;
  F.NoDescriptors = T.Flags & raw::TF_NoDescriptors;
  F.Latency = T.Flags & raw::TF_Latency;
  F.SampledCallsApart = T.Flags & raw::TF_SampledCallsApart;
  F.Folded = T.Flags & raw::TF_Folded;
  F.ShortLived = T.Flags & raw::TF_ShortLived;
  return F;
}

CodeSamplingFlags profile::codeSampling(const Process &P) {
  CodeSamplingFlags F;
  F.Disabled = P.CodeSampleFlags & raw::CSF_Disabled;
  F.Unavailable = P.CodeSampleFlags & raw::CSF_Unavailable;
  F.UserOnly = P.CodeSampleFlags & raw::CSF_UserOnly;
  F.Stacks = P.CodeSampleFlags & raw::CSF_Stacks;
  F.CostUnmeasured = P.CodeSampleFlags & raw::CSF_CostUnmeasured;
  F.NotStarted = P.CodeSampleFlags & raw::CSF_NotStarted;
  return F;
}

OverheadSource profile::overheadSource(const OverheadTable &O) {
  switch (O.Source) {
  case raw::OS_Option:
    return OverheadSource::Option;
  case raw::OS_Uncalibrated:
    return OverheadSource::Uncalibrated;
  default:
    return OverheadSource::Calibrated;
  }
}

TraceBufferFlags profile::traceBufferFlags(const Trace &T) {
  TraceBufferFlags F;
  F.Populate = T.BufferFlags & raw::TBF_Populate;
  F.Touch = T.BufferFlags & raw::TBF_Touch;
  F.HugePages = T.BufferFlags & raw::TBF_HugePages;
  F.NoMemory = T.BufferFlags & raw::TBF_NoMemory;
  F.Budget = T.BufferFlags & raw::TBF_Budget;
  return F;
}

TraceEventKind profile::eventKind(const TraceEvent &E) {
  return E.Kind == raw::TE_Enter ? TraceEventKind::Enter
                                 : TraceEventKind::Exit;
}

OmpStatus profile::ompStatus(const Parallel &Par) {
  switch (Par.Status) {
  case raw::OS_Ompt:
    return OmpStatus::Ompt;
  case raw::OS_NoOmpt:
    return OmpStatus::NoOmpt;
  case raw::OS_Disabled:
    return OmpStatus::Disabled;
  }
  return OmpStatus::NoOpenMP;
}

bool profile::isLocal(const Function &F) {
  return F.Flags & abi::FF_LocalLinkage;
}

bool profile::isMpi(const Function &F) { return F.Flags & abi::FF_Mpi; }

bool profile::isRegionModule(const Module &M) {
  return M.Name == abi::kRegionModuleName;
}

MemSiteFlags profile::siteFlags(const MemSite &S) {
  MemSiteFlags F;
  F.Store = S.Flags & abi::MS_Store;
  F.InLoop = S.Flags & abi::MS_InLoop;
  F.Static = S.Flags & abi::MS_Static;
  return F;
}
