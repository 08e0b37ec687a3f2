//===- active-time.cpp - `activetime active-time` ---------------------------===//
//
// Part of ActiveTime. The offline active-time computation: active time of
// each code portion (function) per thread from the timer measurements, the
// context-switch events and the overhead table, read from a raw profile
// written with mode=trace or from a text tables file. The computation is in
// activetime/Profile/TraceActiveTime.h, its printing in
// activetime/Report/Reports.h.
//
//===----------------------------------------------------------------------===//

#include "Command.h"

#include "activetime/Profile/TraceActiveTime.h"
#include "activetime/Report/Reports.h"
#include "activetime/raw_format.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace llvm;
using namespace activetime;
using namespace activetime::active;
using namespace activetime::report;
using namespace activetime::tool;

static cl::SubCommand ActiveTimeCommand(
    "active-time", "Active time per thread and function from a trace "
                   "(raw profile with trace sections, or a tables file)");

static cl::opt<std::string> InputFile(cl::Positional, cl::Required,
                                      cl::sub(ActiveTimeCommand),
                                      cl::desc("<profile or tables file>"),
                                      cl::cat(ToolCategory));
static cl::opt<std::string>
    PortionOpt("portion", cl::sub(ActiveTimeCommand),
               cl::desc("Only this code portion (function name, demangled "
                        "or linkage)"),
               cl::value_desc("name"), cl::cat(ToolCategory));
static cl::opt<std::string>
    ThreadOpt("thread", cl::sub(ActiveTimeCommand),
              cl::desc("Only this thread (tid, or the tables file's name)"),
              cl::value_desc("tid"), cl::cat(ToolCategory));
static cl::opt<bool> AtJson("json", cl::sub(ActiveTimeCommand),
                            cl::desc("Print a JSON document instead of text"),
                            cl::cat(ToolCategory));
static cl::opt<bool>
    ShowIntervals("intervals", cl::sub(ActiveTimeCommand),
                  cl::desc("Print the interval sets of every invocation"),
                  cl::cat(ToolCategory));

static Error inputError(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), InputFile + ": " + Message);
}

/// The inputs of the file: one per traced process of a raw profile (decided
/// by the raw magic), else the one of a tables file.
static Expected<std::vector<Input>> readTraceInputs(bool &IsRaw) {
  Expected<std::unique_ptr<MemoryBuffer>> Buf =
      profile::openInputFile(InputFile);
  if (!Buf)
    return Buf.takeError();
  StringRef Data = (*Buf)->getBuffer();
  IsRaw = Data.size() >= sizeof(raw::kMagic) &&
          std::memcmp(Data.data(), raw::kMagic, sizeof(raw::kMagic)) == 0;
  std::vector<Input> Inputs;
  if (IsRaw) {
    Expected<profile::Profile> P =
        profile::readProfile((*Buf)->getMemBufferRef());
    if (!P)
      return inputError(toString(P.takeError()));
    Inputs = inputsFromProfile(*P);
    if (Inputs.empty())
      return inputError("the profile has no trace sections (run the program "
                        "with ACTIVETIME_OPTIONS=mode=trace)");
    return std::move(Inputs);
  }
  Expected<Input> In = parseTables(Data, InputFile);
  if (!In)
    return In.takeError();
  Inputs.push_back(std::move(*In));
  return std::move(Inputs);
}

/// Indices of \p Names (or of \p Display names) equal to \p Wanted; {-1}
/// (all) when nothing is wanted.
template <typename GetName>
static std::vector<int64_t> matching(size_t N, StringRef Wanted,
                                     GetName Name) {
  if (Wanted.empty())
    return {-1};
  std::vector<int64_t> Found;
  for (size_t I = 0; I < N; ++I)
    if (Name(I))
      Found.push_back(I);
  return Found;
}

/// --intervals prints every invocation's interval sets, which for nested
/// invocations grow with the square of the nesting depth: beyond this many
/// intervals it is refused.
static constexpr uint64_t kMaxIntervals = 10000000;

static Expected<std::vector<TraceResult>>
computeResults(const std::vector<Input> &Inputs, ResultDetail Detail) {
  std::vector<TraceResult> Results;
  bool PortionFound = PortionOpt.empty(), ThreadFound = ThreadOpt.empty();
  for (const Input &In : Inputs) {
    std::vector<int64_t> Portions =
        matching(In.Portions.size(), PortionOpt, [&](size_t I) {
          return In.Portions[I] == PortionOpt ||
                 In.DisplayNames[I] == PortionOpt;
        });
    std::vector<int64_t> Threads =
        matching(In.Threads.size(), ThreadOpt,
                 [&](size_t I) { return In.Threads[I].Label == ThreadOpt; });
    PortionFound |= !Portions.empty();
    ThreadFound |= !Threads.empty();
    for (int64_t Th : Threads)
      for (int64_t Po : Portions)
        for (PortionResult &R : computeActiveTime(In, Po, Th, Detail))
          Results.push_back({&In, std::move(R)});
  }
  if (!PortionFound)
    return inputError("no code portion named '" + PortionOpt + "'");
  if (!ThreadFound)
    return inputError("no thread '" + ThreadOpt + "' in the trace" +
                      reusedTidHint(Inputs, ThreadOpt));
  return std::move(Results);
}

/// Warnings go to stderr so that the JSON on stdout stays clean.
static void warnIncomplete(const std::vector<Input> &Inputs) {
  for (const Input &In : Inputs)
    for (const ThreadInput &T : In.Threads) {
      if (!ThreadOpt.empty() && T.Label != ThreadOpt)
        continue;
      if (T.DroppedEvents || T.DroppedSwitches)
        WithColor::warning(errs(), "activetime")
            << "thread " << T.Label << ": " << T.DroppedEvents
            << " timer measurements and " << T.DroppedSwitches
            << " switch events were dropped while tracing; its results are "
               "incomplete\n";
      if (!T.SwitchesMeasured)
        WithColor::warning(errs(), "activetime")
            << "thread " << T.Label
            << ": switched-out time not available (no perf context-switch "
               "records); its active time excludes probe overhead only\n";
    }
}

static int activeTimeMain() {
  if (AtJson)
    if (Error E = refuseOptions({&ShowIntervals}, "--json"))
      return reportError(std::move(E));
  bool IsRaw = false;
  Expected<std::vector<Input>> Inputs = readTraceInputs(IsRaw);
  if (!Inputs)
    return reportError(Inputs.takeError());
  Expected<std::vector<TraceResult>> Results =
      computeResults(*Inputs, ResultDetail::Totals);
  if (!Results)
    return reportError(Results.takeError());
  if (ShowIntervals) {
    uint64_t Count = 0;
    for (const TraceResult &R : *Results)
      Count += R.R.IntervalCount;
    if (Count > kMaxIntervals)
      return reportError(inputError(
          "--intervals would print up to " + Twine(Count) +
          " intervals (more than " + Twine(kMaxIntervals) +
          "; nested invocations repeat their callees' intervals): choose "
          "fewer with --portion or --thread"));
    Results = computeResults(*Inputs, ResultDetail::Intervals);
    if (!Results)
      return reportError(Results.takeError());
  }
  warnIncomplete(*Inputs);
  if (AtJson)
    printTraceActiveTimeJson(*Results, Inputs->front().TickRate, outs());
  else
    printTraceActiveTime(*Results, IsRaw, ShowIntervals, outs());
  return 0;
}

static CommandRegistration Unused(&ActiveTimeCommand,
                                  "activetime active-time [options] FILE",
                                  activeTimeMain);
