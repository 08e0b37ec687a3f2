//===- activetime/Report/Reports.h - The views `activetime report` prints -*-
//C++ -*-===//
//
// Part of ActiveTime. The parts of the views that other views and exports
// print too: the time report (text and JSON, also inside the export
// document), its call sites, callers, bottom-up tree and latency figures,
// the OpenMP report, the stride sites, the export document and the offline
// active-time results. The views themselves are described in Views.h.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_REPORT_REPORTS_H
#define ACTIVETIME_REPORT_REPORTS_H

#include "activetime/Profile/Aggregate.h"
#include "activetime/Profile/Filter.h"
#include "activetime/Profile/Latency.h"
#include "activetime/Profile/Parallel.h"
#include "activetime/Profile/Profile.h"
#include "activetime/Profile/TraceActiveTime.h"
#include "activetime/Report/Progress.h"
#include "activetime/Report/ReportModel.h"
#include "activetime/Report/Views.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

namespace activetime {
namespace report {

/// The time report as text: header, flat table, and the optional call tree,
/// call sites and per-thread sections.
void printTimeReport(const profile::Profile &P, const profile::Aggregate &A,
                     const ViewOptions &O, llvm::raw_ostream &OS);
/// The time report as the "activetime-report" JSON document (version 3).
void printTimeReportJson(const profile::Profile &P, const profile::Aggregate &A,
                         const ViewOptions &O, llvm::raw_ostream &OS);

/// Each function's call sites with their calls: a text section, or the
/// "call_sites" array of the JSON document.
void printCallSites(const profile::Profile &P, const profile::Aggregate &A,
                    llvm::raw_ostream &OS, const ReportModel &M, unsigned Top);
void callSitesJson(const profile::Profile &P, const profile::Aggregate &A,
                   llvm::json::OStream &J, const ViewOptions &O);

/// Each function's callers and callees (calls, call-site lines, active time
/// on each arc): a text section for the top \p Top functions, or the
/// "call_graph" array of the JSON document.
/// The text names functions as the time report's tables do (\p M).
void printCallGraph(const profile::Profile &P, const profile::Aggregate &A,
                    llvm::raw_ostream &OS, const ReportModel &M, unsigned Top);
void callGraphJson(const profile::Profile &P, const profile::Aggregate &A,
                   llvm::json::OStream &J, const ViewOptions &O);

/// The inverted (bottom-up) tree: a text section (top \p Top functions,
/// \p MaxDepth levels; 0 = all) or the "bottom_up" object of the JSON
/// document.
void printBottomUp(const profile::Aggregate &A, llvm::raw_ostream &OS,
                   const ReportModel &M, unsigned Top, unsigned MaxDepth);
void bottomUpJson(const profile::Aggregate &A, llvm::json::OStream &J,
                  unsigned MaxDepth);

/// The filters applied to a profile as the "filters" object of a JSON
/// document (nothing when none were).
void filtersJson(const profile::FilterSummary *F, llvm::json::OStream &J);

/// The OpenMP worker-state report: per parallel region the time in each
/// state, the takes, the transitions and the diagnosis.
void printParallelReport(const profile::Profile &P,
                         const profile::ParallelThresholds &T, bool Json,
                         llvm::raw_ostream &OS);

/// Latency distributions (activetime/Profile/Latency.h). The note printed
/// with them: what the percentiles are and their error bound.
extern const char LatencyNote[];
/// Whether a row has percentiles, and if not why.
enum class LatencyState { Ok, CountedOnly, NotCollected, Partial, Dropped };
/// \p Gap: the row's timed calls that are in no histogram.
LatencyState latencyState(const profile::LatencyHistogram &H,
                          const profile::Stats &S,
                          const profile::LatencyGap &Gap);
const char *latencyReason(LatencyState St);
/// The figures of one latency row, as every view prints them: the timed
/// calls (exact) in the histogram, those set apart from it
/// (LatencyGap::SampledApart), and min, p50, p90, p99, max (ns) or none
/// with the reason. Min and max are of every timed call, set apart or not.
struct LatencyFigures {
  uint64_t TimedCalls = 0;
  uint64_t SampledApart = 0;
  std::optional<double> Min, P50, P90, P99, Max;
  std::string Missing; // why there are no figures ("" when there are)
};
LatencyFigures latencyFigures(const profile::LatencyHistogram &H,
                              const profile::Stats &S, LatencyState St,
                              const profile::LatencyGap &Gap);
/// The "latency" object of a function (with its buckets) or tree node:
/// latencyFigures (null, with "missing" saying why, when the row has no
/// percentiles); "sampled_apart": the timed calls left out of the
/// histogram (Gap).
void latencyJson(llvm::json::OStream &J, const profile::LatencyHistogram &H,
                 const profile::Stats &S, LatencyState St,
                 const profile::LatencyGap &Gap, bool Buckets);

/// The "strides" array shared by the stride JSON document and the export
/// (per instruction, as the prefetch hints are, unless \p Fold).
void strideSitesJson(const profile::Profile &P, llvm::json::OStream &J,
                     const ViewOptions &O, bool Fold = false);

/// The "activetime-export" document of `export --format=json`; also the
/// data of the HTML report.
llvm::Error writeExportJson(const profile::Profile &P, const ViewOptions &O,
                            llvm::raw_ostream &OS, Progress &Prog);

/// One result of the offline active-time computation over a trace: a thread
/// and code portion of one input.
struct TraceResult {
  const active::Input *In;
  active::PortionResult R;
};
/// `activetime active-time` as text; \p FromProfile: the inputs came from a
/// raw profile (each is a process); \p Intervals: every invocation's
/// interval sets too.
void printTraceActiveTime(llvm::ArrayRef<TraceResult> Results,
                          bool FromProfile, bool Intervals,
                          llvm::raw_ostream &OS);
/// `activetime active-time --json`: the "activetime-active-time" document.
void printTraceActiveTimeJson(llvm::ArrayRef<TraceResult> Results,
                              uint64_t TickRate, llvm::raw_ostream &OS);

} // namespace report
} // namespace activetime

#endif // ACTIVETIME_REPORT_REPORTS_H
