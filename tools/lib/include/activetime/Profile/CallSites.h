//===- activetime/Profile/CallSites.h - Call-site edges ---------*- C++ -*-===//
//
// Part of ActiveTime. Who called each function, from which call instruction,
// how often: gprof's arcs with the call site added, the input of the
// callers view and of the sample-profile export (PGO).
//
// Timed calls are exact: their entry probe read the return address, and the
// runtime keeps a node per (calling context, callee, call site). Calls that
// were only counted ran no probe; the thread's exact count of them is placed
// at call sites in proportion to the function's code samples from each site
// (each sample of a counted call carries its frame's return address), or,
// when none of its samples gave a site, in proportion to its timed calls per
// site. Those placements are estimates and are kept apart from the exact
// figure.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_PROFILE_CALLSITES_H
#define ACTIVETIME_PROFILE_CALLSITES_H

#include "activetime/Profile/Aggregate.h"

#include "llvm/DebugInfo/DIContext.h"

#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
namespace symbolize {
class LLVMSymbolizer;
} // namespace symbolize
} // namespace llvm

namespace activetime {
namespace profile {

/// Calls of one function (Callee) from one call instruction.
struct CallEdge {
  /// Aggregate::Functions id of the function whose code holds the call, or
  /// kNoFunc: code outside the program called (a library calling back, the
  /// thread start), or the call site was not recorded.
  uint32_t Caller = kNoFunc;
  uint32_t Callee = 0;
  /// The instruction after the call, as a link-time address of Object (0:
  /// unknown). Object is the ELF file of the caller's module.
  std::string Object;
  uint64_t ReturnAddr = 0;
  uint64_t Timed = 0;      // calls timed here (entry probe: exact)
  double Counted = 0;      // counted calls placed here (estimate)
  uint64_t Samples = 0;    // code samples of counted calls from here
  double calls() const { return double(Timed) + Counted; }
};

/// How the counted calls of one function were placed.
struct CountedPlacement {
  uint64_t BySamples = 0;   // placed by code samples
  uint64_t ByTimedShare = 0; // no sample gave a site: by the timed calls
  uint64_t Unplaced = 0;    // neither: sites unknown
};

struct CallGraph {
  /// Sorted by callee, then calls descending.
  std::vector<CallEdge> Edges;
  /// By Aggregate::Functions id. (Every call of a function, timed and
  /// counted, is its flat Stats::Calls in the Aggregate.)
  std::vector<CountedPlacement> Placement;
};

/// The call-site edges of \p P (its code samples and call sites resolved,
/// resolveCodeSamples), with function ids of \p A = aggregate(P).
CallGraph buildCallGraph(const Profile &P, const Aggregate &A);

/// The call instruction of \p E (the byte before its return address) with
/// its inline frames, innermost first, from the debug info of E.Object; no
/// frames when the call is outside the program or the symbolizer fails.
llvm::DIInliningInfo symbolizeCall(llvm::symbolize::LLVMSymbolizer &Sym,
                                   const CallEdge &E);

} // namespace profile
} // namespace activetime

#endif // ACTIVETIME_PROFILE_CALLSITES_H
