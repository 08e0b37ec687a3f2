//===- Progress.cpp - Progress line on stderr -----------------------------===//
//
// Part of ActiveTime. See activetime/Report/Progress.h.
//
//===----------------------------------------------------------------------===//

#include "activetime/Report/Progress.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace activetime::report;

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
