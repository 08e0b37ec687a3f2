//===- Merge.cpp - Merging raw profiles -------------------------------------===//
//
// Part of ActiveTime. Merging keeps every process block (and so every
// thread); it only refuses to mix profiles of different programs, whose
// function tables would not describe the same code.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/Profile.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Path.h"

#include <algorithm>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;

std::string profile::buildIdHex(const Process &P) {
  return toHex(P.BuildId, /*LowerCase=*/true);
}

std::string profile::describeBinary(const Process &P) {
  std::string S = P.Exe.empty() ? std::string("<unknown executable>") : P.Exe;
  if (!P.BuildId.empty())
    S += " build-id " + buildIdHex(P);
  return S;
}

// Hashes of the modules linked into the executable itself; shared libraries
// may legitimately differ between runs (other versions, dlopen).
static std::vector<uint64_t> mainModuleHashes(const Process &P) {
  std::vector<uint64_t> H;
  for (const Module &M : P.Modules)
    if (M.Path == P.Exe)
      H.push_back(M.Hash);
  llvm::sort(H);
  H.erase(std::unique(H.begin(), H.end()), H.end());
  return H;
}

static bool sameBinary(const Process &A, const Process &B) {
  if (!A.BuildId.empty() && !B.BuildId.empty())
    return A.BuildId == B.BuildId;
  return sys::path::filename(A.Exe) == sys::path::filename(B.Exe) &&
         mainModuleHashes(A) == mainModuleHashes(B);
}

/// One process run: the same pid, start time and binary are the same
/// process block, seen twice (a file given twice, or a merged file and one
/// of its inputs).
static std::string runKey(const Process &P) {
  return utostr(P.Pid) + "/" + utostr(P.StartUnixNs) + "/" +
         utostr(P.StartTick) + "/" + describeBinary(P);
}

/// An error if some process block appears twice among the inputs: its calls
/// would be counted twice.
static Error checkNoProcessTwice(const std::vector<NamedProfile> &Inputs) {
  StringMap<const std::string *> Seen;
  for (const NamedProfile &In : Inputs)
    for (const Process &P : In.Prof.Processes) {
      auto [It, New] = Seen.try_emplace(runKey(P), &In.Name);
      if (!New)
        return createStringError(
            inconvertibleErrorCode(),
            In.Name + ": process " + utostr(P.Pid) + " is already in " +
                *It->second +
                " (the same run given twice would count its calls twice)");
    }
  return Error::success();
}

Expected<Profile> profile::mergeProfiles(std::vector<NamedProfile> Inputs) {
  if (Inputs.empty())
    return createStringError(inconvertibleErrorCode(), "no input profiles");
  Profile Out;
  Out.Merged = true;
  const Process *Ref = nullptr;
  std::string RefName;
  for (NamedProfile &In : Inputs) {
    for (Process &P : In.Prof.Processes) {
      if (!Ref) {
        Ref = &P;
        RefName = In.Name;
        continue;
      }
      if (!sameBinary(*Ref, P))
        return createStringError(
            inconvertibleErrorCode(),
            In.Name + ": profile is from a different binary than " + RefName +
                " (" + describeBinary(P) + " vs " + describeBinary(*Ref) +
                ")");
    }
  }
  if (Error E = checkNoProcessTwice(Inputs))
    return std::move(E);
  size_t Total = 0;
  for (const NamedProfile &In : Inputs)
    Total += In.Prof.Processes.size();
  Out.Processes.reserve(Total);
  for (NamedProfile &In : Inputs)
    for (Process &P : In.Prof.Processes)
      Out.Processes.push_back(std::move(P));
  return std::move(Out);
}
