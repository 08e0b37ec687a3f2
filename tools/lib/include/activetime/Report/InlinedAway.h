//===- activetime/Report/InlinedAway.h - Functions without probes -*- C++ -*-===//
//
// Part of ActiveTime. The functions the program's source defined that the
// optimizer inlined (or removed) before the pass instrumented the module
// (profile::Module::InlinedAway): they have no figures of their own,
// their time is in their callers'. The reports say how many, and which.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_REPORT_INLINEDAWAY_H
#define ACTIVETIME_REPORT_INLINEDAWAY_H

#include "activetime/Profile/Profile.h"
#include "activetime/Report/Names.h"

#include <string>
#include <vector>

namespace activetime {
namespace report {

struct InlinedAwaySummary {
  /// Distinct functions (a local one per module, any other by its linkage
  /// name) inlined away in every module that defined them: a function that
  /// another module instrumented has figures and is not listed. By name.
  std::vector<const profile::Function *> Functions;
  /// The module names of Functions (for local functions' identity).
  std::vector<std::string> Modules;
  /// Distinct functions instrumented or inlined away (regions not counted).
  size_t ProgramFunctions = 0;
  static InlinedAwaySummary of(const profile::Profile &P);
};

/// The report's line about them, or "" when there are none: how many of the
/// program's functions, the first \p MaxNames names (as \p Names names
/// them) and how to count them.
std::string inlinedAwayLine(const InlinedAwaySummary &S,
                            const FunctionNamer &Names, size_t MaxNames = 8);

} // namespace report
} // namespace activetime

#endif // ACTIVETIME_REPORT_INLINEDAWAY_H
