//===- activetime.h - Shared declarations of the activetime tool -*- C++ -*-===//
//
// Part of ActiveTime. Each subcommand lives in its own file and registers
// its cl::SubCommand and options there (same translation unit, so static
// initialization order is safe); main() only dispatches.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_TOOLS_ACTIVETIME_H
#define ACTIVETIME_TOOLS_ACTIVETIME_H

#include "activetime/Profile/Profile.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/CommandLine.h"

#include <string>

namespace activetime {
namespace tool {

extern llvm::cl::SubCommand ReportCommand;
extern llvm::cl::SubCommand MergeCommand;
extern llvm::cl::SubCommand ActiveTimeCommand;
extern llvm::cl::SubCommand ExportCommand;
extern llvm::cl::OptionCategory ToolCategory;

int reportMain();
int mergeMain();
int activeTimeMain();
int exportMain();

/// A time with a unit chosen by its magnitude (ns, us, ms, s), three
/// decimals above ns; "s" is padded to the width of the other units so
/// right-aligned columns line up. Negative times keep their sign.
std::string formatTime(double Ns);
/// formatTime without the alignment padding, for running text.
std::string plainTime(double Ns);

/// Prints "activetime: error: <message>" and returns the exit code 1.
int reportError(llvm::Error E);

/// Reads every file and, when there are several, merges them (with the
/// same-binary check of `activetime merge`).
llvm::Expected<profile::Profile>
readInputs(llvm::ArrayRef<std::string> Files);

} // namespace tool
} // namespace activetime

#endif // ACTIVETIME_TOOLS_ACTIVETIME_H
