//===- merge.cpp - `activetime merge` ---------------------------------------===//
//
// Part of ActiveTime. Combines raw profiles of several runs (or of the
// processes of one run) into one raw profile with all their process blocks.
//
//===----------------------------------------------------------------------===//

#include "Command.h"
#include "Inputs.h"

#include "activetime/Profile/Profile.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"


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

static cl::opt<unsigned>
    Jobs("j", cl::sub(MergeCommand), cl::init(0),
         cl::desc("Inputs read at once, each on its own thread (0: one per "
                  "core the process may use)"),
         cl::value_desc("N"), cl::cat(ToolCategory));
static cl::alias JobsLong("jobs", cl::aliasopt(Jobs), cl::desc("Alias for -j"));

static int mergeMain() {
  // Check before reading anything: a merge must never clobber its input.
  if (Error E = checkOutputIsNoInput(Inputs, Output))
    return reportError(std::move(E));
  warnUnfinished(Inputs);
  Progress Prog("merge", ProgressOpt);
  // Streamed: each input is read, checked and written in turn, a few at a
  // time, so thousands of profiles merge in the memory of a handful.
  auto Merged = [&](size_t Done) {
    Prog.phase("merged " + sys::path::filename(Inputs[Done - 1]).str() +
               " (" + utostr(Done) + "/" + utostr(Inputs.size()) + ")");
  };
  if (Error E = profile::mergeFiles(Inputs, Output, Jobs, Merged))
    return reportError(std::move(E));
  return 0;
}

static CommandRegistration Unused(&MergeCommand,
                                  "activetime merge -o OUT FILE...", mergeMain);
