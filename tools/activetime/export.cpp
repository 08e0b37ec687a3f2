//===- export.cpp - `activetime export` -------------------------------------===//
//
// Part of ActiveTime. Writes a profile in another tool's input format.
//
//   folded  the samples (sample=1) as "frame;frame;frame VALUE" lines, the
//           input of flamegraph.pl, speedscope and inferno. VALUE is the
//           summed sample weight in microseconds (or the sample count).
//           Off-CPU samples, charged to the frame the thread left the CPU in
//           (seed 003), end in an "[off-CPU]" frame (blocked, waiting) or a
//           "[preempted]" frame (runnable), or are selected alone.
//
// pprof's profile.proto is not produced: Debian 12 packages no maintained
// C++ library for it (docs/user-guide.md).
//
//===----------------------------------------------------------------------===//

#include "activetime.h"
#include "activetime/Profile/Samples.h"
#include "activetime/raw_format.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/ToolOutputFile.h"

#include <cmath>
#include <map>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::tool;

cl::SubCommand tool::ExportCommand("export",
                                   "Write a profile in another tool's format");

namespace {
enum class ExportFormat { Folded };
enum class OffCpuMode { Mark, Only, Exclude };
enum class ValueKind { Micros, Samples };
} // namespace

static cl::list<std::string> Inputs(cl::Positional, cl::sub(ExportCommand),
                                    cl::desc("<profile>..."),
                                    cl::cat(ToolCategory));
static cl::opt<ExportFormat>
    Format("format", cl::Required, cl::sub(ExportCommand),
           cl::desc("Output format"),
           cl::values(clEnumValN(ExportFormat::Folded, "folded",
                                 "folded stacks of the samples "
                                 "(flamegraph.pl, speedscope, inferno)")),
           cl::cat(ToolCategory));
static cl::opt<std::string> Output("o", cl::sub(ExportCommand), cl::init("-"),
                                   cl::desc("Output file (default: stdout)"),
                                   cl::value_desc("file"),
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

static Error writeFolded(const Profile &P, raw_ostream &OS) {
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

int tool::exportMain() {
  Expected<Profile> P = readInputs(Inputs);
  if (!P)
    return reportError(P.takeError());
  // Render first: a bad input never truncates an existing output file.
  std::string Text;
  raw_string_ostream OS(Text);
  Error E = Error::success();
  switch (Format) {
  case ExportFormat::Folded:
    E = writeFolded(*P, OS);
    break;
  }
  if (E)
    return reportError(std::move(E));
  OS.flush();
  std::error_code EC;
  ToolOutputFile Out(Output, EC, sys::fs::OF_None);
  if (EC)
    return reportError(createStringError(EC, Output + ": " + EC.message()));
  Out.os() << Text;
  Out.os().flush();
  if (Out.os().has_error())
    return reportError(createStringError(inconvertibleErrorCode(),
                                         Output + ": write failed"));
  Out.keep();
  return 0;
}
