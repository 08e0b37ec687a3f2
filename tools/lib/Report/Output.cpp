//===- Output.cpp - Writing an output file --------------------------------===//
//
// Part of ActiveTime. See activetime/Report/Output.h.
//
//===----------------------------------------------------------------------===//

#include "activetime/Report/Output.h"

#include "llvm/Support/raw_ostream.h"

using namespace llvm;

Error activetime::report::writeOutputFile(
    StringRef Path, function_ref<Error(raw_ostream &)> Write) {
  // writeToOutput returns the writer's error and its own file errors alike;
  // keep the writer's apart so that only the file's get the path.
  Error WriterError = Error::success();
  bool WriterFailed = false;
  Error FileError = writeToOutput(Path, [&](raw_ostream &OS) -> Error {
    if (Error E = Write(OS)) {
      consumeError(std::move(WriterError));
      WriterError = std::move(E);
      WriterFailed = true;
      return createStringError(inconvertibleErrorCode(), "writer failed");
    }
    return Error::success();
  });
  if (WriterFailed) {
    consumeError(std::move(FileError));
    return WriterError;
  }
  consumeError(std::move(WriterError));
  if (!FileError)
    return Error::success();
  std::string Msg = toString(std::move(FileError));
  if (StringRef(Msg).contains(Path))
    return createStringError(inconvertibleErrorCode(), Msg);
  return createStringError(inconvertibleErrorCode(),
                           Path + ": " + Msg);
}
