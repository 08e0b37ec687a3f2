//===- InlinedAway.cpp - Functions without probes -----------------------------===//
//
// Part of ActiveTime. See activetime/Report/InlinedAway.h.
//
//===----------------------------------------------------------------------===//

#include "activetime/Report/InlinedAway.h"
#include "activetime/Profile/Flags.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <map>
#include <set>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::report;

namespace {

/// A function's identity across processes and modules: (module, name) for
/// a local function, the linkage name otherwise.
std::pair<std::string, std::string> identity(const Function &F,
                                             const std::string &Module) {
  if (isLocal(F))
    return {Module, profile::sourceFunctionName(F.Name).str()};
  return {"", profile::sourceFunctionName(F.Name).str()};
}

} // namespace

InlinedAwaySummary InlinedAwaySummary::of(const Profile &P) {
  using Id = std::pair<std::string, std::string>;
  std::set<Id> Instrumented;
  std::map<Id, std::pair<const Function *, std::string>> Away;
  for (const Process &Pr : P.Processes) {
    for (const Function &F : Pr.Functions) {
      const Module &M = Pr.Modules[F.Module];
      if (!isRegionModule(M))
        Instrumented.insert(identity(F, M.Name));
    }
    for (const Module &M : Pr.Modules)
      for (const Function &F : M.InlinedAway)
        Away.emplace(identity(F, M.Name), std::make_pair(&F, M.Name));
  }
  std::set<Id> All = Instrumented;
  std::vector<std::pair<const Function *, std::string>> Listed;
  for (const auto &[I, FM] : Away) {
    All.insert(I);
    if (!Instrumented.count(I))
      Listed.push_back(FM);
  }
  std::stable_sort(Listed.begin(), Listed.end(),
                   [](const auto &X, const auto &Y) {
                     return X.first->Name < Y.first->Name;
                   });
  InlinedAwaySummary S;
  for (auto &[F, Module] : Listed) {
    S.Functions.push_back(F);
    S.Modules.push_back(Module);
  }
  S.ProgramFunctions = All.size();
  return S;
}

std::string report::inlinedAwayLine(const InlinedAwaySummary &S,
                                    const FunctionNamer &Names,
                                    size_t MaxNames) {
  size_t N = S.Functions.size();
  if (!N)
    return "";
  std::string Line = utostr(N) + " of the program's " +
                     utostr(S.ProgramFunctions) +
                     (N == 1 ? " functions was" : " functions were") +
                     " inlined away at compile time and " +
                     (N == 1 ? "has no figures of its own (its time is in "
                               "its callers'): "
                             : "have no figures of their own (their time is "
                               "in their callers'): ");
  std::vector<std::string> Listed;
  for (size_t I = 0; I < N && I < MaxNames; ++I)
    Listed.push_back(Names.name(S.Functions[I]->Name));
  Line += join(Listed, ", ");
  if (N > MaxNames)
    Line += ", ... (" + utostr(N - MaxNames) + " more; --json lists all)";
  Line += "; rebuild with -mllvm -activetime-before-inlining to count them";
  return Line;
}
