//===- activetime/Profile/CallerCallee.h - The bottom-up tree ---*- C++ -*-===//
//
// Part of ActiveTime. The inverted ("bottom-up") tree: functions by self
// time, each expanded into the call paths that led to it, with the part of
// its self time each path carries (perf report --no-children's callers,
// pprof -peek). (Callers and callees per call site: CallSites.h.)
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_PROFILE_CALLERCALLEE_H
#define ACTIVETIME_PROFILE_CALLERCALLEE_H

#include "activetime/Profile/Aggregate.h"

#include <cstdint>
#include <string>
#include <vector>

namespace activetime {
namespace profile {

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
