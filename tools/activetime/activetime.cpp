//===- activetime.cpp - ActiveTime profile tool driver ----------------------===//
//
// Part of ActiveTime. `activetime report` shows raw profiles, `activetime
// merge` combines them; see README.md in this directory.
//
//===----------------------------------------------------------------------===//

#include "activetime.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace activetime;
using namespace activetime::tool;

cl::OptionCategory tool::ToolCategory("activetime options");

std::string tool::formatTime(double Ns) {
  if (Ns < 0)
    return "-" + formatTime(-Ns);
  if (Ns < 999.5)
    return formatv("{0:F0} ns", Ns);
  if (Ns < 999999.5)
    return formatv("{0:F3} us", Ns / 1e3);
  if (Ns < 999999999.5)
    return formatv("{0:F3} ms", Ns / 1e6);
  return formatv("{0:F3} s ", Ns / 1e9);
}

std::string tool::plainTime(double Ns) {
  return StringRef(formatTime(Ns)).rtrim().str();
}

int tool::reportError(Error E) {
  handleAllErrors(std::move(E), [](const ErrorInfoBase &EI) {
    WithColor::error(errs(), "activetime") << EI.message() << '\n';
  });
  return 1;
}

Expected<profile::Profile> tool::readInputs(ArrayRef<std::string> Files,
                                            Progress *Prog) {
  if (Files.empty())
    return createStringError(inconvertibleErrorCode(), "no input files");
  std::vector<profile::NamedProfile> Inputs;
  for (const std::string &F : Files) {
    if (Prog)
      Prog->phase("reading " + sys::path::filename(F).str() + " (" +
                  utostr(Inputs.size() + 1) + "/" + utostr(Files.size()) +
                  ")");
    Expected<profile::Profile> P = profile::readProfile(F);
    if (!P)
      return P.takeError();
    Inputs.push_back({F, std::move(*P)});
  }
  Expected<profile::Profile> Merged =
      Inputs.size() == 1 ? Expected<profile::Profile>(std::move(Inputs.front().Prof))
                         : Expected<profile::Profile>(profile::Profile());
  if (Inputs.size() > 1) {
    if (Prog)
      Prog->phase("merging");
    Merged = profile::mergeProfiles(std::move(Inputs));
    if (!Merged)
      return Merged.takeError();
  }
  if (Prog)
    Prog->phase("mapping code samples");
  for (const std::string &W : profile::resolveCodeSamples(*Merged))
    WithColor::warning(errs(), "activetime") << W << '\n';
  return Merged;
}

Progress::Progress(StringRef Task, ProgressMode Mode) : Task(Task.str()) {
  Tty = sys::Process::StandardErrIsDisplayed();
  Forced = Mode == ProgressMode::Always;
  Enabled = Forced || (Mode == ProgressMode::Auto && Tty);
  Start = LastDraw = std::chrono::steady_clock::now();
}

Progress::~Progress() {
  if (Drawn && Tty)
    errs() << "\r\033[K"; // leave no half line behind
  else if (Forced && !Tty)
    errs() << "activetime: " << Task << ": done\n";
}

void Progress::phase(StringRef Name) {
  Phase = Name.str();
  if (!Enabled)
    return;
  if (Forced && !Tty) {
    errs() << "activetime: " << Task << ": " << Phase << "\n";
    return;
  }
  draw(0, 0);
}

void Progress::draw(uint64_t Done, uint64_t Total) {
  if (Forced && !Tty)
    return; // one line per phase only
  auto Now = std::chrono::steady_clock::now();
  if (!Forced && Now - Start < std::chrono::seconds(1))
    return;
  if (Drawn && Now - LastDraw < std::chrono::milliseconds(100))
    return;
  LastDraw = Now;
  Drawn = true;
  errs() << "\ractivetime: " << Task << ": " << Phase;
  if (Total)
    errs() << formatv(" {0,3}%", Done * 100 / Total);
  errs() << "\033[K";
}

static void printVersion(raw_ostream &OS) {
  OS << "activetime (ActiveTime) " ACTIVETIME_VERSION_STRING "\n";
}

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::SetVersionPrinter(printVersion);
  // libLLVM registers many options of its own; keep --help about ours.
  cl::HideUnrelatedOptions(ToolCategory);
  cl::HideUnrelatedOptions(ToolCategory, ReportCommand);
  cl::HideUnrelatedOptions(ToolCategory, MergeCommand);
  cl::HideUnrelatedOptions(ToolCategory, ActiveTimeCommand);
  cl::HideUnrelatedOptions(ToolCategory, ExportCommand);
  cl::ParseCommandLineOptions(argc, argv,
                              "ActiveTime profile tool\n\n"
                              "  activetime report [options] FILE...\n"
                              "  activetime merge -o OUT FILE...\n"
                              "  activetime active-time [options] FILE\n"
                              "  activetime export --format=F [options] FILE...\n");
  if (ReportCommand)
    return reportMain();
  if (MergeCommand)
    return mergeMain();
  if (ActiveTimeCommand)
    return activeTimeMain();
  if (ExportCommand)
    return exportMain();
  WithColor::error(errs(), "activetime")
      << "no subcommand given (expected 'report', 'merge', 'active-time' or 'export'; see --help)\n";
  return 1;
}
