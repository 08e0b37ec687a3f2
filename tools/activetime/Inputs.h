//===- Inputs.h - The profiles a subcommand reads ---------------*- C++ -*-===//
//
// Part of ActiveTime.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_TOOLS_INPUTS_H
#define ACTIVETIME_TOOLS_INPUTS_H

#include "activetime/Profile/Profile.h"
#include "activetime/Report/Progress.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace activetime {
namespace tool {

/// Warns of each file among \p Files whose write was killed (a leftover
/// temporary beside it): the file read is an older one, or missing.
void warnUnfinished(llvm::ArrayRef<std::string> Files);

/// Reads every file as it is (one progress phase per file).
llvm::Expected<std::vector<profile::NamedProfile>>
readEach(llvm::ArrayRef<std::string> Files, report::Progress *Prog = nullptr);

/// Reads every file and, when there are several, merges them (with the
/// same-binary check of `activetime merge`); then maps the code samples to
/// functions (warnings on stderr).
llvm::Expected<profile::Profile>
readInputs(llvm::ArrayRef<std::string> Files,
           report::Progress *Prog = nullptr);

/// An error if \p Output ("-" = stdout) is one of \p Inputs: writing it
/// would destroy what is being read.
llvm::Error checkOutputIsNoInput(llvm::ArrayRef<std::string> Inputs,
                                 llvm::StringRef Output);

} // namespace tool
} // namespace activetime

#endif // ACTIVETIME_TOOLS_INPUTS_H
