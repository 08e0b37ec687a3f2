//===- export.cpp - `activetime export` -----------------------------------===//
//
// Part of ActiveTime. Writes what a profile says in a form another tool
// consumes. The formats and their writers are in tools/lib/Report, each
// described by a View (activetime/Report/Views.h); this file is the command
// line: it picks the format, refuses options the format does not read and
// filters it cannot apply, and streams the output through a temporary file
// that is renamed only on success.
//
//===----------------------------------------------------------------------===//

#include "Command.h"
#include "Filters.h"
#include "Inputs.h"

#include "activetime/Report/Output.h"
#include "activetime/Report/Views.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace activetime;
using namespace activetime::report;
using namespace activetime::tool;

// Created in Filters.cpp: the filter options are shared with `report`.
static cl::SubCommand &ExportCommand = exportSubcommand();

static cl::list<std::string> Inputs(cl::Positional, cl::sub(ExportCommand),
                                    cl::desc("<profile>..."),
                                    cl::cat(ToolCategory));
/// The names of the formats, as --help and the error lists them.
static std::string formatNames() {
  std::string Names;
  for (const View &F : exportFormats())
    Names += std::string(Names.empty() ? "" : ", ") + F.Name;
  return Names;
}
// Its help names the formats (setupExport).
static std::string FormatHelp;
static cl::opt<std::string> Format("format", cl::Required,
                                   cl::sub(ExportCommand),
                                   cl::value_desc("name"),
                                   cl::cat(ToolCategory));
static cl::opt<std::string> Output("o", cl::sub(ExportCommand), cl::init("-"),
                                   cl::desc("Output file (default: stdout)"),
                                   cl::value_desc("file"),
                                   cl::cat(ToolCategory));
static cl::alias OutputLong("output", cl::aliasopt(Output),
                            cl::desc("Alias for -o"));
static cl::opt<ProgressMode>
    ProgressOpt("progress", cl::sub(ExportCommand),
                cl::init(ProgressMode::Auto),
                cl::desc("Progress line on stderr"), ACTIVETIME_PROGRESS_VALUES,
                cl::cat(ToolCategory));
static cl::opt<bool> NoDemangle("no-demangle", cl::sub(ExportCommand),
                                cl::desc("Keep linkage names"),
                                cl::cat(ToolCategory));
static cl::opt<bool> FullNames(
    "full-names", cl::sub(ExportCommand),
    cl::desc("json: the document says the full demangled names (\"name\") "
             "are the ones to show, not the short ones (\"short_name\"); "
             "folded: frames have the full names"),
    cl::cat(ToolCategory));

// Format-specific options: each format's View names the ones it reads.
static cl::opt<double> LatencyNs(
    "latency-ns", cl::sub(ExportCommand), cl::init(0),
    cl::desc("prefetch: memory latency a prefetch has to cover, in ns (0: "
             "measured on this machine, a dependent walk over 128 MiB)"),
    cl::cat(ToolCategory));
static cl::opt<long long> MinSpan(
    "min-span", cl::sub(ExportCommand), cl::init(-1),
    cl::desc("prefetch: loads whose addresses span fewer bytes stay in the "
             "cache and get no hint (default: the largest cache of one core "
             "of this machine, from sysfs)"),
    cl::cat(ToolCategory));
static cl::opt<unsigned> MaxDistance(
    "max-distance", cl::sub(ExportCommand), cl::init(64),
    cl::desc("prefetch: largest prefetch distance, in loop iterations"),
    cl::cat(ToolCategory));
static cl::opt<OffCpuMode> OffCpu(
    "off-cpu", cl::sub(ExportCommand), cl::init(OffCpuMode::Mark),
    cl::desc("folded: what to do with off-CPU samples"),
    cl::values(clEnumValN(OffCpuMode::Mark, "mark",
                          "keep them, with a final [off-CPU] (blocked) or "
                          "[preempted] frame (default)"),
               clEnumValN(OffCpuMode::Only, "only",
                          "only off-CPU samples (no marker frame)"),
               clEnumValN(OffCpuMode::Exclude, "exclude",
                          "only on-CPU samples")),
    cl::cat(ToolCategory));
static cl::opt<FoldedValue> Value(
    "value", cl::sub(ExportCommand), cl::init(FoldedValue::Micros),
    cl::desc("folded: the number after each stack"),
    cl::values(clEnumValN(FoldedValue::Micros, "us",
                          "summed sample weight in microseconds (default)"),
               clEnumValN(FoldedValue::Samples, "samples", "sample count")),
    cl::cat(ToolCategory));
static cl::opt<SpeedscopeSource> Source(
    "source", cl::sub(ExportCommand), cl::init(SpeedscopeSource::Auto),
    cl::desc("speedscope: which data becomes the profiles"),
    cl::values(clEnumValN(SpeedscopeSource::Auto, "auto",
                          "trace if present, else samples, else the call "
                          "tree (default)"),
               clEnumValN(SpeedscopeSource::Trace, "trace",
                          "evented profiles of mode=trace threads"),
               clEnumValN(SpeedscopeSource::Samples, "samples",
                          "sampled profile of sample=1 samples"),
               clEnumValN(SpeedscopeSource::Tree, "tree",
                          "call tree weighted by self-active and "
                          "self-elapsed time")),
    cl::cat(ToolCategory));
static cl::opt<SymbolOrderKey> OrderBy(
    "order-by", cl::sub(ExportCommand), cl::init(SymbolOrderKey::SelfActive),
    cl::desc("symbol-order: what makes a function hot"),
    cl::values(clEnumValN(SymbolOrderKey::SelfActive, "self-active",
                          "self active time (default)"),
               clEnumValN(SymbolOrderKey::Calls, "calls", "number of calls")),
    cl::cat(ToolCategory));
static cl::opt<SampleProfileEncoding> Encoding(
    "sample-profile-format", cl::sub(ExportCommand),
    cl::init(SampleProfileEncoding::ExtBinary),
    cl::desc("sample-profile: LLVM sample profile encoding"),
    cl::values(clEnumValN(SampleProfileEncoding::ExtBinary, "extbinary",
                          "extended binary (default; what llvm-profdata "
                          "merge --sample writes)"),
               clEnumValN(SampleProfileEncoding::Text, "text", "text")),
    cl::cat(ToolCategory));

static cl::opt<unsigned> MaxStack(
    "max-stack", cl::sub(ExportCommand), cl::init(kDefaultMaxStack),
    cl::desc("pprof, folded, json: the deepest call stack written whole "
             "(default 128, as perf's 127); a deeper one keeps its outermost "
             "and innermost frames, half each, around one \"[N frames "
             "elided]\" frame. 0: no limit (a deep recursion's stacks then "
             "grow with the square of its depth)"),
    cl::value_desc("frames"), cl::cat(ToolCategory));

static cl::opt<bool> AllowCallCounts(
    "allow-call-counts", cl::sub(ExportCommand),
    cl::desc("sample-profile: write it although it holds call counts and no "
             "block frequencies (it has made programs slower than plain "
             "-O2; a training build and --format=pgo do not: docs/pgo.md)"),
    cl::cat(ToolCategory));

static const View *chosenFormat() {
  const View *F = findExportFormat(Format);
  if (!F)
    reportError(createStringError(inconvertibleErrorCode(),
                                  "unknown export format '" + Format +
                                      "' (known: " + formatNames() + ")"));
  return F;
}

static SmallVector<StringRef, 8> optionNames(const View &F) {
  SmallVector<StringRef, 8> Names;
  StringRef(F.Reads).split(Names, ' ', -1, false);
  return Names;
}

/// The options some format reads but \p F does not: giving one is an
/// error. The formats' own options are refused before the naming ones.
static Error refuseOtherOptions(const View &F) {
  auto Naming = [](StringRef N) {
    return N == NoDemangle.ArgStr || N == FullNames.ArgStr;
  };
  SmallVector<StringRef, 8> Reads = optionNames(F);
  std::vector<const cl::Option *> Others;
  for (bool Names : {false, true})
    for (const View &Other : exportFormats())
      for (StringRef N : optionNames(Other)) {
        const cl::Option *O = ExportCommand.OptionsMap.lookup(N);
        if (!O)
          report_fatal_error("format " + Twine(Other.Name) +
                             " reads no option --" + N);
        if (Naming(N) == Names && !is_contained(Reads, N) &&
            !is_contained(Others, O))
          Others.push_back(O);
      }
  return refuseOptions(Others, std::string("--format=") + F.Name);
}

/// Which filters \p F can apply with options \p O: the call filters
/// unless its data belong to no thread or call, the time filters where it
/// writes trace events.
static FilterUse filterUse(const View &F, const ViewOptions &O,
                           std::string &TimeHint) {
  FilterUse U;
  U.Calls = F.CallFilters;
  U.Time = F.TimeFilters && F.TimeFilters(O);
  std::string Formats;
  for (const View &Other : exportFormats())
    if (Other.TimeFiltersWhen)
      Formats +=
          (Formats.empty() ? "" : ", ") + std::string(Other.TimeFiltersWhen);
  TimeHint = "only the trace formats (" + Formats + ") have times";
  U.TimeHint = TimeHint.c_str();
  return U;
}

static ViewOptions exportOptions() {
  ViewOptions O;
  O.Names.Demangle = !NoDemangle;
  O.Names.FullNames = FullNames;
  O.OffCpu = OffCpu;
  O.Value = Value;
  O.LatencyNs = LatencyNs;
  O.MaxDistance = MaxDistance;
  O.MinSpan = MinSpan;
  O.Source = Source;
  O.OrderBy = OrderBy;
  O.Encoding = Encoding;
  O.AllowCallCounts = AllowCallCounts;
  O.MaxStack = MaxStack;
  return O;
}

static int exportMain() {
  const View *F = chosenFormat();
  if (!F)
    return 1;
  if (Error E = refuseOtherOptions(*F))
    return reportError(std::move(E));
  if (MaxStack && MaxStack < kMinMaxStack)
    return reportError(createStringError(
        inconvertibleErrorCode(),
        "--max-stack=" + Twine(MaxStack) + ": give 0 (no limit) or at least " +
            Twine(kMinMaxStack) +
            " (the outermost frame, the one that stands for the elided ones, "
            "and the leaf)"));
  if (Error E = checkOutputIsNoInput(Inputs, Output))
    return reportError(std::move(E));
  std::string Mode = std::string("--format=") + F->Name;
  ViewOptions Opts = exportOptions();
  std::string TimeHint;
  if (Error E = refuseFilters(filterUse(*F, Opts, TimeHint), Mode))
    return reportError(std::move(E));
  Progress Prog(std::string("export --format=") + F->Name, ProgressOpt);
  Expected<profile::Profile> P = readInputs(Inputs, &Prog);
  if (!P)
    return reportError(P.takeError());
  Expected<profile::FilterSummary> Filtered = applyFilterOptions(*P);
  if (!Filtered)
    return reportError(Filtered.takeError());
  // writeOutputFile streams into a temporary file beside OUT and renames it
  // only if the writer succeeds: a failure leaves OUT as it was.
  Prog.phase("writing");
  Opts.Filters = &*Filtered;
  if (Error E = writeOutputFile(Output, [&](raw_ostream &OS) {
        return F->Write(*P, Opts, OS, Prog);
      }))
    return reportError(std::move(E));
  return 0;
}

/// The options made from the formats, once every format has registered
/// (Command.h).
static void setupExport() {
  FormatHelp = "Output format (" + formatNames() + ")";
  Format.setDescription(FormatHelp);
}

static CommandRegistration
    Unused(&ExportCommand, "activetime export --format=F [options] FILE...",
           exportMain, setupExport);
