//===- clean.cpp - `activetime clean` ---------------------------------------===//
//
// Part of ActiveTime. Removes the temporary files of profile writes that
// never finished (the process was killed while writing, see Unfinished.h),
// and those of the tool's own outputs whose command was killed (SIGKILL:
// SIGINT and SIGTERM remove them, OutputFile.h). report, merge and export
// point at the runtime's; nothing else would ever remove either.
//
//===----------------------------------------------------------------------===//

#include "Command.h"

#include "activetime/Profile/Unfinished.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::tool;

static cl::SubCommand CleanCommand(
    "clean", "Remove the temporary files of profile writes and of "
             "activetime outputs that never finished (their process was "
             "killed while writing)");

static cl::list<std::string>
    Paths(cl::Positional, cl::sub(CleanCommand),
          cl::desc("<directory or profile>... (default: .)"),
          cl::cat(ToolCategory));
static cl::opt<bool> DryRun("dry-run", cl::sub(CleanCommand),
                            cl::desc("List them, remove nothing"),
                            cl::cat(ToolCategory));
static cl::alias DryRunShort("n", cl::aliasopt(DryRun),
                             cl::desc("Alias for --dry-run"));

/// A directory is searched; a profile path stands for its own temporaries.
static Expected<std::vector<UnfinishedProfile>> findFor(StringRef Path) {
  if (sys::fs::is_directory(Path))
    return findUnfinished(Path);
  StringRef Dir = sys::path::parent_path(Path);
  if (!sys::fs::is_directory(Dir.empty() ? "." : Dir))
    return createFileError(Path, std::make_error_code(
                                     std::errc::no_such_file_or_directory));
  return findUnfinished(Dir.empty() ? "." : Dir, Path);
}

static void describe(const UnfinishedProfile &U, StringRef Verb) {
  outs() << Verb << ' ' << U.Path << ": ";
  if (U.ToolOutput)
    outs() << "unfinished output of an activetime command";
  else
    outs() << "unfinished profile of process " << U.Pid;
  outs() << " (" << U.Size << " bytes), never renamed to " << U.Target
         << '\n';
}

static int cleanMain() {
  std::vector<std::string> Where(Paths.begin(), Paths.end());
  if (Where.empty())
    Where.push_back(".");
  for (const std::string &P : Where) {
    Expected<std::vector<UnfinishedProfile>> Found = findFor(P);
    if (!Found)
      return reportError(Found.takeError());
    if (Found->empty() && !sys::fs::exists(P))
      return reportError(createFileError(
          P, std::make_error_code(std::errc::no_such_file_or_directory)));
    if (Found->empty())
      outs() << "no unfinished profiles or outputs in " << P << '\n';
    for (const UnfinishedProfile &U : *Found) {
      if (U.InUse) {
        outs() << "kept " << U.Path << ": "
               << (U.ToolOutput ? std::string("an activetime command")
                                : "process " + std::to_string(U.Pid))
               << " is still writing it\n";
      } else if (DryRun) {
        describe(U, "would remove");
      } else if (Error E = removeUnfinished(U)) {
        return reportError(std::move(E));
      } else {
        describe(U, "removed");
      }
    }
  }
  return 0;
}

static CommandRegistration
    Unused(&CleanCommand, "activetime clean [--dry-run] [DIR|PROFILE...]",
           cleanMain);
