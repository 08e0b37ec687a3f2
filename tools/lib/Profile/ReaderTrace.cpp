//===- ReaderTrace.cpp - Trace sections -----------------------------------===//
//
// Part of ActiveTime. The raw reader's parser of trace sections (mode=trace):
// a traced thread's timer measurements and context switches.
//
//===----------------------------------------------------------------------===//

#include "RawReader.h"

#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::profile::rawreader;

Error Parser::checkTraceOrder() {
  if (ModulesSeen != ExpectedModules || ThreadsSeen != ExpectedThreads)
    return fail(formatv("process (pid {0}): trace section after {1} of its "
                        "{2} module sections and {3} of its {4} thread "
                        "sections",
                        Cur->Pid, ModulesSeen, ExpectedModules, ThreadsSeen,
                        ExpectedThreads));
  if (StridesSeen || Cur->HasSamples || ParallelSeen)
    return fail(formatv("process (pid {0}): trace section after a {1} "
                        "section",
                        Cur->Pid,
                        StridesSeen ? "strides"
                                    : (ParallelSeen ? "parallel" : "samples")));
  if (TracesSeen == ExpectedTraces)
    return moreThanHeader("trace", ExpectedTraces);
  return Error::success();
}

Error Parser::parseTrace(Cursor C) {
  uint32_t TraceIdx = TracesSeen++;
  if (Error E = needBytes(C, sizeof(raw::TraceRecord),
                          formatv("trace {0} of process (pid {1})", TraceIdx,
                                  Cur->Pid)))
    return E;
  Trace T;
  RecordIn<raw::TraceRecord> In = C.record<raw::TraceRecord>();
  In.map(T);
  uint64_t NumEvents = In.get(&raw::TraceRecord::NumEvents);
  uint64_t NumSwitches = In.get(&raw::TraceRecord::NumSwitches);
  std::string What = formatv("trace {0} (tid {1})", TraceIdx, T.Tid);
  if (uint32_t Reserved = In.get(&raw::TraceRecord::Reserved))
    return fail(formatv("{0}: reserved field is {1}, not 0", What, Reserved));
  if (T.BufferFlags & ~raw::TBF_Known)
    return fail(formatv("{0}: unknown buffer flags {1:x}", What,
                        T.BufferFlags));
  if (Error E = checkTraceCounts(T, What))
    return E;
  // Division, not multiplication: the counts are untrusted 64-bit values.
  uint64_t Rem = C.remaining();
  if (NumEvents > Rem / sizeof(raw::TraceEvent) ||
      NumSwitches > (Rem - NumEvents * sizeof(raw::TraceEvent)) /
                        sizeof(raw::SwitchEvent) ||
      NumEvents * sizeof(raw::TraceEvent) +
              NumSwitches * sizeof(raw::SwitchEvent) !=
          Rem)
    return fail(formatv("{0}: {1} events and {2} switch events do not match "
                        "the section's {3} bytes",
                        What, NumEvents, NumSwitches, Rem));
  if (Error E = parseEvents(C, T, NumEvents, What))
    return E;
  if (Error E = parseSwitches(C, T, NumSwitches, What))
    return E;
  Cur->Traces.push_back(std::move(T));
  return Error::success();
}

/// What the trace record says besides its record counts, against the
/// process's span (a trace has none of its own) and the address space.
/// BufferTicks is not bounded: the runtime times the buffers on the real
/// clock even where its probes are fed their ticks (its unit tests).
Error Parser::checkTraceCounts(const Trace &T, const std::string &What) {
  const EventCount Counts[] = {{"dropped events", T.DroppedEvents},
                               {"dropped switch events", T.DroppedSwitches}};
  if (Error E = checkEvents(Counts, processSpan(), "the process's run", What))
    return E;
  if (T.BufferBytes > kMaxAddressBytes)
    return fail(formatv("{0}: buffer bytes {1} exceed any address space "
                        "(2^57)",
                        What, T.BufferBytes));
  return Error::success();
}

Error Parser::parseEvents(Cursor &C, Trace &T, uint64_t Num,
                          const std::string &What) {
  uint64_t NumFuncs = Cur->Functions.size();
  T.Events.resize(Num);
  for (uint64_t I = 0; I < Num; ++I) {
    TraceEvent &E = T.Events[I];
    RecordIn<raw::TraceEvent> In = C.record<raw::TraceEvent>();
    In.map(E);
    if (uint32_t Reserved = In.get(&raw::TraceEvent::Reserved))
      return fail(formatv("{0}: event {1}: reserved field is {2}, not 0", What,
                          I, Reserved));
    if (E.Func >= NumFuncs)
      return fail(formatv("{0}: event {1}: function id {2} out of range (the "
                          "process has {3} functions)",
                          What, I, E.Func, NumFuncs));
    if (E.Kind != raw::TE_Enter && E.Kind != raw::TE_Exit)
      return fail(formatv("{0}: event {1}: unknown event kind {2}", What, I,
                          E.Kind));
    if (I && E.Tick < T.Events[I - 1].Tick)
      return fail(formatv("{0}: event {1}: tick {2} is before the previous "
                          "event's tick {3}",
                          What, I, E.Tick, T.Events[I - 1].Tick));
  }
  return Error::success();
}

Error Parser::parseSwitches(Cursor &C, Trace &T, uint64_t Num,
                            const std::string &What) {
  T.Switches.resize(Num);
  for (uint64_t I = 0; I < Num; ++I) {
    SwitchEvent &S = T.Switches[I];
    C.record<raw::SwitchEvent>().map(S);
    // Recorded as seen by this thread: it is the one switched out or in.
    if ((S.OldTid == T.Tid) == (S.NewTid == T.Tid))
      return fail(formatv("{0}: switch event {1} does not switch the traced "
                          "thread either out or in (old tid {2}, new tid {3})",
                          What, I, S.OldTid, S.NewTid));
  }
  return Error::success();
}
