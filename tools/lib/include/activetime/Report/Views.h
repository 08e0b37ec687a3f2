//===- activetime/Report/Views.h - The views and export formats -*- C++ -*-===//
//
// Part of ActiveTime. Every view of `activetime report` and every export
// format is a View: its name, its --help text, the options it reads, the
// filters that apply to it and the function that writes it, all defined in
// the view's own file, which registers it there with a static
// ViewRegistration and its rank: the place among the others in which --help
// and the error messages name it. The commands build their selecting
// options, --format's help, the options they refuse and the filter rules
// from the two tables the registrations make. A new view or format is its
// own file in tools/lib/Report (CMake picks up every .cpp there).
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_REPORT_VIEWS_H
#define ACTIVETIME_REPORT_VIEWS_H

#include "activetime/Profile/Aggregate.h"
#include "activetime/Profile/Filter.h"
#include "activetime/Profile/Parallel.h"
#include "activetime/Profile/Profile.h"
#include "activetime/Report/Names.h"
#include "activetime/Report/Progress.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace activetime {
namespace report {

/// folded: what happens to off-CPU samples.
enum class OffCpuMode { Mark, Only, Exclude };
/// folded: the number after each stack.
enum class FoldedValue { Micros, Samples };
/// speedscope: which data becomes the profiles.
enum class SpeedscopeSource { Auto, Trace, Samples, Tree };
/// symbol-order: what makes a function hot.
enum class SymbolOrderKey { SelfActive, Calls };
/// sample-profile: LLVM's encoding.
enum class SampleProfileEncoding { ExtBinary, Text };

/// --prune-below's default (report --html, diff --html), in percent of a
/// flame graph's width: a tenth of a pixel of a 1000-pixel-wide graph.
constexpr double kDefaultPrunePercent = 0.01;
/// The default of export's --max-stack: the deepest stack pprof, folded and
/// the json export's sample paths write whole (perf stops at 127 frames).
constexpr unsigned kDefaultMaxStack = 128;
/// The least --max-stack other than 0 (no limit): the outermost frame, the
/// one that stands for the elided ones, and the leaf.
constexpr unsigned kMinMaxStack = 3;

/// Everything a view or export format reads. The command sets every field
/// from its options (their defaults where not given); a view reads only
/// those its View::Reads names, and the command refuses the others.
struct ViewOptions {
  /// How functions are named as the command line asks (--no-demangle,
  /// --full-names); names() gives the rule of one use of a name.
  NameOptions Names;
  NameOptions names(NameUse Use) const { return namesFor(Use, Names); }
  /// The filters applied to the profile (a header line, JSON's "filters").
  const profile::FilterSummary *Filters = nullptr;

  bool Json = false;      // a JSON document instead of text
  unsigned Top = 20;      // rows of the text tables; 0 = all
  unsigned MaxDepth = 40; // deepest call-tree level; 0 = no limit
  profile::SortKey Sort = profile::SortKey::SelfActive;
  /// The time report: the header only (--header), or the parts printed
  /// after the flat table.
  bool HeaderOnly = false;
  bool Tree = false;
  bool Threads = false;
  /// JSON: each thread's "functions" (the HTML report's document, which
  /// shows none, leaves them out: threads times functions).
  bool ThreadFunctions = true;
  bool CallSites = false;
  bool Callers = false;  // callers and callees (CallGraphReport.cpp)
  bool BottomUp = false; // the inverted tree (BottomUpReport.cpp)
  /// --strides: one row per unrolled copy of an access.
  bool PerCopy = false;
  /// --parallel: when a region's figures are diagnosed.
  profile::ParallelThresholds Parallel;
  /// A view that writes a file of its own: its path (--html=FILE).
  std::string OutputPath;
  /// --html: flame-graph frames narrower than this percentage of the
  /// graph's width are merged (HtmlFlame.h).
  double PruneBelow = kDefaultPrunePercent;

  // Export formats.
  OffCpuMode OffCpu = OffCpuMode::Mark;    // folded
  FoldedValue Value = FoldedValue::Micros; // folded
  double LatencyNs = 0;                    // prefetch (0: measure)
  unsigned MaxDistance = 64;               // prefetch
  int64_t MinSpan = -1; // prefetch (-1: the core's cache, cacheBytes())
  SpeedscopeSource Source = SpeedscopeSource::Auto;
  SymbolOrderKey OrderBy = SymbolOrderKey::SelfActive;
  SampleProfileEncoding Encoding = SampleProfileEncoding::ExtBinary;
  /// sample-profile: write it although it holds call counts only.
  bool AllowCallCounts = false;
  /// pprof, folded, json: the deepest stack written whole; a deeper one
  /// keeps its ends around a "[N frames elided]" frame. 0: no limit.
  unsigned MaxStack = kDefaultMaxStack;
};

/// Writes a view of \p P to \p OS (a view with an output file of its own
/// writes O.OutputPath instead).
using ViewWriter = llvm::Error (*)(const profile::Profile &P,
                                   const ViewOptions &O, llvm::raw_ostream &OS,
                                   Progress &Prog);

struct View {
  /// report: the option that selects the view, without dashes ("latency");
  /// the default view's name in messages ("time": "the time report").
  /// export: the format (--format=NAME).
  const char *Name = "";
  /// report: the --help text of the selecting option; export: what the
  /// format is.
  const char *Description = "";
  /// The options the view reads beyond the ones every view of its command
  /// reads (without dashes, space-separated). Another one that some other
  /// view reads is refused.
  const char *Reads = "";
  /// report: chosen when no view's option is given.
  bool Default = false;
  /// report: the selecting option takes the output file (named this in
  /// --help) instead of being a flag.
  const char *OutputValue = nullptr;
  /// report: why --json has no effect here and what to use instead (null:
  /// --json is one of Reads, or there is nothing to suggest).
  const char *NoJsonHint = nullptr;
  /// The call filters (--tid, --focus, --ignore) apply: the view is built
  /// from the call tree or the samples.
  bool CallFilters = true;
  /// Whether the time filters (--from, --to) apply with \p O: the view
  /// writes trace events (null: never).
  bool (*TimeFilters)(const ViewOptions &O) = nullptr;
  /// export: when the time filters apply, as the refusal lists the formats
  /// ("speedscope with --source=trace or auto").
  const char *TimeFiltersWhen = nullptr;
  ViewWriter Write = nullptr;
  /// Its place in its table (set from its ViewRegistration).
  unsigned Rank = 0;
};

enum class ViewKind {
  Report, // a view of `activetime report`
  Export  // a format of `activetime export`
};

/// Adds the View that \p Describe returns to the table of \p Kind, at
/// \p Rank: the tables are sorted by rank, which is unique within a table.
/// One static object in each view's file, after its describing function:
///
///   static ViewRegistration RegisterPgoFormat(ViewKind::Export, 70, pgoFormat);
///
/// Ranks leave gaps for new views; the default view's is last among the
/// views. The objects run during static initialization, so a table is built
/// (and \p Describe called) at its first use, which must come later: a
/// registration after it is a fatal error. The library is linked as object
/// files, so that every registration is in the program.
struct ViewRegistration {
  ViewRegistration(ViewKind Kind, unsigned Rank, View (*Describe)());
};

/// The views of `activetime report`, by rank.
llvm::ArrayRef<View> reportViews();
/// The export formats, by rank.
llvm::ArrayRef<View> exportFormats();
/// The format called \p Name, or null.
const View *findExportFormat(llvm::StringRef Name);

/// The views without the time report's header say what the filters did on
/// a line of their own ("filters: ..."), before anything else.
void printFiltersLine(const ViewOptions &O, llvm::raw_ostream &OS);

} // namespace report
} // namespace activetime

#endif // ACTIVETIME_REPORT_VIEWS_H
