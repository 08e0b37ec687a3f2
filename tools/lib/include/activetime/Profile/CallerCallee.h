//===- activetime/Profile/CallerCallee.h - Callers and bottom-up -*- C++
//-*-===//
//
// Part of ActiveTime. Two views of who calls what, both from the timed
// calling-context trees:
//  - arcs: per (caller, callee, call site) the timed calls and the callee's
//    active time on the arc (gprof's call graph with the call site added);
//  - the inverted ("bottom-up") tree: functions by self time, each expanded
//    into the call paths that led to it, with the part of its self time each
//    path carries (perf report --no-children's callers, pprof -peek).
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_PROFILE_CALLERCALLEE_H
#define ACTIVETIME_PROFILE_CALLERCALLEE_H

#include "activetime/Profile/Aggregate.h"
#include "activetime/Profile/CallSites.h"

#include <cstdint>
#include <string>
#include <vector>

namespace activetime {
namespace profile {

/// The timed calls of Callee made by Caller from one call instruction.
/// Recursion counts once, as in Aggregate's inclusive figures: ActiveNs sums
/// the calls that have no caller of the callee's own function above them;
/// the others (RecursiveCalls) ran inside such a call, their time in its.
struct CallArc {
  uint32_t Caller = kNoFunc; // Aggregate id; kNoFunc: a thread's root call
  uint32_t Callee = 0;
  std::string Object;      // ELF file holding the call (may be empty)
  uint64_t ReturnAddr = 0; // link-time return address in Object; 0 unknown
  uint64_t Calls = 0;
  uint64_t RecursiveCalls = 0;
  double ActiveNs = 0; // active inclusive time of the outermost calls
  /// The arc as CallSites.h's edge, for symbolizeCall.
  CallEdge edge() const;
};

struct CallArcs {
  std::vector<CallArc> Arcs;
  /// Per Aggregate function id: its arcs as callee and as caller, each by
  /// ActiveNs descending (then calls).
  std::vector<std::vector<uint32_t>> Callers, Callees;
};

/// The arcs of \p P's timed nodes (call sites resolved: resolveCodeSamples),
/// with function ids of \p A = aggregate(P). Counted calls have no node and
/// no arc (Stats::CountedCalls says how many a function had).
CallArcs buildCallArcs(const Profile &P, const Aggregate &A);

/// A node of the inverted tree. Node 0 is a synthetic root; its children
/// are the functions with self time; a node's children are the functions
/// that called it on the paths through it. SelfActiveNs is the self time of
/// the path's first function (the root's child) that was spent on paths
/// with this suffix; a node's children sum to it minus what the paths that
/// end there (at a thread's root call) carry, EndsNs.
struct InvertedNode {
  uint32_t Func = UINT32_MAX; // Aggregate id; UINT32_MAX for the root
  uint32_t Parent = UINT32_MAX;
  uint32_t Depth = 0;
  double SelfActiveNs = 0;
  double EndsNs = 0;
  /// Paths continue above this node but were cut by the depth limit.
  bool Truncated = false;
  std::vector<uint32_t> Children; // by SelfActiveNs descending
};

/// Inverts the merged tree \p A.Tree, following each path at most
/// \p MaxDepth levels up (0: no limit; the work is the number of nodes times
/// the depth followed). Iterative. A node's index exceeds its parent's.
std::vector<InvertedNode> invertTree(const Aggregate &A, unsigned MaxDepth);

/// The work invertTree(A, MaxDepth) does: the levels followed over all
/// paths (an upper bound of the inverted tree's size), so a caller can
/// refuse a limit that would take too long.
uint64_t invertTreeSteps(const Aggregate &A, unsigned MaxDepth);

} // namespace profile
} // namespace activetime

#endif // ACTIVETIME_PROFILE_CALLERCALLEE_H
