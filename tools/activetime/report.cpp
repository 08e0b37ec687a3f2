//===- report.cpp - `activetime report` -------------------------------------===//
//
// Part of ActiveTime. Shows a profile. The views themselves are in
// tools/lib/Report (activetime/Report/Reports.h); this file is the command
// line: the mode table below says which option selects each view and which
// options each reads, so two views or an option a view ignores are errors
// rather than silence.
//
//===----------------------------------------------------------------------===//

#include "Command.h"
#include "Filters.h"
#include "Inputs.h"

#include "activetime/Profile/Aggregate.h"
#include "activetime/Profile/CallerCallee.h"
#include "activetime/Profile/Parallel.h"
#include "activetime/Report/Reports.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::report;
using namespace activetime::tool;

// Created in Filters.cpp: the filter options are shared with `export`.
static cl::SubCommand &ReportCommand = reportSubcommand();

static cl::list<std::string> Inputs(cl::Positional, cl::sub(ReportCommand),
                                    cl::desc("<profile>..."),
                                    cl::cat(ToolCategory));
static cl::opt<unsigned>
    Top("top", cl::sub(ReportCommand), cl::init(20),
        cl::desc("Functions listed in the flat table and per thread "
                 "(0 = all; JSON always lists all)"),
        cl::value_desc("N"), cl::cat(ToolCategory));
static cl::opt<bool> ShowTree("tree", cl::sub(ReportCommand),
                              cl::desc("Print the merged call tree"),
                              cl::cat(ToolCategory));
static cl::opt<unsigned>
    MaxDepth("max-depth", cl::sub(ReportCommand), cl::init(40),
             cl::desc("Deepest call tree level printed (text and JSON; "
                      "0 = no limit)"),
             cl::value_desc("D"), cl::cat(ToolCategory));
static cl::opt<bool> ShowStrides(
    "strides", cl::sub(ReportCommand),
    cl::desc("Print the memory access sites of stride profiling instead of "
             "the time report"),
    cl::cat(ToolCategory));
static cl::opt<bool> PerCopy(
    "per-copy", cl::sub(ReportCommand),
    cl::desc("--strides: one row per unrolled copy of an access (the sites "
             "of the optimized code) instead of one per source access"),
    cl::cat(ToolCategory));
static cl::opt<bool> ShowCallSites(
    "call-sites", cl::sub(ReportCommand),
    cl::desc("Print each function's call sites (caller, source line, calls; "
             "the targets of indirect calls); with --json, a call_sites array"),
    cl::cat(ToolCategory));
static cl::opt<bool> ShowLatency(
    "latency", cl::sub(ReportCommand),
    cl::desc("Print each function's latency distribution instead of the "
             "time report: timed calls, min, p50, p90, p99, max of the "
             "active time per call, and the histograms"),
    cl::cat(ToolCategory));
static cl::opt<bool> ShowCallers(
    "callers", cl::sub(ReportCommand),
    cl::desc("Print each function's callers and callees (calls, call-site "
             "line, active time on each arc); with --json, a call_graph "
             "array"),
    cl::cat(ToolCategory));
static cl::opt<bool> ShowBottomUp(
    "bottom-up", cl::sub(ReportCommand),
    cl::desc("Print the inverted call tree: functions by self-active time, "
             "each with the call paths that led to it (--max-depth levels); "
             "with --json, a bottom_up object"),
    cl::cat(ToolCategory));
static cl::opt<bool> ShowThreads("threads", cl::sub(ReportCommand),
                                 cl::desc("Print a section per thread"),
                                 cl::cat(ToolCategory));
static cl::opt<bool> Json("json", cl::sub(ReportCommand),
                          cl::desc("Print a JSON document instead of text "
                                   "(time, --strides and --parallel reports)"),
                          cl::cat(ToolCategory));
static cl::opt<bool> NoDemangle("no-demangle", cl::sub(ReportCommand),
                                cl::desc("Print linkage names as they are"),
                                cl::cat(ToolCategory));
static cl::opt<bool> FullNames(
    "full-names", cl::sub(ReportCommand),
    cl::desc("Print full demangled C++ names (by default template arguments "
             "and parameter lists are elided: std::vector<...>::push_back(...))"),
    cl::cat(ToolCategory));
static cl::opt<bool> ShowParallel(
    "parallel", cl::sub(ReportCommand),
    cl::desc("Show the OpenMP worker-state report: per parallel region, time "
             "in each worker state, takes, transitions and the diagnosis"),
    cl::cat(ToolCategory));
static cl::opt<double> MinOverhead(
    "min-overhead", cl::sub(ReportCommand), cl::init(10),
    cl::desc("--parallel: diagnose regions whose parallel overhead exceeds "
             "this percentage of the workers' time (default 10)"),
    cl::cat(ToolCategory));
static cl::opt<double> MaxTaskRate(
    "max-task-rate", cl::sub(ReportCommand), cl::init(400000),
    cl::desc("--parallel: tasks per second per thread above which granularity "
             "is too fine (default 400000)"),
    cl::cat(ToolCategory));
static cl::opt<double> MaxStolenRatio(
    "max-stolen-ratio", cl::sub(ReportCommand), cl::init(1),
    cl::desc("--parallel: stolen/local takes above which the work is spawned "
             "linearly (default 1)"),
    cl::cat(ToolCategory));
static cl::opt<double> MinInactive(
    "min-inactive", cl::sub(ReportCommand), cl::init(10),
    cl::desc("--parallel: waiting percentage above which idleness is "
             "diagnosed (default 10)"),
    cl::cat(ToolCategory));
static cl::opt<double> MinFruitless(
    "min-fruitless-per-take", cl::sub(ReportCommand), cl::init(1),
    cl::desc("--parallel: fruitless searches per take at or above which idle "
             "workers lack tasks rather than balance (default 1)"),
    cl::cat(ToolCategory));
static cl::opt<std::string>
    HtmlOutput("html", cl::sub(ReportCommand),
               cl::desc("Write a self-contained interactive HTML report to "
                        "FILE (flame graphs, tables, header)"),
               cl::value_desc("file"), cl::cat(ToolCategory));
static cl::opt<ProgressMode>
    ProgressOpt("progress", cl::sub(ReportCommand),
                cl::init(ProgressMode::Auto),
                cl::desc("--html: progress line on stderr"),
                ACTIVETIME_PROGRESS_VALUES, cl::cat(ToolCategory));
static cl::opt<bool> ShowHeader("header", cl::sub(ReportCommand),
                                cl::desc("Print only the header block "
                                         "(overhead table, switch sources)"),
                                cl::cat(ToolCategory));
static cl::opt<bool> ShowSamples(
    "samples", cl::sub(ReportCommand),
    cl::desc("Print the sampled wall-clock view (profiles run with "
             "ACTIVETIME_OPTIONS=sample=1): on-CPU and charged off-CPU time "
             "per function and call path"),
    cl::cat(ToolCategory));
static cl::opt<SortKey> Sort(
    "sort", cl::sub(ReportCommand), cl::init(SortKey::SelfActive),
    cl::desc("Order of the flat and per-thread tables (largest first)"),
    cl::values(clEnumValN(SortKey::Calls, "calls", "calls"),
               clEnumValN(SortKey::Elapsed, "elapsed", "elapsed inclusive"),
               clEnumValN(SortKey::Active, "active", "active inclusive"),
               clEnumValN(SortKey::SelfActive, "self-active",
                          "active exclusive (default)"),
               clEnumValN(SortKey::SelfElapsed, "self-elapsed",
                          "elapsed exclusive"),
               clEnumValN(SortKey::Overhead, "overhead", "probe overhead"),
               clEnumValN(SortKey::OffCpu, "off-cpu", "switched-out time"),
               clEnumValN(SortKey::Min, "min", "shortest call (active)"),
               clEnumValN(SortKey::Max, "max", "longest call (active)"),
               clEnumValN(SortKey::Name, "name", "function name, A-Z")),
    cl::value_desc("key"), cl::cat(ToolCategory));

namespace {

/// One view of `report`: the option that selects it (none for the time
/// report), the options it reads, and whether it has a JSON form.
struct ReportMode {
  const char *Name;
  const cl::Option *Selector;
  std::vector<const cl::Option *> Reads;
  const char *NoJsonHint; // null: --json is one of Reads (or meaningless)
  int (*Run)(const Profile &P);
};

/// The filters applied to the profile, for the views' headers.
FilterSummary Filtered;

int runTimeReport(const Profile &P) {
  TimeReportOptions O;
  O.Demangle = !NoDemangle;
  O.FullNames = FullNames;
  O.Top = Top;
  O.MaxDepth = MaxDepth;
  O.Sort = Sort;
  O.HeaderOnly = ShowHeader;
  O.Tree = ShowTree;
  O.Threads = ShowThreads;
  O.CallSites = ShowCallSites;
  O.Callers = ShowCallers;
  O.BottomUp = ShowBottomUp;
  O.Filters = &Filtered;
  Aggregate A = aggregate(P);
  // The inverted tree of a deep chain grows with the square of its depth.
  constexpr uint64_t kMaxBottomUpSteps = 100000000;
  if (ShowBottomUp && invertTreeSteps(A, MaxDepth) > kMaxBottomUpSteps)
    return reportError(createStringError(
        inconvertibleErrorCode(),
        "--bottom-up: following every call path %s takes %llu steps (over "
        "%llu); give a smaller --max-depth",
        MaxDepth ? ("to depth " + utostr(MaxDepth)).c_str() : "to its root",
        (unsigned long long)invertTreeSteps(A, MaxDepth),
        (unsigned long long)kMaxBottomUpSteps));
  if (Json)
    printTimeReportJson(P, A, O, outs());
  else
    printTimeReport(P, A, O, outs());
  return 0;
}

int runParallelReport(const Profile &P) {
  for (const cl::opt<double> *O : {&MinOverhead, &MaxTaskRate, &MaxStolenRatio,
                                   &MinInactive, &MinFruitless})
    if (!(*O >= 0) || std::isinf(double(*O)))
      return reportError(createStringError(
          inconvertibleErrorCode(),
          "--" + O->ArgStr + " must be a finite number >= 0"));
  ParallelThresholds T;
  T.MinOverheadShare = MinOverhead / 100;
  T.MaxTaskRate = MaxTaskRate;
  T.MaxStolenRatio = MaxStolenRatio;
  T.MinInactiveShare = MinInactive / 100;
  T.MinFruitlessPerTake = MinFruitless;
  printParallelReport(P, T, Json, outs());
  return 0;
}

/// The views without the time report's header say what the filters did on
/// a line of their own.
void printFiltersLine() {
  if (!Filtered.empty())
    outs() << "filters: " << Filtered.describe() << "\n";
}

int runSampleReport(const Profile &P) {
  printFiltersLine();
  if (Error E = printSampleReport(P, outs(), !NoDemangle, Top, FullNames))
    return reportError(std::move(E));
  return 0;
}

int runStrideReport(const Profile &P) {
  if (Json)
    printStrideReportJson(P, outs(), !NoDemangle, PerCopy);
  else
    printStrideReport(P, outs(), !NoDemangle, PerCopy);
  return 0;
}

int runLatencyReport(const Profile &P) {
  printFiltersLine();
  printLatencyReport(P, aggregate(P), outs(), !NoDemangle, Top, FullNames);
  return 0;
}

int runHtmlReport(const Profile &P) {
  Progress Prog("report --html", ProgressOpt);
  if (Error E = writeHtmlReport(P, HtmlOutput, !NoDemangle, Prog, &Filtered,
                                 FullNames))
    return reportError(std::move(E));
  return 0;
}

std::vector<ReportMode> reportModes() {
  return {
      {"--header", &ShowHeader, {&FullNames}, nullptr, runTimeReport},
      {"--strides", &ShowStrides, {&Json, &NoDemangle, &PerCopy}, nullptr,
       runStrideReport},
      {"--samples",
       &ShowSamples,
       {&Top, &NoDemangle, &FullNames},
       "use 'activetime export --format=json' (its \"samples\"), "
       "'--format=folded' or '--format=speedscope'",
       runSampleReport},
      {"--parallel",
       &ShowParallel,
       {&Json, &MinOverhead, &MaxTaskRate, &MaxStolenRatio, &MinInactive,
        &MinFruitless},
       nullptr,
       runParallelReport},
      {"--latency",
       &ShowLatency,
       {&Top, &NoDemangle, &FullNames},
       "the time report's JSON ('report --json') has a \"latency\" object "
       "per function",
       runLatencyReport},
      {"--html",
       &HtmlOutput,
       {&NoDemangle, &FullNames, &ProgressOpt},
       "the HTML file embeds the document of 'activetime export "
       "--format=json'",
       runHtmlReport},
      // The time report: selected by none of the above.
      {"the time report",
       nullptr,
       {&Top, &Sort, &ShowTree, &MaxDepth, &ShowThreads, &Json, &NoDemangle,
        &FullNames, &ShowCallSites, &ShowCallers, &ShowBottomUp},
       nullptr,
       runTimeReport},
  };
}

/// The mode the command line selects, or an error if it selects two or
/// gives an option the mode does not read.
Expected<ReportMode> chosenMode() {
  std::vector<ReportMode> Modes = reportModes();
  const ReportMode *Chosen = &Modes.back();
  for (const ReportMode &M : Modes) {
    if (!M.Selector || !M.Selector->getNumOccurrences())
      continue;
    if (Chosen->Selector)
      return createStringError(inconvertibleErrorCode(),
                               "%s and %s are different reports; give one",
                               Chosen->Name, M.Name);
    Chosen = &M;
  }
  if (Json.getNumOccurrences() && Chosen->NoJsonHint)
    return createStringError(inconvertibleErrorCode(),
                             "%s has no JSON form; %s", Chosen->Name,
                             Chosen->NoJsonHint);
  std::vector<const cl::Option *> Ignored;
  for (const ReportMode &M : Modes)
    for (const cl::Option *O : M.Reads)
      if (!is_contained(Chosen->Reads, O) && !is_contained(Ignored, O))
        Ignored.push_back(O);
  if (Error E = refuseOptions(Ignored, Chosen->Name))
    return std::move(E);
  return *Chosen;
}

int reportMain() {
  Expected<ReportMode> Mode = chosenMode();
  if (!Mode)
    return reportError(Mode.takeError());
  if (!HtmlOutput.empty() && HtmlOutput != "-")
    if (Error E = checkOutputIsNoInput(Inputs, HtmlOutput))
      return reportError(std::move(E));
  // Report views are built from the call tree and its counts, which have
  // no times: --from/--to can only cut traces.
  FilterUse Use;
  Use.Calls = Mode->Selector != &ShowStrides && Mode->Selector != &ShowParallel;
  Use.TimeHint = "report's views are built from the call tree, which has no "
                 "times; use 'activetime export --format=chrome' or "
                 "'--format=speedscope' on a mode=trace profile";
  if (Error E = refuseFilters(Use, Mode->Name))
    return reportError(std::move(E));
  Expected<Profile> P = readInputs(Inputs);
  if (!P)
    return reportError(P.takeError());
  Expected<FilterSummary> F = applyFilterOptions(*P);
  if (!F)
    return reportError(F.takeError());
  Filtered = std::move(*F);
  int RC = Mode->Run(*P);
  outs().flush();
  return RC;
}

} // namespace

static CommandRegistration Unused(&ReportCommand, reportMain);
