//===- activetime/Report/Progress.h - Progress line on stderr -*- C++ -*-===//
//
// Part of ActiveTime.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_REPORT_PROGRESS_H
#define ACTIVETIME_REPORT_PROGRESS_H

#include "llvm/ADT/StringRef.h"

#include <chrono>
#include <cstdint>
#include <string>

namespace activetime {
namespace report {

/// When `--progress` shows a progress line on stderr.
enum class ProgressMode { Auto, Always, Never };

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

} // namespace report
} // namespace activetime

#endif // ACTIVETIME_REPORT_PROGRESS_H
