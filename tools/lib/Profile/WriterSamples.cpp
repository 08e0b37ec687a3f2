//===- WriterSamples.cpp - The samples section ----------------------------===//
//
// Part of ActiveTime. The raw writer's samples section (sample=1), for the
// processes that have one.
//
//===----------------------------------------------------------------------===//

#include "RawWriter.h"

#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::profile::rawwriter;

Error rawwriter::checkSamples(const Process &P, size_t Idx) {
  const SampleSet &S = P.Samples;
  if (S.IntervalTicks == 0)
    return fail(formatv("process {0}: sampling interval is 0", Idx));
  for (size_t I = 0; I < S.Samples.size(); ++I) {
    const Sample &X = S.Samples[I];
    if (X.Thread >= P.Threads.size() ||
        (X.Node != raw::kNoNode &&
         X.Node >= P.Threads[X.Thread].Nodes.size()) ||
        (X.Flags & ~uint32_t(raw::SF_KnownMask)) ||
        (I && X.Tick < S.Samples[I - 1].Tick))
      return fail(formatv("process {0}: inconsistent sample {1}", Idx, I));
  }
  return Error::success();
}

void ProfileWriter::writeSamplesSections(const Process &P) {
  if (!P.HasSamples)
    return;
  const SampleSet &S = P.Samples;
  SectionBuilder B;
  B.add<raw::SamplesRecord>(S);
  for (const Sample &X : S.Samples)
    B.add<raw::SampleRecord>(X);
  add(raw::SK_Samples, B);
}
