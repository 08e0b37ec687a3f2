//===- Command.cpp - Subcommands of the activetime tool -------------------===//
//
// Part of ActiveTime. See Command.h.
//
//===----------------------------------------------------------------------===//

#include "Command.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <vector>

using namespace llvm;
using namespace activetime::tool;

cl::OptionCategory activetime::tool::ToolCategory("activetime options");

static std::vector<RegisteredCommand> &commands() {
  static std::vector<RegisteredCommand> Commands;
  return Commands;
}

CommandRegistration::CommandRegistration(cl::SubCommand *SC, const char *Usage,
                                         std::function<int()> Main,
                                         std::function<void()> Setup) {
  commands().push_back({SC, Usage, std::move(Main), std::move(Setup)});
}

std::vector<RegisteredCommand> activetime::tool::registeredCommands() {
  // By name rather than in the order of static initialization.
  std::vector<RegisteredCommand> Sorted = commands();
  llvm::sort(Sorted,
             [](const RegisteredCommand &A, const RegisteredCommand &B) {
               return A.SC->getName() < B.SC->getName();
             });
  return Sorted;
}

int activetime::tool::reportError(Error E) {
  handleAllErrors(std::move(E), [](const ErrorInfoBase &EI) {
    WithColor::error(errs(), "activetime") << EI.message() << '\n';
  });
  return 1;
}

Error activetime::tool::refuseOptions(ArrayRef<const cl::Option *> Options,
                                      StringRef Mode) {
  for (const cl::Option *O : Options)
    if (O->getNumOccurrences())
      return createStringError(inconvertibleErrorCode(),
                               "--" + O->ArgStr + " has no effect with " +
                                   Mode);
  return Error::success();
}
