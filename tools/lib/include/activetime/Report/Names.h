//===- activetime/Report/Names.h - How the views name functions -*- C++ -*-===//
//
// Part of ActiveTime. Every view and export names a function through a
// FunctionNamer: by its linkage name (--no-demangle), its full demangled
// name (--full-names) or its short one (ShortNames.h); a timed copy always
// as its function (profile::sourceFunctionName); a local function whose
// name another module's local function shares with " [module]" after it.
// The views name functions as the command line asks except where
// namesFor() says otherwise: the one place where their naming differs.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_REPORT_NAMES_H
#define ACTIVETIME_REPORT_NAMES_H

#include "activetime/Profile/Aggregate.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace activetime {
namespace report {

/// How functions are named.
struct NameOptions {
  /// Demangled names; off (--no-demangle): linkage names.
  bool Demangle = true;
  /// The full demangled names rather than the short ones (--full-names).
  bool FullNames = false;
  /// " [module]" after a local function whose name another module's local
  /// function shares.
  bool ModuleSuffix = true;
};

/// Where a view prints a function's name. Each use has its rule in
/// namesFor(); all but Asked name functions in full whatever --full-names
/// says, for the reason each gives.
enum class NameUse {
  /// The text views' rows, trees and paths (the time report, --callers,
  /// --call-sites, --bottom-up, --samples, --latency, diff), the folded
  /// export's frames and the inlined-away line: as the command line asks,
  /// short by default.
  Asked,
  /// The JSON documents' call sites and callers and callees ("callee",
  /// "caller", "inlined_from", call_graph "name"): full, without a module
  /// (their "function" ids tell local functions apart).
  JsonCallSite,
  /// Memory access sites (--strides, as text and JSON, and export json's
  /// "strides"): full, without a module; --strides reads no --full-names.
  StrideSite,
  /// chrome's and speedscope's trace and call-tree frames: full, without a
  /// module, for tools that shorten names themselves.
  TraceFrame,
  /// export json's sampled paths, speedscope's sampled frames and pprof's
  /// functions: full, as JSON's "name" (pprof shortens names itself).
  FullName,
  /// The function at an OpenMP region's fork call (--parallel, and the
  /// export document's "parallel"): full and demangled; --parallel reads
  /// no naming option.
  Region,
  /// What other tools look up by symbol (prefetch, symbol-order,
  /// sample-profile): linkage names, whatever the command line says.
  Linkage,
};

/// The naming of \p Use when the command line asks for \p Asked.
NameOptions namesFor(NameUse Use, const NameOptions &Asked);

/// Names functions as its NameOptions say: an Aggregate's (short names
/// made distinct over its flat table; the module after an ambiguous local
/// function) and any function by its linkage name.
class FunctionNamer {
public:
  /// Names of functions known by their linkage names only.
  explicit FunctionNamer(NameOptions O);
  /// Names of \p A's functions too.
  FunctionNamer(const profile::Aggregate &A, NameOptions O);

  const NameOptions &options() const { return O; }

  /// Aggregate function \p Func as the options ask: short (distinct among
  /// the flat table's functions), full, or its linkage name.
  std::string name(uint32_t Func) const;
  /// Its full demangled name (the linkage name without Demangle): JSON's
  /// "name".
  std::string fullName(uint32_t Func) const;
  /// Its short name whatever FullNames says (the full one for the tool's own
  /// frames and for functions outside the flat table; the linkage name
  /// without Demangle): JSON's "short_name".
  std::string shortName(uint32_t Func) const;
  /// The function with linkage name \p Linkage, not necessarily one of the
  /// aggregate's: as the options ask, in full, or short (not made distinct;
  /// never with a module).
  std::string name(llvm::StringRef Linkage) const;
  std::string fullName(llvm::StringRef Linkage) const;
  std::string shortName(llvm::StringRef Linkage) const;

private:
  std::string moduleSuffix(uint32_t Func) const;
  const std::vector<std::string> &shortNames() const;

  const profile::Aggregate *A = nullptr;
  NameOptions O;
  std::vector<bool> Ambiguous; // by function id
  /// Distinct short names by function id ("" outside the flat table),
  /// computed when first needed (every flat function is demangled).
  mutable std::optional<std::vector<std::string>> Short;
};

} // namespace report
} // namespace activetime

#endif // ACTIVETIME_REPORT_NAMES_H
