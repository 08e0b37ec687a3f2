//===- CallSiteRows.h - A call-site row as the views print it ---*- C++ -*-===//
//
// Part of ActiveTime. Internal to the ActiveTimeReport library: how the
// callers view (CallGraphReport.cpp) and the call-sites view
// (CallSiteReport.cpp) name a row's caller, print its location and write
// it in JSON, so the two say the same about the same row of the one
// placement (profile::placeCalls).
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_REPORT_CALLSITEROWS_H
#define ACTIVETIME_REPORT_CALLSITEROWS_H

#include "activetime/Profile/CallSites.h"
#include "activetime/Report/Names.h"

#include "llvm/DebugInfo/Symbolize/Symbolize.h"
#include "llvm/Support/JSON.h"

#include <memory>
#include <string>
#include <vector>

namespace activetime {
namespace report {

/// The placement of \p P's calls with its symbolizer, and the names.
class CallSiteRows {
public:
  /// \p Names: \p A's functions as the text tables print them
  /// (NameUse::Asked) or as JSON does (NameUse::JsonCallSite).
  CallSiteRows(const profile::Profile &P, const profile::Aggregate &A,
               const FunctionNamer &Names);

  const profile::CallSiteTable &table() const { return T; }
  /// A function's name as the view prints it.
  std::string name(uint32_t Func) const;
  /// Who made the row's calls: a function, "<thread root>" or
  /// "<outside the program> in F" (a library calling back inside F).
  std::string caller(const profile::SiteRow &R) const;
  /// The row's source position with as much detail as tells it from the
  /// caller's other rows of the callee (SiteRow::Detail), the function
  /// inlined there, or why there is none ("" for no call site).
  std::string location(const profile::SiteRow &R) const;
  /// "80" / "80 (10 rec)": the timed calls.
  static std::string timedCalls(const profile::SiteRow &R);
  /// "~984" / "-": the counted calls placed here.
  static std::string countedCalls(const profile::SiteRow &R);
  /// The row's fields in a JSON object (\p JsonId: function ids of the
  /// document's "functions", UINT32_MAX for none).
  void json(llvm::json::OStream &J, const profile::SiteRow &R,
            const std::vector<uint32_t> &JsonId) const;
  /// The note each view prints on how counted calls are placed.
  static const char CountedNote[];

private:
  const FunctionNamer &Names;
  std::unique_ptr<llvm::symbolize::LLVMSymbolizer> Sym;
  profile::CallSiteTable T;
};

} // namespace report
} // namespace activetime

#endif // ACTIVETIME_REPORT_CALLSITEROWS_H
