//===- main.cpp - The activetime tool -------------------------------------===//
//
// Part of ActiveTime. `activetime report` shows raw profiles, `merge`
// combines them, `diff` compares two, `export` writes them for other tools,
// `active-time` replays a trace and `clean` removes unfinished profiles; see
// README.md in this directory. Each subcommand registers itself and its
// usage line from its own file (Command.h).
//
//===----------------------------------------------------------------------===//

#include "Command.h"

#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace activetime::tool;

static void printVersion(raw_ostream &OS) {
  OS << "activetime (ActiveTime) " ACTIVETIME_VERSION_STRING "\n";
}

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::SetVersionPrinter(printVersion);
  for (const RegisteredCommand &C : registeredCommands())
    if (C.Setup)
      C.Setup();
  // libLLVM registers many options of its own; keep --help about ours.
  cl::HideUnrelatedOptions(ToolCategory);
  std::string Overview = "ActiveTime profile tool\n\n";
  for (const RegisteredCommand &C : registeredCommands()) {
    cl::HideUnrelatedOptions(ToolCategory, *C.SC);
    Overview += std::string("  ") + C.Usage + "\n";
  }
  cl::ParseCommandLineOptions(argc, argv, Overview);
  for (const RegisteredCommand &C : registeredCommands())
    if (*C.SC)
      return C.Main();
  std::string Names;
  for (const RegisteredCommand &C : registeredCommands())
    Names += (Names.empty() ? "'" : "', '") + C.SC->getName().str();
  WithColor::error(errs(), "activetime")
      << "no subcommand given (expected one of " << Names << "'; see --help)\n";
  return 1;
}
