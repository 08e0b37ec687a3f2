//===- merge.cpp - `activetime merge` ---------------------------------------===//
//
// Part of ActiveTime. Combines raw profiles of several runs (or of the
// processes of one run) into one raw profile with all their process blocks.
//
//===----------------------------------------------------------------------===//

#include "Command.h"
#include "Inputs.h"

#include "activetime/Profile/Profile.h"


using namespace llvm;
using namespace activetime;
using namespace activetime::report;
using namespace activetime::tool;

static cl::SubCommand MergeCommand("merge", "Merge raw profiles into one");

static cl::list<std::string> Inputs(cl::Positional, cl::sub(MergeCommand),
                                    cl::desc("<profile>..."),
                                    cl::cat(ToolCategory));
static cl::opt<std::string> Output("o", cl::Required, cl::sub(MergeCommand),
                                   cl::desc("Output file"),
                                   cl::value_desc("file"),
                                   cl::cat(ToolCategory));
static cl::alias OutputLong("output", cl::aliasopt(Output),
                            cl::desc("Alias for -o"));
static cl::opt<ProgressMode>
    ProgressOpt("progress", cl::sub(MergeCommand), cl::init(ProgressMode::Auto),
                cl::desc("Progress line on stderr"), ACTIVETIME_PROGRESS_VALUES,
                cl::cat(ToolCategory));

static int mergeMain() {
  // Check before reading anything: a merge must never clobber its input.
  if (Error E = checkOutputIsNoInput(Inputs, Output))
    return reportError(std::move(E));
  Progress Prog("merge", ProgressOpt);
  Expected<std::vector<profile::NamedProfile>> Profiles =
      readEach(Inputs, &Prog);
  if (!Profiles)
    return reportError(Profiles.takeError());
  Prog.phase("merging");
  Expected<profile::Profile> Merged = profile::mergeProfiles(std::move(*Profiles));
  if (!Merged)
    return reportError(Merged.takeError());
  Prog.phase("writing " + Output);
  if (Error E = profile::writeProfile(*Merged, StringRef(Output)))
    return reportError(std::move(E));
  return 0;
}

static CommandRegistration Unused(&MergeCommand,
                                  "activetime merge -o OUT FILE...", mergeMain);
