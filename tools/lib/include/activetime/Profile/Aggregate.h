//===- activetime/Profile/Aggregate.h - Profile aggregation -----*- C++ -*-===//
//
// Part of ActiveTime. Turns the per-thread calling-context trees of a
// Profile into what reports show: flat per-function statistics, one call
// tree merged over all threads and processes, and per-thread summaries.
// All times are nanoseconds (double), converted with each process's own
// tick rate before anything is summed across processes.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_PROFILE_AGGREGATE_H
#define ACTIVETIME_PROFILE_AGGREGATE_H

#include "activetime/Profile/Profile.h"

#include <cstdint>
#include <string>
#include <vector>

namespace activetime {
namespace profile {

/// A function as reports identify it: by linkage name, plus the module name
/// for local-linkage functions (two files may each have a static `helper`,
/// while an inline C++ function appears in the table of every module that
/// uses it and is still one function).
struct FunctionInfo {
  std::string Name;   // linkage name
  std::string Module; // module name; set only when Local
  bool Local = false;
  std::string File;   // first non-empty source file seen
  uint32_t Line = 0;
};

struct Stats {
  uint64_t Calls = 0;
  double Incl = 0; // ns; for flat stats, recursion counted once
  double Excl = 0; // ns
  double Min = 0;  // ns, shortest single call; 0 when Calls == 0
  double Max = 0;  // ns, longest single call

  void addMinMax(double NodeMin, double NodeMax);
};

struct FunctionStats {
  uint32_t Func = 0; // index into Aggregate::Functions
  Stats S;
  double Share = 0;  // S.Excl / total exclusive time of the scope, 0..1
};

struct TreeNode {
  uint32_t Func = UINT32_MAX; // UINT32_MAX for the synthetic root
  uint32_t Parent = UINT32_MAX;
  uint32_t Depth = 0;         // root 0, its children 1, ...
  Stats S;
  std::vector<uint32_t> Children; // sorted by inclusive time, descending
};

struct ThreadSummary {
  uint32_t Process = 0; // index into Profile::Processes
  uint64_t Tid = 0;
  std::string Name;
  uint32_t Flags = 0;
  double WallNs = 0;
  uint64_t OpenFrames = 0, UnmatchedExits = 0, UnwoundFrames = 0,
           DroppedEvents = 0;
  double TotalExcl = 0;
  std::vector<FunctionStats> Functions; // sorted like Aggregate::Flat
};

struct Aggregate {
  std::vector<FunctionInfo> Functions;
  /// Every function that has a node, by exclusive time descending (ties:
  /// inclusive descending, then name).
  std::vector<FunctionStats> Flat;
  double TotalExcl = 0;
  /// Merged call tree; Tree[0] is a synthetic root whose children are the
  /// roots of all threads. A node's index is greater than its parent's.
  std::vector<TreeNode> Tree;
  std::vector<ThreadSummary> Threads;
};

/// Aggregates \p P. Iterative throughout: call trees may be very deep.
Aggregate aggregate(const Profile &P);

/// Ticks of \p P converted to nanoseconds.
double ticksToNs(const Process &P, uint64_t Ticks);

} // namespace profile
} // namespace activetime

#endif // ACTIVETIME_PROFILE_AGGREGATE_H
