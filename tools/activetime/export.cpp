//===- export.cpp - `activetime export` -------------------------------------===//
//
// Part of ActiveTime. Writes what a profile says in a form another tool
// consumes. The formats and their writers are in tools/lib/Report
// (activetime/Report/Export.h); this file is the command line: it picks the
// format, refuses options the format does not read, and streams the output
// through a temporary file that is renamed only on success.
//
//===----------------------------------------------------------------------===//

#include "Command.h"
#include "Filters.h"
#include "Inputs.h"

#include "activetime/Report/Export.h"
#include "activetime/Report/Output.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/STLExtras.h"
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
static cl::opt<std::string> Format("format", cl::Required,
                                   cl::sub(ExportCommand),
                                   cl::desc("Output format (prefetch, folded, "
                                            "json, chrome, speedscope, "
                                            "symbol-order, sample-profile, "
                                            "pprof)"),
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

// Format-specific options: each format's table entry names the ones it reads.
static cl::opt<double> LatencyNs(
    "latency-ns", cl::sub(ExportCommand), cl::init(100),
    cl::desc("prefetch: memory latency a prefetch has to cover, in ns"),
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

static const ExportFormat *chosenFormat() {
  const ExportFormat *F = findExportFormat(Format);
  if (!F) {
    std::string Known;
    for (const ExportFormat &C : exportFormats())
      Known += std::string(Known.empty() ? "" : ", ") + C.Name;
    reportError(createStringError(inconvertibleErrorCode(),
                                  "unknown export format '" + Format +
                                      "' (known: " + Known + ")"));
  }
  return F;
}

/// The format-specific options \p F does not read: giving one is an error.
static Error refuseOtherOptions(const ExportFormat &F) {
  const cl::Option *Specific[] = {&LatencyNs, &MaxDistance, &OffCpu,
                                  &Value,     &Source,      &OrderBy,
                                  &Encoding,  &NoDemangle,  &FullNames};
  SmallVector<StringRef, 4> Reads;
  StringRef(F.Options).split(Reads, ' ', -1, false);
  std::vector<const cl::Option *> Others;
  for (const cl::Option *O : Specific)
    if (!is_contained(Reads, O->ArgStr))
      Others.push_back(O);
  return refuseOptions(Others, std::string("--format=") + F.Name);
}

/// Which filters \p F can apply: the stride sites (prefetch) belong to no
/// thread or call; only the formats that write trace events have times.
static FilterUse filterUse(const ExportFormat &F) {
  FilterUse U;
  StringRef Name = F.Name;
  U.Calls = Name != "prefetch";
  U.Time = Name == "chrome" ||
           (Name == "speedscope" && Source != SpeedscopeSource::Samples &&
            Source != SpeedscopeSource::Tree);
  U.TimeHint = "only the trace formats (chrome, speedscope with "
               "--source=trace or auto) have times";
  return U;
}

static ExportOptions exportOptions() {
  ExportOptions O;
  O.Demangle = !NoDemangle;
  O.FullNames = FullNames;
  O.OffCpu = OffCpu;
  O.Value = Value;
  O.LatencyNs = LatencyNs;
  O.MaxDistance = MaxDistance;
  O.Source = Source;
  O.OrderBy = OrderBy;
  O.Encoding = Encoding;
  return O;
}

static int exportMain() {
  const ExportFormat *F = chosenFormat();
  if (!F)
    return 1;
  if (Error E = refuseOtherOptions(*F))
    return reportError(std::move(E));
  if (Error E = checkOutputIsNoInput(Inputs, Output))
    return reportError(std::move(E));
  std::string Mode = std::string("--format=") + F->Name;
  if (Error E = refuseFilters(filterUse(*F), Mode))
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
  ExportOptions Opts = exportOptions();
  Opts.Filters = &*Filtered;
  if (Error E = writeOutputFile(Output, [&](raw_ostream &OS) {
        return F->Write(*P, OS, Opts, Prog);
      }))
    return reportError(std::move(E));
  return 0;
}

static CommandRegistration Unused(&ExportCommand, exportMain);
