//===- WriterTrace.cpp - Trace sections -----------------------------------===//
//
// Part of ActiveTime. The raw writer's trace sections (mode=trace): a traced
// thread's timer measurements and context switches.
//
//===----------------------------------------------------------------------===//

#include "RawWriter.h"

#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::profile::rawwriter;

Error rawwriter::checkTrace(const Process &P, size_t Idx, const Trace &T) {
  if (T.BufferFlags & ~raw::TBF_Known)
    return fail(formatv("process {0}, trace {1}: unknown buffer flags {2:x}",
                        Idx, T.Tid, T.BufferFlags));
  for (size_t I = 0; I < T.Events.size(); ++I) {
    const TraceEvent &E = T.Events[I];
    if (E.Func >= P.Functions.size() || E.Kind > raw::TE_Exit ||
        (I && E.Tick < T.Events[I - 1].Tick))
      return fail(formatv("process {0}, trace {1}: inconsistent event {2}",
                          Idx, T.Tid, I));
  }
  for (size_t I = 0; I < T.Switches.size(); ++I) {
    const SwitchEvent &S = T.Switches[I];
    if ((S.OldTid == T.Tid) == (S.NewTid == T.Tid))
      return fail(formatv("process {0}, trace {1}: inconsistent switch "
                          "event {2}",
                          Idx, T.Tid, I));
  }
  return Error::success();
}

void ProfileWriter::writeTraceSections(const Process &P) {
  for (const Trace &T : P.Traces)
    writeTrace(T);
}

void ProfileWriter::writeTrace(const Trace &T) {
  SectionBuilder B;
  B.add<raw::TraceRecord>(T);
  for (const TraceEvent &E : T.Events)
    B.add<raw::TraceEvent>(E);
  for (const SwitchEvent &S : T.Switches)
    B.add<raw::SwitchEvent>(S);
  add(raw::SK_Trace, B);
}
