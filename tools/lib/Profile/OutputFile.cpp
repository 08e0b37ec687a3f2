//===- OutputFile.cpp - The tool's output files ---------------------------===//
//
// Part of ActiveTime. See activetime/Profile/OutputFile.h.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/OutputFile.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;

std::string profile::toolTempModel(StringRef Path) {
  // TempFile::create replaces each % by a random lowercase hex digit.
  return (Path + kToolTempInfix + std::string(kToolTempDigits, '%')).str();
}

bool profile::parseToolTempName(StringRef Name, StringRef &Target) {
  size_t Pos = Name.rfind(kToolTempInfix);
  if (Pos == StringRef::npos || Pos == 0)
    return false;
  StringRef Digits = Name.substr(Pos + kToolTempInfix.size());
  if (Digits.size() != kToolTempDigits ||
      !all_of(Digits, [](char C) { return isDigit(C) || (C >= 'a' && C <= 'f'); }))
    return false;
  Target = Name.take_front(Pos);
  return true;
}

static Error fileError(StringRef Path, std::error_code EC) {
  return createStringError(EC, Path + ": " + EC.message());
}

Error profile::writeFileAtomically(
    StringRef Path, function_ref<Error(raw_pwrite_stream &)> Write) {
  if (Path == "-")
    return Write(outs());
  if (Path == "/dev/null") {
    raw_null_ostream Null;
    return Write(Null);
  }
  // TempFile registers the file with RemoveFileOnSignal: SIGINT and SIGTERM
  // remove it; only SIGKILL (or a crash of the machine) leaves it.
  Expected<sys::fs::TempFile> Temp =
      sys::fs::TempFile::create(toolTempModel(Path));
  if (!Temp)
    return fileError(Path, errorToErrorCode(Temp.takeError()));
  // Held until keep or discard closes the file: `activetime clean` tries
  // the lock and leaves a temporary that someone holds alone.
  std::error_code EC = sys::fs::tryLockFile(Temp->FD);
  Error Written = Error::success();
  if (!EC) {
    raw_fd_ostream OS(Temp->FD, /*shouldClose=*/false);
    Written = Write(OS);
    OS.flush();
    EC = OS.error();
    OS.clear_error();
  }
  if (Written || EC) {
    consumeError(Temp->discard());
    return Written ? std::move(Written) : fileError(Path, EC);
  }
  // Gone from under us: LLVM's signal handler removes it on SIGINT even
  // where the signal is ignored (nohup, a background job), and the command
  // goes on to here.
  if (!sys::fs::exists(Temp->TmpName)) {
    consumeError(Temp->discard());
    return createStringError(
        std::make_error_code(std::errc::no_such_file_or_directory),
        Path + ": not written: its temporary file was removed while it was "
               "written (an interrupt?)");
  }
  if (Error E = Temp->keep(Path)) {
    EC = errorToErrorCode(std::move(E));
    consumeError(Temp->discard());
    return fileError(Path, EC);
  }
  return Error::success();
}
