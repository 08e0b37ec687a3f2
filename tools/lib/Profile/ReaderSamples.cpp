//===- ReaderSamples.cpp - The samples section ----------------------------===//
//
// Part of ActiveTime. The raw reader's parser of the samples section
// (sample=1): the sampler's figures and its samples of the threads' shadow
// stacks.
//
//===----------------------------------------------------------------------===//

#include "RawReader.h"

#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::profile::rawreader;

Error Parser::checkSamplesOrder() {
  if (!throughStridesComplete())
    return fail(formatv("process (pid {0}): samples section before all of its "
                        "module, thread, trace and strides sections",
                        Cur->Pid));
  if (Cur->HasSamples)
    return fail(formatv("process (pid {0}): more than one samples section",
                        Cur->Pid));
  return Error::success();
}

Error Parser::parseSamples(Cursor C) {
  if (Error E = needBytes(C, sizeof(raw::SamplesRecord),
                          formatv("samples of process (pid {0})", Cur->Pid)))
    return E;
  using R = raw::SamplesRecord;
  SampleSet &S = Cur->Samples;
  RecordIn<R> In = C.record<R>();
  In.map(S);
  uint64_t Num = In.get(&R::NumSamples);
  std::string What = formatv("samples of process (pid {0})", Cur->Pid);
  if (In.get(&R::Reserved))
    return fail(What + ": reserved field is not 0");
  if (S.Flags & ~uint32_t(raw::SMF_Randomized | raw::SMF_Realtime))
    return fail(formatv("{0}: unknown flags {1:x}", What, S.Flags));
  if (S.IntervalTicks == 0)
    return fail(What + ": sampling interval is 0");
  if (Error E = checkSamplerCounts(S, What))
    return E;
  if (Num != C.remaining() / sizeof(raw::SampleRecord) ||
      C.remaining() % sizeof(raw::SampleRecord))
    return fail(formatv("{0}: {1} samples do not match the section's {2} "
                        "bytes",
                        What, Num, C.remaining()));
  S.Samples.resize(Num);
  for (uint64_t I = 0; I < Num; ++I) {
    C.record<raw::SampleRecord>().map(S.Samples[I]);
    if (Error E = checkSample(S, I, What))
      return E;
  }
  Cur->HasSamples = true;
  return Error::success();
}

/// The sampler thread's counts, against the process's span (each is of
/// work the one sampler thread did); its CPU time, against the same.
Error Parser::checkSamplerCounts(const SampleSet &S, const std::string &What) {
  const EventCount Counts[] = {{"sweeps", S.Sweeps},
                               {"dropped samples", S.Dropped},
                               {"torn retries", S.TornRetries},
                               {"torn discards", S.TornDiscarded},
                               {"unmapped samples", S.Unmapped},
                               {"/proc state samples", S.ProcStateSamples}};
  if (Error E = checkEvents(Counts, processSpan(), "the process's run", What))
    return E;
  uint64_t RunNs = spanNs(processSpan());
  if (S.SamplerCpuNs / 2 > RunNs && S.SamplerCpuNs / 2 - RunNs > kSlackNs)
    return fail(formatv("{0}: sampler CPU time {1} ns exceeds the process's "
                        "run ({2} ns)",
                        What, S.SamplerCpuNs, RunNs));
  return Error::success();
}

Error Parser::checkSample(const SampleSet &S, uint64_t I,
                          const std::string &What) {
  const Sample &X = S.Samples[I];
  if (X.Thread >= Cur->Threads.size())
    return fail(formatv("{0}: sample {1}: thread {2} out of range (the "
                        "process has {3} threads)",
                        What, I, X.Thread, Cur->Threads.size()));
  if (X.Node != raw::kNoNode && X.Node >= Cur->Threads[X.Thread].Nodes.size())
    return fail(formatv("{0}: sample {1}: node {2} out of range (thread {3} "
                        "has {4} nodes)",
                        What, I, X.Node, X.Thread,
                        Cur->Threads[X.Thread].Nodes.size()));
  if (X.Flags & ~uint32_t(raw::SF_KnownMask))
    return fail(formatv("{0}: sample {1}: unknown flags {2:x}", What, I,
                        X.Flags));
  if (I && X.Tick < S.Samples[I - 1].Tick)
    return fail(formatv("{0}: sample {1}: tick {2} is before the previous "
                        "sample's tick {3}",
                        What, I, X.Tick, S.Samples[I - 1].Tick));
  return Error::success();
}
