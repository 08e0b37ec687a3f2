//===- Filters.h - Filter options of report and export ----------*- C++ -*-===//
//
// Part of ActiveTime. --tid, --focus, --ignore, --from and --to, registered
// once for both `report` and `export` (whose subcommands are created here,
// on first use, so the options can name them whatever the order of static
// initialization), and applied to the profile before any view sees it
// (activetime/Profile/Filter.h).
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_TOOLS_FILTERS_H
#define ACTIVETIME_TOOLS_FILTERS_H

#include "activetime/Profile/Filter.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"

namespace activetime {
namespace tool {

llvm::cl::SubCommand &reportSubcommand();
llvm::cl::SubCommand &exportSubcommand();

/// Which filters a view can apply.
struct FilterUse {
  bool Calls = false; // --tid, --focus, --ignore (the call tree and samples)
  bool Time = false;  // --from, --to (trace events)
  const char *TimeHint = nullptr; // why not, when !Time
};

/// An error naming the first filter option given that \p Mode cannot apply.
llvm::Error refuseFilters(const FilterUse &Use, llvm::StringRef Mode);

/// Applies the filter options given (none: nothing changes) to \p P.
llvm::Expected<profile::FilterSummary> applyFilterOptions(profile::Profile &P);

} // namespace tool
} // namespace activetime

#endif // ACTIVETIME_TOOLS_FILTERS_H
