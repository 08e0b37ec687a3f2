//===- Inputs.cpp - The profiles a subcommand reads -----------------------===//
//
// Part of ActiveTime. See Inputs.h.
//
//===----------------------------------------------------------------------===//

#include "Inputs.h"

#include "activetime/Profile/Profile.h"
#include "activetime/Profile/Unfinished.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace activetime;
using namespace activetime::report;

/// Writes of these profiles that never finished: a file read is then an
/// older one (or missing), which the user should know before trusting it.
void tool::warnUnfinished(ArrayRef<std::string> Files) {
  for (const auto &[I, U] : profile::findUnfinishedBeside(Files))
    WithColor::warning(errs(), "activetime")
        << U.Path << ": process " << U.Pid << " was killed while writing "
        << Files[I] << "; its profile is lost (" << Files[I]
        << ", if present, was written before). 'activetime clean' removes "
           "the leftover\n";
}

Expected<std::vector<profile::NamedProfile>>
tool::readEach(ArrayRef<std::string> Files, Progress *Prog) {
  if (Files.empty())
    return createStringError(inconvertibleErrorCode(), "no input files");
  warnUnfinished(Files);
  std::vector<profile::NamedProfile> Inputs;
  for (const std::string &F : Files) {
    if (Prog)
      Prog->phase("reading " + sys::path::filename(F).str() + " (" +
                  utostr(Inputs.size() + 1) + "/" + utostr(Files.size()) +
                  ")");
    Expected<profile::Profile> P = profile::readProfile(F);
    if (!P)
      return P.takeError();
    Inputs.push_back({F, std::move(*P)});
  }
  return std::move(Inputs);
}

Expected<profile::Profile> tool::readInputs(ArrayRef<std::string> Files,
                                            Progress *Prog) {
  Expected<std::vector<profile::NamedProfile>> Read = readEach(Files, Prog);
  if (!Read)
    return Read.takeError();
  std::vector<profile::NamedProfile> &Inputs = *Read;
  profile::Profile Merged;
  if (Inputs.size() == 1) {
    Merged = std::move(Inputs.front().Prof);
  } else {
    if (Prog)
      Prog->phase("merging");
    Expected<profile::Profile> M = profile::mergeProfiles(std::move(Inputs));
    if (!M)
      return M.takeError();
    Merged = std::move(*M);
  }
  if (Prog)
    Prog->phase("mapping code samples");
  for (const std::string &W : profile::resolveCodeSamples(Merged))
    WithColor::warning(errs(), "activetime") << W << '\n';
  return std::move(Merged);
}

Error tool::checkOutputIsNoInput(ArrayRef<std::string> Inputs,
                                 StringRef Output) {
  // However the paths are spelled (relative, symlink, hard link).
  for (const std::string &In : Inputs) {
    bool Same = false;
    if (Output != "-" && !sys::fs::equivalent(In, Output, Same) && Same)
      return createStringError(inconvertibleErrorCode(),
                               Output + ": output file is also an input (" +
                                   In + "); refusing to overwrite it");
  }
  return Error::success();
}
