//===- ExportFolded.cpp - Samples as folded stacks ------------------------===//
//
// Part of ActiveTime. `export --format=folded`: the samples (sample=1) as
// "frame;frame;frame VALUE" lines, the input of flamegraph.pl, speedscope and
// inferno. VALUE is the summed sample weight in microseconds (or the sample
// count). Off-CPU samples, charged to the frame the thread left the CPU in,
// end in an "[off-CPU]" frame (blocked, waiting) or a "[preempted]" frame
// (runnable), or are selected alone.
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "activetime/Profile/Samples.h"
#include "activetime/Report/Export.h"
#include "activetime/Report/Format.h"
#include "activetime/raw_format.h"

#include "llvm/ADT/STLExtras.h"

#include <cmath>
#include <map>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::report;

static const char kPreemptedFrame[] = "[preempted]";

static std::string frameName(const std::string &Name, bool Demangle) {
  std::string N = displayName(Name, Demangle);
  // ';' separates frames; a newline would end the line.
  for (char &C : N)
    if (C == ';' || C == '\n')
      C = ':';
  return N;
}

Error report::writeFolded(const Profile &P, raw_ostream &OS,
                          const ExportOptions &O, Progress &) {
  if (none_of(P.Processes, [](const Process &X) { return X.HasSamples; }))
    return noSamplesError();
  std::map<std::string, std::pair<double, uint64_t>> Lines;
  for (const Process &Proc : P.Processes) {
    if (!Proc.HasSamples)
      continue;
    double UsPerTick = 1e6 / double(Proc.TickRate);
    std::map<std::pair<uint32_t, uint32_t>, std::string> Cache;
    for (const Sample &X : Proc.Samples.Samples) {
      bool Off = X.Flags & raw::SF_OffCpu;
      if ((O.OffCpu == OffCpuMode::Only && !Off) ||
          (O.OffCpu == OffCpuMode::Exclude && Off))
        continue;
      auto Key = std::make_pair(X.Thread, X.Node);
      auto It = Cache.find(Key);
      if (It == Cache.end()) {
        std::string S;
        for (const std::string &F :
             samplePath(Proc, Proc.Threads[X.Thread], X.Node))
          S += (S.empty() ? "" : ";") + frameName(F, O.Demangle);
        It = Cache.emplace(Key, std::move(S)).first;
      }
      std::string Stack = It->second;
      if (Off && O.OffCpu == OffCpuMode::Mark)
        Stack += std::string(";") + ((X.Flags & raw::SF_Preempted)
                                         ? kPreemptedFrame
                                         : kOffCpuFrame);
      auto &L = Lines[Stack];
      L.first += double(X.Weight) * UsPerTick;
      L.second++;
    }
  }
  for (const auto &[Stack, V] : Lines) {
    uint64_t N = O.Value == FoldedValue::Micros ? uint64_t(std::llround(V.first))
                                            : V.second;
    if (N)
      OS << Stack << ' ' << N << '\n';
  }
  return Error::success();
}
