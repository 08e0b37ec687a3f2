//===- activetime/Report/Reports.h - The views `activetime report` prints -*- C++ -*-===//
//
// Part of ActiveTime. Each view of a profile, as text and (where it has one)
// as a JSON document. The command-line side (tools/activetime/report.cpp)
// only chooses a view and its options.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_REPORT_REPORTS_H
#define ACTIVETIME_REPORT_REPORTS_H

#include "activetime/Profile/Aggregate.h"
#include "activetime/Profile/Latency.h"
#include "activetime/Profile/Filter.h"
#include "activetime/Profile/Parallel.h"
#include "activetime/Profile/Profile.h"
#include "activetime/Profile/TraceActiveTime.h"
#include "activetime/Report/Progress.h"
#include "activetime/Report/ReportModel.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

namespace activetime {
namespace report {

/// What the time report shows.
struct TimeReportOptions {
  bool Demangle = true;
  bool FullNames = false; // full demangled names, not the short ones
  unsigned Top = 20;      // rows of the flat and per-thread tables; 0 = all
  unsigned MaxDepth = 40; // deepest call-tree level; 0 = no limit
  profile::SortKey Sort = profile::SortKey::SelfActive;
  bool HeaderOnly = false;
  bool Tree = false;
  bool Threads = false;
  bool CallSites = false;
  bool Callers = false;   // callers and callees (CallGraphReport.cpp)
  bool BottomUp = false;  // the inverted tree (BottomUpReport.cpp)
  /// The filters applied to the profile (header line, "filters" in JSON).
  const profile::FilterSummary *Filters = nullptr;
};

/// The time report as text: header, flat table, and the optional call tree,
/// call sites and per-thread sections.
void printTimeReport(const profile::Profile &P, const profile::Aggregate &A,
                     const TimeReportOptions &O, llvm::raw_ostream &OS);
/// The time report as the "activetime-report" JSON document (version 3).
void printTimeReportJson(const profile::Profile &P,
                         const profile::Aggregate &A,
                         const TimeReportOptions &O, llvm::raw_ostream &OS);

/// Each function's call sites with their calls: a text section, or the
/// "call_sites" array of the JSON document.
void printCallSites(const profile::Profile &P, const profile::Aggregate &A,
                    llvm::raw_ostream &OS, const ReportModel &M, unsigned Top);
void callSitesJson(const profile::Profile &P, const profile::Aggregate &A,
                   llvm::json::OStream &J, bool Demangle);

/// Each function's callers and callees (calls, call-site lines, active time
/// on each arc): a text section for the top \p Top functions, or the
/// "call_graph" array of the JSON document.
/// The text names functions as the time report's tables do (\p M).
void printCallGraph(const profile::Profile &P, const profile::Aggregate &A,
                    llvm::raw_ostream &OS, const ReportModel &M, unsigned Top);
void callGraphJson(const profile::Profile &P, const profile::Aggregate &A,
                   llvm::json::OStream &J, bool Demangle);

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

/// The sampled wall-clock view (runs with sample=1); an error if the profile
/// has no samples. Functions are named as in the time report (\p FullNames:
/// ReportModel). It has no JSON form (export --format=json, folded or
/// speedscope carry the samples).
llvm::Error printSampleReport(const profile::Profile &P, llvm::raw_ostream &OS,
                              bool Demangle, unsigned Top,
                              bool FullNames = false);

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
/// `report --latency`: per function timed calls, min, p50, p90, p99, max
/// (the first Top rows of the flat order; 0 = all), then their histograms.
void printLatencyReport(const profile::Profile &P,
                        const profile::Aggregate &A, llvm::raw_ostream &OS,
                        bool Demangle, unsigned Top, bool FullNames = false);

/// The memory access sites of stride profiling, dynamic ones first; the
/// unrolled copies of one source access folded into one row
/// (profile::foldCopies) unless \p PerCopy.
void printStrideReport(const profile::Profile &P, llvm::raw_ostream &OS,
                       bool Demangle, bool PerCopy = false);
void printStrideReportJson(const profile::Profile &P, llvm::raw_ostream &OS,
                           bool Demangle, bool PerCopy = false);
/// The "strides" array shared by the stride JSON document and the export
/// (per instruction, as the prefetch hints are, unless \p Fold).
void strideSitesJson(const profile::Profile &P, llvm::json::OStream &J,
                     bool Demangle, bool Fold = false);

/// One self-contained HTML file (flame graphs, tables, header) at \p Path.
llvm::Error writeHtmlReport(const profile::Profile &P, llvm::StringRef Path,
                            bool Demangle, Progress &Prog,
                            const profile::FilterSummary *Filters = nullptr,
                            bool FullNames = false);

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
