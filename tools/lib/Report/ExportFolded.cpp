//===- ExportFolded.cpp - Samples as folded stacks ------------------------===//
//
// Part of ActiveTime. `export --format=folded`: the samples (sample=1) as
// "frame;frame;frame VALUE" lines, the input of flamegraph.pl, speedscope and
// inferno. VALUE is the summed sample weight in microseconds (or the sample
// count). Off-CPU samples, charged to the frame the thread left the CPU in,
// end in an "[off-CPU]" frame (blocked, waiting) or a "[preempted]" frame
// (runnable), or are selected alone. A counted function's on-CPU time,
// estimated from its timed caller's code samples (Samples.h), is a
// "name [counted]" frame on top of that caller (a function's code outside
// its probes there, with no counted calls, "name [outside probes]"). A
// stack deeper than --max-stack keeps its ends around a "[N frames
// elided]" frame (ExportStacks.cpp).
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "activetime/Profile/Samples.h"
#include "activetime/Report/Format.h"

#include "llvm/ADT/STLExtras.h"

#include <cmath>
#include <map>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::report;

static const char kPreemptedFrame[] = "[preempted]";

static std::string frameName(const FunctionNamer &Names, const SampleFrame &F) {
  std::string N = sampleFrameName(Names, F);
  // ';' separates frames; a newline would end the line.
  for (char &C : N)
    if (C == ';' || C == '\n')
      C = ':';
  return N;
}

namespace {

/// A line's value: summed weight (us) and samples' worth.
struct Value {
  double Us = 0;
  double Samples = 0;
  void add(double Ns, double N) {
    Us += Ns / 1000;
    Samples += N;
  }
};

} // namespace

/// The lines of one path: its on-CPU time, and its off-CPU time as \p O
/// says. A split frame's parts are samples' worth, not whole samples.
static void addPath(std::map<std::string, Value> &Lines,
                    const std::string &Stack, const SampleFigures &F,
                    const ViewOptions &O) {
  if (O.OffCpu != OffCpuMode::Only && F.OnSamples)
    Lines[Stack].add(F.OnNs, F.OnSampleShare);
  if (O.OffCpu == OffCpuMode::Exclude || !F.OffSamples)
    return;
  if (O.OffCpu == OffCpuMode::Only) {
    Lines[Stack].add(F.OffNs, double(F.OffSamples));
    return;
  }
  uint64_t Blocked = F.OffSamples - F.Preempted;
  if (Blocked)
    Lines[Stack + ";" + kOffCpuFrame].add(F.OffNs - F.PreemptedNs,
                                          double(Blocked));
  if (F.Preempted)
    Lines[Stack + ";" + kPreemptedFrame].add(F.PreemptedNs,
                                             double(F.Preempted));
}

static Error writeFolded(const Profile &P, const ViewOptions &O,
                         raw_ostream &OS, Progress &) {
  if (none_of(P.Processes, [](const Process &X) { return X.HasSamples; }))
    return noSamplesError();
  Aggregate A = aggregate(P);
  SampleSummary S = summarizeSamples(P, A);
  FunctionNamer Names(A, O.names(NameUse::Asked));
  std::map<std::string, Value> Lines;
  PathFrames Frames(S.Paths, O.MaxStack);
  SmallVector<PathFrames::Item, 256> Items;
  for (const SamplePaths::Entry &E : S.Paths) {
    Frames.get(E.Node, Items);
    std::string Stack;
    for (const PathFrames::Item &It : Items)
      Stack += (Stack.empty() ? "" : ";") +
               (It.Frame ? frameName(Names, *It.Frame)
                         : elidedFrameName(It.Elided));
    addPath(Lines, Stack, E.F, O);
  }
  for (const auto &[Stack, V] : Lines) {
    uint64_t N = std::llround(O.Value == FoldedValue::Micros ? V.Us
                                                             : V.Samples);
    if (N)
      OS << Stack << ' ' << N << '\n';
  }
  return Error::success();
}

static View foldedFormat() {
  View V;
  V.Name = "folded";
  V.Description =
      "folded stacks of the samples (flamegraph.pl, speedscope, inferno)";
  V.Reads = "off-cpu value max-stack no-demangle full-names";
  V.Write = writeFolded;
  return V;
}
static ViewRegistration RegisterFoldedFormat(ViewKind::Export, 20,
                                             foldedFormat);
