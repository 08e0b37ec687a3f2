//===- ReaderParallel.cpp - The parallel section --------------------------===//
//
// Part of ActiveTime. The raw reader's parser of the parallel section
// (OpenMP worker states): its regions, their threads' counters and the
// regions' object paths.
//
//===----------------------------------------------------------------------===//

#include "RawReader.h"

#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::profile::rawreader;

Error Parser::checkParallelOrder() {
  if (!throughStridesComplete())
    return fail(formatv("process (pid {0}): parallel section before its "
                        "module, thread, trace and strides sections",
                        Cur->Pid));
  if (ParallelSeen)
    return fail(formatv("process (pid {0}): more than one parallel section",
                        Cur->Pid));
  return Error::success();
}

Error Parser::parseParallel(Cursor C) {
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
    const EventCount Counts[] = {{"instances", Reg.Instances}};
    if (Error E = checkEvents(Counts, processSpan(), "the process's run",
                              formatv("{0}: region {1}", What, I)))
      return E;
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
    if (Error Err = checkRegionThread(E, formatv("{0}: entry {1}", What, I)))
      return Err;
    Cur->Par.Entries.push_back(E);
  }
  return Error::success();
}

/// One thread's counts in one region, against the process's span.
Error Parser::checkRegionThread(const RegionThread &E,
                                const std::string &What) {
  std::vector<EventCount> Counts = {{"local takes", E.LocalTakes},
                                    {"stolen takes", E.StolenTakes},
                                    {"tasks created", E.TasksCreated},
                                    {"chunks", E.Chunks},
                                    {"wait entries", E.WaitEntries}};
  for (const auto &From : E.Transitions)
    for (uint64_t N : From)
      Counts.push_back({"state transitions", N});
  return checkEvents(Counts, processSpan(), "the process's run", What);
}
