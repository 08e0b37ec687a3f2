//===- Unfinished.cpp - Profiles whose writer was killed ------------------===//
//
// Part of ActiveTime. See Unfinished.h.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/Unfinished.h"

#include "activetime/Profile/OutputFile.h"
#include "activetime/raw_format.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstring>
#include <map>
#include <tuple>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;

namespace {

/// "<target>.tmp.<pid>", as the runtime names its temporary file.
bool parseTempName(StringRef Name, StringRef &Target, uint32_t &Pid) {
  size_t Pos = Name.rfind(".tmp.");
  if (Pos == StringRef::npos || Pos == 0)
    return false;
  StringRef Digits = Name.substr(Pos + 5);
  if (Digits.empty() || !all_of(Digits, isDigit) ||
      Digits.getAsInteger(10, Pid))
    return false;
  Target = Name.take_front(Pos);
  return true;
}

/// Starts like a raw profile (an empty file: killed before its first
/// write, only for a ".raw" target, so no one else's "x.tmp.1" goes).
bool startsLikeProfile(StringRef Path, StringRef Target, uint64_t &Size) {
  int FD;
  if (sys::fs::openFileForRead(Path, FD))
    return false;
  char Head[sizeof(raw::kMagic)];
  Expected<size_t> N = sys::fs::readNativeFileSlice(
      sys::fs::convertFDToNativeFile(FD), MutableArrayRef(Head), 0);
  sys::fs::file_status St;
  bool Stat = !sys::fs::status(FD, St);
  sys::fs::closeFile(FD);
  if (!N || !Stat) {
    consumeError(N.takeError());
    return false;
  }
  Size = St.getSize();
  if (*N == 0)
    return Size == 0 && Target.ends_with(".raw");
  return std::memcmp(Head, raw::kMagic, *N) == 0;
}

/// Opens \p Path for writing and tries the runtime's write lock: \p Locked
/// tells whether we now hold it. The caller closes \p FD.
std::error_code tryLock(StringRef Path, int &FD, bool &Locked) {
  if (std::error_code EC = sys::fs::openFileForReadWrite(
          Path, FD, sys::fs::CD_OpenExisting, sys::fs::OF_None))
    return EC;
  std::error_code EC = sys::fs::tryLockFile(FD);
  Locked = !EC;
  if (EC == std::errc::no_lock_available ||
      EC == std::errc::resource_unavailable_try_again ||
      EC == std::errc::permission_denied)
    EC = {};
  return EC;
}

Expected<bool> inUse(StringRef Path) {
  int FD = -1;
  bool Locked = false;
  std::error_code EC = tryLock(Path, FD, Locked);
  if (Locked)
    sys::fs::unlockFile(FD);
  if (FD >= 0)
    sys::fs::closeFile(FD);
  if (EC)
    return createFileError(Path, EC);
  return !Locked;
}

/// Whether \p Name is a temporary of the runtime (content checked) or of
/// the tool (the name alone is distinctive); fills U's Pid, Size and
/// ToolOutput and the target's name.
bool isTemporary(const sys::fs::directory_entry &Entry, StringRef Name,
                 StringRef &Target, UnfinishedProfile &U) {
  if (Entry.type() != sys::fs::file_type::regular_file)
    return false;
  if (parseTempName(Name, Target, U.Pid))
    return startsLikeProfile(Entry.path(), Target, U.Size);
  if (!parseToolTempName(Name, Target))
    return false;
  sys::fs::file_status St;
  if (sys::fs::status(Entry.path(), St))
    return false;
  U.Size = St.getSize();
  U.ToolOutput = true;
  return true;
}

} // namespace

Expected<std::vector<UnfinishedProfile>>
profile::findUnfinished(StringRef Dir, StringRef Profile) {
  std::vector<UnfinishedProfile> Found;
  std::error_code EC;
  StringRef Want = sys::path::filename(Profile);
  for (sys::fs::directory_iterator I(Dir, EC), E; I != E && !EC;
       I.increment(EC)) {
    StringRef Name = sys::path::filename(I->path());
    StringRef Target;
    UnfinishedProfile U;
    if (!isTemporary(*I, Name, Target, U) ||
        (!Want.empty() && Target != Want))
      continue;
    Expected<bool> Busy = inUse(I->path());
    if (!Busy)
      return Busy.takeError();
    // As the user spelled the directory ("x.raw", not "./x.raw").
    SmallString<256> T(Dir == "." ? "" : Dir);
    sys::path::append(T, Name);
    U.Path = std::string(T);
    T = Dir == "." ? "" : Dir;
    sys::path::append(T, Target);
    U.Target = std::string(T);
    U.InUse = *Busy;
    Found.push_back(std::move(U));
  }
  if (EC)
    return createFileError(Dir, EC);
  llvm::sort(Found, [](const UnfinishedProfile &A, const UnfinishedProfile &B) {
    return A.Path < B.Path;
  });
  return std::move(Found);
}

std::vector<std::pair<size_t, UnfinishedProfile>>
profile::findUnfinishedBeside(ArrayRef<std::string> Profiles) {
  // Directory -> (file name -> index of the profile).
  std::map<std::string, StringMap<size_t>> Dirs;
  for (size_t I = 0; I < Profiles.size(); ++I) {
    StringRef Dir = sys::path::parent_path(Profiles[I]);
    Dirs[Dir.empty() ? "." : Dir.str()].try_emplace(
        sys::path::filename(Profiles[I]), I);
  }
  std::vector<std::pair<size_t, UnfinishedProfile>> Stale;
  for (auto &[Dir, Names] : Dirs) {
    Expected<std::vector<UnfinishedProfile>> All = findUnfinished(Dir);
    if (!All) {
      consumeError(All.takeError()); // a hint only: the read reports errors
      continue;
    }
    for (UnfinishedProfile &U : *All) {
      auto It = Names.find(sys::path::filename(U.Target));
      if (!U.InUse && !U.ToolOutput && It != Names.end())
        Stale.emplace_back(It->second, std::move(U));
    }
  }
  llvm::sort(Stale, [](const auto &A, const auto &B) {
    return std::tie(A.first, A.second.Path) < std::tie(B.first, B.second.Path);
  });
  return Stale;
}

Error profile::removeUnfinished(const UnfinishedProfile &U) {
  int FD = -1;
  bool Locked = false;
  std::error_code EC = tryLock(U.Path, FD, Locked);
  if (!EC && !Locked)
    EC = std::make_error_code(std::errc::device_or_resource_busy);
  // Removed while we hold the lock: no writer can start on it meanwhile.
  if (!EC)
    EC = sys::fs::remove(U.Path, /*IgnoreNonExisting=*/false);
  if (FD >= 0)
    sys::fs::closeFile(FD);
  if (EC)
    return createFileError(U.Path, EC);
  return Error::success();
}
