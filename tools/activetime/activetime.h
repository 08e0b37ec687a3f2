//===- activetime.h - Shared declarations of the activetime tool -*- C++ -*-===//
//
// Part of ActiveTime. Each subcommand lives in its own file and registers
// its cl::SubCommand and options there (same translation unit, so static
// initialization order is safe); main() only dispatches.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_TOOLS_ACTIVETIME_H
#define ACTIVETIME_TOOLS_ACTIVETIME_H

#include "activetime/Profile/Aggregate.h"
#include "activetime/Profile/Parallel.h"
#include "activetime/Profile/Profile.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <string>

namespace activetime {
namespace tool {

extern llvm::cl::SubCommand ReportCommand;
extern llvm::cl::SubCommand MergeCommand;
extern llvm::cl::SubCommand ActiveTimeCommand;
extern llvm::cl::SubCommand ExportCommand;
extern llvm::cl::OptionCategory ToolCategory;

int reportMain();

/// `report --parallel`: the OpenMP worker-state report (seed 001).
void printParallelReport(const profile::Profile &P,
                         const profile::ParallelThresholds &T, bool Json,
                         llvm::raw_ostream &OS);
int mergeMain();
int activeTimeMain();
int exportMain();

/// A time with a unit chosen by its magnitude (ns, us, ms, s), three
/// decimals above ns; "s" is padded to the width of the other units so
/// right-aligned columns line up. Negative times keep their sign.
std::string formatTime(double Ns);
/// formatTime without the alignment padding, for running text.
std::string plainTime(double Ns);

/// `report --samples`: the sampled (wall-clock) tables; non-zero (after an
/// error message) if the profile has no samples.
int printSampleReport(const profile::Profile &P, llvm::raw_ostream &OS,
                      bool Demangle, unsigned Top);

/// When `--progress` shows a progress line on stderr.
enum class ProgressMode { Auto, Always, Never };
#define ACTIVETIME_PROGRESS_VALUES                                             \
  llvm::cl::values(                                                            \
      clEnumValN(ProgressMode::Auto, "auto",                                   \
                 "after one second, if stderr is a terminal (default)"),       \
      clEnumValN(ProgressMode::Always, "always",                               \
                 "from the start, one line per phase"),                        \
      clEnumValN(ProgressMode::Never, "never", "not at all"))

/// A progress indicator for merges and exports: silent for work that ends
/// within a second (Auto), a rewritten line on a terminal, and one line per
/// phase when forced onto a file (Always, for tests). update() is cheap
/// enough to call per event.
class Progress {
public:
  Progress(llvm::StringRef Task, ProgressMode Mode);
  ~Progress();
  void phase(llvm::StringRef Name);
  void update(uint64_t Done, uint64_t Total) {
    if (Enabled && (++Calls & 4095) == 0)
      draw(Done, Total);
  }

private:
  void draw(uint64_t Done, uint64_t Total);
  std::string Task, Phase;
  bool Enabled = false, Forced = false, Tty = false, Drawn = false;
  uint64_t Calls = 0;
  std::chrono::steady_clock::time_point Start, LastDraw;
};

/// `report --json` (version 2) of \p P; MaxDepth 0 = the complete tree.
void printReportJson(const profile::Profile &P, const profile::Aggregate &A,
                     llvm::raw_ostream &OS, bool Demangle, unsigned MaxDepth);
/// `export --format=json`: the "activetime-export" document.
llvm::Error writeExportJson(const profile::Profile &P, llvm::raw_ostream &OS,
                            bool Demangle, Progress &Prog);
/// `export --format=chrome`: mode=trace data as Chrome trace-event JSON.
llvm::Error writeChromeTrace(const profile::Profile &P, llvm::raw_ostream &OS,
                             bool Demangle, Progress &Prog);
enum class SpeedscopeSource { Auto, Trace, Samples, Tree };
/// `export --format=speedscope`.
llvm::Error writeSpeedscope(const profile::Profile &P, llvm::raw_ostream &OS,
                            bool Demangle, SpeedscopeSource Source,
                            Progress &Prog);
/// `report --call-sites`: each function's call sites with their calls (text
/// section, or the "call_sites" array of the JSON document).
void printCallSites(const profile::Profile &P, const profile::Aggregate &A,
                    llvm::raw_ostream &OS, bool Demangle, unsigned Top);
void callSitesJson(const profile::Profile &P, const profile::Aggregate &A,
                   llvm::json::OStream &J, bool Demangle);
/// `export --format=sample-profile`: LLVM's sample profile (PGO input).
llvm::Error writeSampleProfile(const profile::Profile &P, llvm::raw_ostream &OS,
                               Progress &Prog);
/// `report --html FILE`: one self-contained HTML file.
llvm::Error writeHtmlReport(const profile::Profile &P, llvm::StringRef Path,
                            bool Demangle, Progress &Prog);

/// Prints "activetime: error: <message>" and returns the exit code 1.
int reportError(llvm::Error E);

/// Reads every file and, when there are several, merges them (with the
/// same-binary check of `activetime merge`).
llvm::Expected<profile::Profile>
readInputs(llvm::ArrayRef<std::string> Files, Progress *Prog = nullptr);

} // namespace tool
} // namespace activetime

#endif // ACTIVETIME_TOOLS_ACTIVETIME_H
