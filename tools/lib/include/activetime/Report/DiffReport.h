//===- activetime/Report/DiffReport.h - `activetime diff` output -*- C++ -*-===//
//
// Part of ActiveTime. The comparison of two profiles (profile::Diff) as
// text, as the "activetime-diff" JSON document and as an HTML differential
// flame graph. Names and the rules of what each side's figures mean come
// from each side's ReportModel.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_REPORT_DIFFREPORT_H
#define ACTIVETIME_REPORT_DIFFREPORT_H

#include "activetime/Profile/Aggregate.h"
#include "activetime/Profile/Diff.h"
#include "activetime/Profile/Profile.h"
#include "activetime/Report/Names.h"
#include "activetime/Report/Views.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace activetime {
namespace report {

/// What the report knows about one side.
struct DiffSideInfo {
  std::vector<std::string> Files;
  const profile::Profile *P = nullptr;   // merged
  const profile::Aggregate *A = nullptr; // of the whole side
  std::vector<std::vector<uint32_t>> Runs; // profile::splitRuns
};

struct DiffReportOptions {
  NameOptions Names; // as the text views name functions (NameUse::Asked)
  unsigned Top = 20; // rows of each text table; 0 = all (JSON: all)
  bool Paths = false; // text: the call-path table too
  profile::DiffMetric Metric = profile::DiffMetric::SelfActive;
  profile::DiffOptions Noise;
  /// HTML: flame-graph frames narrower than this percentage of the graph's
  /// width are merged (ViewOptions::PruneBelow).
  double PruneBelow = kDefaultPrunePercent;
};

/// The diff as text: header (sides, how the figures compare, caveats),
/// the function table and, with Paths, the call-path table.
void printDiffReport(const DiffSideInfo &Base, const DiffSideInfo &New,
                     const profile::DiffResult &R,
                     const DiffReportOptions &O, llvm::raw_ostream &OS);
/// The "activetime-diff" JSON document (version 1).
void printDiffJson(const DiffSideInfo &Base, const DiffSideInfo &New,
                   const profile::DiffResult &R, const DiffReportOptions &O,
                   llvm::raw_ostream &OS);
/// A self-contained HTML file at \p Path: NEW's flame graph with each frame
/// colored by its delta against BASE, its frames pruned (O.PruneBelow); its
/// data the JSON document with "flame" instead of "paths".
llvm::Error writeDiffHtml(const DiffSideInfo &Base, const DiffSideInfo &New,
                          const profile::DiffResult &R,
                          const DiffReportOptions &O, llvm::StringRef Path);

/// Why the two sides' figures may not compare like for like (one line
/// each): switched-out time measured on one side only, every call timed on
/// one side and short calls counted on the other, code samples on one
/// side only.
std::vector<std::string> methodDifferences(const DiffSideInfo &Base,
                                           const DiffSideInfo &New);

} // namespace report
} // namespace activetime

#endif // ACTIVETIME_REPORT_DIFFREPORT_H
