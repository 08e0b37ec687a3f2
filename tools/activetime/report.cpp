//===- report.cpp - `activetime report` -----------------------------------===//
//
// Part of ActiveTime. Shows a profile. The views are in tools/lib/Report,
// each described by a View (activetime/Report/Views.h); this file is the
// command line. The option that selects a view (--latency, --html=FILE...)
// is made from its View, and what it reads is its View's list, so two
// views, or an option the chosen view does not read, are errors rather
// than silence. The options below are the ones the views read.
//
//===----------------------------------------------------------------------===//

#include "Command.h"
#include "Filters.h"
#include "Inputs.h"

#include "activetime/Report/Views.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <memory>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::report;
using namespace activetime::tool;

// Created in Filters.cpp: the filter options are shared with `export`.
static cl::SubCommand &ReportCommand = reportSubcommand();

/// \p V as the error messages name it: "--latency", "the time report".
static std::string modeName(const View &V) {
  return V.Default ? std::string("the ") + V.Name + " report"
                   : std::string("--") + V.Name;
}

/// Whether \p V reads the option called \p Name.
static bool reads(const View &V, StringRef Name) {
  SmallVector<StringRef, 16> Names;
  StringRef(V.Reads).split(Names, ' ', -1, false);
  return is_contained(Names, Name);
}

/// --json's help: the views that have a JSON form, the default one first.
static std::string jsonHelp() {
  std::vector<std::string> Names;
  for (const View &V : reportViews())
    if (reads(V, "json"))
      Names.insert(V.Default ? Names.begin() : Names.end(),
                   V.Default ? std::string(V.Name) : modeName(V));
  std::string Last = Names.back();
  Names.pop_back();
  return "Print a JSON document instead of text (" + join(Names, ", ") +
         " and " + Last + " reports)";
}

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
// Its help names the views (setupReport).
static std::string JsonHelp;
static cl::opt<bool> Json("json", cl::sub(ReportCommand),
                          cl::cat(ToolCategory));
static cl::opt<bool> NoDemangle("no-demangle", cl::sub(ReportCommand),
                                cl::desc("Print linkage names as they are"),
                                cl::cat(ToolCategory));
static cl::opt<bool> FullNames(
    "full-names", cl::sub(ReportCommand),
    cl::desc(
        "Print full demangled C++ names (by default template arguments "
        "and parameter lists are elided: std::vector<...>::push_back(...))"),
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
static cl::opt<ProgressMode>
    ProgressOpt("progress", cl::sub(ReportCommand),
                cl::init(ProgressMode::Auto),
                cl::desc("--html: progress line on stderr"),
                ACTIVETIME_PROGRESS_VALUES, cl::cat(ToolCategory));
static cl::opt<double> PruneBelow(
    "prune-below", cl::sub(ReportCommand), cl::init(kDefaultPrunePercent),
    cl::desc("--html: merge the flame graphs' frames narrower than this "
             "percentage of the graph's width into one [other] frame per "
             "caller (default 0.01; 0 merges none, within the graphs' caps "
             "on frames and levels)"),
    cl::value_desc("percent"), cl::cat(ToolCategory));
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

/// A view and the option that selects it: a flag, or an option whose value
/// is the view's output file; none for the default view.
struct Selector {
  const View *V;
  std::unique_ptr<cl::opt<bool>> Flag;
  std::unique_ptr<cl::opt<std::string>> Output;
  bool given() const {
    return (Flag && Flag->getNumOccurrences()) ||
           (Output && Output->getNumOccurrences());
  }
  std::string outputPath() const { return Output ? Output->getValue() : ""; }
};

/// The views in the order of reportViews(), each with its selecting option.
std::vector<Selector> makeSelectors() {
  std::vector<Selector> Sel;
  for (const View &V : reportViews()) {
    Selector S{&V, nullptr, nullptr};
    if (V.OutputValue)
      S.Output = std::make_unique<cl::opt<std::string>>(
          StringRef(V.Name), cl::sub(ReportCommand), cl::desc(V.Description),
          cl::value_desc(V.OutputValue), cl::cat(ToolCategory));
    else if (!V.Default)
      S.Flag = std::make_unique<cl::opt<bool>>(
          StringRef(V.Name), cl::sub(ReportCommand), cl::desc(V.Description),
          cl::cat(ToolCategory));
    Sel.push_back(std::move(S));
  }
  return Sel;
}
std::vector<Selector> Selectors;

/// The options made from the views, once every view has registered
/// (Command.h).
void setupReport() {
  JsonHelp = jsonHelp();
  Json.setDescription(JsonHelp);
  Selectors = makeSelectors();
}

/// The options \p V reads.
std::vector<const cl::Option *> optionsRead(const View &V) {
  SmallVector<StringRef, 16> Names;
  StringRef(V.Reads).split(Names, ' ', -1, false);
  std::vector<const cl::Option *> Options;
  for (StringRef N : Names) {
    const cl::Option *O = ReportCommand.OptionsMap.lookup(N);
    if (!O)
      report_fatal_error("view " + Twine(V.Name) + " reads no option --" + N);
    Options.push_back(O);
  }
  return Options;
}

/// The view the command line selects, or an error if it selects two or
/// gives an option the view does not read.
Expected<const Selector *> chosenView() {
  const Selector *Chosen = nullptr;
  for (const Selector &S : Selectors) {
    if (!S.given())
      continue;
    if (Chosen)
      return createStringError(
          inconvertibleErrorCode(), "%s and %s are different reports; give one",
          modeName(*Chosen->V).c_str(), modeName(*S.V).c_str());
    Chosen = &S;
  }
  if (!Chosen)
    Chosen =
        &*find_if(Selectors, [](const Selector &S) { return S.V->Default; });
  const View &V = *Chosen->V;
  if (Json.getNumOccurrences() && V.NoJsonHint)
    return createStringError(inconvertibleErrorCode(),
                             "%s has no JSON form; %s", modeName(V).c_str(),
                             V.NoJsonHint);
  std::vector<const cl::Option *> Reads = optionsRead(V), Ignored;
  for (const Selector &S : Selectors)
    for (const cl::Option *O : optionsRead(*S.V))
      if (!is_contained(Reads, O) && !is_contained(Ignored, O))
        Ignored.push_back(O);
  if (Error E = refuseOptions(Ignored, modeName(V)))
    return std::move(E);
  return Chosen;
}

/// Why --from and --to have no effect on any view of `report`, and where
/// times are: the export formats that have them.
std::string timeFiltersHint() {
  std::vector<std::string> Formats;
  for (const View &F : exportFormats())
    if (F.TimeFilters)
      Formats.push_back(std::string("'--format=") + F.Name + "'");
  std::string Hint = "report's views are built from the call tree, which has "
                     "no times; use 'activetime export " +
                     Formats.front().substr(1);
  for (size_t I = 1; I < Formats.size(); ++I)
    Hint += (I + 1 == Formats.size() ? " or " : ", ") + Formats[I];
  return Hint + " on a mode=trace profile";
}

/// Everything the views read, as the command line gives it.
ViewOptions viewOptions(const Selector &S) {
  ViewOptions O;
  O.Names.Demangle = !NoDemangle;
  O.Names.FullNames = FullNames;
  O.Json = Json;
  O.Top = Top;
  O.MaxDepth = MaxDepth;
  O.Sort = Sort;
  O.Tree = ShowTree;
  O.Threads = ShowThreads;
  O.CallSites = ShowCallSites;
  O.Callers = ShowCallers;
  O.BottomUp = ShowBottomUp;
  O.PerCopy = PerCopy;
  O.Parallel.MinOverheadShare = MinOverhead / 100;
  O.Parallel.MaxTaskRate = MaxTaskRate;
  O.Parallel.MaxStolenRatio = MaxStolenRatio;
  O.Parallel.MinInactiveShare = MinInactive / 100;
  O.Parallel.MinFruitlessPerTake = MinFruitless;
  O.OutputPath = S.outputPath();
  O.PruneBelow = PruneBelow;
  return O;
}

/// The --parallel thresholds must be numbers the diagnosis can compare to,
/// --prune-below a percentage.
Error checkThresholds() {
  for (const cl::opt<double> *O : {&MinOverhead, &MaxTaskRate, &MaxStolenRatio,
                                   &MinInactive, &MinFruitless})
    if (!(*O >= 0) || std::isinf(double(*O)))
      return createStringError(inconvertibleErrorCode(),
                               "--" + O->ArgStr +
                                   " must be a finite number >= 0");
  if (!(PruneBelow >= 0 && PruneBelow <= 100))
    return createStringError(inconvertibleErrorCode(),
                             "--prune-below must be a percentage, 0 to 100");
  return Error::success();
}

int reportMain() {
  Expected<const Selector *> Chosen = chosenView();
  if (!Chosen)
    return reportError(Chosen.takeError());
  const View &V = *(*Chosen)->V;
  ViewOptions O = viewOptions(**Chosen);
  if (V.OutputValue && !O.OutputPath.empty() && O.OutputPath != "-")
    if (Error E = checkOutputIsNoInput(Inputs, O.OutputPath))
      return reportError(std::move(E));
  FilterUse Use;
  Use.Calls = V.CallFilters;
  Use.Time = V.TimeFilters && V.TimeFilters(O);
  std::string TimeHint = timeFiltersHint();
  Use.TimeHint = TimeHint.c_str();
  if (Error E = refuseFilters(Use, modeName(V)))
    return reportError(std::move(E));
  Expected<Profile> P = readInputs(Inputs);
  if (!P)
    return reportError(P.takeError());
  Expected<FilterSummary> Filtered = applyFilterOptions(*P);
  if (!Filtered)
    return reportError(Filtered.takeError());
  if (Error E = checkThresholds())
    return reportError(std::move(E));
  O.Filters = &*Filtered;
  Progress Prog(std::string("report --") + V.Name,
                reads(V, "progress") ? ProgressOpt.getValue()
                                     : ProgressMode::Never);
  int RC = 0;
  if (Error E = V.Write(*P, O, outs(), Prog))
    RC = reportError(std::move(E));
  outs().flush();
  return RC;
}

} // namespace

static CommandRegistration Unused(&ReportCommand,
                                  "activetime report [options] FILE...",
                                  reportMain, setupReport);
