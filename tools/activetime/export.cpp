//===- export.cpp - `activetime export` -------------------------------------===//
//
// Part of ActiveTime. Writes what a profile says in a form another tool
// consumes. Each format is one entry of the Formats table below: a name, a
// one-line description and a writer; adding a format means adding an entry.
//
//   prefetch  the hint file of stride-profile-guided prefetching, read by the
//             pass with -mllvm -activetime-prefetch-use=FILE
//   folded    the samples (sample=1) as "frame;frame;frame VALUE" lines, the
//             input of flamegraph.pl, speedscope and inferno. VALUE is the
//             summed sample weight in microseconds (or the sample count).
//             Off-CPU samples, charged to the frame the thread left the CPU
//             in (seed 003), end in an "[off-CPU]" frame (blocked, waiting)
//             or a "[preempted]" frame (runnable), or are selected alone.
//   json      the whole profile as one versioned document (export-json.cpp)
//   chrome    mode=trace data as Chrome trace-event JSON (export-trace.cpp)
//   speedscope  speedscope's file format (export-trace.cpp)
//   symbol-order  hot functions first, for ld.lld --symbol-ordering-file
//   sample-profile  LLVM's sample profile, for clang -fprofile-sample-use
//             (export-sample-profile.cpp)
//
// Writers stream into the output (through a temporary file that is renamed
// only on success), so large traces are never held as text in memory.
//
// pprof's profile.proto is not produced: Debian 12 packages no maintained
// C++ library for it (docs/user-guide.md).
//
//===----------------------------------------------------------------------===//

#include "activetime.h"
#include "activetime/Profile/Aggregate.h"
#include "activetime/Profile/Samples.h"
#include "activetime/Profile/Strides.h"
#include "activetime/abi.h"
#include "activetime/raw_format.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <map>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::tool;

cl::SubCommand tool::ExportCommand("export",
                                   "Export a profile in another format");

namespace {
enum class OffCpuMode { Mark, Only, Exclude };
enum class ValueKind { Micros, Samples };
} // namespace

static cl::list<std::string> Inputs(cl::Positional, cl::sub(ExportCommand),
                                    cl::desc("<profile>..."),
                                    cl::cat(ToolCategory));
static cl::opt<std::string> Format("format", cl::Required,
                                   cl::sub(ExportCommand),
                                   cl::desc("Output format (prefetch, folded, "
                                            "json, chrome, speedscope, "
                                            "symbol-order, sample-profile)"),
                                   cl::value_desc("name"),
                                   cl::cat(ToolCategory));
static cl::opt<std::string> Output("o", cl::sub(ExportCommand), cl::init("-"),
                                   cl::desc("Output file (default: stdout)"),
                                   cl::value_desc("file"),
                                   cl::cat(ToolCategory));
static cl::alias OutputLong("output", cl::aliasopt(Output),
                            cl::desc("Alias for -o"));
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
                          "keep them, with a final [off-CPU] (blocked) or [preempted] frame (default)"),
               clEnumValN(OffCpuMode::Only, "only",
                          "only off-CPU samples (no marker frame)"),
               clEnumValN(OffCpuMode::Exclude, "exclude",
                          "only on-CPU samples")),
    cl::cat(ToolCategory));
static cl::opt<ValueKind> Value(
    "value", cl::sub(ExportCommand), cl::init(ValueKind::Micros),
    cl::desc("folded: the number after each stack"),
    cl::values(clEnumValN(ValueKind::Micros, "us",
                          "summed sample weight in microseconds (default)"),
               clEnumValN(ValueKind::Samples, "samples", "sample count")),
    cl::cat(ToolCategory));
static cl::opt<ProgressMode>
    ProgressOpt("progress", cl::sub(ExportCommand),
                cl::init(ProgressMode::Auto),
                cl::desc("Progress line on stderr"), ACTIVETIME_PROGRESS_VALUES,
                cl::cat(ToolCategory));
static cl::opt<SpeedscopeSource> SsSource(
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
namespace {
enum class OrderKey { SelfActive, Calls };
}
static cl::opt<OrderKey> OrderBy(
    "order-by", cl::sub(ExportCommand), cl::init(OrderKey::SelfActive),
    cl::desc("symbol-order: what makes a function hot"),
    cl::values(clEnumValN(OrderKey::SelfActive, "self-active",
                          "self active time (default)"),
               clEnumValN(OrderKey::Calls, "calls", "number of calls")),
    cl::cat(ToolCategory));
static cl::opt<bool> ExportNoDemangle("no-demangle", cl::sub(ExportCommand),
                                      cl::desc("Keep linkage names"),
                                      cl::cat(ToolCategory));

static const char kOffCpuFrame[] = "[off-CPU]";
static const char kPreemptedFrame[] = "[preempted]";

static std::string frameName(const std::string &Name) {
  std::string N = (ExportNoDemangle || Name == kOutsideFrame)
                      ? Name
                      : llvm::demangle(Name);
  // ';' separates frames; a newline would end the line.
  for (char &C : N)
    if (C == ';' || C == '\n')
      C = ':';
  return N;
}

static Error writeFolded(const Profile &P, raw_ostream &OS, Progress &) {
  if (none_of(P.Processes, [](const Process &X) { return X.HasSamples; }))
    return createStringError(inconvertibleErrorCode(),
                             "the profile has no samples (run the program "
                             "with ACTIVETIME_OPTIONS=sample=1)");
  std::map<std::string, std::pair<double, uint64_t>> Lines;
  for (const Process &Proc : P.Processes) {
    if (!Proc.HasSamples)
      continue;
    double UsPerTick = 1e6 / double(Proc.TickRate);
    std::map<std::pair<uint32_t, uint32_t>, std::string> Cache;
    for (const Sample &X : Proc.Samples.Samples) {
      bool Off = X.Flags & raw::SF_OffCpu;
      if ((OffCpu == OffCpuMode::Only && !Off) ||
          (OffCpu == OffCpuMode::Exclude && Off))
        continue;
      auto Key = std::make_pair(X.Thread, X.Node);
      auto It = Cache.find(Key);
      if (It == Cache.end()) {
        std::string S;
        for (const std::string &F :
             samplePath(Proc, Proc.Threads[X.Thread], X.Node))
          S += (S.empty() ? "" : ";") + frameName(F);
        It = Cache.emplace(Key, std::move(S)).first;
      }
      std::string Stack = It->second;
      if (Off && OffCpu == OffCpuMode::Mark)
        Stack += std::string(";") + ((X.Flags & raw::SF_Preempted)
                                         ? kPreemptedFrame
                                         : kOffCpuFrame);
      auto &L = Lines[Stack];
      L.first += double(X.Weight) * UsPerTick;
      L.second++;
    }
  }
  for (const auto &[Stack, V] : Lines) {
    uint64_t N = Value == ValueKind::Micros ? uint64_t(std::llround(V.first))
                                            : V.second;
    if (N)
      OS << Stack << ' ' << N << '\n';
  }
  return Error::success();
}

namespace {

/// The prefetch hint file (format in docs/user-guide.md): one hint per
/// dynamic load in a loop classed unit or constant with a non-zero stride
/// and a measured iteration time.
Error writePrefetch(const Profile &P, raw_ostream &OS, Progress &) {
  if (!(LatencyNs > 0) || MaxDistance == 0)
    return createStringError(inconvertibleErrorCode(),
                             "--latency-ns and --max-distance must be > 0");
  PrefetchModel Model;
  Model.LatencyNs = LatencyNs;
  Model.MaxIterations = MaxDistance;
  json::Array Hints;
  unsigned Skipped = 0;
  for (const StrideRow &R : strideRows(P)) {
    const MemSite &S = R.Site;
    if (R.Static || (S.Flags & abi::MS_Store) || !(S.Flags & abi::MS_InLoop))
      continue;
    if ((R.Class != StrideClass::Unit && R.Class != StrideClass::Constant) ||
        !R.IterNs) {
      ++Skipped;
      continue;
    }
    PrefetchDistance D = prefetchDistance(R.Stride, *R.MinIterNs, Model);
    Hints.push_back(json::Object{
        {"module", R.Module},
        {"function", S.Func},
        {"file", S.File},
        {"line", S.Line},
        {"column", S.Column},
        {"hash", formatv("{0:x16}", S.Hash).str()},
        {"access_size", S.AccessSize},
        {"class", strideClassName(R.Class)},
        {"stride", R.Stride},
        {"confidence", std::round(R.Confidence * 1e4) / 1e4},
        {"observations", int64_t(S.Observations)},
        {"measured_iteration_ns", std::round(*R.MeasuredIterNs * 100) / 100},
        {"probe_ns", std::round(R.LoopProbeNs * 100) / 100},
        {"iteration_ns", std::round(*R.IterNs * 100) / 100},
        {"min_iteration_ns", std::round(*R.MinIterNs * 100) / 100},
        {"work_ns", std::round(D.WorkNs * 100) / 100},
        {"distance_iterations", D.Iterations},
        {"distance_bytes", D.Bytes},
    });
  }
  json::Object Doc{
      {"format", "activetime-prefetch-hints"},
      {"version", 1},
      {"latency_ns", double(LatencyNs)},
      {"line_bytes", Model.LineBytes},
      {"max_distance_iterations", Model.MaxIterations},
      {"loads_without_hint", Skipped},
      {"hints", std::move(Hints)},
  };
  OS << formatv("{0:2}", json::Value(std::move(Doc))) << "\n";
  return Error::success();
}

/// Linkage names, hottest first, one per line: the input of ld.lld's
/// --symbol-ordering-file (with -ffunction-sections). Functions that ran but
/// have no positive figure keep their place after the hot ones (they ran, so
/// packing them near the hot code still helps); names are listed once.
Error writeSymbolOrder(const Profile &P, raw_ostream &OS, Progress &Prog) {
  Prog.phase("aggregating");
  Aggregate A = aggregate(P);
  std::vector<FunctionStats> Rows = A.Flat;
  sortFunctions(Rows, A.Functions,
                OrderBy == OrderKey::Calls ? SortKey::Calls
                                           : SortKey::SelfActive);
  StringSet<> Seen;
  for (const FunctionStats &F : Rows) {
    if (!F.S.Calls)
      continue;
    const std::string &Name = A.Functions[F.Func].Name;
    if (Seen.insert(Name).second)
      OS << Name << '\n';
  }
  return Error::success();
}

Error writeJson(const Profile &P, raw_ostream &OS, Progress &Prog) {
  return writeExportJson(P, OS, !ExportNoDemangle, Prog);
}

Error writeChrome(const Profile &P, raw_ostream &OS, Progress &Prog) {
  return writeChromeTrace(P, OS, !ExportNoDemangle, Prog);
}

Error writeSs(const Profile &P, raw_ostream &OS, Progress &Prog) {
  return writeSpeedscope(P, OS, !ExportNoDemangle, SsSource, Prog);
}

struct ExportFormat {
  const char *Name;
  const char *Description;
  Error (*Write)(const Profile &, raw_ostream &, Progress &);
};

const ExportFormat Formats[] = {
    {"prefetch", "prefetch hints for -activetime-prefetch-use",
     writePrefetch},
    {"folded", "folded stacks of the samples (flamegraph.pl, speedscope, "
               "inferno)",
     writeFolded},
    {"json", "the whole profile as one versioned JSON document", writeJson},
    {"chrome", "mode=trace data as Chrome trace-event JSON (Perfetto, "
               "chrome://tracing)",
     writeChrome},
    {"speedscope", "speedscope's JSON file format", writeSs},
    {"symbol-order", "hot functions first, for ld.lld --symbol-ordering-file",
     writeSymbolOrder},
    {"sample-profile", "LLVM sample profile for clang -fprofile-sample-use "
                       "(export-sample-profile.cpp)",
     writeSampleProfile},
};

} // namespace

int tool::exportMain() {
  const ExportFormat *F = nullptr;
  for (const ExportFormat &C : Formats)
    if (Format == C.Name)
      F = &C;
  if (!F) {
    std::string Known;
    for (const ExportFormat &C : Formats)
      Known += std::string(Known.empty() ? "" : ", ") + C.Name;
    return reportError(createStringError(
        inconvertibleErrorCode(),
        "unknown export format '" + Format + "' (known: " + Known + ")"));
  }
  for (const std::string &In : Inputs) {
    bool Same = false;
    if (Output != "-" && !sys::fs::equivalent(In, Output, Same) && Same)
      return reportError(createStringError(
          inconvertibleErrorCode(),
          Output + ": output file is also an input; refusing to overwrite "
                   "it"));
  }
  Progress Prog(std::string("export --format=") + F->Name, ProgressOpt);
  Expected<Profile> P = readInputs(Inputs, &Prog);
  if (!P)
    return reportError(P.takeError());
  // writeToOutput streams into a temporary file beside OUT and renames it
  // only if the writer succeeds: a failure leaves OUT as it was.
  Prog.phase("writing");
  if (Error E = writeToOutput(Output, [&](raw_ostream &OS) {
        return F->Write(*P, OS, Prog);
      }))
    return reportError(std::move(E));
  return 0;
}
