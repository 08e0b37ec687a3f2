//===- Filters.cpp - Filter options of report and export ------------------===//
//
// Part of ActiveTime. See Filters.h.
//
//===----------------------------------------------------------------------===//

#include "Filters.h"
#include "Command.h"

#include "activetime/Profile/Window.h"

#include "llvm/Support/FormatVariadic.h"

#include <memory>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::tool;

cl::SubCommand &tool::reportSubcommand() {
  static cl::SubCommand SC("report", "Show a profile");
  return SC;
}

cl::SubCommand &tool::exportSubcommand() {
  static cl::SubCommand SC("export", "Export a profile in another format");
  return SC;
}

static cl::list<std::string> Tids(
    "tid", cl::sub(reportSubcommand()), cl::sub(exportSubcommand()),
    cl::CommaSeparated,
    cl::desc("Keep only these threads (comma-separated ids; may repeat). A "
             "tid the kernel reused names each of its threads N#K, K from 1 "
             "in start order; N alone is then refused"),
    cl::value_desc("tid,..."), cl::cat(ToolCategory));
static cl::list<std::string> Focus(
    "focus", cl::sub(reportSubcommand()), cl::sub(exportSubcommand()),
    cl::desc("Keep only the calls of FUNC and their subtrees, each call a "
             "root (linkage or demangled name, glob pattern; may repeat)"),
    cl::value_desc("func"), cl::cat(ToolCategory));
static cl::list<std::string>
    Ignore("ignore", cl::sub(reportSubcommand()), cl::sub(exportSubcommand()),
           cl::desc("Drop the calls of FUNC and their subtrees (linkage or "
                    "demangled name, glob pattern; may repeat)"),
           cl::value_desc("func"), cl::cat(ToolCategory));
static cl::opt<std::string> From(
    "from", cl::sub(reportSubcommand()), cl::sub(exportSubcommand()),
    cl::desc("mode=trace: drop trace events before T since the process "
             "start (unit ns, us, ms or s; default s); calls open at T are "
             "clipped to start there"),
    cl::value_desc("T"), cl::cat(ToolCategory));
static cl::opt<std::string>
    To("to", cl::sub(reportSubcommand()), cl::sub(exportSubcommand()),
       cl::desc("mode=trace: drop trace events after T since the process "
                "start; calls open at T are clipped to end there"),
       cl::value_desc("T"), cl::cat(ToolCategory));

static cl::opt<std::string> Since(
    "since", cl::sub(reportSubcommand()), cl::sub(exportSubcommand()),
    cl::desc("Only what happened after FILE, an earlier snapshot of the same "
             "run (flush_interval_s; %n in output= keeps each): the window "
             "between the two writes"),
    cl::value_desc("file"), cl::cat(ToolCategory));

Error tool::refuseFilters(const FilterUse &Use, StringRef Mode) {
  // cl::list's operator& gives its vector.
  const cl::Option *CallOptions[] = {
      std::addressof(Tids), std::addressof(Focus), std::addressof(Ignore)};
  const cl::Option *TimeOptions[] = {&From, &To};
  if (!Use.Calls)
    if (Error E = refuseOptions(CallOptions, Mode))
      return std::move(E);
  if (!Use.Time)
    for (const cl::Option *O : TimeOptions)
      if (O->getNumOccurrences())
        return createStringError(
            inconvertibleErrorCode(),
            "--" + O->ArgStr + " has no effect with " + Mode +
                (Use.TimeHint ? std::string(": ") + Use.TimeHint : ""));
  return Error::success();
}

static Error timeOption(const cl::opt<std::string> &O,
                        std::optional<uint64_t> &Out) {
  if (!O.getNumOccurrences())
    return Error::success();
  Expected<uint64_t> Ns = parseTimeSinceStart(O);
  if (!Ns)
    return createStringError(inconvertibleErrorCode(),
                             "--" + O.ArgStr + ": " + toString(Ns.takeError()));
  Out = *Ns;
  return Error::success();
}

/// --since: \p P less the earlier snapshot, described for the header.
static Expected<std::string> applyWindow(Profile &P) {
  // Subtraction matches raw fields only: no symbols to read for it.
  Expected<Profile> Earlier = readProfile(Since);
  if (!Earlier)
    return Earlier.takeError();
  Expected<WindowSummary> W = subtractEarlier(P, *Earlier);
  if (!W)
    return W.takeError();
  std::string D = formatv("--since={0}: the {1:F3} s after that write", Since,
                          W->WindowNs / 1e9);
  if (W->NewProcesses)
    D += formatv(", {0} processes started since kept whole", W->NewProcesses);
  if (W->NewThreads)
    D += formatv(", {0} threads started since kept whole", W->NewThreads);
  return D + " (a call open at that write counts in both windows; per-call "
             "min and max are the run's)";
}

Expected<FilterSummary> tool::applyFilterOptions(Profile &P) {
  std::string Window;
  if (Since.getNumOccurrences()) {
    Expected<std::string> W = applyWindow(P);
    if (!W)
      return W.takeError();
    Window = *W;
  }
  FilterSpec S;
  for (const std::string &T : Tids) {
    Expected<ThreadSelector> Sel = parseThreadSelector(T);
    if (!Sel)
      return Sel.takeError();
    S.Tids.push_back(*Sel);
  }
  S.Focus.assign(Focus.begin(), Focus.end());
  S.Ignore.assign(Ignore.begin(), Ignore.end());
  if (Error E = timeOption(From, S.FromNs))
    return std::move(E);
  if (Error E = timeOption(To, S.ToNs))
    return std::move(E);
  FilterSummary Sum;
  if (!S.empty()) {
    Expected<FilterSummary> F = applyFilters(P, S);
    if (!F)
      return F.takeError();
    Sum = std::move(*F);
  }
  if (!Window.empty())
    Sum.Applied.insert(Sum.Applied.begin(), Window);
  return Sum;
}
