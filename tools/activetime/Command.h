//===- Command.h - Subcommands of the activetime tool -----------*- C++ -*-===//
//
// Part of ActiveTime. Each subcommand lives in its own file: it defines its
// cl::SubCommand and options and registers its usage line and entry point
// with a static CommandRegistration (same translation unit, so static
// initialization order is safe); main() lists the usage lines and
// dispatches to whichever subcommand was given, as llvm-xray does. Options
// made from what other files register (the report library's views and
// formats, activetime/Report/Views.h) are made by the command's Setup,
// which main() runs before parsing the command line: static initialization
// runs the files in no set order.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_TOOLS_COMMAND_H
#define ACTIVETIME_TOOLS_COMMAND_H

#include "activetime/Report/Progress.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <vector>

namespace activetime {
namespace tool {

/// The category of every subcommand option; --help shows only these.
extern llvm::cl::OptionCategory ToolCategory;

struct CommandRegistration {
  /// \p Usage: the command's synopsis line in --help
  /// ("activetime merge -o OUT FILE...").
  /// \p Setup: makes the options that need registrations of other files.
  CommandRegistration(llvm::cl::SubCommand *SC, const char *Usage,
                      std::function<int()> Main,
                      std::function<void()> Setup = nullptr);
};

struct RegisteredCommand {
  llvm::cl::SubCommand *SC;
  const char *Usage;
  std::function<int()> Main;
  std::function<void()> Setup;
};
/// Every registered subcommand, by name.
std::vector<RegisteredCommand> registeredCommands();

/// Prints "activetime: error: <message>" and returns the exit code 1.
int reportError(llvm::Error E);
/// An error naming the first option of \p Options given on the command line:
/// it has no effect in \p Mode (e.g. "--tree has no effect with --samples").
llvm::Error refuseOptions(llvm::ArrayRef<const llvm::cl::Option *> Options,
                          llvm::StringRef Mode);

/// The values of every subcommand's --progress option.
#define ACTIVETIME_PROGRESS_VALUES                                             \
  llvm::cl::values(                                                            \
      clEnumValN(report::ProgressMode::Auto, "auto",                           \
                 "after one second, if stderr is a terminal (default)"),       \
      clEnumValN(report::ProgressMode::Always, "always",                       \
                 "from the start, one line per phase"),                        \
      clEnumValN(report::ProgressMode::Never, "never", "not at all"))

} // namespace tool
} // namespace activetime

#endif // ACTIVETIME_TOOLS_COMMAND_H
