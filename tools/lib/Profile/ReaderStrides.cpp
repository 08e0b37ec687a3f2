//===- ReaderStrides.cpp - Strides sections -------------------------------===//
//
// Part of ActiveTime. The raw reader's parser of strides sections: one
// module's memory access sites and what the probes saw of them.
//
//===----------------------------------------------------------------------===//

#include "RawReader.h"

#include "activetime/abi.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::profile::rawreader;

Error Parser::checkStridesOrder() {
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
  uint64_t Gap = In.get(&R::ProbeGapTicks);
  std::string What = formatv("strides {0} (module {1})", Idx, ModIdx);
  if (!Cur->Sites.empty() && Gap != Cur->ProbeGapTicks)
    return fail(formatv("{0}: probe gap {1} ticks, the previous strides "
                        "section's {2}",
                        What, Gap, Cur->ProbeGapTicks));
  Cur->ProbeGapTicks = Gap;
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
  size_t FirstSite = Cur->Sites.size();
  for (uint32_t I = 0; I < NumSites; ++I)
    if (Error E = parseSite(C, ModIdx, I, What))
      return E;
  if (Error E = checkCopyChains(FirstSite, What))
    return E;
  if (Error E = checkProbeLeads(FirstSite, What))
    return E;
  return checkPadding(C, Size, What);
}

/// The copy groups of one module's sites (from \p FirstSite on): a group is
/// proven or unproven as a whole, and each unproven copy names the group's
/// previous site as its previous copy (the first names none), so that the
/// offsets the runtime measured chain from the first copy to the last.
Error Parser::checkCopyChains(size_t FirstSite, const std::string &What) {
  struct Chain {
    bool Unproven;
    uint32_t Last; // 1 + the index of the group's latest site
  };
  // Widened: the file's group may be ~0U or ~0U - 1, which a
  // DenseMap<uint32_t> reserves.
  DenseMap<uint64_t, Chain> Groups;
  for (size_t I = FirstSite; I < Cur->Sites.size(); ++I) {
    const MemSite &S = Cur->Sites[I];
    uint32_t Idx = uint32_t(I - FirstSite);
    bool Unproven = S.Flags & activetime::abi::MS_CopyUnproven;
    if (!S.CopyGroup) {
      if (Unproven || S.CopyPrev)
        return fail(formatv("{0}: site {1}: unproven copy outside a copy "
                            "group",
                            What, Idx));
      continue;
    }
    auto [It, New] = Groups.try_emplace(uint64_t(S.CopyGroup), Chain{Unproven, 0});
    if (It->second.Unproven != Unproven)
      return fail(formatv("{0}: site {1}: copy group {2} mixes proven and "
                          "unproven copies",
                          What, Idx, S.CopyGroup));
    uint32_t Want = Unproven ? It->second.Last : 0;
    if (S.CopyPrev != Want)
      return fail(formatv("{0}: site {1}: previous copy {2}, not {3} (copy "
                          "group {4})",
                          What, Idx, S.CopyPrev, Want, S.CopyGroup));
    It->second.Last = Idx + 1;
  }
  return Error::success();
}

/// The probe leads of one module's sites (from \p FirstSite on): a lead
/// is an earlier dynamic site with a probe of its own, and its follower,
/// measured by that probe, has its figures.
Error Parser::checkProbeLeads(size_t FirstSite, const std::string &What) {
  for (size_t I = FirstSite; I < Cur->Sites.size(); ++I) {
    const MemSite &S = Cur->Sites[I];
    uint32_t Idx = uint32_t(I - FirstSite);
    if (!S.ProbeLead)
      continue;
    if (S.ProbeLead > Idx)
      return fail(formatv("{0}: site {1}: probe lead {2} is not an earlier "
                          "site",
                          What, Idx, S.ProbeLead));
    const MemSite &L = Cur->Sites[FirstSite + S.ProbeLead - 1];
    if (L.ProbeLead || (L.Flags & activetime::abi::MS_Static))
      return fail(formatv("{0}: site {1}: probe lead {2} has no probe of its "
                          "own",
                          What, Idx, S.ProbeLead));
    if (S.Executions != L.Executions || S.Observations != L.Observations)
      return fail(formatv("{0}: site {1}: {2} executions, {3} observed, but "
                          "its probe lead {4} has {5} and {6}",
                          What, Idx, S.Executions, S.Observations,
                          S.ProbeLead, L.Executions, L.Observations));
  }
  return Error::success();
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
  if (uint32_t Reserved = In.get(&raw::SiteRecord::SiteReserved))
    return fail(formatv("{0}: site {1}: reserved field is {2}, not 0", What,
                        I, Reserved));
  S.Func = C.bytes(FuncLen).str();
  S.File = C.bytes(FileLen).str();
  if (!S.CopyGroup && S.CopyOffset)
    return fail(formatv("{0}: site {1}: copy offset {2} outside a copy group",
                        What, I, S.CopyOffset));
  if (Error E = checkSite(S, I, What))
    return E;
  Cur->Sites.push_back(std::move(S));
  return Error::success();
}

Error Parser::checkSite(const MemSite &S, uint32_t I, const std::string &What) {
  constexpr uint32_t KnownFlags =
      activetime::abi::MS_Store | activetime::abi::MS_Static |
      activetime::abi::MS_InLoop | activetime::abi::MS_CopyUnproven;
  if (S.Flags & ~KnownFlags)
    return fail(formatv("{0}: site {1}: unknown flags {2:x}", What, I,
                        S.Flags));
  // Unproven copies are dynamic and have no proven offset; only they
  // measure one.
  bool Unproven = S.Flags & activetime::abi::MS_CopyUnproven;
  if (Unproven && ((S.Flags & activetime::abi::MS_Static) || S.CopyOffset))
    return fail(formatv("{0}: site {1}: unproven copy that is static or has "
                        "a proven offset {2}",
                        What, I, S.CopyOffset));
  if ((S.PrevPairs && !S.CopyPrev) || S.PrevOffsetCount > S.PrevPairs ||
      S.PrevPairs > S.Observations ||
      (S.PrevOffset && !S.PrevOffsetCount))
    return fail(formatv("{0}: site {1}: inconsistent offsets from the "
                        "previous copy (previous copy {2}, pairs {3}, "
                        "dominant {4} of them, observations {5})",
                        What, I, S.CopyPrev, S.PrevPairs,
                        S.PrevOffsetCount, S.Observations));
  if (S.AccessSize == 0)
    return fail(formatv("{0}: site {1}: access size is 0", What, I));
  // A site measured by another's probe is dynamic and takes no offsets of
  // its own; only such a site has an offset from a lead.
  if (S.ProbeLead && ((S.Flags & activetime::abi::MS_Static) || Unproven))
    return fail(formatv("{0}: site {1}: static site or unproven copy with a "
                        "probe lead ({2})",
                        What, I, S.ProbeLead));
  if (!S.ProbeLead && S.LeadOffset)
    return fail(formatv("{0}: site {1}: offset {2} from a probe lead it does "
                        "not have",
                        What, I, S.LeadOffset));
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
  if (S.AnyProbeTicks > S.AnyStepTicks ||
      (S.Adjacent && S.MinAnyStepTicks > S.AnyStepTicks / S.Adjacent) ||
      (!S.Adjacent && (S.AnyStepTicks || S.MinAnyStepTicks)))
    return fail(formatv("{0}: site {1}: inconsistent step times (all steps "
                        "{2} ticks, probe {3}, shortest {4}, adjacent {5})",
                        What, I, S.AnyStepTicks, S.AnyProbeTicks,
                        S.MinAnyStepTicks, S.Adjacent));
  if (S.MinAddress > S.MaxAddress)
    return fail(formatv("{0}: site {1}: lowest address {2:x} above the "
                        "highest {3:x}",
                        What, I, S.MinAddress, S.MaxAddress));
  return Error::success();
}
