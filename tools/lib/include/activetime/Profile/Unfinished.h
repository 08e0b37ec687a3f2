//===- Unfinished.h - Profiles whose writer was killed ----------*- C++ -*-===//
//
// Part of ActiveTime. The runtime writes "<profile>.tmp.<pid>" and renames it
// over "<profile>" when it is whole, holding a write lock on it (fcntl) until
// the rename. A temporary nobody holds the lock on was left by a process
// killed while writing (SIGKILL, power loss): it is incomplete, never
// renamed, and no process will ever remove it.
//
// The tool's own outputs (a merged profile, an export, an HTML report) go
// through a temporary file named as OutputFile.h spells it, locked the same
// way while written; one a killed tool left behind is listed here too.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_PROFILE_UNFINISHED_H
#define ACTIVETIME_PROFILE_UNFINISHED_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace activetime {
namespace profile {

struct UnfinishedProfile {
  std::string Path;   // the temporary file
  std::string Target; // the profile (or tool output) it was to become
  uint32_t Pid = 0;   // the process that wrote it (0: the tool's, unknown)
  uint64_t Size = 0;
  bool InUse = false; // a live process still holds its lock: not unfinished
  bool ToolOutput = false; // the tool's temporary, not the runtime's
};

/// The runtime's and the tool's temporary files in directory \p Dir, or only
/// those of the file \p Profile (a path) when \p Profile is not empty. Only
/// files named like the runtime names them whose content starts like a raw
/// profile (or is empty), and files named like the tool names them
/// (OutputFile.h), are listed.
llvm::Expected<std::vector<UnfinishedProfile>>
findUnfinished(llvm::StringRef Dir, llvm::StringRef Profile = "");

/// The runtime's temporaries beside \p Profiles that no live process is
/// writing,
/// each with the index of the profile it was to become. Each directory is
/// read once, however many profiles it holds.
std::vector<std::pair<size_t, UnfinishedProfile>>
findUnfinishedBeside(llvm::ArrayRef<std::string> Profiles);

/// Removes \p U if it is still not in use (its lock is taken first, so a
/// process that started writing under the same name is never disturbed).
llvm::Error removeUnfinished(const UnfinishedProfile &U);

} // namespace profile
} // namespace activetime

#endif // ACTIVETIME_PROFILE_UNFINISHED_H
